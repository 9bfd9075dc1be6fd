//===- StagePlan.h - How a pipelined loop splits into two stages -*- C++ -*-===//
//
// Stage 0 of a pipelined K loop is the loads copied into slots (or started
// ahead into registers) with the address and mask computations they need;
// stage 1 is the rest. PipelineLoops.cpp runs stage 0 `numStages - 1`
// iterations ahead.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_STAGEPLAN_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_STAGEPLAN_H

#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace kiln::tile {

/// The two stages of one loop, or failure when they do not split cleanly.
struct StagePlan {
  /// Loads copied into slots: dot operands, then companions.
  llvm::SmallVector<LoadOp> loads;
  /// Loads started ahead into registers (CompanionLoads::prefetched).
  llvm::SmallVector<LoadOp> prefetched;
  /// Stage 0: the ops (in body order) the loads' pointers and masks need.
  llvm::SetVector<mlir::Operation *> stage0;
  /// Iter-arg numbers carried ahead (their yields are computed by stage 0).
  llvm::SmallSetVector<unsigned, 4> ahead;
  /// Stage-0 results that depend on a carried-ahead iter arg: stage 1 must
  /// not use them (it would see the values of a later iteration).
  llvm::DenseSet<mlir::Value> aheadValues;
};

/// The stages of `loop` whose `loads` go to slots and whose `prefetched`
/// loads are started ahead into registers, or failure when the loads'
/// addresses and masks depend on anything but the induction variable, values
/// from outside the loop and iter args updated only from those (carried
/// ahead), or when stage 1 or the loop's results would see a carried-ahead
/// value.
mlir::FailureOr<StagePlan> planStages(mlir::scf::ForOp loop, llvm::ArrayRef<LoadOp> loads,
                                      llvm::ArrayRef<LoadOp> prefetched = {});

/// An integer constant of `type` (i32, index, ...).
mlir::Value constantLike(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type, int64_t value);

/// `iv + distance` (`iv` when `distance` is null) and whether it is still
/// below `ub`, compared as `loop` compares.
std::pair<mlir::Value, mlir::Value> shiftedIv(mlir::OpBuilder &b, mlir::Location loc,
                                              mlir::scf::ForOp loop, mlir::Value iv,
                                              mlir::Value distance, mlir::Value ub);

/// `n * step` (null for 0), built at `b`'s insertion point.
mlir::Value stepsOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value step, int64_t n);

/// Clones stage 0 under `map` (induction variable and carried-ahead iter
/// args already mapped) and starts the copies of its loads into `slot` of
/// `buffers`, predicated on `inRange` (TMA for a load with a tensor map in
/// `tensorMaps`, cp.async for the others, then one commit; every TMA copy
/// arrives on the mbarriers of `tmaOwner`, the first TMA buffer). The prefetched
/// loads' values of that iteration go to `prefetchedOut`, each load
/// predicated on `inRange` as well (a pointer past the loop's end is not
/// read).
void emitStage0(mlir::OpBuilder &b, mlir::Location loc, const StagePlan &plan,
                llvm::ArrayRef<mlir::Value> buffers, llvm::ArrayRef<mlir::Value> tensorMaps,
                mlir::Value tmaOwner, mlir::IRMapping &map, mlir::Value slot, mlir::Value inRange,
                llvm::SmallVectorImpl<mlir::Value> &prefetchedOut);

} // namespace kiln::tile

#endif // KILN_LIB_DIALECT_TILE_TRANSFORMS_STAGEPLAN_H
