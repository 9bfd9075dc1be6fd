//===- BarrierElision.cpp - Barriers another barrier already provides ------===//
//
// Every op that exchanges values through the scratch area starts with a
// barrier, in case an earlier op's threads still read it, and the software
// pipeliner puts one before the copies that refill a slot the iteration read.
// Both are redundant where a barrier every thread executes already sits
// between the accesses they order, with no shared-memory access in between:
//  - a layout conversion through the scratch after such a barrier (the
//    `tile.barrier` or `tile.async_wait` at the top of a pipelined loop
//    iteration), with only slot work of the loop between them, needs no
//    barrier of its own first: it is marked `tile.scratch_idle`, and its
//    lowering leaves that barrier out;
//  - a `tile.barrier` that only register or global-memory work separates
//    from such a conversion is erased: the conversion's barrier between its
//    writes and its reads follows every access before it, and its reads are
//    of the scratch, which no live slot shares (SharedMemoryPlan.cpp).
// vLLM's block-scaled int8 matmul converted its column scales through the
// scratch between its products and its copies: 4 barriers an iteration, 2
// with this, as Triton's (its membar analysis sees the allocations).
// What counts as touching shared memory errs wide: dots and their waits
// (wgmma reads slots asynchronously), slot and TMA ops, ops with scratch,
// ops with regions, and any op with memory effects but global loads, stores
// and atomics without scratch.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace kiln::tile;

namespace kiln::lowering {

namespace {

/// Whether `op` certainly leaves shared memory alone.
bool awayFromSharedMemory(Operation *op) {
  if (op->getNumRegions() || getScratchBytes(op))
    return false;
  if (isa<DotOp, DotWaitOp, InlineAsmElementwiseOp>(op))
    return false;
  if (isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op))
    return true; // global memory (their exchanges are scratch, counted above)
  return isMemoryEffectFree(op);
}

/// Whether `op`, in the body of a loop, touches no shared memory but slots
/// of buffers allocated outside the loop: those live through the whole loop,
/// so no scratch shares their bytes (SharedMemoryPlan.cpp). Reading them
/// (a dot from its slots, its wait, a slot read) or copying into them needs
/// no barrier before a scratch exchange; it does before a copy into them.
bool touchesOnlyLoopSlots(Operation *op) {
  auto loop = dyn_cast_or_null<scf::ForOp>(op->getParentOp());
  if (!loop || op->getNumRegions())
    return false;
  auto outside = [&](Value buffer) {
    return !loop->isAncestor(buffer.getParentRegion()->getParentOp());
  };
  if (auto read = dyn_cast<LocalLoadOp>(op))
    return outside(read.getBuffer());
  if (auto copy = dyn_cast<AsyncCopyOp>(op))
    return outside(copy.getBuffer());
  if (isa<AsyncCommitOp>(op))
    return true;
  if (auto dot = dyn_cast<DotOp>(op)) {
    if (getScratchBytes(op))
      return false; // it stages an operand through the scratch
    for (Value operand : {dot.getA(), dot.getB()}) {
      if (auto trans = operand.getDefiningOp<TransOp>())
        operand = trans.getSrc();
      if (auto read = operand.getDefiningOp<LocalLoadOp>(); read && !outside(read.getBuffer()))
        return false;
    }
    return true;
  }
  // The products it waits for may be a previous iteration's: it reads only
  // loop-lived slots when every dot of the loop does.
  return isa<DotWaitOp>(op) &&
         llvm::all_of(loop.getBody()->getOps<DotOp>(),
                      [](DotOp dot) { return touchesOnlyLoopSlots(dot); });
}

bool isScratchExchange(Operation *op) {
  return isa<ConvertLayoutOp>(op) && getScratchBytes(op) > 0;
}

bool isFullBarrier(Operation *op) { return isa<BarrierOp, AsyncWaitOp>(op); }

} // namespace

void elideSharedMemoryBarriers(ModuleOp module) {
  SmallVector<Block *> blocks;
  module.walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks) {
    // Barriers that follow an exchange through only shared-memory-free ops.
    SmallVector<Operation *> redundant;
    for (Operation &op : *block) {
      if (!isa<BarrierOp>(op))
        continue;
      for (Operation *before = op.getPrevNode(); before; before = before->getPrevNode()) {
        if (isScratchExchange(before)) {
          redundant.push_back(&op);
          break;
        }
        if (!awayFromSharedMemory(before))
          break;
      }
    }
    for (Operation *op : redundant)
      op->erase();
    // Exchanges whose scratch nothing touched since the last full barrier.
    bool idle = false;
    for (Operation &op : *block) {
      if (isFullBarrier(&op)) {
        idle = true;
      } else if (isScratchExchange(&op)) {
        if (idle)
          op.setAttr(kScratchIdleAttr, UnitAttr::get(op.getContext()));
        idle = false;
      } else if (!awayFromSharedMemory(&op) && !touchesOnlyLoopSlots(&op)) {
        idle = false;
      }
    }
  }
}

} // namespace kiln::lowering
