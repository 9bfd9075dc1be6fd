//===- Builtins.cpp - triton / triton.language names and builtin calls ---===//
//
// Resolves attributes of the `triton` and `triton.language` modules and
// implements the builtins Kiln supports with Triton's semantics. Known Triton
// builtins that Kiln does not implement are reported as "not supported";
// anything else as an unknown attribute.
//
//===----------------------------------------------------------------------===//
#include "Builtins/Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <cmath>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// Triton builtins that Kiln knows about but does not implement.
static const char *const kTLUnsupported[] = {"dot",
                                             "dot_scaled",
                                             "trans",
                                             "permute",
                                             "reshape",
                                             "view",
                                             "broadcast",
                                             "cat",
                                             "join",
                                             "split",
                                             "interleave",
                                             "make_block_ptr",
                                             "advance",
                                             "make_tensor_descriptor",
                                             "load_tensor_descriptor",
                                             "store_tensor_descriptor",
                                             "histogram",
                                             "sort",
                                             "flip",
                                             "softmax",
                                             "full_like",
                                             "ravel",
                                             "swizzle2d",
                                             "clamp",
                                             "sigmoid",
                                             "erf",
                                             "floor",
                                             "ceil",
                                             "log2",
                                             "div_rn",
                                             "sqrt_rn",
                                             "fdiv",
                                             "inline_asm_elementwise",
                                             "device_assert",
                                             "static_print",
                                             "gather",
                                             "tensor",
                                             "block_type",
                                             "pointer_type",
                                             "assume",
                                             "topk",
                                             "map_elementwise",
                                             "extra",
                                             "zeros_like_",
                                             "split",
                                             "abs_",
                                             "philox_impl",
                                             "fp8e4nv"};

static const char *const kMathUnsupported[] = {
    "log2",    "erf",  "floor",   "ceil",  "div_rn", "sqrt_rn", "fdiv",
    "tanh",    "sigmoid", "isnan", "isinf", "pow",   "exp10"};

static std::optional<DType> tlDType(llvm::StringRef n) {
  return llvm::StringSwitch<std::optional<DType>>(n)
      .Case("int1", DType::I1)
      .Case("int8", DType::I8)
      .Case("int16", DType::I16)
      .Case("int32", DType::I32)
      .Case("int64", DType::I64)
      .Case("uint8", DType::U8)
      .Case("uint16", DType::U16)
      .Case("uint32", DType::U32)
      .Case("uint64", DType::U64)
      .Case("float16", DType::F16)
      .Case("bfloat16", DType::BF16)
      .Case("float32", DType::F32)
      .Case("float64", DType::F64)
      .Default(std::nullopt);
}

static bool isUnsupportedDType(llvm::StringRef n) {
  return llvm::StringSwitch<bool>(n)
      .Cases({"float8e4nv", "float8e5"}, true)
      .Cases({"float8e4b15", "float8e4b8", "float8e5b16", "void"}, true)
      .Default(false);
}

static bool contains(llvm::ArrayRef<const char *> list, llvm::StringRef n) {
  return llvm::any_of(list, [&](const char *s) { return n == s; });
}

namespace kiln::fe {
/// Looks up `mod.attr`. Returns 0 and sets `out` when found, 1 when it is a
/// known but unsupported Triton name, 2 when unknown.
int lookupModuleAttr(llvm::StringRef mod, llvm::StringRef attr, Val &out) {
  if (mod == "triton") {
    if (attr == "language") {
      out = Val::named(Val::Kind::Module, "triton.language");
      return 0;
    }
    if (attr == "jit" || attr == "autotune" || attr == "heuristics" ||
        attr == "Config" || attr == "next_power_of_2") {
      out = Val::named(Val::Kind::Builtin, "triton." + attr.str());
      return 0;
    }
    if (attr == "cdiv") {
      out = Val::named(Val::Kind::Builtin, "tl.cdiv");
      return 0;
    }
    if (attr == "testing" || attr == "runtime" || attr == "compile" ||
        attr == "tools" || attr == "set_allocator" || attr == "knobs")
      return 1;
    return 2;
  }
  if (mod == "triton.language") {
    if (std::optional<DType> d = tlDType(attr)) {
      out = Val::dtype(*d);
      return 0;
    }
    if (isUnsupportedDType(attr))
      return 1;
    if (attr == "math") {
      out = Val::named(Val::Kind::Module, "triton.language.math");
      return 0;
    }
    if (attr == "PropagateNan") {
      out = Val::named(Val::Kind::Module, "triton.language.PropagateNan");
      return 0;
    }
    if (findBuiltin(attr)) {
      out = Val::named(Val::Kind::Builtin, "tl." + attr.str());
      return 0;
    }
    if (contains(kTLUnsupported, attr))
      return 1;
    return 2;
  }
  if (mod == "triton.language.math") {
    const BuiltinDef *def = findBuiltin(attr);
    if (def && def->inMath) {
      out = Val::named(Val::Kind::Builtin, "tl." + attr.str());
      return 0;
    }
    if (contains(kMathUnsupported, attr))
      return 1;
    return 2;
  }
  if (mod == "triton.language.PropagateNan") {
    if (attr == "ALL" || attr == "NONE") {
      out = Val::str(attr.str());
      return 0;
    }
    return 2;
  }
  return 2;
}
} // namespace kiln::fe

