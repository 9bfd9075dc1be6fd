//===- DeadCode.h - Erasing what a rewrite left unused ---------*- C++ -*-===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_DEADCODE_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_DEADCODE_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace kiln::tile {

/// Erases the definitions of `roots` that nothing reads any more, and
/// theirs in turn (the address computations of a load or store a rewrite
/// replaced), leaving anything with other users or side effects.
inline void eraseDeadDefs(mlir::ValueRange roots) {
  llvm::SmallVector<mlir::Operation *> worklist;
  for (mlir::Value v : roots)
    if (mlir::Operation *def = v.getDefiningOp())
      worklist.push_back(def);
  llvm::DenseSet<mlir::Operation *> erased;
  while (!worklist.empty()) {
    mlir::Operation *op = worklist.pop_back_val();
    if (erased.contains(op) || !mlir::isOpTriviallyDead(op))
      continue;
    for (mlir::Value operand : op->getOperands())
      if (mlir::Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
    erased.insert(op);
    op->erase();
  }
}

/// `loop` without the iter args nothing reads: their results are unused and
/// in the body they only feed their own (or each other's) yields, through
/// pure ops, which are erased. Iter args the loop yields unchanged (their
/// own block argument, or their init value) are loop-invariant: their uses
/// read the init value instead and they go too. Returns the loop that
/// replaces `loop`, or `loop` itself when it keeps every iter arg
/// (UnusedIterArgs.cpp).
mlir::scf::ForOp dropUnusedIterArgs(mlir::scf::ForOp loop);

/// dropUnusedIterArgs on every loop under `root`, inner loops first. Before
/// layouts are chosen: an offset vector carried unchanged (a name assigned
/// only under a constexpr-false `if`) would be converted in every iteration.
void dropUnusedIterArgsIn(mlir::Operation *root);

} // namespace kiln::tile

#endif // KILN_LIB_DIALECT_TILE_TRANSFORMS_DEADCODE_H
