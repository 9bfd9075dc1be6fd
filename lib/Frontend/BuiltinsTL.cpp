//===- BuiltinsTL.cpp - triton.language builtins --------------------------===//
//
// Memory operations, atomics, reductions, math and tensor construction with
// Triton's argument conventions and implicit conversions.
//
//===----------------------------------------------------------------------===//
#include "Builtins/Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;
namespace arith = mlir::arith;
namespace math = mlir::math;

//===----------------------------------------------------------------------===//
// Builtins
//===----------------------------------------------------------------------===//

/// `mask` for a load/store/atomic through `ptr`; null when not given.
static FailureOr<mlir::Value> prepareMask(IRGen &g, ArgReader &rd, const Arg &a,
                                          const Val &ptr) {
  if (rd.isNone(a))
    return mlir::Value();
  FailureOr<Val> m = rd.value(a, "mask");
  if (failed(m))
    return failure();
  if (m->type.isPtr || m->type.dtype != DType::I1)
    return g.fail(a.node, "`mask` of `" + rd.fn +
                              "` must be boolean (int1), got " +
                              g.typeName(*m));
  if (!ptr.type.isTensor() && m->type.isTensor())
    return g.fail(a.node, "`mask` of `" + rd.fn + "` is a tensor (" +
                              g.typeName(*m) + ") but the pointer is a scalar");
  FailureOr<Val> bm = g.broadcastTo(*m, ptr.type.shape, a.node, "`mask`");
  if (failed(bm))
    return failure();
  return bm->value;
}

/// Block-pointer-only `boundary_check`: only its default `()` is accepted.
static LogicalResult checkNoBoundaryCheck(IRGen &g, const Arg &a) {
  if (a.given && !(a.v.kind == Val::Kind::Tuple && a.v.elems.empty()))
    return g.fail(a.node, "`boundary_check` is not supported (block "
                          "pointers are not supported)");
  return success();
}

/// `cache_modifier`: empty or one of `allowed`.
static LogicalResult
checkCacheModifier(IRGen &g, ArgReader &rd, const Arg &a,
                   llvm::ArrayRef<llvm::StringRef> allowed) {
  if (!a.given)
    return success();
  FailureOr<std::string> cm = rd.constStr(a, "cache_modifier");
  if (failed(cm))
    return failure();
  if (cm->empty() || llvm::is_contained(allowed, *cm))
    return success();
  std::string expected;
  for (size_t k = 0; k < allowed.size(); ++k)
    expected += (k == 0                    ? ""
                 : k + 1 == allowed.size() ? " or "
                                           : ", ") +
                allowed[k].str();
  return g.fail(a.node, "unknown cache modifier `" + *cm + "` for `" + rd.fn +
                            "` (expected " + expected + ")");
}

/// A value stored or exchanged through `ptr`: broadcast, then cast to the
/// element type (Triton converts implicitly).
static FailureOr<Val> prepareValue(IRGen &g, ArgReader &rd, const Arg &a,
                                   const Val &ptr, llvm::StringRef what) {
  if (a.v.isNumber())
    return g.broadcastTo(*g.constant(a.v, ptr.type.dtype, a.node),
                         ptr.type.shape, a.node, "`" + what.str() + "`");
  FailureOr<Val> v = rd.value(a, what);
  if (failed(v))
    return failure();
  if (v->type.isPtr)
    return g.fail(a.node, "`" + what + "` of `" + rd.fn +
                              "` cannot be a pointer (" + g.typeName(*v) + ")");
  if (!ptr.type.isTensor() && v->type.isTensor())
    return g.fail(a.node, "`" + what + "` of `" + rd.fn + "` is a tensor (" +
                              g.typeName(*v) + ") but the pointer is a scalar");
  FailureOr<Val> bv =
      g.broadcastTo(*v, ptr.type.shape, a.node, "`" + what.str() + "`");
  if (failed(bv))
    return failure();
  return g.cast(*bv, ptr.type.dtype, a.node);
}

