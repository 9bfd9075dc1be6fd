//===- NextTilePrologue.h - Start an outer loop's next K-loop early -*- C++ -*-===//
//
// A persistent matmul walks its tiles in an outer loop, and each tile's K
// loop is pipelined: its prologue copies the first `stages - 1` iterations
// and then waits the full global-memory latency before the first product.
// With a short K (a few iterations) that wait, and the epilogue that
// follows the loop, are a large part of every tile. When the prologue's
// addresses depend only on the outer induction variable and on values from
// outside the outer loop, the pipeliner instead starts tile t + 1's
// prologue right after tile t's K loop, before its epilogue: the slots and
// their mbarriers live for the whole outer loop (allocated and initialized
// once before it), the slot ring and the mbarrier parity run on from one
// tile to the next (outer-loop iter args), and the first tile's prologue
// runs before the outer loop. This is what Triton gets by flattening the
// loop nest (`tl.range(..., flatten=True)`).
//
// The slots then no longer share their bytes with the epilogue's scratch
// (SharedMemoryPlan.cpp), so it is done only when the two fit together and
// as many programs fit on an SM as before.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_NEXTTILEPROLOGUE_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_NEXTTILEPROLOGUE_H

#include "SharedMemoryEstimate.h"

#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace kiln::tile {

/// How the K loop `inner`'s prologue runs one outer iteration early.
struct NextTilePrologue {
  mlir::scf::ForOp outer;
  /// The outer body's ops the prologue needs (in body order): cloned for
  /// the next outer iteration, and for the first before the outer loop.
  llvm::SmallVector<mlir::Operation *> slice;
};

/// Whether `inner`'s prologue, which reads `inputs` from outside `inner`,
/// can start one iteration of the loop around it early; `slotBytes`: the
/// shared memory of its slots. See the top of the file.
std::optional<NextTilePrologue> planNextTilePrologue(mlir::scf::ForOp inner,
                                                     llvm::ArrayRef<mlir::Value> inputs,
                                                     int64_t slotBytes);

/// Clones `plan.slice` at `b`'s insertion point for the outer iteration
/// whose induction variable is `iv`, recording the clones in `map`.
void cloneSliceFor(mlir::OpBuilder &b, const NextTilePrologue &plan, mlir::Value iv,
                   mlir::IRMapping &map);

} // namespace kiln::tile

#endif // KILN_LIB_DIALECT_TILE_TRANSFORMS_NEXTTILEPROLOGUE_H
