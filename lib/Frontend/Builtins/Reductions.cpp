//===- Reductions.cpp - tl.sum/max/min/argmax/argmin/xor_sum/reduce_or ---===//
//
// Reductions over one axis or all axes, with Triton's widening of narrow
// operands. sum/max/min of signed integers and floats use the named ops;
// unsigned max/min, the index-returning forms and the bitwise reductions
// build a tile.reduce with the combiner Triton's standard library uses.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;
namespace arith = mlir::arith;
namespace math = mlir::math;

namespace {
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
      // Triton's _pick_sum_dtype (int1 counts as unsigned there).
      if (isIntDType(d) && bitWidth(d) < 32)
        target = isUnsigned(d) || d == DType::I1 ? DType::U32 : DType::I32;
    } else if (bitWidth(d) < 32) {
      target = isFloat(d) ? DType::F32 : DType::I32;
    }
  }
  bool unsignedMinMax = which != "sum" && isUnsigned(target.value_or(d));
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
  if (unsignedMinMax) {
    std::optional<unsigned> axis;
    if (!rd.isNone(a[1])) {
      FailureOr<unsigned> ax = rd.axis(a[1], v.type.shape.size());
      if (failed(ax))
        return failure();
      axis = *ax;
    }
    mlir::Location l = g.loc(e);
    bool isMax = which == "max";
    auto body = [&](llvm::ArrayRef<Val> xs) -> FailureOr<llvm::SmallVector<mlir::Value>> {
      mlir::Value x = xs[0].value, y = xs[1].value;
      return llvm::SmallVector<mlir::Value>{
          isMax ? arith::MaxUIOp::create(g.b, l, x, y).getResult()
                : arith::MinUIOp::create(g.b, l, x, y).getResult()};
    };
    FailureOr<std::vector<Val>> r = reduceWith(g, {v}, axis, *keep, body, e);
    if (failed(r))
      return failure();
    return (*r)[0];
  }
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

static FailureOr<Val> sumBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  std::optional<DType> forced;
  if (!rd.isNone(a[3])) {
    FailureOr<DType> d = rd.dtype(a[3], "dtype");
    if (failed(d))
      return failure();
    forced = *d;
  }
  return reduce(g, rd, "sum", a, e, a[2], forced);
}

/// Triton's _reduce_with_indices with the _argmax/_argmin combiners: the
/// value wins when strictly greater (less), or equal with a smaller index
/// under `tieBreakLeft`; a NaN compares false, so the other operand wins.
static FailureOr<Val> reduceWithIndices(IRGen &g, ArgReader &rd, Val v,
                                        const Arg &axisArg, bool isMax,
                                        bool tieBreakLeft, bool keepDims,
                                        const CallExpr *e) {
  if (!v.type.isTensor() || v.type.isPtr)
    return g.fail(e, "`" + rd.fn + "` expects a tensor of numbers, got " +
                         g.typeName(v));
  if (rd.isNone(axisArg))
    return g.fail(axisArg.node, "`" + rd.fn +
                                    "` with indices needs an `axis`, got None");
  FailureOr<unsigned> axis = rd.axis(axisArg, v.type.shape.size());
  if (failed(axis))
    return failure();
  if (v.type.dtype == DType::BF16) {
    FailureOr<Val> c = g.cast(v, DType::F32, e);
    if (failed(c))
      return failure();
    v = *c;
  }
  mlir::Location l = g.loc(e);
  // The index of each element along the axis, broadcast to the input shape.
  int64_t n = v.type.shape[*axis];
  TType idxType{DType::I32, false, {n}};
  Val index = Val::runtime(
      tile::ArangeOp::create(g.b, l, toMLIR(&g.ctx, idxType), 0, int32_t(n)),
      idxType);
  if (v.type.shape.size() > 1) {
    // [n] -> size-1 dimensions around the axis, one at a time (any rank).
    llvm::SmallVector<int64_t, 4> s{n};
    for (unsigned d = 0; d < v.type.shape.size(); ++d) {
      if (d == *axis)
        continue;
      s.insert(s.begin() + d, 1);
      TType t = idxType.withShape(s);
      index = Val::runtime(
          tile::ExpandDimsOp::create(g.b, l, toMLIR(&g.ctx, t), index.value, d), t);
    }
    FailureOr<Val> b = g.broadcastTo(index, v.type.shape, e, "index");
    if (failed(b))
      return failure();
    index = *b;
  }
  DType d = v.type.dtype;
  bool fp = isFloat(d), uns = isUnsigned(d);
  auto body = [&](llvm::ArrayRef<Val> xs) -> FailureOr<llvm::SmallVector<mlir::Value>> {
    mlir::Value v1 = xs[0].value, i1 = xs[1].value, v2 = xs[2].value,
                i2 = xs[3].value;
    mlir::Value better, equal;
    if (fp) {
      better = arith::CmpFOp::create(g.b, l,
                                     isMax ? arith::CmpFPredicate::OGT
                                           : arith::CmpFPredicate::OLT,
                                     v1, v2);
      equal = arith::CmpFOp::create(g.b, l, arith::CmpFPredicate::OEQ, v1, v2);
    } else {
      arith::CmpIPredicate p =
          isMax ? (uns ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
                : (uns ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt);
      better = arith::CmpIOp::create(g.b, l, p, v1, v2);
      equal = arith::CmpIOp::create(g.b, l, arith::CmpIPredicate::eq, v1, v2);
    }
    if (tieBreakLeft) {
      mlir::Value left =
          arith::CmpIOp::create(g.b, l, arith::CmpIPredicate::slt, i1, i2);
      mlir::Value tie = arith::AndIOp::create(g.b, l, equal, left);
      better = arith::OrIOp::create(g.b, l, better, tie);
    }
    return llvm::SmallVector<mlir::Value>{
        arith::SelectOp::create(g.b, l, better, v1, v2),
        arith::SelectOp::create(g.b, l, better, i1, i2)};
  };
  FailureOr<std::vector<Val>> r = reduceWith(g, {v, index}, *axis, keepDims, body, e);
  if (failed(r))
    return failure();
  return Val::tuple(*r);
}

static FailureOr<Val> maxminBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;
  name.consume_front("tl.");

  if (!rd.isNone(a[2])) {
    FailureOr<bool> ri = rd.constBool(a[2], "return_indices");
    if (failed(ri))
      return failure();
    if (*ri) {
      FailureOr<Val> in = rd.value(a[0], "input");
      FailureOr<bool> left =
          rd.constBoolOr(a[3], "return_indices_tie_break_left", true);
      FailureOr<bool> keep = rd.constBoolOr(a[4], "keep_dims", false);
      if (failed(in) || failed(left) || failed(keep))
        return failure();
      return reduceWithIndices(g, rd, *in, a[1], name == "max", *left, *keep, e);
    }
  }
  return reduce(g, rd, name, a, e, a[4], std::nullopt);
}

