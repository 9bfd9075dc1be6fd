//===- Value.cpp - Compile-time values: identity, repr, type names --------===//
#include "IRGen.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace kiln;
using namespace kiln::fe;

bool Val::sameAs(const Val &o) const {
  if (kind != o.kind)
    return false;
  switch (kind) {
  case Kind::Runtime:
    return value == o.value && type == o.type;
  case Kind::Int:
  case Kind::Bool:
    return i == o.i && wide == o.wide;
  case Kind::Float:
    return f == o.f || (std::isnan(f) && std::isnan(o.f));
  case Kind::None:
    return true;
  case Kind::Str:
  case Kind::Module:
  case Kind::Builtin:
  case Kind::Undef:
    return s == o.s;
  case Kind::DType:
    return dt == o.dt && dtPtr == o.dtPtr;
  case Kind::Function:
    return fn == o.fn;
  case Kind::Method:
    return s == o.s && self && o.self && self->sameAs(*o.self);
  case Kind::BlockPtr:
    if (blockShape != o.blockShape || order != o.order ||
        descriptor != o.descriptor || s != o.s)
      return false;
    [[fallthrough]];
  case Kind::NamedTupleClass:
  case Kind::Tuple:
    if (elems.size() != o.elems.size() || s != o.s ||
        bool(fields) != bool(o.fields) || (fields && *fields != *o.fields))
      return false;
    for (size_t k = 0; k < elems.size(); ++k)
      if (!elems[k].sameAs(o.elems[k]))
        return false;
    return true;
  }
  return false;
}

static const char *tlDTypeName(DType d) {
  switch (d) {
  case DType::I1:
    return "tl.int1";
  case DType::I8:
    return "tl.int8";
  case DType::I16:
    return "tl.int16";
  case DType::I32:
    return "tl.int32";
  case DType::I64:
    return "tl.int64";
  case DType::U8:
    return "tl.uint8";
  case DType::U16:
    return "tl.uint16";
  case DType::U32:
    return "tl.uint32";
  case DType::U64:
    return "tl.uint64";
  case DType::F16:
    return "tl.float16";
  case DType::BF16:
    return "tl.bfloat16";
  case DType::F32:
    return "tl.float32";
  case DType::F64:
    return "tl.float64";
  case DType::F8E4M3:
    return "tl.float8e4nv";
  case DType::F8E5M2:
    return "tl.float8e5";
  }
  return "?";
}

std::string Val::repr() const {
  switch (kind) {
  case Kind::Int:
    return wide ? std::to_string(uint64_t(i)) : std::to_string(i);
  case Kind::Bool:
    return i ? "True" : "False";
  case Kind::Float: {
    // Python's repr: the shortest text that reads back as the same double.
    if (std::isinf(f))
      return f > 0 ? "inf" : "-inf";
    if (std::isnan(f))
      return "nan";
    char buf[64];
    for (int prec = 1; prec <= 17; ++prec) {
      snprintf(buf, sizeof(buf), "%.*g", prec, f);
      if (std::strtod(buf, nullptr) == f)
        break;
    }
    std::string r = buf;
    if (r.find_first_of(".en") == std::string::npos)
      r += ".0";
    return r;
  }
  case Kind::None:
    return "None";
  case Kind::Str:
    return "'" + s + "'";
  case Kind::DType: {
    std::string scalar = dtPtr ? std::string("pointer<") + tlDTypeName(dt) + ">"
                               : std::string(tlDTypeName(dt));
    if (!dtBlock)
      return scalar;
    std::string r = "<[";
    for (size_t k = 0; k < blockShape.size(); ++k)
      r += (k ? ", " : "") + std::to_string(blockShape[k]);
    return r + "], " + scalar + ">";
  }
  case Kind::Tuple: {
    if (fields) { // as Python prints a namedtuple: Point(x=1, y=2)
      std::string r = s + "(";
      for (size_t k = 0; k < elems.size(); ++k)
        r += (k ? ", " : "") + (*fields)[k] + "=" + elems[k].repr();
      return r + ")";
    }
    std::string r = "(";
    for (size_t k = 0; k < elems.size(); ++k)
      r += (k ? ", " : "") + elems[k].repr();
    return r + (elems.size() == 1 ? ",)" : ")");
  }
  case Kind::NamedTupleClass:
    return "class `" + s + "`";
  case Kind::Module:
    return "module `" + s + "`";
  case Kind::Builtin:
    return "`" + s + "`";
  case Kind::Function:
    return "function `" + fn->name + "`";
  case Kind::Method:
    return "method `" + s + "`";
  case Kind::Runtime:
    return "a runtime value";
  case Kind::BlockPtr:
    return descriptor ? "a tensor descriptor" : "a block pointer";
  case Kind::Undef:
    return "an undefined value";
  }
  return "?";
}

std::string IRGen::typeName(const TType &t) const { return typeStr(&ctx, t); }

std::string IRGen::typeName(const Val &v) const {
  switch (v.kind) {
  case Val::Kind::Runtime:
    return typeName(v.type);
  case Val::Kind::Int:
    return "constexpr int " + v.repr();
  case Val::Kind::Float:
    return "constexpr float " + v.repr();
  case Val::Kind::Bool:
    return "constexpr bool " + v.repr();
  case Val::Kind::None:
    return "None";
  case Val::Kind::Str:
    return "string " + v.repr();
  case Val::Kind::DType:
    return "dtype " + v.repr();
  case Val::Kind::Tuple:
    return "tuple " + v.repr();
  case Val::Kind::BlockPtr: {
    std::string shape;
    for (size_t k = 0; k < v.blockShape.size(); ++k)
      shape += (k ? ", " : "") + std::to_string(v.blockShape[k]);
    return (v.descriptor ? "tensor descriptor of " : "block pointer to ") +
           std::string(tlDTypeName(v.bpBase().type.dtype)) + " [" + shape +
           "]";
  }
  default:
    return v.repr();
  }
}

