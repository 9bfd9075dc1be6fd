//===- StagePlan.cpp - How a pipelined loop splits into two stages --------===//
//
// See StagePlan.h.
//
//===----------------------------------------------------------------------===//
#include "StagePlan.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace kiln::tile {

FailureOr<StagePlan> planStages(scf::ForOp loop, ArrayRef<LoadOp> loads,
                                ArrayRef<LoadOp> prefetched) {
  StagePlan plan;
  Block *body = loop.getBody();
  plan.loads.assign(loads.begin(), loads.end());
  plan.prefetched.assign(prefetched.begin(), prefetched.end());
  if (plan.loads.empty())
    return failure();

  // Backward slice of the loads' addresses and masks inside the body, with
  // the yields of the iter args it reaches.
  SmallVector<Value> work;
  for (LoadOp load : llvm::concat<LoadOp>(plan.loads, plan.prefetched)) {
    work.push_back(load.getPtr());
    if (load.getMask())
      work.push_back(load.getMask());
    llvm::append_range(work, load.getCoords()); // a TMA copy's instead
  }
  for (LoadOp load : plan.prefetched) // cloned whole into stage 0
    if (load.getOther())
      work.push_back(load.getOther());
  DenseSet<Operation *> inSlice;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != body || arg.getArgNumber() == 0)
        continue; // defined outside, or the induction variable
      unsigned k = arg.getArgNumber() - 1;
      if (plan.ahead.insert(k))
        work.push_back(body->getTerminator()->getOperand(k));
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (def->getBlock() != body) {
      if (body->getParentOp()->isProperAncestor(def))
        return failure(); // computed inside a nested region
      continue;
    }
    if (!inSlice.insert(def).second)
      continue;
    if (!isPure(def) || def->getNumRegions() || isa<LoadOp>(def))
      return failure();
    llvm::append_range(work, def->getOperands());
  }
  for (Operation &op : *body)
    if (inSlice.contains(&op))
      plan.stage0.insert(&op);

  // Which stage-0 values see the carried-ahead iter args.
  for (unsigned k : plan.ahead)
    plan.aheadValues.insert(loop.getRegionIterArgs()[k]);
  for (Operation *op : plan.stage0)
    if (llvm::any_of(op->getOperands(),
                     [&](Value v) { return plan.aheadValues.contains(v); }))
      for (Value r : op->getResults())
        plan.aheadValues.insert(r);

  // Stage 1 (and the code after the loop) must not see them.
  DenseSet<Operation *> loadSet;
  for (LoadOp load : llvm::concat<LoadOp>(plan.loads, plan.prefetched))
    loadSet.insert(load);
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (Operation &op : body->without_terminator()) {
    if (plan.stage0.contains(&op) || loadSet.contains(&op))
      continue;
    bool usesAhead = false;
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        usesAhead |= plan.aheadValues.contains(v);
    });
    if (usesAhead)
      return failure();
  }
  for (auto [k, v] : llvm::enumerate(yield.getOperands()))
    if (!plan.ahead.contains(k) && plan.aheadValues.contains(v))
      return failure();
  for (unsigned k : plan.ahead)
    if (!loop.getResult(k).use_empty())
      return failure();
  return plan;
}

} // namespace kiln::tile
