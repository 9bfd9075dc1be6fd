//===- PinnedAccesses.h - Accesses laid out by their own pointers -*- C++ -*-===//
//
// Helpers of --tile-assign-layouts (AssignLayouts.cpp): the global accesses
// whose layout is fixed before or apart from unification.
//
// Disagreeing accesses: loads and stores of one rank whose pointers coalesce
// along different dimensions (a transpose) each keep their own fastest
// dimension.
//
// Replicated loads: unification lays a load out as its consumers want: a 1-D
// row later broadcast with `x[:, None]` becomes a slice of the 2-D tile,
// where every thread holds (and loads, one element at a time) a whole column
// of it. lightllm's decode attention loads
// 64 token indices and 64 scores per iteration that way on one warp: 32
// scalar loads per thread for each, 1.8x Triton's instructions and 1.66x its
// time. Triton keeps such a load (at least one element per thread) in its
// own coalesced layout and converts the values where the broadcast needs
// them. Kiln does the same for the loads where that saves instructions: where
// the assignment gives loads a layout that costs at least 4x the load
// instructions of their coalesced one, it runs again on a copy of the
// function with those loads pinned to it (the conversion then sits where the
// consumers' layout takes over).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_PINNEDACCESSES_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_PINNEDACCESSES_H

#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kiln::tile {

/// The dimension a pointer tensor is most contiguous along (the last one on
/// ties), or -1 when nothing is contiguous.
int coalescedDim(const kiln::ModuleAxisInfo &axis, mlir::Value ptr);

/// Loads and stores of rank 2+ whose pointers coalesce along a different
/// dimension than another access of the same rank, each with its own fastest
/// dimension (one layout would leave one of them uncoalesced).
llvm::DenseMap<mlir::Operation *, int> disagreeingAccesses(mlir::func::FuncOp func,
                                                           const kiln::ModuleAxisInfo &axis);

/// The layout Triton's coalescing gives `load` alone: its most contiguous
/// dimension fastest (the last when none is), as many elements per thread
/// along it as its pointers, alignment and mask prove (16 bytes at most).
BlockedLayoutAttr coalescedLayoutOf(LoadOp load, unsigned numWarps,
                                    const kiln::ModuleAxisInfo &axis);

/// Positions (in walk order among the tile.load ops of `func`, after the
/// assignment ran on it) of the loads of at least one element per thread
/// whose assigned layout needs at least 4x the load instructions per thread
/// of their coalesced layout.
llvm::SmallVector<unsigned> findReplicatedLoads(mlir::func::FuncOp func, unsigned numWarps,
                                                const kiln::ModuleAxisInfo &axis);

/// The loads at `positions` of `func` (not yet assigned) with the coalesced
/// layout each is to be pinned to.
llvm::DenseMap<mlir::Operation *, BlockedLayoutAttr>
replicatedLoadPins(mlir::func::FuncOp func, llvm::ArrayRef<unsigned> positions,
                   unsigned numWarps, const kiln::ModuleAxisInfo &axis);

} // namespace kiln::tile

#endif
