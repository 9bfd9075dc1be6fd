//===- SortGatherOps.cpp - verifiers of tile.sort, gather, histogram ------===//
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln::tile;

namespace {
std::string shapeText(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}
} // namespace

LogicalResult SortOp::verify() {
  auto type = cast<RankedTensorType>(getSrc().getType());
  if (type.getRank() < 1)
    return emitOpError("expects a tensor of rank 1 or more");
  int64_t n = type.getShape().back();
  if (!llvm::isPowerOf2_64(uint64_t(n)))
    return emitOpError() << "sorted dimension has size " << n
                         << ", which is not a power of two";
  if (getIsUnsigned() && !isa<IntegerType>(type.getElementType()))
    return emitOpError("`unsigned` needs integer elements");
  return success();
}

LogicalResult GatherOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto index = cast<RankedTensorType>(getIndex().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  int64_t rank = src.getRank(), axis = getAxis();
  if (index.getRank() != rank)
    return emitOpError() << "source and index must have the same rank, got "
                         << rank << " and " << index.getRank();
  if (axis < 0 || axis >= rank)
    return emitOpError() << "axis " << axis << " is out of range for rank " << rank;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && src.getDimSize(d) != index.getDimSize(d))
      return emitOpError() << "index shape " << shapeText(index.getShape())
                           << " must match source shape " << shapeText(src.getShape())
                           << " off axis " << axis;
  if (!llvm::isPowerOf2_64(uint64_t(src.getDimSize(axis))))
    return emitOpError() << "source dimension " << axis << " has size "
                         << src.getDimSize(axis) << ", which is not a power of two";
  if (result.getShape() != index.getShape() ||
      result.getElementType() != src.getElementType())
    return emitOpError() << "result must have the index's shape and the "
                            "source's element type, got "
                         << result;
  return success();
}

LogicalResult HistogramOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  if (src.getRank() != 1)
    return emitOpError() << "expects a 1-D source, got rank " << src.getRank();
  if (result.getRank() != 1 || !llvm::isPowerOf2_64(uint64_t(result.getDimSize(0))))
    return emitOpError() << "result must be a 1-D tensor whose size (the number "
                            "of bins) is a power of two, got "
                         << result;
  if (Value mask = getMask())
    if (cast<RankedTensorType>(mask.getType()).getShape() != src.getShape())
      return emitOpError() << "mask shape "
                           << shapeText(cast<RankedTensorType>(mask.getType()).getShape())
                           << " does not match source shape " << shapeText(src.getShape());
  return success();
}
