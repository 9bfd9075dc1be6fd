//===- OneSlotStaging.cpp - Dot operands through one shared-memory slot ---===//
//
// The loads --tile-pipeline-loops (PipelineLoops.cpp) stages without
// pipelining them: a dot operand loaded once before the loops that use it,
// and a loop's dot operands that cannot all be copied asynchronously, each
// through one slot written and read in the same iteration.
//
//===----------------------------------------------------------------------===//
#include "SlotOperands.h"

#include "kiln/Analysis/DistributedLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using kiln::DistributedLayout;
using kiln::getDistributedLayout;

namespace kiln::tile {

/// A buffer of one slot holding `load`'s tile as the dots read it.
SharedMemoryType oneSlotType(LoadOp load) {
  auto type = cast<RankedTensorType>(load.getType());
  return SharedMemoryType::get(load.getContext(), {1, type.getDimSize(0), type.getDimSize(1)},
                               type.getElementType(), isTransposedOperand(load));
}

/// A dot operand loaded once before the loops that multiply with it (the
/// queries of attention) is copied into shared memory where it is loaded:
/// every iteration's dot then reads it there with ldmatrix instead of
/// staging it from registers again, and no registers hold it in the loop.
void stageInvariantOperand(LoadOp load) {
  OpBuilder b(load);
  Location loc = load.getLoc();
  auto type = cast<RankedTensorType>(load.getType());
  auto buffer = LocalAllocOp::create(b, loc, oneSlotType(load));
  Value slot = arith::ConstantIntOp::create(b, loc, 0, 32);
  AsyncCopyOp::create(b, loc, load.getPtr(), load.getMask(), buffer, slot);
  AsyncCommitOp::create(b, loc);
  AsyncWaitOp::create(b, loc, 0);
  Value tile = LocalLoadOp::create(b, loc, type, buffer, slot);
  load.getResult().replaceAllUsesWith(tile);
  load.erase();
}

/// Dot operands that cannot all be copied asynchronously (rows not proven
/// 4-byte aligned) go through one shared-memory slot each, written and read
/// in the same iteration, as Triton does (load, local_alloc, wgmma): the dots
/// then read them from shared memory (wgmma on sm_90) instead of staging
/// them. The loads that cp.async cannot copy stay loads, their tiles stored
/// into the slots after the barrier that frees them (loads issued before it
/// overlap their latency with it); the others become copies.
/// `loads` are in one loop body, the last one after the others; `wordCopies`
/// holds those cp.async can copy.
void stageInLoop(scf::ForOp loop, ArrayRef<LoadOp> loads,
                 const llvm::DenseSet<Operation *> &wordCopies) {
  OpBuilder outer(loop);
  LoadOp last = loads.back();
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  Location loc = last.getLoc();
  // The previous iteration's dots have read the slots (each dot completes
  // before its iteration ends; the barrier makes that hold for all warps).
  BarrierOp::create(b, loc);
  Value slot = arith::ConstantIntOp::create(b, loc, 0, 32);
  SmallVector<std::tuple<LoadOp, Value, bool>> staged; // (load, buffer, copied)
  // Loads issued before the barrier: all of them when they hold at most 32
  // registers per thread together, else only the first (each other one after
  // the previous store, as Triton does). Measured on the H200: the corpus's
  // odd matmul (two 128 x 64 / 64 x 128 tiles on 8 warps, 64 elements per
  // thread) spills with all of them ahead (1.31x Triton's time) and matches
  // Triton one at a time (1.00); its odd bmm_bias (64 x 32 and 32 x 64 on 4
  // warps) runs 1.00 with both ahead and 1.27 one at a time.
  int64_t syncRegs = 0;
  for (LoadOp load : loads)
    if (!wordCopies.contains(load))
      if (std::optional<DistributedLayout> layout =
              getDistributedLayout(cast<RankedTensorType>(load.getType())))
        syncRegs += layout->numRegs();
  bool allAhead = syncRegs <= 32;
  bool anyCopy = false, loadedAhead = false;
  for (LoadOp load : loads) {
    Value buffer = LocalAllocOp::create(outer, load.getLoc(), oneSlotType(load));
    bool copied = wordCopies.contains(load);
    if (copied) {
      AsyncCopyOp::create(b, load.getLoc(), load.getPtr(), load.getMask(), buffer, slot);
    } else {
      if (loadedAhead && !allAhead)
        load->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
      loadedAhead = true;
      LocalStoreOp::create(b, load.getLoc(), load.getResult(), buffer, slot);
    }
    anyCopy |= copied;
    staged.push_back({load, buffer, copied});
  }
  if (anyCopy)
    AsyncCommitOp::create(b, loc);
  AsyncWaitOp::create(b, loc, 0); // + the barrier after the stores
  for (auto [constLoad, buffer, copied] : staged) {
    LoadOp load = constLoad;
    Value tile = LocalLoadOp::create(b, load.getLoc(), load.getType(), buffer, slot);
    load.getResult().replaceUsesWithIf(tile, [](OpOperand &use) {
      return !isa<LocalStoreOp>(use.getOwner());
    });
    if (copied)
      load.erase();
  }
}

} // namespace kiln::tile
