//===- IRGenExpr.cpp - Evaluation of expression forms --------------------===//
#include "IRGenImport.h"
#include "IRGen.h"
#include "IRGenSCF.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSwitch.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;
namespace arith = mlir::arith;

//===----------------------------------------------------------------------===//
// Expression forms
//===----------------------------------------------------------------------===//

FailureOr<Val> IRGen::eval(const Expr *e) {
  if (failed(enter(e)))
    return failure();
  FailureOr<Val> v = evalImpl(e);
  leave();
  return v;
}

FailureOr<Val> IRGen::evalImpl(const Expr *e) {
  switch (e->kind) {
  case Node::Kind::Name:
    return evalName(llvm::cast<NameExpr>(e));
  case Node::Kind::Int:
    if (llvm::cast<IntExpr>(e)->tooLarge) {
      // Up to 2^64 - 1 (`0xFFFFFFFFFFFFFFFF`): a wide int, as Python has it.
      std::string digits = text(e).str();
      llvm::erase(digits, '_');
      llvm::APInt v;
      if (!llvm::StringRef(digits).getAsInteger(0, v) && v.getActiveBits() <= 64)
        return *Val::fromWide(__int128(v.getZExtValue()));
      return fail(e, "integer literal `" + text(e) +
                         "` is too large (Kiln's integers are below 2^64)");
    }
    return Val::integer(llvm::cast<IntExpr>(e)->value);
  case Node::Kind::Float:
    return Val::flt(llvm::cast<FloatExpr>(e)->value);
  case Node::Kind::Str:
    return Val::str(llvm::cast<StrExpr>(e)->value);
  case Node::Kind::Const:
    switch (llvm::cast<ConstExpr>(e)->which) {
    case ConstExpr::Which::True:
      return Val::boolean(true);
    case ConstExpr::Which::False:
      return Val::boolean(false);
    case ConstExpr::Which::None:
      return Val::none();
    case ConstExpr::Which::Ellipsis:
      return fail(e, "`...` is not supported");
    }
    break;
  case Node::Kind::Attribute:
    return evalAttribute(llvm::cast<AttributeExpr>(e));
  case Node::Kind::Call:
    return evalCall(llvm::cast<CallExpr>(e));
  case Node::Kind::Subscript:
    return evalSubscript(llvm::cast<SubscriptExpr>(e));
  case Node::Kind::Slice:
    return fail(e, "a slice is only allowed inside `[]`");
  case Node::Kind::BinOp: {
    auto *bo = llvm::cast<BinOpExpr>(e);
    FailureOr<Val> l = eval(bo->lhs);
    if (failed(l))
      return failure();
    FailureOr<Val> r = eval(bo->rhs);
    if (failed(r))
      return failure();
    return binary(bo->op, *l, *r, e);
  }
  case Node::Kind::UnaryOp: {
    auto *u = llvm::cast<UnaryOpExpr>(e);
    FailureOr<Val> v = eval(u->operand);
    if (failed(v))
      return failure();
    return unary(u->op, *v, e);
  }
  case Node::Kind::BoolOp:
    return evalBoolOp(llvm::cast<BoolOpExpr>(e));
  case Node::Kind::Compare:
    return evalCompare(llvm::cast<CompareExpr>(e));
  case Node::Kind::IfExp:
    return evalIfExp(llvm::cast<IfExpExpr>(e));
  case Node::Kind::Tuple:
  case Node::Kind::List: {
    std::vector<Val> elems;
    for (const Expr *x : llvm::cast<TupleExpr>(e)->elts) {
      FailureOr<Val> v = eval(x);
      if (failed(v))
        return failure();
      elems.push_back(*v);
    }
    return Val::tuple(std::move(elems));
  }
  case Node::Kind::JoinedStr:
    return evalJoinedStr(llvm::cast<JoinedStrExpr>(e));
  case Node::Kind::ListComp:
  case Node::Kind::GeneratorExp:
    return evalComprehension(llvm::cast<ComprehensionExpr>(e));
  default:
    break;
  }
  return fail(e, hostConstructError(e->kind));
}

