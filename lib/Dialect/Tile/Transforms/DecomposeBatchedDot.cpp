//===- DecomposeBatchedDot.cpp - 3-D tile.dot -> B 2-D products ------------===//
//
// Triton lowers a batched dot with a three-dimensional mma layout whose
// warps may also spread over the batch. Kiln reuses its 2-D machinery
// instead: each batch entry is one ordinary product. The entries are taken
// apart with tile.split, which separates the last dimension's even and odd
// halves, so the batch dimension goes last first; slicing by halves keeps
// every intermediate shape a power of two, as the dialect requires.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "kiln/Dialect/Tile/IR/Tile.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEDECOMPOSEBATCHEDDOT
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

RankedTensorType withShape(RankedTensorType t, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, t.getElementType());
}

/// The entries of `x` (`R0 x R1 x S`) along its last dimension, in order:
/// entry i is `x[:, :, i]`.
void sliceLast(OpBuilder &b, Location loc, Value x,
               SmallVectorImpl<Value> &entries) {
  auto t = cast<RankedTensorType>(x.getType());
  int64_t r0 = t.getDimSize(0), r1 = t.getDimSize(1), s = t.getDimSize(2);
  if (s == 1) {
    entries.push_back(
        ReshapeOp::create(b, loc, withShape(t, {r0, r1}), x).getResult());
    return;
  }
  Value pairs =
      ReshapeOp::create(b, loc, withShape(t, {r0, r1, s / 2, 2}), x);
  auto halfType = withShape(t, {r0, r1, s / 2});
  auto split = SplitOp::create(b, loc, halfType, halfType, pairs);
  SmallVector<Value> even, odd;
  sliceLast(b, loc, split.getLhs(), even);
  sliceLast(b, loc, split.getRhs(), odd);
  for (int64_t i = 0; i < s / 2; ++i) {
    entries.push_back(even[i]);
    entries.push_back(odd[i]);
  }
}

/// The inverse of sliceLast: `R0 x R1` entries stacked into `R0 x R1 x S`.
Value stackLast(OpBuilder &b, Location loc, ArrayRef<Value> entries) {
  auto t = cast<RankedTensorType>(entries.front().getType());
  int64_t r0 = t.getDimSize(0), r1 = t.getDimSize(1);
  int64_t s = static_cast<int64_t>(entries.size());
  if (s == 1)
    return ReshapeOp::create(b, loc, withShape(t, {r0, r1, 1}), entries[0]);
  SmallVector<Value> even, odd;
  for (int64_t i = 0; i < s; ++i)
    (i % 2 ? odd : even).push_back(entries[i]);
  Value e = stackLast(b, loc, even), o = stackLast(b, loc, odd);
  Value pairs = JoinOp::create(b, loc, withShape(t, {r0, r1, s / 2, 2}), e, o);
  return ReshapeOp::create(b, loc, withShape(t, {r0, r1, s}), pairs);
}

/// `x` (`B x R0 x R1`) as its B entries `R0 x R1`.
SmallVector<Value> batchEntries(OpBuilder &b, Location loc, Value x) {
  auto t = cast<RankedTensorType>(x.getType());
  SmallVector<Value> entries;
  if (t.getDimSize(0) == 1) { // no data movement needed
    entries.push_back(ReshapeOp::create(
        b, loc, withShape(t, {t.getDimSize(1), t.getDimSize(2)}), x));
    return entries;
  }
  Value batchLast = TransOp::create(
      b, loc, withShape(t, {t.getDimSize(1), t.getDimSize(2), t.getDimSize(0)}),
      x, ArrayRef<int32_t>{1, 2, 0});
  sliceLast(b, loc, batchLast, entries);
  return entries;
}

void decompose(DotOp dot) {
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  SmallVector<Value> as = batchEntries(b, loc, dot.getA());
  SmallVector<Value> bs = batchEntries(b, loc, dot.getB());
  SmallVector<Value> cs = batchEntries(b, loc, dot.getC());
  SmallVector<Value> ds;
  for (size_t i = 0; i < as.size(); ++i)
    ds.push_back(DotOp::create(b, loc, as[i], bs[i], cs[i],
                               dot.getInputPrecision(),
                               dot.getMaxNumImpreciseAcc())
                     .getResult());
  auto resultType = cast<RankedTensorType>(dot.getType());
  Value result;
  if (ds.size() == 1) {
    result = ReshapeOp::create(b, loc, resultType, ds[0]);
  } else {
    Value stacked = stackLast(b, loc, ds);
    result = TransOp::create(b, loc, resultType, stacked,
                             ArrayRef<int32_t>{2, 0, 1});
  }
  dot.replaceAllUsesWith(result);
  dot.erase();
}

struct TileDecomposeBatchedDotPass
    : kiln::tile::impl::TileDecomposeBatchedDotBase<
          TileDecomposeBatchedDotPass> {
  void runOnOperation() override {
    SmallVector<DotOp> batched;
    getOperation().walk([&](DotOp dot) {
      if (cast<RankedTensorType>(dot.getType()).getRank() == 3)
        batched.push_back(dot);
    });
    for (DotOp dot : batched)
      decompose(dot);
  }
};

} // namespace
