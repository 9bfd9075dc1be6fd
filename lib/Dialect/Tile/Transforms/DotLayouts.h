//===- DotLayouts.h - What a tl.dot's layout choice looks at ----*- C++ -*-===//
//
// Helpers of --tile-assign-layouts (AssignLayouts.cpp) for tl.dot.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_DOTLAYOUTS_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_DOTLAYOUTS_H

#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Dialect/Tile/IR/Tile.h"

namespace kiln::tile {

/// [warpsM, warpsN] of sm_90 warp groups for an m x n accumulator on
/// `numWarps` warps, as Triton arranges them: all along M when their 16-row
/// blocks divide m; otherwise as many groups of 4 along M as 64-row blocks
/// allow and the rest along N, each warp group owning n / warpsN contiguous
/// columns, a multiple of `nQuantum` (#tile.mma version 3). None when no
/// arrangement gives every warp group a wgmma shape (a multiple of 8
/// columns, at most 256 or a multiple of 256).
std::optional<llvm::SmallVector<unsigned, 2>> warpGroupWarps(int64_t m, int64_t n,
                                                             unsigned numWarps, int64_t nQuantum);
/// The warp groups of `dot` when it will likely run as sm_90 wgmma with
/// f16/bf16 operands.
std::optional<llvm::SmallVector<unsigned, 2>> warpGroupLayout(DotOp dot, unsigned numWarps);
/// Whether both operands of `dot` are 8-bit floats (e4m3 / e5m2).
bool isFp8Dot(DotOp dot);
/// Whether both operands of `dot` are int8 with an int32 result (s8 wgmma
/// and mma.sync).
bool isInt8Dot(DotOp dot);
/// Whether `dot` has operands that wgmma reads only K-major from slots (tf32:
/// f32 operands, tf32 precision; fp8; int8) and a shape it runs with
/// `warpsM` warps along M and `warpsN` warp groups along N (WgmmaToLLVM.cpp's
/// canUseWgmma checks the same): sm_90, an f32 result (int32 for int8),
/// warp groups of 4, whole 16-row blocks, K rows of a swizzle width (32 or
/// 64 bytes, or 128-byte panels).
bool isKMajorWarpGroupDot(DotOp dot, unsigned warpsM, unsigned warpsN = 1);
/// The warp groups of such a dot whose operands are loaded in its loop in
/// an orientation (and, fp8, with copies as wide) as the slots can take;
/// `fastDimOf` gives a pointer tensor's contiguous dimension (-1: none).
std::optional<llvm::SmallVector<unsigned, 2>>
kMajorWarpGroupLayout(DotOp dot, unsigned numWarps, const kiln::ModuleAxisInfo &axis,
                      llvm::function_ref<int(mlir::Value)> fastDimOf);

/// `v` before any tile.convert_layout the assignment put on it: where the
/// axis facts of a loop-carried pointer or mask are recorded.
mlir::Value beforeConversions(mlir::Value v);

/// Whether `v` (through arithmetic on it) is reduced along its rows, as
/// attention's scores are for the running maximum and sum.
bool isRowReduced(mlir::Value v, unsigned depth = 8);

/// The tl.dot whose result `v` is computed from by arithmetic alone, if any.
DotOp producingDot(mlir::Value v, unsigned depth = 8);

} // namespace kiln::tile

#endif // KILN_LIB_DIALECT_TILE_TRANSFORMS_DOTLAYOUTS_H
