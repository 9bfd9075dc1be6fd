//===- UnusedIterArgs.cpp - Loop-carried values nothing reads -------------===//
//
// A Triton loop reassigns names it never reads again: the fused-attention
// backward's `offs_m = curr_m + tl.arange(0, BLOCK_M1)` inside its loop makes
// `offs_m` loop-carried although only that iteration reads it. Such a value
// ties its computation to the loop's other iter args (here `curr_m`, which the
// pipeliner carries ahead for the copies of `M + offs_m`) and made the
// pipeliner give up on the loop's companion loads. LLVM would delete the dead
// phi; the pipeliner decides before it, so the loop drops them first.
//
// A name assigned only in a branch that a constexpr removes is carried
// unchanged (Kiln's frontend finds a loop's names by syntax; Triton's carries
// only the values that changed): fla's recurrences reassign `o_k1` under
// `if USE_GK:`, and the carried offsets, read both by the copies' addresses
// and by the rest of the body, kept the pipeliner from splitting the loop.
// Such iter args read their init value instead.
//
//===----------------------------------------------------------------------===//
#include "DeadCode.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/BitVector.h"

using namespace mlir;

namespace kiln::tile {
namespace {

/// Whether everything `arg` reaches in `body` (through region-free pure ops
/// of the block itself) ends in yields of iter args marked `dead`.
bool reachesOnlyDeadYields(BlockArgument arg, Block *body, const llvm::BitVector &dead) {
  SmallVector<Value> work{arg};
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<scf::YieldOp>(user) && user->getBlock() == body) {
        if (!dead.test(use.getOperandNumber()))
          return false;
        continue;
      }
      if (user->getBlock() != body || user->getNumRegions() || !isPure(user))
        return false;
      if (seen.insert(user).second)
        llvm::append_range(work, user->getResults());
    }
  }
  return true;
}

/// Makes the iter args `loop` yields unchanged unused: in the body and after
/// the loop their init value stands for them.
void forwardInvariantIterArgs(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [arg, init, result] :
       llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs(), loop.getResults())) {
    Value next = yield.getOperand(arg.getArgNumber() - loop.getNumInductionVars());
    if (next != arg && next != init)
      continue;
    arg.replaceAllUsesWith(init);
    result.replaceAllUsesWith(init);
  }
}

} // namespace

scf::ForOp dropUnusedIterArgs(scf::ForOp loop) {
  forwardInvariantIterArgs(loop);
  Block *body = loop.getBody();
  unsigned count = loop.getNumRegionIterArgs();
  llvm::BitVector dead(count);
  for (unsigned k = 0; k < count; ++k)
    dead[k] = loop.getResult(k).use_empty();
  // An iter arg read only on the way to another dead one's yield is dead
  // too: shrink the set until it holds.
  for (bool changed = dead.any(); changed;) {
    changed = false;
    for (unsigned k : dead.set_bits())
      if (!reachesOnlyDeadYields(loop.getRegionIterArgs()[k], body, dead)) {
        dead.reset(k);
        changed = true;
      }
  }
  if (dead.none())
    return loop;

  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Value> keptYields, keptInits, droppedYields;
  for (unsigned k = 0; k < count; ++k) {
    if (dead.test(k)) {
      droppedYields.push_back(yield.getOperand(k));
      continue;
    }
    keptYields.push_back(yield.getOperand(k));
    keptInits.push_back(loop.getInitArgs()[k]);
  }
  yield->setOperands(keptYields);
  eraseDeadDefs(droppedYields); // what computed them

  OpBuilder b(loop);
  auto grown = scf::ForOp::create(b, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
                                  loop.getStep(), keptInits);
  grown->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  grown.setUnsignedCmp(loop.getUnsignedCmp());
  Block *newBody = grown.getBody();
  if (!newBody->empty()) // the builder's own yield (no iter args)
    newBody->getTerminator()->erase();
  newBody->getOperations().splice(newBody->end(), body->getOperations());
  body->getArgument(0).replaceAllUsesWith(grown.getInductionVar());
  unsigned kept = 0;
  for (unsigned k = 0; k < count; ++k) {
    if (dead.test(k))
      continue;
    loop.getRegionIterArgs()[k].replaceAllUsesWith(grown.getRegionIterArgs()[kept]);
    loop.getResult(k).replaceAllUsesWith(grown.getResult(kept));
    ++kept;
  }
  loop.erase();
  return grown;
}

void dropUnusedIterArgsIn(Operation *root) {
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) { loops.push_back(loop); }); // post-order
  for (scf::ForOp loop : loops) // an outer loop keeps its replaced inner ones
    dropUnusedIterArgs(loop);
}

} // namespace kiln::tile