std::string IRGen::hostConstructError(Node::Kind k) {
  using K = Node::Kind;
  const char *what = "this construct is";
  switch (k) {
  case K::Lambda:
    what = "lambda expressions are";
    break;
  case K::ListComp:
  case K::SetComp:
  case K::DictComp:
    what = "comprehensions are";
    break;
  case K::GeneratorExp:
    what = "generator expressions are";
    break;
  case K::Dict:
    what = "dict displays are";
    break;
  case K::Set:
    what = "set displays are";
    break;
  case K::Starred:
    what = "starred expressions are";
    break;
  case K::NamedExpr:
    what = "assignment expressions (`:=`) are";
    break;
  case K::Await:
    what = "`await` is";
    break;
  case K::Yield:
    what = "`yield` is";
    break;
  case K::Bytes:
    what = "bytes literals are";
    break;
  case K::Imag:
    what = "complex literals are";
    break;
  case K::FormattedValue:
    what = "f-string fields are";
    break;
  case K::ClassDef:
    what = "class definitions are";
    break;
  case K::Try:
    what = "`try` statements are";
    break;
  case K::With:
    what = "`with` statements are";
    break;
  case K::Raise:
    what = "`raise` statements are";
    break;
  case K::Delete:
    what = "`del` statements are";
    break;
  case K::Global:
    what = "`global` and `nonlocal` statements are";
    break;
  case K::Break:
    what = "`break` is";
    break;
  case K::Continue:
    what = "`continue` is";
    break;
  case K::Match:
    what = "`match` statements are";
    break;
  case K::TypeAlias:
    what = "`type` statements are";
    break;
  default:
    break;
  }
  return std::string(what) + " not supported in Triton kernels";
}

/// An f-string whose fields are all constexprs folds to a string (Triton
/// allows them in static_assert and device_print messages).
FailureOr<Val> IRGen::evalJoinedStr(const JoinedStrExpr *e) {
  std::string out;
  for (const Expr *part : e->values) {
    if (auto *lit = llvm::dyn_cast<StrExpr>(part)) {
      out += lit->value;
      continue;
    }
    auto *f = llvm::cast<FormattedValueExpr>(part);
    if (f->formatSpec && !f->formatSpec->values.empty())
      return fail(f->formatSpec,
                  "format specs in f-strings are not supported in Triton "
                  "kernels");
    FailureOr<Val> v = eval(f->value);
    if (failed(v))
      return failure();
    if (!v->isConstexpr())
      return fail(f->value, "f-string fields in Triton kernels must be "
                            "constexprs, but `" +
                                text(f->value) + "` is " + typeName(*v));
    bool quote = v->kind == Val::Kind::Str && f->conversion &&
                 f->conversion != 's';
    out += quote ? "'" + v->s + "'" : v->kind == Val::Kind::Str ? v->s
                                                                : v->repr();
  }
  return Val::str(std::move(out));
}

static bool isPythonBuiltin(llvm::StringRef n) {
  return llvm::StringSwitch<bool>(n)
      .Cases({"range", "min", "max", "float", "int", "bool", "abs", "len"},
             true)
      .Cases({"print", "isinstance", "getattr", "setattr", "hasattr", "type"},
             true)
      .Cases({"list", "tuple", "dict", "set", "str", "zip", "enumerate"}, true)
      .Cases({"sum", "round", "map", "filter", "sorted", "reversed"}, true)
      .Default(false);
}

FailureOr<Val> IRGen::evalName(const NameExpr *e) {
  auto it = fs->scope.find(e->id);
  if (it != fs->scope.end()) {
    const Val &v = it->second.v;
    if (v.kind == Val::Kind::Undef)
      return fail(e, "name `" + e->id + "` is not defined here: " + v.s);
    return v;
  }
  if (std::optional<FailureOr<Val>> g = lookupGlobal(e))
    return *g;
  if (isPythonBuiltin(e->id))
    return Val::named(Val::Kind::Builtin, e->id);
  return fail(e, "name `" + e->id + "` is not defined");
}

/// A shape as the tuple of ints kernels read (`x.shape`, `x.type.shape`).
static Val shapeTuple(llvm::ArrayRef<int64_t> shape) {
  std::vector<Val> dims;
  for (int64_t d : shape)
    dims.push_back(Val::integer(d));
  return Val::tuple(std::move(dims));
}

