//===- ShapeOps.cpp - Verifiers of trans, reshape, join, split, cat -------===//
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln::tile;

namespace {
std::string shapeText(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

/// Element types match and every dimension of the result is a power of two.
LogicalResult checkCommon(Operation *op, RankedTensorType src, RankedTensorType dst) {
  if (src.getElementType() != dst.getElementType())
    return op->emitOpError() << "element type must be preserved, got "
                             << src.getElementType() << " and " << dst.getElementType();
  for (int64_t d : dst.getShape())
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      return op->emitOpError() << "result dimensions must be powers of two, got "
                               << shapeText(dst.getShape());
  return success();
}
} // namespace

LogicalResult TransOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  ArrayRef<int32_t> order = getOrder();
  if (int64_t(order.size()) != src.getRank())
    return emitOpError() << "order has " << order.size()
                         << " entries for a rank-" << src.getRank() << " tensor";
  SmallVector<bool> seen(order.size(), false);
  for (int32_t d : order) {
    if (d < 0 || d >= int32_t(order.size()) || seen[d])
      return emitOpError() << "order must be a permutation of 0.."
                           << order.size() - 1;
    seen[d] = true;
  }
  SmallVector<int64_t> expected;
  for (int32_t d : order)
    expected.push_back(src.getDimSize(d));
  if (dst.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "expected result shape " << shapeText(expected)
                         << ", got " << shapeText(dst.getShape());
  return checkCommon(*this, src, dst);
}

LogicalResult ReshapeOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError() << "cannot reshape " << shapeText(src.getShape())
                         << " (" << src.getNumElements() << " elements) to "
                         << shapeText(dst.getShape()) << " ("
                         << dst.getNumElements() << " elements)";
  return checkCommon(*this, src, dst);
}

LogicalResult JoinOp::verify() {
  auto src = cast<RankedTensorType>(getLhs().getType());
  auto dst = cast<RankedTensorType>(getType());
  SmallVector<int64_t> expected(src.getShape());
  expected.push_back(2);
  if (dst.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "expected result shape " << shapeText(expected)
                         << ", got " << shapeText(dst.getShape());
  return checkCommon(*this, src, dst);
}

LogicalResult SplitOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getLhs().getType());
  if (src.getRank() < 2 || src.getShape().back() != 2)
    return emitOpError() << "operand must have rank 2 or more and a last "
                            "dimension of size 2, got "
                         << shapeText(src.getShape());
  ArrayRef<int64_t> expected = src.getShape().drop_back();
  if (dst.getShape() != expected)
    return emitOpError() << "expected result shape " << shapeText(expected)
                         << ", got " << shapeText(dst.getShape());
  return checkCommon(*this, src, dst);
}

LogicalResult CatOp::verify() {
  auto src = cast<RankedTensorType>(getLhs().getType());
  auto dst = cast<RankedTensorType>(getType());
  SmallVector<int64_t> expected(src.getShape());
  expected[0] *= 2;
  if (dst.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "expected result shape " << shapeText(expected)
                         << ", got " << shapeText(dst.getShape());
  return checkCommon(*this, src, dst);
}
