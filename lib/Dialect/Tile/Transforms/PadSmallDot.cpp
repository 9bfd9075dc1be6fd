//===- PadSmallDot.cpp - tl.dot with M or N below 16 -----------------------===//
//
// Triton 3.6 accepts M and N down to 1 ("for small M/N we can still use
// tensor cores with padding"); the mma tiles are 16 rows by 8 or 16 columns.
// A row count M < 16 is padded by repeating A's rows (row r of the padded
// operand is row r % M), the same for N with B's columns, and the
// accumulator both ways; the product's rows r and columns c then hold the
// true result for (r % M, c % N), and the first M rows and N columns are
// taken back. Repeating instead of zero-filling needs only broadcasts.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "kiln/Dialect/Tile/IR/Tile.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEPADSMALLDOT
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {
constexpr int64_t kMinRows = 16, kMinCols = 16;

RankedTensorType shaped(Value v, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(
      shape, cast<RankedTensorType>(v.getType()).getElementType());
}

Value reshape(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  return ReshapeOp::create(b, loc, shaped(v, shape), v);
}

/// `x` (R x C) with its rows repeated up to `rows` (row r is x[r % R]).
Value repeatRows(OpBuilder &b, Location loc, Value x, int64_t rows) {
  auto t = cast<RankedTensorType>(x.getType());
  int64_t r = t.getDimSize(0), c = t.getDimSize(1);
  if (r >= rows)
    return x;
  Value one = reshape(b, loc, x, {1, r, c});
  Value copies = BroadcastOp::create(b, loc, shaped(x, {rows / r, r, c}), one);
  return reshape(b, loc, copies, {rows, c});
}

/// `x` (R x C) with its columns repeated up to `cols`.
Value repeatCols(OpBuilder &b, Location loc, Value x, int64_t cols) {
  auto t = cast<RankedTensorType>(x.getType());
  int64_t r = t.getDimSize(0), c = t.getDimSize(1);
  if (c >= cols)
    return x;
  Value one = reshape(b, loc, x, {r, 1, c});
  Value copies = BroadcastOp::create(b, loc, shaped(x, {r, cols / c, c}), one);
  return reshape(b, loc, copies, {r, cols});
}

/// Entry 0 along the last dimension of `x` (... x S): halved with split,
/// whose first half keeps the even entries.
Value firstOfLast(OpBuilder &b, Location loc, Value x) {
  auto t = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(t.getShape());
  while (shape.back() > 1) {
    int64_t s = shape.back();
    shape.back() = s / 2;
    shape.push_back(2);
    Value pairs = reshape(b, loc, x, shape);
    shape.pop_back();
    auto half = shaped(x, shape);
    x = SplitOp::create(b, loc, half, half, pairs).getLhs();
  }
  shape.pop_back();
  return reshape(b, loc, x, shape);
}

/// The first `rows` rows of `x` (R x C, R a multiple of rows).
Value firstRows(OpBuilder &b, Location loc, Value x, int64_t rows) {
  auto t = cast<RankedTensorType>(x.getType());
  int64_t r = t.getDimSize(0), c = t.getDimSize(1);
  if (r == rows)
    return x;
  // Row i of copy k is x[k * rows + i]: take copy 0.
  Value copies = reshape(b, loc, x, {r / rows, rows, c});
  Value copyLast = TransOp::create(b, loc, shaped(x, {rows, c, r / rows}),
                                   copies, ArrayRef<int32_t>{1, 2, 0});
  return firstOfLast(b, loc, copyLast);
}

/// The first `cols` columns of `x` (R x C, C a multiple of cols).
Value firstCols(OpBuilder &b, Location loc, Value x, int64_t cols) {
  auto t = cast<RankedTensorType>(x.getType());
  int64_t r = t.getDimSize(0), c = t.getDimSize(1);
  if (c == cols)
    return x;
  Value copies = reshape(b, loc, x, {r, c / cols, cols});
  Value copyLast = TransOp::create(b, loc, shaped(x, {r, cols, c / cols}),
                                   copies, ArrayRef<int32_t>{0, 2, 1});
  return firstOfLast(b, loc, copyLast);
}

void pad(DotOp dot) {
  auto d = cast<RankedTensorType>(dot.getType());
  int64_t m = d.getDimSize(0), n = d.getDimSize(1);
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  Value a = repeatRows(b, loc, dot.getA(), kMinRows);
  Value bb = repeatCols(b, loc, dot.getB(), kMinCols);
  Value c = repeatCols(b, loc, repeatRows(b, loc, dot.getC(), kMinRows), kMinCols);
  Value padded = DotOp::create(b, loc, a, bb, c, dot.getInputPrecision(),
                               dot.getMaxNumImpreciseAcc());
  Value result = firstCols(b, loc, firstRows(b, loc, padded, m), n);
  dot.replaceAllUsesWith(result);
  dot.erase();
}

struct TilePadSmallDotPass
    : kiln::tile::impl::TilePadSmallDotBase<TilePadSmallDotPass> {
  void runOnOperation() override {
    SmallVector<DotOp> small;
    getOperation().walk([&](DotOp dot) {
      auto d = cast<RankedTensorType>(dot.getType());
      if (d.getRank() == 2 &&
          (d.getDimSize(0) < kMinRows || d.getDimSize(1) < kMinCols))
        small.push_back(dot);
    });
    for (DotOp dot : small)
      pad(dot);
  }
};
} // namespace