/// tl.argmax / tl.argmin: the index half of max/min with return_indices.
static FailureOr<Val> argBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;
  name.consume_front("tl.");
  FailureOr<Val> in = rd.value(a[0], "input");
  FailureOr<bool> left = rd.constBoolOr(a[2], "tie_break_left", true);
  FailureOr<bool> keep = rd.constBoolOr(a[3], "keep_dims", false);
  if (failed(in) || failed(left) || failed(keep))
    return failure();
  FailureOr<Val> r =
      reduceWithIndices(g, rd, *in, a[1], name == "argmax", *left, *keep, e);
  if (failed(r))
    return failure();
  return r->elems[1];
}

/// tl.xor_sum / tl.reduce_or: integers only, no widening.
static FailureOr<Val> bitwiseBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;
  name.consume_front("tl.");
  bool isXor = name == "xor_sum";
  FailureOr<Val> in = rd.value(a[0], "input");
  if (failed(in))
    return failure();
  Val v = *in;
  if (!v.type.isTensor() || v.type.isPtr)
    return g.fail(a[0].node, "`" + rd.fn + "` expects a tensor of integers, got " +
                                 g.typeName(v));
  if (!isIntDType(v.type.dtype))
    return g.fail(a[0].node, std::string(isXor ? "xor_sum" : "reduce_or") +
                                 " only supported for integers, got " +
                                 g.typeName(v));
  std::optional<unsigned> axis;
  if (!rd.isNone(a[1])) {
    FailureOr<unsigned> ax = rd.axis(a[1], v.type.shape.size());
    if (failed(ax))
      return failure();
    axis = *ax;
  }
  FailureOr<bool> keep = rd.constBoolOr(a[2], "keep_dims", false);
  if (failed(keep))
    return failure();
  auto body = [&](llvm::ArrayRef<Val> xs) -> FailureOr<llvm::SmallVector<mlir::Value>> {
    mlir::Value x = xs[0].value, y = xs[1].value;
    return llvm::SmallVector<mlir::Value>{
        isXor ? arith::XOrIOp::create(g.b, l, x, y).getResult()
              : arith::OrIOp::create(g.b, l, x, y).getResult()};
  };
  FailureOr<std::vector<Val>> r = reduceWith(g, {v}, axis, *keep, body, e);
  if (failed(r))
    return failure();
  return (*r)[0];
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::reductionBuiltins() {
  static const BuiltinDef defs[] = {
      {"sum",
       {"input", "axis=None", "keep_dims=False", "dtype=None"},
       true,
       false,
       sumBuiltin,
       false},
      {"max",
       {"input", "axis=None", "return_indices=False",
        "return_indices_tie_break_left=True", "keep_dims=False"},
       true,
       false,
       maxminBuiltin,
       false},
      {"min",
       {"input", "axis=None", "return_indices=False",
        "return_indices_tie_break_left=True", "keep_dims=False"},
       true,
       false,
       maxminBuiltin,
       false},
      {"argmax", {"input", "axis", "tie_break_left=True", "keep_dims=False"},
       true, false, argBuiltin, false},
      {"argmin", {"input", "axis", "tie_break_left=True", "keep_dims=False"},
       true, false, argBuiltin, false},
      {"xor_sum", {"input", "axis=None", "keep_dims=False"}, true, false,
       bitwiseBuiltin, false},
      {"reduce_or", {"input", "axis", "keep_dims=False"}, true, false,
       bitwiseBuiltin, false},
  };
  return defs;
}