/// Whether `e` reads PyTorch's `torch.version.hip` (through `import torch`,
/// `import torch as th` or `from torch import version`), the module-level
/// binding of its leading name being that import.
bool IRGen::readsTorchVersionHip(const AttributeExpr *e) {
  if (e->attr != "hip")
    return false;
  const NameExpr *name = llvm::dyn_cast<NameExpr>(e->value);
  llvm::StringRef imported = "version";
  if (auto *mid = llvm::dyn_cast<AttributeExpr>(e->value);
      mid && mid->attr == "version") {
    name = llvm::dyn_cast<NameExpr>(mid->value);
    imported = "";
  }
  const GlobalDef *d = torchImportOf(name);
  return d && d->importedName == imported;
}

const IRGen::GlobalDef *IRGen::torchImportOf(const NameExpr *name) {
  if (!name || (fs && fs->scope.count(name->id)))
    return nullptr;
  const GlobalDef *d = visibleDef(name->id);
  return d && d->how == GlobalDef::How::HostImport && d->module == "torch" ? d : nullptr;
}

/// `torch.<dtype>` read in a kernel through `import torch` (tritonbench's
/// `if V.dtype == torch.float8_e5m2:`): under Triton a torch dtype object,
/// which equals no tl dtype; Kiln gives it as the string "torch.<dtype>",
/// which compares the same way (unequal to every tl dtype, equal to itself).
static std::optional<Val> torchDType(IRGen &g, const AttributeExpr *e) {
  static const llvm::StringRef kNames[] = {
      "float16",      "half",          "bfloat16",         "float32",
      "float",        "float64",       "double",           "float8_e5m2",
      "float8_e4m3fn", "float8_e5m2fnuz", "float8_e4m3fnuz", "int8",
      "uint8",        "int16",         "int32",            "int",
      "int64",        "long",          "bool",             "uint16",
      "uint32",       "uint64"};
  if (!llvm::is_contained(kNames, e->attr))
    return std::nullopt;
  const IRGen::GlobalDef *d = g.torchImportOf(llvm::dyn_cast<NameExpr>(e->value));
  if (!d || !d->importedName.empty())
    return std::nullopt;
  return Val::str("torch." + e->attr);
}

FailureOr<Val> IRGen::evalAttribute(const AttributeExpr *e) {
  // None: Kiln compiles for NVIDIA GPUs, where PyTorch is a CUDA build.
  // Kernels test it to pick AMD-only code (torchao's
  // `if tl.constexpr(torch.version.hip is not None)`).
  if (readsTorchVersionHip(e))
    return Val::none();
  if (std::optional<Val> dt = torchDType(*this, e))
    return *dt;
  FailureOr<Val> base = eval(e->value);
  if (failed(base))
    return failure();
  return attributeOf(*base, e);
}

