//===- OneSlotStaging.cpp - Tiles through one shared-memory slot ----------===//
//
// The loads --tile-pipeline-loops (PipelineLoops.cpp) stages without
// pipelining them: a dot operand loaded once before the loops that use it,
// a loop's dot operands that cannot all be copied asynchronously, each
// through one slot written and read in the same iteration, and a tile
// loaded once only to be converted to another layout (an epilogue's).
//
//===----------------------------------------------------------------------===//
#include "NextTilePrologue.h"
#include "SlotOperands.h"
#include "TmaCopies.h"

#include "kiln/Analysis/DistributedLayout.h"
#include "kiln/Dialect/Tile/IR/BufferLife.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// The conversion that is the only user of `load`, a 2-D f16 / bf16 / f32
/// tile loaded in no loop, to an accumulator's (#tile.mma) layout; else
/// null.
static ConvertLayoutOp onlyConversion(LoadOp load) {
  // What a slot holds (!tile.smem): f16, bf16 or f32 rows of whole
  // 16-byte chunks.
  auto type = dyn_cast<RankedTensorType>(load.getType());
  Type elem = type ? type.getElementType() : Type();
  if (!type || type.getRank() != 2 || !(elem.isF16() || elem.isBF16() || elem.isF32()) ||
      type.getDimSize(1) * elem.getIntOrFloatBitWidth() % 128 || load.getIsVolatile() ||
      !load->hasOneUse() || load->getParentOfType<scf::ForOp>() ||
      load->getParentOfType<scf::WhileOp>())
    return {};
  // Into an accumulator's layout: the slot's swizzle serves its reads (a
  // transposing blocked-to-blocked exchange picks its own padding instead).
  auto cvt = dyn_cast<ConvertLayoutOp>(*load->user_begin());
  if (!cvt || cvt->getBlock() != load->getBlock() ||
      !isa_and_nonnull<MmaLayoutAttr>(cvt.getType().getEncoding()))
    return {};
  return cvt;
}

bool isConvertedOnlyLoad(LoadOp load) { return bool(onlyConversion(load)); }

/// The op before which the ops from `first` to `copy` (a slot's allocation,
/// the TMA copy's setup and the copy) may start instead: the earliest past
/// which only ops go that neither define the copy's operands nor write
/// memory (another epilogue tile's wait and read included), so that the
/// copies of an epilogue's tiles are all in flight before the first wait
/// (`g = desc.load(..).to(f32)` puts the wait of G before the load of U).
/// `first` when none.
static Operation *earliestStart(Operation *first, Operation *copy) {
  auto crossable = [&](Operation *op) {
    if (op->getNumRegions() ||
        llvm::any_of(copy->getOperands(), [&](Value v) { return v.getDefiningOp() == op; }))
      return false;
    if (isa<LocalAllocOp, LocalLoadOp, TmaInitOp, TmaCopyOp, TmaWaitOp, TmaInvalOp>(op))
      return true;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    return isMemoryEffectFree(op) ||
           (effects && effects.onlyHasEffect<MemoryEffects::Read>());
  };
  Operation *before = first;
  while (Operation *prev = before->getPrevNode()) {
    if (!crossable(prev))
      break;
    before = prev;
  }
  return before;
}

/// Whether a slot of `bytes` allocated at `at` fits beside the buffers in
/// use there (but `self`) and the largest scratch the function's ops may
/// take (the buffers of the loops before it are not in use: SharedMemoryPlan
/// gives their bytes to it).
static bool slotFitsAt(Operation *at, int64_t bytes, Operation *self = nullptr) {
  auto func = at->getParentOfType<FunctionOpInterface>();
  int64_t scratch = 0, live = 0;
  func->walk([&](Operation *op) {
    if (auto alloc = dyn_cast<LocalAllocOp>(op))
      live += op != self && isBufferLiveAt(alloc, at) ? alloc.getType().getAllocBytes() : 0;
    else
      scratch = std::max(scratch, scratchEstimate(op));
  });
  return bytes + live + scratch <= sharedMemoryPerBlock(at);
}

bool stageConvertedLoad(LoadOp load, bool byCpAsync) {
  ConvertLayoutOp cvt = onlyConversion(load);
  if (!cvt)
    return false;
  Value tensorMap = copiedWithTma(load) ? tensorMapFor(load) : Value();
  if (!tensorMap && !byCpAsync)
    return false;
  auto type = cast<RankedTensorType>(load.getType());
  int64_t bytes = tensorBytes(type);
  if (!slotFitsAt(load, bytes))
    return false;

  OpBuilder b(load);
  Location loc = load.getLoc();
  auto slotType = SharedMemoryType::get(load.getContext(),
                                        {1, type.getDimSize(0), type.getDimSize(1)},
                                        type.getElementType(), /*transposed=*/false,
                                        /*barriers=*/bool(tensorMap));
  auto alloc = LocalAllocOp::create(b, loc, slotType);
  Value buffer = alloc;
  Value slot = arith::ConstantIntOp::create(b, loc, 0, 32);
  if (tensorMap) { // tma_init ends with the barrier after the bytes' earlier users
    TmaInitOp::create(b, loc, buffer);
    Value always = arith::ConstantIntOp::create(b, loc, 1, 1);
    auto copy =
        TmaCopyOp::create(b, loc, tensorMap, load.getCoords(), buffer, slot, Value(), always);
    // Moved up only where the slot still fits (it may then live beside
    // buffers whose last reads it passed).
    Operation *start = earliestStart(alloc, copy);
    if (start != alloc.getOperation() && slotFitsAt(start, bytes, alloc)) {
      SmallVector<Operation *> group;
      for (Operation *op = alloc; op != copy->getNextNode(); op = op->getNextNode())
        group.push_back(op);
      for (Operation *op : group)
        op->moveBefore(start);
    }
  } else {
    BarrierOp::create(b, loc);
    AsyncCopyOp::create(b, loc, load.getPtr(), load.getMask(), buffer, slot);
    AsyncCommitOp::create(b, loc);
  }
  // Waited for where the conversion was: the copies of the loads before it
  // (an epilogue's other tiles) are in flight meanwhile.
  b.setInsertionPoint(cvt);
  if (tensorMap)
    TmaWaitOp::create(b, loc, buffer, slot, slot); // the first phase: parity 0
  else
    AsyncWaitOp::create(b, loc, 0); // + the barrier
  Value tile = LocalLoadOp::create(b, loc, cvt.getType(), buffer, slot);
  if (tensorMap) // its barrier first: every thread is past the wait
    TmaInvalOp::create(b, loc, buffer);
  cvt.getResult().replaceAllUsesWith(tile);
  cvt.erase();
  load.erase();
  return true;
}

} // namespace kiln::tile
