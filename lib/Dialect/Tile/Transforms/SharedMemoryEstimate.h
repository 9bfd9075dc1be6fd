//===- SharedMemoryEstimate.h - Shared memory before the lowering -*- C++ -*-===//
//
// What the passes that place shared-memory buffers (PipelineLoops.cpp's
// slots, OneSlotStaging.cpp, NextTilePrologue.cpp, TmaStores.cpp) assume of
// the scratch the lowering will reuse (SharedMemoryPlan.cpp sizes it
// exactly, after layouts are lowered) and of the target's shared memory.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_SHAREDMEMORYESTIMATE_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_SHAREDMEMORYESTIMATE_H

#include "kiln/Dialect/Tile/IR/Tile.h"

namespace kiln::tile {

/// Shared memory an op reuses as scratch, as the pipeliner estimates it
/// before layouts are lowered (erring high): a layout exchange with its
/// padding (none where no element changes threads), a dot that stages its
/// operands (not fragments in registers nor operands read from slots, the
/// loads of `slotted` among them once they go to slots); 0 for others.
int64_t scratchEstimate(mlir::Operation *op, llvm::ArrayRef<LoadOp> slotted = {});

/// The opt-in shared memory per block of `op`'s target.
int64_t sharedMemoryPerBlock(mlir::Operation *op);

/// scratchEstimate, and also any other op of the dialect whose result takes
/// another layout than its operand (a reshape of the accumulator into
/// subtiles, a split, a transpose): its lowering may exchange the whole
/// tensor through scratch, so it is counted as a layout exchange.
/// Reductions, scans, dots and the register-only broadcasts are not. For the ops
/// after a K loop whose slots they do not share.
int64_t epilogueScratchEstimate(mlir::Operation *op);

/// Programs of `bytes` of shared memory each that fit on one SM of `op`'s
/// target (the driver reserves 1 KB per program), at most 32 and as many
/// as its 2048 threads allow (the module's tile.num_warps).
int64_t programsPerSM(mlir::Operation *op, int64_t bytes);

} // namespace kiln::tile

#endif // KILN_LIB_DIALECT_TILE_TRANSFORMS_SHAREDMEMORYESTIMATE_H