/// `v.<e->attr>` for the value `v` of `e->value` (evaluated once).
FailureOr<Val> IRGen::attributeOf(const Val &v, const AttributeExpr *e) {
  const std::string &a = e->attr;
  if (v.kind == Val::Kind::Module)
    return isUserModule(v)  ? attributeOfUserModule(*this, v, e)
           : isUserClass(v) ? attributeOfUserClass(*this, v, e)
                            : attributeOfModule(v, e);
  // A constexpr's `.value` (helpers unwrap their constexpr parameters with
  // it, as Triton passes them wrapped): Kiln's values are unwrapped.
  if (a == "value" && v.isConstexpr())
    return v;
  if (v.isRuntime()) {
    if (a == "dtype")
      return Val::dtype(v.type.dtype, v.type.isPtr);
    if (a == "type") { // Triton's tensor.type: the dtype, or a block type
      Val t = Val::dtype(v.type.dtype, v.type.isPtr);
      if (!v.type.shape.empty()) {
        t.dtBlock = true;
        t.blockShape.assign(v.type.shape.begin(), v.type.shape.end());
      }
      return t;
    }
    if (a == "shape")
      return shapeTuple(v.type.shape);
    if (a == "numel")
      return Val::integer(v.type.numel());
    if (a == "to")
      return Val::method("to", v);
    if (a == "logical_and" || a == "logical_or")
      return Val::method("tensor." + a, v);
    if (isTensorMethod(a))
      return Val::method("tl." + a, v);
    if (a == "T") { // Triton's tensor.T property: tl.trans(x).
      if (v.type.shape.size() != 2)
        return fail(e->attrRange.begin,
                    "`.T` transposes 2-D tensors, got " + typeName(v));
      TType t = v.type.withShape({v.type.shape[1], v.type.shape[0]});
      llvm::SmallVector<int32_t, 2> order{1, 0};
      return Val::runtime(tile::TransOp::create(b, loc(e), toMLIR(&ctx, t),
                                                v.value, order),
                          t);
    }
    if (a == "sort" || a == "topk" || a == "fdiv" || a == "load")
      return fail(e->attrRange.begin,
                  "`" + a + "` is not a tensor method in Triton: call `tl." +
                      a + "(x, ...)`");
    return fail(e->attrRange.begin, "unknown attribute `" + a +
                                        "` of a tensor (" + typeName(v) + ")");
  }
  if (v.kind == Val::Kind::BlockPtr && v.descriptor)
    return descriptorAttribute(v, e);
  if (v.kind == Val::Kind::BlockPtr && a == "advance")
    return Val::method("tl.advance", v);
  // A block pointer's dtype is a pointer to its block (Triton:
  // pointer_type(block_type)); code reads `p.dtype.element_ty` to cast a
  // value for storing through it, so `element_ty` gives the element's dtype.
  if (v.kind == Val::Kind::BlockPtr && (a == "dtype" || a == "type"))
    return Val::dtype(v.bpBase().type.dtype, /*ptr=*/true);
  // A number assigned to a local without a tl.constexpr annotation is a
  // runtime scalar in Triton, with the tensor methods (`n.to(tl.uint32)`);
  // Kiln keeps it a constexpr, so its tensor methods apply to the scalar.
  if ((v.kind == Val::Kind::Int || v.kind == Val::Kind::Float || v.kind == Val::Kind::Bool) &&
      (a == "to" || a == "logical_and" || a == "logical_or" || a == "dtype" || isTensorMethod(a))) {
    FailureOr<Val> r = toRuntime(v, e);
    if (failed(r))
      return failure();
    return attributeOf(*r, e);
  }
  if (v.kind == Val::Kind::DType && v.dtBlock) {
    if (a == "element_ty" || a == "scalar")
      return Val::dtype(v.dt, v.dtPtr);
    if (a == "shape")
      return shapeTuple(v.blockShape);
    if (a == "numel")
      return Val::integer(TType{v.dt, v.dtPtr, {v.blockShape.begin(),
                                               v.blockShape.end()}}
                              .numel());
    if (a == "is_block")
      return Val::method("dtype." + a, v);
    return fail(e->attrRange.begin, "unknown attribute `" + a +
                                        "` of the block type " + v.repr());
  }
  if (v.kind == Val::Kind::DType) {
    if (a == "scalar")
      return v;
    if (a == "element_ty") {
      if (!v.dtPtr)
        return fail(e->attrRange.begin,
                    "`element_ty` is only defined for pointer dtypes, not " +
                        v.repr());
      return Val::dtype(v.dt);
    }
    if (a == "primitive_bitwidth")
      return Val::integer(v.dtPtr ? 64 : bitWidth(v.dt));
    if (a == "is_ptr" || (llvm::StringRef(a).starts_with("is_") &&
                          dtypePredicate(v.dt, a)))
      return Val::method("dtype." + a, v);
    if (a == "int_bitwidth" && !v.dtPtr && isIntDType(v.dt))
      return Val::integer(bitWidth(v.dt));
    if (a == "name")
      return Val::str(v.dtPtr ? std::string("pointer<") + tritonName(v.dt) + ">"
                              : std::string(tritonName(v.dt)));
    return fail(e->attrRange.begin,
                "unknown attribute `" + a + "` of dtype " + v.repr());
  }
  // A namedtuple's fields (Triton's tuple_type with `fields`).
  if (v.kind == Val::Kind::Tuple && v.fields) {
    auto it = llvm::find(*v.fields, a);
    if (it != v.fields->end())
      return v.elems[it - v.fields->begin()];
    if (a == "_fields") {
      std::vector<Val> names;
      for (const std::string &f : *v.fields)
        names.push_back(Val::str(f));
      return Val::tuple(std::move(names));
    }
    return fail(e->attrRange.begin,
                "the namedtuple " + (v.s.empty() ? std::string() : "`" + v.s + "` ") +
                    "has no field `" + a + "` (its fields: " +
                    llvm::join(*v.fields, ", ") + ")");
  }
  if (v.kind == Val::Kind::Tuple)
    return fail(e->attrRange.begin,
                "unknown attribute `" + text(e) + "`: a plain tuple of " +
                    std::to_string(v.elems.size()) +
                    " element(s) has no attributes (index it, `x[0]`; a "
                    "namedtuple argument's fields are read by name)");
  return fail(e->attrRange.begin, "unknown attribute `" + text(e) + "` (" +
                                      typeName(v) + " has no attributes)");
}

