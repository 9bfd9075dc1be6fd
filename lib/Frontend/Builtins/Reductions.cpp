//===- Reductions.cpp - tl.sum, tl.max, tl.min ----------------------------===//
//
// Reductions over one axis or all axes, with Triton's widening of narrow
// operands.
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

static FailureOr<Val> maxminBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;

  if (!rd.isNone(a[2])) {
    FailureOr<bool> ri = rd.constBool(a[2], "return_indices");
    if (failed(ri))
      return failure();
    if (*ri)
      return g.fail(a[2].node, "`return_indices=True` is not supported");
  }
  return reduce(g, rd, name.drop_front(3), a, e, a[4], std::nullopt);
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
  };
  return defs;
}
