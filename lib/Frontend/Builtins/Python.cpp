//===- Python.cpp - Python builtins in kernels and builtin dispatch -------===//
//
// min/max/abs/len/float/int/bool/print on constexprs and runtime values,
// dtype queries and `triton.*` helpers; `tl.*` calls go to the registry
// (IRGen::callTL in Registry.cpp).
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <cmath>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;


/// isinstance() in a kernel, at compile time, on the values Triton's code
/// generator passes it (constexprs unwrapped: `isinstance(BLOCK, int)` holds,
/// `isinstance(BLOCK, tl.constexpr)` does not).
FailureOr<Val> IRGen::isinstanceOf(const Val &obj, const Val &cls,
                                   const Node *clsNode) {
  if (cls.kind == Val::Kind::Tuple) {
    for (const Val &c : cls.elems) {
      FailureOr<Val> r = isinstanceOf(obj, c, clsNode);
      if (failed(r))
        return failure();
      if (r->truthy())
        return *r;
    }
    return Val::boolean(false);
  }
  if (cls.kind != Val::Kind::Builtin)
    return fail(clsNode, "isinstance() arg 2 must be a type or a tuple of "
                         "types, got " + typeName(cls));
  llvm::StringRef c = cls.s;
  bool descriptor = obj.kind == Val::Kind::BlockPtr && obj.descriptor;
  std::optional<bool> r =
      llvm::StringSwitch<std::optional<bool>>(c)
          .Case("int", obj.kind == Val::Kind::Int || obj.kind == Val::Kind::Bool)
          .Case("float", obj.kind == Val::Kind::Float)
          .Case("bool", obj.kind == Val::Kind::Bool)
          .Case("str", obj.kind == Val::Kind::Str)
          .Cases({"tuple", "list", "tl.tuple"}, obj.kind == Val::Kind::Tuple)
          // Block pointers are tensors of pointers to blocks in Triton.
          .Case("tl.tensor", obj.isRuntime() || (obj.kind == Val::Kind::BlockPtr &&
                                                 !obj.descriptor))
          .Cases({"tl.tensor_descriptor", "tl.tensor_descriptor_base"}, descriptor)
          .Case("tl.dtype", obj.kind == Val::Kind::DType)
          .Case("tl.pointer_type", obj.kind == Val::Kind::DType && obj.dtPtr)
          .Cases({"tl.block_type", "tl.constexpr"}, false)
          .Default(std::nullopt);
  if (!r)
    return fail(clsNode, "isinstance() against `" + c.str() +
                             "` is not supported in kernels");
  return Val::boolean(*r);
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
  // collections.namedtuple("P", "x y" | ["x", "y"], defaults=(...)): a
  // class kernels build tuples of (as `class P(NamedTuple)`).
  if (name == "collections.namedtuple") {
    if (failed(bind({"typename", "field_names", "rename=False",
                     "defaults=None", "module=None"})))
      return failure();
    if (a[0].v.kind != Val::Kind::Str)
      return fail(a[0].node, "`typename` of `namedtuple` must be a string, got " +
                                 typeName(a[0].v));
    std::vector<std::string> fields;
    if (a[1].v.kind == Val::Kind::Str) {
      llvm::SmallVector<llvm::StringRef> parts;
      llvm::StringRef(a[1].v.s).split(parts, ' ', -1, false);
      for (llvm::StringRef p : parts) {
        llvm::SmallVector<llvm::StringRef> names;
        p.split(names, ',', -1, false);
        for (llvm::StringRef n : names)
          if (!n.trim().empty())
            fields.push_back(n.trim().str());
      }
    } else if (a[1].v.kind == Val::Kind::Tuple) {
      for (const Val &f : a[1].v.elems) {
        if (f.kind != Val::Kind::Str)
          return fail(a[1].node, "the field names of `namedtuple` must be "
                                 "strings, got " + typeName(f));
        fields.push_back(f.s);
      }
    } else {
      return fail(a[1].node, "`field_names` of `namedtuple` must be a string "
                             "or a list of strings, got " + typeName(a[1].v));
    }
    for (size_t k = 0; k < fields.size(); ++k)
      if (llvm::count(fields, fields[k]) > 1)
        return fail(a[1].node, "duplicate field name `" + fields[k] +
                                   "` in `namedtuple`");
    Val cls = Val::named(Val::Kind::NamedTupleClass, a[0].v.s);
    cls.elems.assign(fields.size(), Val::undef("no default"));
    if (a[3].v.kind == Val::Kind::Tuple) {
      const std::vector<Val> &defaults = a[3].v.elems;
      if (defaults.size() > fields.size())
        return fail(a[3].node, "`namedtuple` got more defaults than fields");
      std::copy(defaults.begin(), defaults.end(),
                cls.elems.end() - defaults.size());
    } else if (a[3].v.kind != Val::Kind::None) {
      return fail(a[3].node, "`defaults` of `namedtuple` must be a tuple, got " +
                                 typeName(a[3].v));
    }
    cls.fields =
        std::make_shared<const std::vector<std::string>>(std::move(fields));
    return cls;
  }
  if (name == "isinstance") {
    if (failed(bind({"obj", "class_or_tuple"})))
      return failure();
    return isinstanceOf(a[0].v, a[1].v, a[1].node);
  }
  // `tl.pointer_type(tl.float16)`: the pointer dtype (casts of loaded
  // addresses: `tl.load(ptrs + g).to(tl.pointer_type(tl.float16))`).
  if (name == "tl.pointer_type") {
    if (failed(bind({"element_ty", "address_space=1", "const=False"})))
      return failure();
    if (a[0].v.kind != Val::Kind::DType || a[0].v.dtPtr || a[0].v.dtBlock)
      return fail(a[0].node, "`tl.pointer_type` takes a scalar element dtype "
                             "such as tl.float16, got " +
                                 typeName(a[0].v));
    return Val::dtype(a[0].v.dt, /*ptr=*/true);
  }
  // `get_int_dtype = triton.constexpr_function(core.get_int_dtype)`
  // (TransformerEngine, lmdeploy): wrapping a tl builtin, or a def already
  // decorated as one, changes nothing Kiln sees.
  if (name == "triton.constexpr_function" && args.pos.size() == 1 &&
      args.kw.empty()) {
    const Val &f = args.pos[0];
    if (f.kind == Val::Kind::Builtin ||
        (f.kind == Val::Kind::Function && f.fn && isConstexprFunction(f.fn)))
      return f;
    return fail(args.posNodes[0],
                "`triton.constexpr_function(...)` of " + typeName(f) +
                    ": Kiln evaluates constexpr functions written with the "
                    "`@triton.constexpr_function` decorator on their def");
  }
  // `tl.tuple(values)` / `tuple(values)`: a tuple of an iterable's elements
  // (a tuple, a list display, a comprehension: all tuples in a kernel).
  if (name == "tl.tuple" || name == "tuple") {
    if (args.pos.size() != 1 || !args.kw.empty())
      return fail(e, "`" + name + "` takes one iterable");
    if (args.pos[0].kind != Val::Kind::Tuple)
      return fail(args.posNodes[0], "`" + name + "` of " +
                                        typeName(args.pos[0]) +
                                        ": expected a tuple or a list");
    return args.pos[0];
  }
  // `tl.dtype("uint32")`: a dtype by Triton's name (`dtype.name`).
  if (name == "tl.dtype") {
    if (failed(bind({"name"})))
      return failure();
    FailureOr<std::string> n = rd.constStr(a[0], "name");
    if (failed(n))
      return failure();
    for (DType d : {DType::I1, DType::I8, DType::I16, DType::I32, DType::I64,
                    DType::U8, DType::U16, DType::U32, DType::U64, DType::F16,
                    DType::BF16, DType::F32, DType::F64, DType::F8E4M3,
                    DType::F8E5M2})
      if (*n == tritonName(d))
        return Val::dtype(d);
    return fail(a[0].node, "`tl.dtype(\"" + *n +
                               "\")`: not a dtype Kiln supports (names as "
                               "`dtype.name` spells them: int32, uint8, fp16, "
                               "bf16, fp32, ...)");
  }
  if (llvm::StringRef bare = name; bare.consume_front("tl.") && isTLTypeName(bare))
    return fail(e, "`" + name +
                       "` is a type: kernels can only test values against it "
                       "with isinstance()");
  if (name.starts_with("dtype.")) {
    const Val &d = args.pos[0];
    llvm::StringRef q = name.drop_front(6);
    if (q == "is_block") {
      if (args.pos.size() != 1 || !args.kw.empty())
        return fail(e, "`is_block()` takes no arguments");
      return Val::boolean(d.dtBlock);
    }
    // A pointer dtype is only `is_ptr`; Triton's predicates otherwise.
    std::optional<bool> pred =
        d.dtPtr ? std::optional<bool>(q == "is_ptr")
                : dtypePredicate(d.dt, std::string_view(q.data(), q.size()));
    if (!pred)
      return fail(e, "unknown attribute `" + q.str() + "` of dtype " + d.repr());
    bool r = *pred;
    if (args.pos.size() != 1 || !args.kw.empty())
      return fail(e, "`" + q + "()` takes no arguments");
    return Val::boolean(r);
  }
  if (llvm::StringSwitch<bool>(name)
          .Cases({"setattr", "type"}, true)
          .Cases({"list", "tuple", "dict", "set", "str", "zip", "enumerate"},
                 true)
          .Cases({"sum", "round", "map", "filter", "sorted", "reversed"}, true)
          .Default(false))
    return fail(e, "Python builtin `" + name + "` is not supported in kernels");

  // tensor.logical_and / logical_or: both sides as booleans (`!= 0`).
  if (name == "tensor.logical_and" || name == "tensor.logical_or") {
    if (failed(bind({"self", "other"})))
      return failure();
    // cast() leaves int1 values as they are and makes others `!= 0`.
    FailureOr<Val> bx = cast(a[0].v, DType::I1, a[0].node);
    FailureOr<Val> by = failed(bx) ? bx : cast(a[1].v, DType::I1, a[1].node);
    if (failed(by))
      return failure();
    return binary(name == "tensor.logical_and" ? ast::BinOpKind::BitAnd
                                               : ast::BinOpKind::BitOr,
                  *bx, *by, e);
  }

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
  if (name.starts_with("math."))
    return callMath(*this, name, args, e);
  // packaging.version.parse("3.6.0") / Version(...): the release numbers as a
  // tuple without trailing zeros ("3.0" == "3.0.0"), which compares as PEP
  // 440 orders releases. Pre-, post-, dev- and local parts are refused
  // rather than ordered wrongly.
  if (name == "packaging.version.parse") {
    if (failed(bind({"version"})))
      return failure();
    FailureOr<std::string> text = rd.constStr(a[0], "version");
    if (failed(text))
      return failure();
    llvm::StringRef rest = llvm::StringRef(*text).trim();
    rest.consume_front("v");
    std::vector<Val> parts;
    llvm::SmallVector<llvm::StringRef, 4> fields;
    rest.split(fields, '.');
    for (llvm::StringRef f : fields) {
      unsigned n;
      if (f.empty() || f.getAsInteger(10, n))
        return fail(a[0].node, "Kiln compares release versions only "
                               "(numbers and dots), not `" + *text + "`");
      parts.push_back(Val::integer(n));
    }
    while (parts.size() > 1 && parts.back().i == 0)
      parts.pop_back();
    return Val::tuple(std::move(parts));
  }
  // importlib.util.find_spec("triton..."): Triton is what Kiln compiles, so
  // it is installed; a spec stands as the module's name (not None, truthy).
  // Whether any other module is installed is the host's to know.
  if (name == "importlib.util.find_spec") {
    if (failed(bind({"name", "package=None"})))
      return failure();
    FailureOr<std::string> module = rd.constStr(a[0], "name");
    if (failed(module))
      return failure();
    if (*module == "triton" || llvm::StringRef(*module).starts_with("triton."))
      return Val::str(*module);
    return fail(a[0].node, "whether `" + *module +
                               "` is installed is host code; Kiln knows only that "
                               "triton is");
  }
  // torch.utils._triton.has_triton(): the kernels Kiln compiles are the
  // ones a module defines when Triton is there (the GPU check is the host's).
  if (name == "torch.utils._triton.has_triton" ||
      name == "torch.utils._triton.has_triton_package") {
    if (failed(bind({})))
      return failure();
    return Val::boolean(true);
  }
  if (name.starts_with("tl.") || name.starts_with("libdevice.") || name == "to")
    return callTL(name, args, e);
  return fail(e, "`" + name + "` is not supported");
}