FailureOr<Val> IRGen::attributeOfModule(const Val &mod,
                                        const AttributeExpr *e) {
  Val out;
  switch (lookupModuleAttr(mod.s, e->attr, out)) {
  case 0:
    return out;
  case 1:
    if (mod.s == "triton.language" && isUnsupportedDType(e->attr))
      return fail(e, "`" + text(e) +
                         "` is not supported (Kiln's dtypes: "
                         "int1, int8, int16, int32, int64, uint8, "
                         "uint16, uint32, uint64, float16, bfloat16, "
                         "float32, float64)");
    return fail(e, "`" + text(e) + "` is not supported");
  default:
    return fail(e, "unknown attribute `" + text(e) + "`");
  }
}

bool IRGen::isTensorMethod(llvm::StringRef n) const {
  const BuiltinDef *def = findBuiltin(n);
  return def && def->tensorMethod;
}

//===----------------------------------------------------------------------===//
// Argument binding
//===----------------------------------------------------------------------===//

static llvm::StringRef paramName(const char *p) {
  return llvm::StringRef(p).split('=').first;
}

LogicalResult IRGen::bindArgs(llvm::StringRef fnName,
                              llvm::ArrayRef<const char *> params,
                              const CallArgs &args, const Node *call,
                              llvm::SmallVectorImpl<Arg> &out) {
  out.assign(params.size(), Arg());
  for (Arg &a : out)
    a.node = call;
  if (args.pos.size() > params.size())
    return fail(args.posNodes[params.size()],
                "`" + fnName + "` takes at most " +
                    std::to_string(params.size()) + " argument" +
                    (params.size() == 1 ? "" : "s") + " but " +
                    std::to_string(args.pos.size()) + " were given");
  for (size_t k = 0; k < args.pos.size(); ++k)
    out[k] = Arg{args.pos[k], args.posNodes[k], true};
  for (size_t k = 0; k < args.kw.size(); ++k) {
    const std::string &name = args.kw[k].first;
    auto it = llvm::find_if(
        params, [&](const char *p) { return paramName(p) == name; });
    if (it == params.end())
      return fail(args.kwNodes[k], "`" + fnName +
                                       "` got an unexpected keyword "
                                       "argument `" +
                                       name + "`");
    size_t idx = it - params.begin();
    if (out[idx].given)
      return fail(args.kwNodes[k], "`" + fnName +
                                       "` got multiple values for argument "
                                       "`" +
                                       name + "`");
    out[idx] = Arg{args.kw[k].second, args.kwNodes[k], true};
  }
  for (size_t k = 0; k < params.size(); ++k)
    if (!out[k].given && !llvm::StringRef(params[k]).contains('='))
      return fail(call, "`" + fnName + "` is missing required argument `" +
                            paramName(params[k]) + "`");
  return success();
}

