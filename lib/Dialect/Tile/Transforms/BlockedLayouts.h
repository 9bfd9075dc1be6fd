//===- BlockedLayouts.h - Blocked layouts chosen by AssignLayouts -*- C++ -*-===//
//
// The layout arithmetic of --tile-assign-layouts, apart from its unification:
// how a blocked layout spreads a shape over threads and warps, and which
// layout a shape op's result takes from its operand's.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_BLOCKEDLAYOUTS_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_BLOCKEDLAYOUTS_H

#include "kiln/Dialect/Tile/IR/Tile.h"

namespace kiln::tile {

/// Dimension order with `fast` first, then the others from the last to the
/// first (the order every blocked layout of the assignment uses).
llvm::SmallVector<unsigned> fastFirstOrder(unsigned rank, unsigned fast);

/// Blocked layout for `shape` with `order[0]` fastest, `vec` elements per
/// thread along it when there is enough data, lanes then warps filling the
/// dimensions from fastest to slowest; leftovers replicate on the slowest.
/// With `reduced` dimensions (reduced inside a loop), warps first take the
/// other dimensions, so that those reductions stay within warps, as long as
/// each warp still reads at least 64 contiguous bytes along the fast one.
BlockedLayoutAttr makeBlocked(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape,
                              llvm::ArrayRef<unsigned> order, unsigned vec,
                              unsigned numWarps, llvm::ArrayRef<unsigned> reduced,
                              unsigned elemBits);

/// The layout a shape op's result gets when it is free to choose: the one
/// that keeps every element in its thread (null when there is none).
BlockedLayoutAttr derivedLayout(mlir::Operation *op, BlockedLayoutAttr src);

} // namespace kiln::tile

#endif // KILN_LIB_DIALECT_TILE_TRANSFORMS_BLOCKEDLAYOUTS_H