/// `desc.<attr>` of a tensor descriptor (Triton's tensor_descriptor).
FailureOr<Val> IRGen::descriptorAttribute(const Val &v,
                                          const AttributeExpr *e) {
  const std::string &a = e->attr;
  if (a == "load")
    return Val::method("tl.load_tensor_descriptor", v);
  if (a == "store")
    return Val::method("tl.store_tensor_descriptor", v);
  if (a == "atomic_add" || a == "atomic_min" || a == "atomic_max" ||
      a == "atomic_and" || a == "atomic_or" || a == "atomic_xor")
    return Val::method("tl.tensor_descriptor." + a, v);
  if (a == "dtype")
    return Val::dtype(v.bpBase().type.dtype);
  if (a == "block_shape") {
    std::vector<Val> dims;
    for (int64_t d : v.blockShape)
      dims.push_back(Val::integer(d));
    return Val::tuple(std::move(dims));
  }
  if (a == "shape" || a == "strides") {
    std::vector<Val> dims;
    for (size_t d = 0; d < v.bpRank(); ++d)
      dims.push_back(a == "shape" ? v.bpShape(d) : v.bpStride(d));
    return Val::tuple(std::move(dims));
  }
  if (a == "gather" || a == "scatter")
    return fail(e->attrRange.begin,
                "`desc." + a +
                    "` (a Blackwell TMA gather/scatter) is not supported");
  return fail(e->attrRange.begin, "unknown attribute `" + a +
                                      "` of a tensor descriptor (" +
                                      typeName(v) + ")");
}

FailureOr<Val> IRGen::evalArgs(const CallExpr *e, CallArgs &out) {
  for (const Expr *a : e->args) {
    // `f(x, *t)` of a tuple (Triton 3.3+): its elements, in order.
    if (auto *star = llvm::dyn_cast<StarredExpr>(a)) {
      FailureOr<Val> t = eval(star->value);
      if (failed(t))
        return failure();
      if (t->kind != Val::Kind::Tuple)
        return fail(a, "`*` unpacks tuples in Triton kernels, not " +
                           typeName(*t));
      for (const Val &el : t->elems) {
        out.pos.push_back(el);
        out.posNodes.push_back(a);
      }
      continue;
    }
    FailureOr<Val> v = eval(a);
    if (failed(v))
      return failure();
    out.pos.push_back(*v);
    out.posNodes.push_back(a);
  }
  for (const Keyword &k : e->keywords) {
    if (k.name.empty())
      return fail(k.range.begin, "unpacking keyword arguments with `**` is "
                                 "not supported in Triton kernels");
    FailureOr<Val> v = eval(k.value);
    if (failed(v))
      return failure();
    out.kw.emplace_back(k.name, *v);
    out.kwNodes.push_back(k.value);
  }
  return Val::none();
}