static LogicalResult checkSemScope(IRGen &g, ArgReader &rd, const Arg &sem,
                                   const Arg &scope) {
  if (!rd.isNone(sem)) {
    FailureOr<std::string> s = rd.constStr(sem, "sem");
    if (failed(s))
      return failure();
    if (*s != "acq_rel")
      return g.fail(sem.node, "`sem=\"" + *s + "\"` of `" + rd.fn +
                                  "` is not supported (Kiln's atomics are "
                                  "acq_rel)");
  }
  if (!rd.isNone(scope)) {
    FailureOr<std::string> s = rd.constStr(scope, "scope");
    if (failed(s))
      return failure();
    if (*s != "gpu")
      return g.fail(scope.node, "`scope=\"" + *s + "\"` of `" + rd.fn +
                                    "` is not supported (Kiln's atomics "
                                    "have gpu scope)");
  }
  return success();
}

/// tl.sum / tl.max / tl.min.
static FailureOr<Val> reduce(IRGen &g, ArgReader &rd, llvm::StringRef which,
                             llvm::ArrayRef<Arg> a, const CallExpr *e,
                             const Arg &keepDimsArg,
                             std::optional<DType> forced) {
  FailureOr<Val> in = rd.value(a[0], "input");
  if (failed(in))
    return failure();
  Val v = *in;
  if (!v.type.isTensor() || v.type.isPtr)
    return g.fail(a[0].node, "`" + rd.fn +
                                 "` expects a tensor of numbers, "
                                 "got " +
                                 g.typeName(v));
  DType d = v.type.dtype;
  std::optional<DType> target = forced;
  if (!target) {
    if (which == "sum") {
      if (isIntDType(d) && bitWidth(d) < 32)
        target = DType::I32;
    } else if (bitWidth(d) < 32) {
      target = isFloat(d) ? DType::F32 : DType::I32;
    }
  }
  if (which != "sum" && isUnsigned(target.value_or(d)))
    return g.fail(a[0].node, "`" + rd.fn +
                                 "` on unsigned integers is not "
                                 "supported");
  if (target && *target != d) {
    FailureOr<Val> c = g.cast(v, *target, a[0].node);
    if (failed(c))
      return failure();
    v = *c;
  }
  FailureOr<bool> keep = rd.isNone(keepDimsArg)
                             ? FailureOr<bool>(false)
                             : rd.constBool(keepDimsArg, "keep_dims");
  if (failed(keep))
    return failure();
  int64_t rank = v.type.shape.size();
  llvm::SmallVector<unsigned, 2> axes;
  if (rd.isNone(a[1])) {
    for (int64_t k = rank - 1; k >= 0; --k)
      axes.push_back(unsigned(k));
  } else {
    FailureOr<unsigned> ax = rd.axis(a[1], rank);
    if (failed(ax))
      return failure();
    axes.push_back(*ax);
  }
  mlir::Location l = g.loc(e);
  for (unsigned ax : axes) {
    llvm::SmallVector<int64_t, 2> s(v.type.shape);
    s.erase(s.begin() + ax);
    TType t = v.type.withShape(s);
    mlir::Type rt = toMLIR(&g.ctx, t);
    mlir::Value r;
    if (which == "sum")
      r = tile::SumOp::create(g.b, l, rt, v.value, ax);
    else if (which == "max")
      r = tile::MaxOp::create(g.b, l, rt, v.value, ax);
    else
      r = tile::MinOp::create(g.b, l, rt, v.value, ax);
    v = Val::runtime(r, t);
  }
  if (*keep) {
    llvm::SmallVector<int64_t, 2> s(v.type.shape);
    for (unsigned ax : llvm::reverse(axes))
      s.insert(s.begin() + std::min<size_t>(ax, s.size()), 1);
    if (!v.type.isTensor())
      return g.broadcastTo(v, s, e, "result");
    // One reduced axis: put it back as size 1.
    TType t = v.type.withShape(s);
    return Val::runtime(
        tile::ExpandDimsOp::create(g.b, l, toMLIR(&g.ctx, t), v.value, axes[0]),
        t);
  }
  return v;
}