FailureOr<Val> IRGen::callBuiltin(llvm::StringRef name, const CallArgs &args,
                                  const CallExpr *e) {
  llvm::SmallVector<Arg, 8> a;
  ArgReader rd{*this, name};
  auto bind = [&](llvm::ArrayRef<const char *> params) {
    return bindArgs(name, params, args, e, a);
  };

  //===--- Python builtins ----------------------------------------------===//
  if (name == "range")
    return fail(e, "`range` can only be the iterable of a `for` loop");
  if (name == "min" || name == "max") {
    if (!args.kw.empty())
      return fail(args.kwNodes[0],
                  "`" + name + "` does not take keyword arguments");
    std::vector<Val> items = args.pos;
    std::vector<const Node *> nodes = args.posNodes;
    if (items.size() == 1 && items[0].kind == Val::Kind::Tuple) {
      items = items[0].elems;
      nodes.assign(items.size(), args.posNodes[0]);
    }
    if (items.empty())
      return fail(e, "`" + name + "` expects at least one argument");
    Val acc = items[0];
    for (size_t k = 1; k < items.size(); ++k) {
      const Val &x = items[k];
      if (acc.isNumber() && x.isNumber()) {
        bool takeX = name == "min" ? x.asDouble() < acc.asDouble()
                                   : x.asDouble() > acc.asDouble();
        if (takeX)
          acc = x;
        continue;
      }
      CallArgs two;
      two.pos = {acc, x};
      two.posNodes = {nodes[k - 1], nodes[k]};
      FailureOr<Val> r =
          callBuiltin(name == "min" ? "tl.minimum" : "tl.maximum", two, e);
      if (failed(r))
        return failure();
      acc = *r;
    }
    if (!acc.isRuntime() && !acc.isNumber())
      return fail(e, "`" + name + "` expects numbers, got " + typeName(acc));
    return acc;
  }
  if (name == "float" || name == "int" || name == "bool") {
    if (failed(bind({"x"})))
      return failure();
    const Val &x = a[0].v;
    if (x.isRuntime())
      return fail(a[0].node, "`" + name +
                                 "()` of a runtime value is not supported; "
                                 "use .to(...)");
    if (name == "bool")
      return Val::boolean(x.truthy());
    if (x.kind == Val::Kind::Str) {
      if (name == "float") {
        std::string s = llvm::StringRef(x.s).trim().lower();
        if (s == "inf" || s == "+inf" || s == "infinity")
          return Val::flt(INFINITY);
        if (s == "-inf" || s == "-infinity")
          return Val::flt(-INFINITY);
        if (s == "nan")
          return Val::flt(NAN);
        double d;
        if (!llvm::StringRef(s).getAsDouble(d))
          return Val::flt(d);
      } else {
        int64_t i;
        if (!llvm::StringRef(x.s).trim().getAsInteger(10, i))
          return Val::integer(i);
      }
      return fail(a[0].node,
                  "could not convert string " + x.repr() + " to " + name);
    }
    if (!x.isNumber())
      return fail(a[0].node,
                  "`" + name + "()` expects a number, got " + typeName(x));
    if (name == "float")
      return Val::flt(x.asDouble());
    if (x.kind == Val::Kind::Float) {
      if (!std::isfinite(x.f) || std::fabs(x.f) > 9.2e18)
        return fail(a[0].node, "cannot convert " + x.repr() + " to int");
      return Val::integer(int64_t(x.f));
    }
    return Val::integer(x.i);
  }
  if (name == "abs") {
    if (failed(bind({"x"})))
      return failure();
    if (a[0].v.isNumber())
      return a[0].v.kind == Val::Kind::Float
                 ? Val::flt(std::fabs(a[0].v.f))
                 : Val::integer(std::llabs(a[0].v.i));
    return callBuiltin("tl.abs", args, e);
  }
  if (name == "len") {
    if (failed(bind({"obj"})))
      return failure();
    if (a[0].v.kind == Val::Kind::Tuple)
      return Val::integer(a[0].v.elems.size());
    if (a[0].v.kind == Val::Kind::Str)
      return Val::integer(a[0].v.s.size());
    if (a[0].v.isRuntime() && a[0].v.type.isTensor())
      return Val::integer(a[0].v.type.shape[0]);
    return fail(a[0].node,
                "`len` of " + typeName(a[0].v) + " is not supported");
  }
  if (name == "print")
    return callBuiltin("tl.device_print", args, e);
  if (name.starts_with("dtype.")) {
    const Val &d = args.pos[0];
    llvm::StringRef q = name.drop_front(6);
    bool r = q == "is_floating" ? !d.dtPtr && isFloat(d.dt)
             : q == "is_int"    ? !d.dtPtr && isIntDType(d.dt)
             : q == "is_ptr"    ? d.dtPtr
             : q == "is_int_signed"
                 ? !d.dtPtr && isIntDType(d.dt) && !isUnsigned(d.dt)
             : q == "is_int_unsigned" ? !d.dtPtr && isUnsigned(d.dt)
             : q == "is_bool"         ? !d.dtPtr && d.dt == DType::I1
             : q == "is_fp16"         ? !d.dtPtr && d.dt == DType::F16
             : q == "is_bf16"         ? !d.dtPtr && d.dt == DType::BF16
             : q == "is_fp32"         ? !d.dtPtr && d.dt == DType::F32
                                      : !d.dtPtr && d.dt == DType::F64;
    if (args.pos.size() != 1 || !args.kw.empty())
      return fail(e, "`" + q + "()` takes no arguments");
    return Val::boolean(r);
  }
  if (llvm::StringSwitch<bool>(name)
          .Cases({"isinstance", "getattr", "setattr", "hasattr", "type"}, true)
          .Cases({"list", "tuple", "dict", "set", "str", "zip", "enumerate"},
                 true)
          .Cases({"sum", "round", "map", "filter", "sorted", "reversed"}, true)
          .Default(false))
    return fail(e, "Python builtin `" + name + "` is not supported in kernels");

  //===--- triton.* -----------------------------------------------------===//
  if (name == "triton.jit" || name == "triton.autotune" ||
      name == "triton.heuristics" || name == "triton.Config")
    return fail(e, "`" + name + "` can only be used as a decorator");
  if (name == "triton.next_power_of_2") {
    if (failed(bind({"n"})))
      return failure();
    FailureOr<int64_t> n = rd.constInt(a[0], "n");
    if (failed(n))
      return failure();
    if (*n > (int64_t(1) << 62))
      return fail(a[0].node, "integer overflow in constant expression");
    int64_t p = 1;
    while (p < *n)
      p <<= 1;
    return Val::integer(p);
  }
  if (name.starts_with("tl.") || name == "to")
    return callTL(name, args, e);
  return fail(e, "`" + name + "` is not supported");
}