/// getattr(obj, NAME[, default]) / hasattr(obj, NAME) with a constexpr NAME
/// (`getattr(x, MATH_FN)()`, `getattr(tl, OP)`): `obj.NAME` at compile time.
FailureOr<Val> IRGen::evalGetattr(const CallExpr *e, bool has) {
  const char *fn = has ? "hasattr" : "getattr";
  size_t maxArgs = has ? 2 : 3;
  if (e->args.size() < 2 || e->args.size() > maxArgs || !e->keywords.empty() ||
      llvm::any_of(e->args, [](const Expr *a) { return llvm::isa<StarredExpr>(a); }))
    return fail(e, std::string("`") + fn + "` takes an object, a constexpr name" +
                       (has ? "" : " and an optional default"));
  FailureOr<Val> name = eval(e->args[1]);
  if (failed(name))
    return failure();
  if (name->kind != Val::Kind::Str)
    return fail(e->args[1], std::string("the name given to `") + fn +
                                "` must be a constexpr string, got " +
                                typeName(*name));
  FailureOr<Val> obj = eval(e->args[0]);
  if (failed(obj))
    return failure();
  // The attribute as if written `obj.NAME` (kept: diagnostics and module
  // loads may refer to the node later).
  synthesized.push_back(std::make_unique<AttributeExpr>(
      e->range, e->args[0], name->s, e->args[1]->range));
  const AttributeExpr &attr = *synthesized.back();
  if (!has && e->args.size() == 2)
    return attributeOf(*obj, &attr);
  // With a default (or for hasattr): a missing attribute is not an error.
  std::optional<CapturedError> captured;
  std::optional<CapturedError> *outer = capture;
  capture = &captured;
  FailureOr<Val> v = attributeOf(*obj, &attr);
  capture = outer;
  if (has)
    return Val::boolean(succeeded(v));
  if (succeeded(v))
    return v;
  return eval(e->args[2]);
}

FailureOr<Val> IRGen::evalCall(const CallExpr *e) {
  FailureOr<Val> callee = eval(e->func);
  if (failed(callee))
    return failure();
  if (callee->kind == Val::Kind::Builtin &&
      (callee->s == "getattr" || callee->s == "hasattr"))
    return evalGetattr(e, callee->s == "hasattr");
  CallArgs args;
  if (failed(evalArgs(e, args)))
    return failure();
  return call(*callee, args, e);
}

FailureOr<Val> IRGen::call(const Val &callee, const CallArgs &args,
                           const CallExpr *e) {
  switch (callee.kind) {
  case Val::Kind::Builtin:
    return callBuiltin(callee.s, args, e);
  case Val::Kind::Method: {
    CallArgs withSelf = args;
    withSelf.pos.insert(withSelf.pos.begin(), *callee.self);
    withSelf.posNodes.insert(withSelf.posNodes.begin(), e->func);
    return callBuiltin(callee.s, withSelf, e);
  }
  case Val::Kind::Function:
    return callFunction(callee.fn, args, e);
  case Val::Kind::NamedTupleClass:
    return constructNamedTuple(callee, args, e);
  case Val::Kind::DType:
    // `tl.float32(-float("inf"))`: a scalar of that dtype (Triton's
    // dtype.__call__); a runtime value is converted.
    if (!callee.dtPtr && args.pos.size() == 1 && args.kw.empty() &&
        (args.pos[0].isNumber() || args.pos[0].isRuntime()))
      return args.pos[0].isNumber() ? constant(args.pos[0], callee.dt, e)
                                    : cast(args.pos[0], callee.dt, e);
    if (!callee.dtPtr)
      return fail(e, "`" + text(e->func) +
                         "(...)` takes one number or tensor");
    [[fallthrough]];
  default:
    return fail(e->func, "`" + text(e->func) + "` is not callable (it is " +
                             typeName(callee) + ")");
  }
}

/// `Point(x, y=...)` of a NamedTuple class: a tuple with its fields, the
/// arguments bound as Python binds them (defaults from the class body).
FailureOr<Val> IRGen::constructNamedTuple(const Val &cls, const CallArgs &args,
                                          const CallExpr *e) {
  const std::vector<std::string> &fields = *cls.fields;
  size_t n = fields.size();
  if (args.pos.size() > n)
    return fail(args.posNodes[n], "`" + cls.s + "` takes " + std::to_string(n) +
                                      " field" + (n == 1 ? "" : "s") + " but " +
                                      std::to_string(args.pos.size()) +
                                      " were given");
  std::vector<std::optional<Val>> bound(n);
  for (size_t k = 0; k < args.pos.size(); ++k)
    bound[k] = args.pos[k];
  for (size_t k = 0; k < args.kw.size(); ++k) {
    auto it = llvm::find(fields, args.kw[k].first);
    if (it == fields.end())
      return fail(args.kwNodes[k], "`" + cls.s + "` has no field `" +
                                       args.kw[k].first + "` (its fields: " +
                                       llvm::join(fields, ", ") + ")");
    size_t idx = it - fields.begin();
    if (bound[idx])
      return fail(args.kwNodes[k], "`" + cls.s + "` got multiple values for "
                                                 "the field `" +
                                       fields[idx] + "`");
    bound[idx] = args.kw[k].second;
  }
  Val t = Val::tuple({});
  for (size_t k = 0; k < n; ++k) {
    if (!bound[k] && cls.elems[k].kind == Val::Kind::Undef)
      return fail(e, "`" + cls.s + "` is missing the field `" + fields[k] + "`");
    t.elems.push_back(bound[k] ? *bound[k] : cls.elems[k]);
  }
  t.s = cls.s;
  t.fields = cls.fields;
  return t;
}