FailureOr<Val> IRGen::callTL(llvm::StringRef name, const CallArgs &args,
                             const CallExpr *e) {
  llvm::SmallVector<Arg, 8> a;
  ArgReader rd{*this, name};
  mlir::Location l = loc(e);
  auto bind = [&](llvm::ArrayRef<const char *> params) {
    return bindArgs(name, params, args, e, a);
  };

  if (name.starts_with("tl."))
    if (const BuiltinDef *def = findBuiltin(name.drop_front(3)))
      return callRegistered(*this, *def, args, e);

  //===--- triton.language ----------------------------------------------===//
  if (name == "tl.constexpr") {
    if (failed(bind({"value"})))
      return failure();
    if (!a[0].v.isConstexpr())
      return fail(a[0].node, "`tl.constexpr` needs a compile-time value, "
                             "got " +
                                 typeName(a[0].v));
    return a[0].v;
  }
  if (name == "tl.range" || name == "tl.static_range")
    return fail(e, "`" + name + "` can only be the iterable of a `for` loop");
  if (name == "tl.program_id" || name == "tl.num_programs") {
    if (failed(bind({"axis"})))
      return failure();
    FailureOr<int64_t> ax = rd.constInt(a[0], "axis");
    if (failed(ax))
      return failure();
    if (*ax < 0 || *ax > 2)
      return fail(a[0].node, "`" + name + "` axis must be 0, 1 or 2, got " +
                                 std::to_string(*ax));
    mlir::Type i32 = b.getI32Type();
    mlir::Value v =
        name == "tl.program_id"
            ? mlir::Value(tile::ProgramIdOp::create(b, l, i32, unsigned(*ax)))
            : tile::NumProgramsOp::create(b, l, i32, unsigned(*ax));
    return Val::runtime(v, TType{DType::I32, false, {}});
  }
  if (name == "tl.arange") {
    if (failed(bind({"start", "end"})))
      return failure();
    for (const Arg &x : a)
      if (x.v.kind != Val::Kind::Int)
        return fail(x.node, "`tl.arange` arguments must be constexpr "
                            "integers, got " +
                                typeName(x.v));
    int64_t s = a[0].v.i, en = a[1].v.i;
    if (s < 0 || en > INT32_MAX || s > INT32_MAX)
      return fail(e, "`tl.arange` bounds must be in [0, 2**31), got " +
                         std::to_string(s) + " and " + std::to_string(en));
    if (en <= s)
      return fail(e, "`tl.arange` end (" + std::to_string(en) +
                         ") must be greater than start (" + std::to_string(s) +
                         ")");
    int64_t n = en - s;
    if ((n & (n - 1)) != 0)
      return fail(e, "`tl.arange` length " + std::to_string(n) +
                         " is not a power of two");
    if (n > kMaxTensorNumel)
      return fail(e, "`tl.arange` length " + std::to_string(n) +
                         " exceeds the maximum tensor size of " +
                         std::to_string(kMaxTensorNumel) + " elements");
    TType t{DType::I32, false, {n}};
    return Val::runtime(tile::ArangeOp::create(b, l, toMLIR(&ctx, t),
                                               uint32_t(s), uint32_t(en)),
                        t);
  }
  if (name == "tl.zeros" || name == "tl.full" || name == "tl.zeros_like") {
    llvm::SmallVector<int64_t, 2> shape;
    DType d;
    Val value = Val::integer(0);
    const Node *valueNode = e;
    if (name == "tl.zeros_like") {
      if (failed(bind({"input", "dtype=None"})))
        return failure();
      if (!a[0].v.isRuntime() || a[0].v.type.isPtr)
        return fail(a[0].node, "`tl.zeros_like` expects a tensor of "
                               "numbers, got " +
                                   typeName(a[0].v));
      shape.assign(a[0].v.type.shape.begin(), a[0].v.type.shape.end());
      d = a[0].v.type.dtype;
      if (!rd.isNone(a[1])) {
        FailureOr<DType> dd = rd.dtype(a[1], "dtype");
        if (failed(dd))
          return failure();
        d = *dd;
      }
    } else {
      bool full = name == "tl.full";
      if (failed(full ? bind({"shape", "value", "dtype"})
                      : bind({"shape", "dtype"})))
        return failure();
      FailureOr<llvm::SmallVector<int64_t, 2>> s = rd.shape(a[0]);
      if (failed(s))
        return failure();
      shape = *s;
      const Arg &dArg = full ? a[2] : a[1];
      if (!dArg.given) {
        d = DType::F32; // Triton's default for tl.zeros
      } else {
        FailureOr<DType> dd = rd.dtype(dArg, "dtype");
        if (failed(dd))
          return failure();
        d = *dd;
      }
      if (full) {
        value = a[1].v;
        valueNode = a[1].node;
      }
    }
    FailureOr<Val> scalar;
    if (value.isNumber()) {
      scalar = constant(value, d, valueNode);
    } else if (value.isRuntime() && !value.type.isTensor() &&
               !value.type.isPtr) {
      scalar = cast(value, d, valueNode);
    } else {
      return fail(valueNode, "`value` of `tl.full` must be a scalar, got " +
                                 typeName(value));
    }
    if (failed(scalar))
      return failure();
    return broadcastTo(*scalar, shape, e, "value");
  }
  if (name == "tl.load") {
    if (failed(bind({"pointer", "mask=None", "other=None", "boundary_check=()",
                     "padding_option=", "cache_modifier=", "eviction_policy=",
                     "volatile=False"})))
      return failure();
    FailureOr<Val> ptr = rd.pointer(a[0]);
    if (failed(ptr))
      return failure();
    if (!rd.isNone(a[2]) && rd.isNone(a[1]))
      return fail(a[2].node, "`other` given without `mask`");
    if (failed(checkNoBoundaryCheck(*this, a[3])))
      return failure();
    if (a[4].given && !(a[4].v.kind == Val::Kind::Str && a[4].v.s.empty()))
      return fail(a[4].node, "`padding_option` is not supported (block "
                             "pointers are not supported)");
    if (failed(checkCacheModifier(*this, rd, a[5], {".ca", ".cg", ".cv"})))
      return failure();
    if (a[6].given) {
      FailureOr<std::string> ev = rd.constStr(a[6], "eviction_policy");
      if (failed(ev))
        return failure();
      if (!ev->empty() && *ev != "evict_last" && *ev != "evict_first")
        return fail(a[6].node, "unknown eviction policy `" + *ev +
                                   "` (expected evict_last or evict_first)");
    }
    if (a[7].given && failed(rd.constBool(a[7], "volatile")))
      return failure();
    FailureOr<mlir::Value> mask = prepareMask(*this, rd, a[1], *ptr);
    if (failed(mask))
      return failure();
    mlir::Value other;
    if (!rd.isNone(a[2])) {
      FailureOr<Val> o = prepareValue(*this, rd, a[2], *ptr, "other");
      if (failed(o))
        return failure();
      other = o->value;
    }
    TType t = ptr->type.withDType(ptr->type.dtype);
    return Val::runtime(
        tile::LoadOp::create(b, l, toMLIR(&ctx, t), ptr->value, *mask, other),
        t);
  }
  if (name == "tl.store") {
    if (failed(bind({"pointer", "value", "mask=None", "boundary_check=()",
                     "cache_modifier=", "eviction_policy="})))
      return failure();
    FailureOr<Val> ptr = rd.pointer(a[0]);
    if (failed(ptr))
      return failure();
    if (failed(checkNoBoundaryCheck(*this, a[3])) ||
        failed(
            checkCacheModifier(*this, rd, a[4], {".wb", ".cg", ".cs", ".wt"})))
      return failure();
    if (a[5].given && failed(rd.constStr(a[5], "eviction_policy")))
      return failure();
    FailureOr<Val> v = prepareValue(*this, rd, a[1], *ptr, "value");
    if (failed(v))
      return failure();
    FailureOr<mlir::Value> mask = prepareMask(*this, rd, a[2], *ptr);
    if (failed(mask))
      return failure();
    tile::StoreOp::create(b, l, ptr->value, v->value, *mask);
    return Val::none();
  }
  if (name == "tl.atomic_cas") {
    if (failed(bind({"pointer", "cmp", "val", "sem=None", "scope=None"})))
      return failure();
    FailureOr<Val> ptr = rd.pointer(a[0]);
    if (failed(ptr) || failed(checkSemScope(*this, rd, a[3], a[4])))
      return failure();
    unsigned w = bitWidth(ptr->type.dtype);
    if (w != 16 && w != 32 && w != 64)
      return fail(a[0].node, "`tl.atomic_cas` supports 16, 32 and 64-bit "
                             "elements, not " +
                                 std::string(tritonName(ptr->type.dtype)));
    FailureOr<Val> cmp = prepareValue(*this, rd, a[1], *ptr, "cmp");
    if (failed(cmp))
      return failure();
    FailureOr<Val> val = prepareValue(*this, rd, a[2], *ptr, "val");
    if (failed(val))
      return failure();
    TType t = ptr->type.withDType(ptr->type.dtype);
    return Val::runtime(tile::AtomicCASOp::create(b, l, toMLIR(&ctx, t),
                                                  ptr->value, cmp->value,
                                                  val->value),
                        t);
  }
  if (name.starts_with("tl.atomic_")) {
    llvm::StringRef op = name.drop_front(strlen("tl.atomic_"));
    std::optional<tile::RMWKind> kind =
        llvm::StringSwitch<std::optional<tile::RMWKind>>(op)
            .Case("xchg", tile::RMWKind::xchg)
            .Case("add", tile::RMWKind::add)
            .Case("max", tile::RMWKind::max)
            .Case("min", tile::RMWKind::min)
            .Case("and", tile::RMWKind::and_)
            .Case("or", tile::RMWKind::or_)
            .Case("xor", tile::RMWKind::xor_)
            .Default(std::nullopt);
    if (!kind)
      return fail(e, "`" + name + "` is not supported");
    if (failed(bind({"pointer", "val", "mask=None", "sem=None", "scope=None"})))
      return failure();
    FailureOr<Val> ptr = rd.pointer(a[0]);
    if (failed(ptr) || failed(checkSemScope(*this, rd, a[3], a[4])))
      return failure();
    DType d = ptr->type.dtype;
    bool intOnly = *kind != tile::RMWKind::add && *kind != tile::RMWKind::xchg;
    if (intOnly && isFloat(d))
      return fail(a[0].node, "`" + name + "` on floating-point values (" +
                                 tritonName(d) + ") is not supported");
    if ((*kind == tile::RMWKind::max || *kind == tile::RMWKind::min) &&
        isUnsigned(d))
      return fail(a[0].node, "`" + name +
                                 "` on unsigned integers is not "
                                 "supported");
    unsigned w = bitWidth(d);
    bool okWidth =
        w == 32 || w == 64 || (*kind == tile::RMWKind::add && d == DType::F16);
    if (!okWidth)
      return fail(a[0].node, "`" + name + "` does not support " +
                                 tritonName(d) + " elements");
    FailureOr<Val> val = prepareValue(*this, rd, a[1], *ptr, "val");
    if (failed(val))
      return failure();
    FailureOr<mlir::Value> mask = prepareMask(*this, rd, a[2], *ptr);
    if (failed(mask))
      return failure();
    TType t = ptr->type.withDType(d);
    return Val::runtime(tile::AtomicRMWOp::create(b, l, toMLIR(&ctx, t), *kind,
                                                  ptr->value, val->value,
                                                  *mask),
                        t);
  }
  if (name == "tl.sum") {
    if (failed(bind({"input", "axis=None", "keep_dims=False", "dtype=None"})))
      return failure();
    std::optional<DType> forced;
    if (!rd.isNone(a[3])) {
      FailureOr<DType> d = rd.dtype(a[3], "dtype");
      if (failed(d))
        return failure();
      forced = *d;
    }
    return reduce(*this, rd, "sum", a, e, a[2], forced);
  }
  if (name == "tl.max" || name == "tl.min") {
    if (failed(bind({"input", "axis=None", "return_indices=False",
                     "return_indices_tie_break_left=True", "keep_dims=False"})))
      return failure();
    if (!rd.isNone(a[2])) {
      FailureOr<bool> ri = rd.constBool(a[2], "return_indices");
      if (failed(ri))
        return failure();
      if (*ri)
        return fail(a[2].node, "`return_indices=True` is not supported");
    }
    return reduce(*this, rd, name.drop_front(3), a, e, a[4], std::nullopt);
  }
  if (name == "tl.where") {
    if (failed(bind({"condition", "x", "y"})))
      return failure();
    FailureOr<Val> c = rd.value(a[0], "condition");
    if (failed(c))
      return failure();
    FailureOr<Val> cb = toBool(*c, a[0].node);
    if (failed(cb))
      return failure();
    Val x = a[1].v, y = a[2].v;
    if (failed(binaryTypeCheck(x, y, true, true, true, false, e, name)))
      return failure();
    if (x.type != y.type)
      return fail(e, "`tl.where` operands have different types: " +
                         typeName(x) + " and " + typeName(y));
    Val cond = *cb;
    // A scalar condition selects whole values; a tensor one selects
    // elementwise after broadcasting all three, in Triton's order.
    if (cond.type.isTensor()) {
      if (failed(broadcastPair(cond, x, e, name)) ||
          failed(broadcastPair(x, y, e, name)) ||
          failed(broadcastPair(cond, x, e, name)))
        return failure();
    }
    return Val::runtime(tile::WhereOp::create(b, l, toMLIR(&ctx, x.type),
                                              cond.value, x.value, y.value),
                        x.type);
  }
  if (name == "tl.sqrt" || name == "tl.rsqrt" || name == "tl.exp" ||
      name == "tl.exp2" || name == "tl.log") {
    if (failed(bind({"x"})))
      return failure();
    FailureOr<Val> x = rd.value(a[0], "x");
    if (failed(x))
      return failure();
    DType d = x->type.dtype;
    if (x->type.isPtr || (d != DType::F32 && d != DType::F64))
      return fail(a[0].node, "`" + name +
                                 "` expects fp32 or fp64 values, "
                                 "got " +
                                 typeName(*x) +
                                 " (convert with .to(tl.float32))");
    mlir::Value v;
    if (name == "tl.sqrt")
      v = math::SqrtOp::create(b, l, x->value);
    else if (name == "tl.rsqrt")
      v = math::RsqrtOp::create(b, l, x->value);
    else if (name == "tl.exp")
      v = math::ExpOp::create(b, l, x->value);
    else if (name == "tl.exp2")
      v = math::Exp2Op::create(b, l, x->value);
    else
      v = math::LogOp::create(b, l, x->value);
    return Val::runtime(v, x->type);
  }
  if (name == "tl.abs") {
    if (failed(bind({"x"})))
      return failure();
    FailureOr<Val> x = rd.value(a[0], "x");
    if (failed(x))
      return failure();
    if (x->type.isPtr)
      return fail(a[0].node, "`tl.abs` expects numbers, got " + typeName(*x));
    DType d = x->type.dtype;
    if (isFloat(d))
      return Val::runtime(math::AbsFOp::create(b, l, x->value), x->type);
    if (isUnsigned(d) || d == DType::I1)
      return *x;
    return Val::runtime(math::AbsIOp::create(b, l, x->value), x->type);
  }
  if (name == "tl.maximum" || name == "tl.minimum") {
    if (failed(bind({"x", "y", "propagate_nan=None"})))
      return failure();
    bool nanAll = false;
    if (!rd.isNone(a[2])) {
      if (a[2].v.kind != Val::Kind::Str)
        return fail(a[2].node, "`propagate_nan` must be "
                               "tl.PropagateNan.ALL or NONE");
      nanAll = a[2].v.s == "ALL";
    }
    Val x = a[0].v, y = a[1].v;
    if (x.isNumber() && y.isNumber()) {
      bool takeY = name == "tl.maximum" ? y.asDouble() > x.asDouble()
                                        : y.asDouble() < x.asDouble();
      return takeY ? y : x;
    }
    if (failed(binaryTypeCheck(x, y, false, false, true, false, e, name)))
      return failure();
    DType d = x.type.dtype;
    bool mx = name == "tl.maximum";
    mlir::Value v;
    if (isFloat(d)) {
      if (nanAll)
        v = mx ? mlir::Value(arith::MaximumFOp::create(b, l, x.value, y.value))
               : arith::MinimumFOp::create(b, l, x.value, y.value);
      else
        v = mx ? mlir::Value(arith::MaxNumFOp::create(b, l, x.value, y.value))
               : arith::MinNumFOp::create(b, l, x.value, y.value);
    } else if (isUnsigned(d)) {
      v = mx ? mlir::Value(arith::MaxUIOp::create(b, l, x.value, y.value))
             : arith::MinUIOp::create(b, l, x.value, y.value);
    } else {
      v = mx ? mlir::Value(arith::MaxSIOp::create(b, l, x.value, y.value))
             : arith::MinSIOp::create(b, l, x.value, y.value);
    }
    return Val::runtime(v, x.type);
  }
  if (name == "tl.fma") {
    if (failed(bind({"x", "y", "z"})))
      return failure();
    Val x = a[0].v, y = a[1].v, z = a[2].v;
    if (failed(binaryTypeCheck(x, y, false, false, true, false, e, name)) ||
        failed(binaryTypeCheck(z, x, false, false, true, false, e, name)) ||
        failed(binaryTypeCheck(z, y, false, false, true, false, e, name)))
      return failure();
    if (!isFloat(x.type.dtype))
      return fail(e,
                  "`tl.fma` expects floating-point values, got " + typeName(x));
    return Val::runtime(math::FmaOp::create(b, l, x.value, y.value, z.value),
                        x.type);
  }
  if (name == "tl.cdiv") {
    if (failed(bind({"x", "div"})))
      return failure();
    // (x + div - 1) // div, with Python semantics on constexprs.
    FailureOr<Val> s = binary(BinOpKind::Add, a[0].v, a[1].v, e);
    if (failed(s))
      return failure();
    FailureOr<Val> m = binary(BinOpKind::Sub, *s, Val::integer(1), e);
    if (failed(m))
      return failure();
    return binary(BinOpKind::FloorDiv, *m, a[1].v, e);
  }
  if (name == "tl.debug_barrier") {
    if (failed(bind({})))
      return failure();
    tile::BarrierOp::create(b, l);
    return Val::none();
  }
  if (name == "tl.multiple_of" || name == "tl.max_contiguous") {
    if (failed(bind({"input", "values"})))
      return failure();
    FailureOr<Val> x = rd.value(a[0], "input");
    if (failed(x))
      return failure();
    if (x->type.isPtr || isFloat(x->type.dtype))
      return fail(a[0].node, "`" + name + "` expects an integer value, got " +
                                 typeName(*x));
    std::vector<Val> vals = a[1].v.kind == Val::Kind::Tuple
                                ? a[1].v.elems
                                : std::vector<Val>{a[1].v};
    size_t rank = std::max<size_t>(1, x->type.shape.size());
    if (vals.size() != rank)
      return fail(a[1].node, "`" + name +
                                 "` needs one value per dimension: "
                                 "got " +
                                 std::to_string(vals.size()) +
                                 " for a value of rank " +
                                 std::to_string(x->type.shape.size()));
    llvm::SmallVector<int32_t> ints;
    for (const Val &v : vals) {
      if (v.kind != Val::Kind::Int || v.i <= 0 || v.i > INT32_MAX)
        return fail(a[1].node, "`values` of `" + name +
                                   "` must be positive constexpr integers, "
                                   "got " +
                                   typeName(v));
      ints.push_back(int32_t(v.i));
    }
    mlir::Type t = toMLIR(&ctx, x->type);
    mlir::Value r =
        name == "tl.multiple_of"
            ? mlir::Value(tile::MultipleOfOp::create(b, l, t, x->value, ints))
            : tile::MaxContiguousOp::create(b, l, t, x->value, ints);
    return Val::runtime(r, x->type);
  }
  if (name == "tl.static_assert") {
    if (failed(bind({"cond", "msg="})))
      return failure();
    if (!a[0].v.isConstexpr())
      return fail(a[0].node, "`tl.static_assert` needs a constexpr "
                             "condition, got " +
                                 typeName(a[0].v));
    if (!a[0].v.truthy()) {
      std::string msg =
          a[1].given && a[1].v.kind == Val::Kind::Str ? ": " + a[1].v.s : "";
      return fail(e, "static assertion failed" + msg);
    }
    return Val::none();
  }
  if (name == "tl.device_print") {
    if (args.pos.empty())
      return fail(e, "`tl.device_print` needs a prefix string");
    if (args.pos[0].kind != Val::Kind::Str)
      return fail(args.posNodes[0], "the prefix of `tl.device_print` must "
                                    "be a constexpr string, got " +
                                        typeName(args.pos[0]));
    for (size_t k = 0; k < args.kw.size(); ++k) {
      if (args.kw[k].first != "hex")
        return fail(args.kwNodes[k], "`tl.device_print` got an unexpected "
                                     "keyword argument `" +
                                         args.kw[k].first + "`");
      if (args.kw[k].second.truthy())
        return fail(args.kwNodes[k], "`hex=True` is not supported");
    }
    llvm::SmallVector<mlir::Value> vals;
    for (size_t k = 1; k < args.pos.size(); ++k) {
      Arg x{args.pos[k], args.posNodes[k], true};
      FailureOr<Val> v = rd.value(x, "value");
      if (failed(v))
        return failure();
      vals.push_back(v->value);
    }
    tile::PrintOp::create(b, l, args.pos[0].s, vals);
    return Val::none();
  }
  if (name == "to" || name == "tl.cast") {
    if (failed(bind(
            {"input", "dtype", "fp_downcast_rounding=None", "bitcast=False"})))
      return failure();
    if (!a[0].v.isRuntime())
      return fail(a[0].node, "cannot convert " + typeName(a[0].v) +
                                 " with .to(); only tensors and runtime "
                                 "scalars have a dtype");
    if (a[1].v.kind == Val::Kind::DType && a[1].v.dtPtr)
      return fail(a[1].node, "casting to pointer types is not supported");
    FailureOr<DType> d = rd.dtype(a[1], "dtype");
    if (failed(d))
      return failure();
    if (!rd.isNone(a[3])) {
      FailureOr<bool> bc = rd.constBool(a[3], "bitcast");
      if (failed(bc))
        return failure();
      if (*bc)
        return bitcastValue(*this, a[0].v, *d, e);
    }
    if (!rd.isNone(a[2])) {
      FailureOr<std::string> r = rd.constStr(a[2], "fp_downcast_rounding");
      if (failed(r))
        return failure();
      if (*r != "rtne")
        return fail(a[2].node, "`fp_downcast_rounding=\"" + *r +
                                   "\"` is not supported (only \"rtne\")");
    }
    return cast(a[0].v, *d, e);
  }
  if (name == "tl.expand_dims") {
    if (failed(bind({"input", "axis"})))
      return failure();
    FailureOr<Val> x = rd.value(a[0], "input");
    if (failed(x))
      return failure();
    std::vector<Val> axes = a[1].v.kind == Val::Kind::Tuple
                                ? a[1].v.elems
                                : std::vector<Val>{a[1].v};
    Val v = *x;
    for (const Val &axv : axes) {
      int64_t rank = v.type.shape.size() + 1;
      FailureOr<unsigned> ax = rd.axis(Arg{axv, a[1].node, true}, rank);
      if (failed(ax))
        return failure();
      llvm::SmallVector<int64_t, 2> s(v.type.shape);
      s.insert(s.begin() + *ax, 1);
      if (!v.type.isTensor()) {
        FailureOr<Val> sv = broadcastTo(v, s, e, "input");
        if (failed(sv))
          return failure();
        v = *sv;
        continue;
      }
      TType t = v.type.withShape(s);
      v = Val::runtime(
          tile::ExpandDimsOp::create(b, l, toMLIR(&ctx, t), v.value, *ax), t);
    }
    return v;
  }
  if (name == "tl.broadcast_to") {
    if (args.pos.empty())
      return fail(e, "`tl.broadcast_to` needs an input");
    FailureOr<Val> x =
        rd.value(Arg{args.pos[0], args.posNodes[0], true}, "input");
    if (failed(x))
      return failure();
    Val shapeV;
    if (args.pos.size() == 2 && args.pos[1].kind == Val::Kind::Tuple)
      shapeV = args.pos[1];
    else
      shapeV =
          Val::tuple(std::vector<Val>(args.pos.begin() + 1, args.pos.end()));
    FailureOr<llvm::SmallVector<int64_t, 2>> s = rd.shape(Arg{shapeV, e, true});
    if (failed(s))
      return failure();
    return broadcastTo(*x, *s, e, "input");
  }
  return fail(e, "`" + name + "` is not supported");
}
