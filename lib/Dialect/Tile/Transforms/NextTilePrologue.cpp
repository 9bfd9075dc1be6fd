//===- NextTilePrologue.cpp - Start an outer loop's next K-loop early ------===//
//
// See NextTilePrologue.h. PipelineLoops.cpp emits the prologues and carries
// the slot ring; this file decides whether it may and clones what the
// prologue's addresses need.
//
//===----------------------------------------------------------------------===//
#include "NextTilePrologue.h"
#include "SlotOperands.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace kiln::tile {

namespace {
/// Whether an op of the outer body besides the K loop would interfere: a
/// loop (the pass may pipeline it, and its copies would share the slots'
/// cp.async groups), a dot (the outer loop would be pipelined itself) or
/// slots and copies of its own.
bool interferes(Operation *op) {
  bool found = false;
  op->walk([&](Operation *nested) {
    found |= isa<scf::ForOp, scf::WhileOp, DotOp, LocalAllocOp, AsyncCopyOp, AsyncCommitOp,
                 AsyncWaitOp, TmaCopyOp>(nested);
  });
  return found;
}
} // namespace

std::optional<NextTilePrologue> planNextTilePrologue(scf::ForOp inner, ArrayRef<Value> inputs,
                                                     int64_t slotBytes) {
  auto outer = dyn_cast<scf::ForOp>(inner->getParentOp());
  if (!outer)
    return std::nullopt;
  Block *body = outer.getBody();
  for (Operation &op : body->without_terminator())
    if (&op != inner.getOperation() && interferes(&op))
      return std::nullopt;

  // What the prologue reads from the outer body: pure ops of the induction
  // variable and of values from outside the outer loop.
  SmallVector<Value> work(inputs.begin(), inputs.end());
  DenseSet<Operation *> inSlice;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!v)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body && arg != outer.getInductionVar())
        return std::nullopt; // another tile's accumulated value
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!outer->isProperAncestor(def) || inner->isAncestor(def))
      continue;
    if (def->getBlock() != body || !isMemoryEffectFree(def) || def->getNumRegions())
      return std::nullopt;
    if (inSlice.insert(def).second)
      llvm::append_range(work, def->getOperands());
  }

  // Shared memory: the slots with the scratch of every op of the outer loop
  // now, instead of only that of the ops up to the K loop.
  Operation *func = inner->getParentOfType<FunctionOpInterface>();
  int64_t upToLoop = 0, rest = 0, allocated = 0;
  bool seenLoop = false;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    // Pre-order: what is visited after the loop and not inside it runs after
    // it.
    seenLoop |= op == inner.getOperation();
    bool pastLoop = seenLoop && !inner->isAncestor(op);
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      if (!pastLoop)
        allocated += alloc.getType().getAllocBytes();
      return;
    }
    if (pastLoop && outer->isAncestor(op))
      rest = std::max(rest, epilogueScratchEstimate(op));
    else if (!pastLoop)
      upToLoop = std::max(upToLoop, scratchEstimate(op));
  });
  int64_t before = slotBytes + allocated + upToLoop;
  int64_t after = slotBytes + allocated + std::max(upToLoop, rest);
  if (after > sharedMemoryPerBlock(inner) ||
      programsPerSM(inner, after) < programsPerSM(inner, before))
    return std::nullopt;

  NextTilePrologue plan{outer, {}};
  for (Operation &op : *body)
    if (inSlice.contains(&op))
      plan.slice.push_back(&op);
  return plan;
}

void cloneSliceFor(OpBuilder &b, const NextTilePrologue &plan, Value iv, IRMapping &map) {
  scf::ForOp outer = plan.outer;
  map.map(outer.getInductionVar(), iv);
  for (Operation *op : plan.slice)
    b.clone(*op, map);
}

} // namespace kiln::tile