FailureOr<Val> IRGen::evalBoolOp(const BoolOpExpr *e) {
  // As Triton: operands are evaluated in order; a constexpr that decides
  // the result (false in `and`, true in `or`) is the result, with the rest
  // never evaluated, even after runtime operands (`if is_lead and not SKIP:`
  // with SKIP is a constexpr False `if`); other constexprs drop out; the
  // runtime operands left combine as booleans.
  llvm::SmallVector<std::pair<Val, const Expr *>> runtime;
  std::optional<Val> last;
  for (const Expr *operand : e->values) {
    FailureOr<Val> v = eval(operand);
    if (failed(v))
      return failure();
    if (v->isRuntime()) {
      runtime.push_back({*v, operand});
      continue;
    }
    if (!v->isConstexpr())
      return fail(operand, "`" + std::string(e->isAnd ? "and" : "or") +
                               "` cannot be applied to " + typeName(*v));
    if (v->truthy() != e->isAnd)
      return *v;
    last = *v;
  }
  if (runtime.empty())
    return *last;
  FailureOr<Val> acc = toBool(runtime.back().first, runtime.back().second);
  if (failed(acc))
    return failure();
  for (size_t k = runtime.size() - 1; k-- > 0;) {
    FailureOr<Val> l = toBool(runtime[k].first, runtime[k].second);
    if (failed(l))
      return failure();
    acc = binary(e->isAnd ? BinOpKind::BitAnd : BinOpKind::BitOr, *l, *acc, e);
    if (failed(acc))
      return failure();
  }
  return acc;
}

FailureOr<Val> IRGen::evalCompare(const CompareExpr *e) {
  FailureOr<Val> l = eval(e->left);
  if (failed(l))
    return failure();
  std::optional<Val> acc;
  for (size_t k = 0; k < e->ops.size(); ++k) {
    FailureOr<Val> r = eval(e->comparators[k]);
    if (failed(r))
      return failure();
    FailureOr<Val> c = compare(e->ops[k], *l, *r, e);
    if (failed(c))
      return failure();
    if (!acc) {
      acc = *c;
    } else if (!acc->isRuntime() && !c->isRuntime()) {
      acc = Val::boolean(acc->truthy() && c->truthy());
    } else {
      FailureOr<Val> a = binary(BinOpKind::BitAnd, *acc, *c, e);
      if (failed(a))
        return failure();
      acc = *a;
    }
    if (!acc->isRuntime() && !acc->truthy())
      return *acc; // chained comparisons short-circuit
    l = r;
  }
  return *acc;
}

FailureOr<Val> IRGen::evalIfExp(const IfExpExpr *e) {
  FailureOr<IfTest> test = evalIfTest(e->test, "condition");
  if (failed(test))
    return failure();
  if (test->known)
    return eval(*test->known ? e->body : e->orelse);
  // Both arms are evaluated in their own region of an scf.if.
  auto ifOp = openIf(b, loc(e), test->cond);
  Val arms[2];
  for (int k = 0; k < 2; ++k) {
    const Expr *arm = k == 0 ? e->body : e->orelse;
    mlir::OpBuilder::InsertionGuard g(b);
    insertAtEnd(b, armBlock(ifOp, k));
    FailureOr<Val> v = eval(arm);
    if (failed(v))
      return failure();
    FailureOr<Val> rv = toRuntime(*v, arm);
    if (failed(rv))
      return failure();
    arms[k] = *rv;
  }
  if (arms[0].type != arms[1].type)
    return fail(e, "the arms of the conditional expression have different "
                   "types: " +
                       typeName(arms[0]) + " and " + typeName(arms[1]));
  auto res = closeIf(b, ifOp, loc(e), arms[0].value, arms[1].value);
  return Val::runtime(res.getResult(0), arms[0].type);
}
