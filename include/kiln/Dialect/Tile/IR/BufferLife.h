//===- BufferLife.h - When a tile.local_alloc's buffer is in use -*- C++ -*-===//
//
// One definition of a shared-memory buffer's life for the pass that sizes
// pipeline slots (PipelineLoops.cpp: buffers dead before a loop leave their
// bytes to it) and the lowering that places buffers (SharedMemoryPlan.cpp:
// buffers whose lives do not overlap share bytes). A buffer lives from its
// allocation to the end of the op, in the allocation's block, that holds its
// last use.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TILE_IR_BUFFERLIFE_H
#define KILN_DIALECT_TILE_IR_BUFFERLIFE_H

#include "kiln/Dialect/Tile/IR/Tile.h"

namespace kiln::tile {

/// The ops that use `alloc`'s buffer: its users, and, since a tile.dot reads
/// a slot in place through the tile.local_load of it, the users of each such
/// load and of a transpose of it.
llvm::SmallVector<mlir::Operation *> getBufferUsers(LocalAllocOp alloc);

/// Whether `alloc`'s buffer is in use while `op` runs: `op` holds the
/// allocation, or a user of it is `op`, inside `op` or after it (compared at
/// their ancestors in the allocation's block), or lies outside that block
/// (such a buffer is kept for the whole kernel).
bool isBufferLiveAt(LocalAllocOp alloc, mlir::Operation *op);

/// Program order of the ops under a root, for comparing lives: each op's
/// pre-order number, and the last number inside its regions (its own when it
/// has none).
struct OpOrder {
  llvm::DenseMap<mlir::Operation *, int64_t> index, lastIndex;
  int64_t size = 0;
};
OpOrder numberOps(mlir::Operation *root);

/// The number (in `order`) of the last op during which `alloc`'s buffer is
/// in use: the end of the op of its block that holds its last user, or the
/// tile.async_wait right after that op (copies it issued land until then);
/// `order.size` when a user lies outside that block (kept for the kernel).
int64_t bufferLifeEnd(LocalAllocOp alloc, const OpOrder &order);

} // namespace kiln::tile

#endif // KILN_DIALECT_TILE_IR_BUFFERLIFE_H
