//===- DotLayouts.h - What a tl.dot's layout choice looks at ----*- C++ -*-===//
//
// Helpers of --tile-assign-layouts (AssignLayouts.cpp) for tl.dot.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_DOTLAYOUTS_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_DOTLAYOUTS_H

#include "kiln/Dialect/Tile/IR/Tile.h"

namespace kiln::tile {

/// Whether `dot` will likely run as sm_90 wgmma (all warps along M).
bool prefersWarpGroups(DotOp dot, unsigned numWarps);
/// Whether tf32 `dot` (f32 operands and result) has a shape tf32 wgmma runs
/// with `warpsM` warps along M (WgmmaToLLVM.cpp's canUseWgmma checks the
/// same): sm_90, warp groups of 4, whole 16-row blocks, K a panel width.
bool isTf32WarpGroupDot(DotOp dot, unsigned warpsM);
/// The same for a tf32 dot (f32 operands read K-major from slots);
/// `fastDimOf` gives a pointer tensor's contiguous dimension (-1: none).
bool prefersTf32WarpGroups(DotOp dot, unsigned numWarps,
                           llvm::function_ref<int(mlir::Value)> fastDimOf);

/// Whether `v` (through arithmetic on it) is reduced along its rows, as
/// attention's scores are for the running maximum and sum.
bool isRowReduced(mlir::Value v, unsigned depth = 8);

/// The tl.dot whose result `v` is computed from by arithmetic alone, if any.
DotOp producingDot(mlir::Value v, unsigned depth = 8);

} // namespace kiln::tile

#endif // KILN_LIB_DIALECT_TILE_TRANSFORMS_DOTLAYOUTS_H
