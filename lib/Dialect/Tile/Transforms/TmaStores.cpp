//===- TmaStores.cpp - Descriptor blocks stored by TMA on sm_90 -----------===//
//
// A store of a 2-D descriptor block (a tile.store with `coords` and
// `descArg` or `desc`; or the squeezed [1, BM, BN] block of a host
// descriptor of rank 3 to 5, with a coordinate per dimension and a box of
// the whole block) writes its value into a shared-memory slot, and the
// TMA unit copies the slot to global memory (tile.tma_store), as Triton does
// on Hopper. Against a store per 4-16 bytes per thread, each with a 64-bit
// address and a bounds test in registers:
//  - one instruction per panel, the bounds tested by the hardware;
//  - no layout exchange to coalesce the stores: the slot takes the value in
//    the layout it has (a dot's accumulator as the products left it);
//  - the store is asynchronous: the program goes on (a persistent kernel's
//    next tile) while the TMA unit reads the slot and writes memory.
//
// Placement. Only stores in a loop (a persistent kernel's tiles): there the
// TMA store overlaps the next iteration, while a program's last store would
// keep the program until the unit has read its slot. The stores under one
// op T of the kernel's body get a slot each, allocated before T, so they
// stay in flight into the next iteration. Before a slot is written, the
// program waits until the store that last read it has (a
// tile.tma_store_wait counting the groups committed since) and
// synchronizes; after T, it waits for them all, so the slots' bytes are
// free again. The slots share no bytes with what is live during T
// (SharedMemoryPlan.cpp): the rewrite is made only when they fit the
// target's shared memory and cost no program per SM.
//
//===----------------------------------------------------------------------===//
#include "DeadCode.h"
#include "NextTilePrologue.h"
#include "TmaCopies.h"

#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Analysis/DistributedLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILETMASTORES
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using kiln::DistributedLayout;
using kiln::getDistributedLayout;

namespace kiln::tile {
namespace {

/// Whether tile.local_store can write `v` (its lowering's rule): runs of
/// registers along a row of at least 16 bits.
bool slotWritable(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  std::optional<DistributedLayout> layout = type ? getDistributedLayout(type) : std::nullopt;
  if (!layout)
    return false;
  layout = layout->asRows();
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  unsigned vec = std::min(unsigned(128 / bits), layout->contiguousRegsAlong(1));
  if (layout->numRegs() % vec)
    vec = 1;
  return vec * bits >= 16;
}

/// What the slot receives: the value that the layout conversion before the
/// store converted, when the slot can take it as it is.
Value slotValue(StoreOp store) {
  Value v = store.getValue();
  if (auto cvt = v.getDefiningOp<ConvertLayoutOp>(); cvt && slotWritable(cvt.getSrc()))
    return cvt.getSrc();
  return slotWritable(v) ? v : Value();
}

/// Whether `v` is defined outside `top` (before it, as it dominates a use
/// inside).
bool definedOutside(Value v, Operation *top) {
  Operation *def = v.getDefiningOp();
  Operation *where = def ? def : cast<BlockArgument>(v).getOwner()->getParentOp();
  return !top->isAncestor(where);
}

struct Candidate {
  StoreOp store;
  Value value;          ///< what the slot receives
  SharedMemoryType slot; ///< its one-slot buffer
};

/// Shared memory while each op of `body` runs, as estimated before the
/// lowering: the buffers allocated in it or live across it, and the
/// largest scratch in it (epilogueScratchEstimate; not that of `skipped`).
SmallVector<int64_t> sharedBytesByOp(Block &body, const DenseSet<Operation *> &skipped) {
  DenseMap<Operation *, unsigned> index;
  for (auto [i, op] : llvm::enumerate(body))
    index[&op] = unsigned(i);
  SmallVector<int64_t> bytes(body.getOperations().size(), 0);
  for (auto [i, op] : llvm::enumerate(body)) {
    int64_t nested = 0, scratch = 0;
    op.walk([&](Operation *inner) {
      if (auto alloc = dyn_cast<LocalAllocOp>(inner)) {
        if (inner != &op)
          nested += alloc.getType().getAllocBytes();
      } else if (!skipped.contains(inner)) {
        scratch = std::max(scratch, epilogueScratchEstimate(inner));
      }
    });
    bytes[i] += nested + scratch;
    auto alloc = dyn_cast<LocalAllocOp>(op);
    if (!alloc)
      continue;
    unsigned last = unsigned(i);
    for (Operation *user : alloc->getUsers())
      if (Operation *top = body.findAncestorOpInBlock(*user))
        last = std::max(last, index[top]);
    for (unsigned k = unsigned(i); k <= last; ++k)
      bytes[k] += alloc.getType().getAllocBytes();
  }
  return bytes;
}

/// The stores of `candidates`, and the ops under `top` whose results only
/// they use, directly or not (their pointers, masks and a layout conversion
/// of the value that the slot does not take).
DenseSet<Operation *> diesWithStores(Operation *top, ArrayRef<Candidate> candidates) {
  DenseSet<Operation *> dying, kept;
  for (Candidate c : candidates) {
    dying.insert(c.store);
    kept.insert(c.value.getDefiningOp()); // the slots take it
  }
  for (bool grew = true; grew;) {
    grew = false;
    top->walk([&](Operation *op) {
      if (dying.contains(op) || kept.contains(op) || op->use_empty() || op->getNumRegions() ||
          !isMemoryEffectFree(op))
        return;
      if (llvm::all_of(op->getUsers(), [&](Operation *user) { return dying.contains(user); }))
        grew |= dying.insert(op).second;
    });
  }
  return dying;
}

/// Rewrites the stores of `candidates`, all under `top` (an op of the
/// kernel's body), into TMA stores, if their slots fit.
void storeWithTma(Operation *top, ArrayRef<Candidate> candidates) {
  Block &body = *top->getBlock();
  auto at = std::distance(body.begin(), top->getIterator());
  int64_t slotBytes = 0;
  for (Candidate c : candidates)
    slotBytes += c.slot.getAllocBytes();
  DenseSet<Operation *> dying = diesWithStores(top, candidates);
  auto peak = [](ArrayRef<int64_t> bytes) {
    return bytes.empty() ? 0 : *llvm::max_element(bytes);
  };
  int64_t before = peak(sharedBytesByOp(body, {}));
  SmallVector<int64_t> withSlots = sharedBytesByOp(body, dying);
  withSlots[at] += slotBytes;
  int64_t after = peak(withSlots);
  if (after > sharedMemoryPerBlock(top) ||
      programsPerSM(top, after) < programsPerSM(top, before))
    return;

  // The tensor maps first: a store whose host descriptor already has a map
  // of another box (a load's) stays a store, and is not counted below.
  SmallVector<std::pair<Candidate, Value>> mapped;
  for (Candidate c : candidates)
    if (Value map = tensorMapFor(DescriptorBlock::of(c.store)))
      mapped.push_back({c, map});
  if (mapped.empty())
    return;
  Block *first = mapped.front().first.store->getBlock();
  bool straightLine = llvm::all_of(
      mapped, [&](auto &entry) { return entry.first.store->getBlock() == first; });
  // Between two runs of one store each other store of the block commits
  // one group: waiting down to n - 1 pending groups waits for its own.
  int64_t pending = straightLine ? int64_t(mapped.size()) - 1 : 0;

  OpBuilder b(top);
  SmallVector<Value> buffers, storeOperands;
  for (auto [c, map] : mapped) {
    Location loc = c.store.getLoc();
    b.setInsertionPoint(top);
    Value buffer = LocalAllocOp::create(b, loc, c.slot);
    buffers.push_back(buffer);
    b.setInsertionPoint(c.store);
    // The slot's store of the previous iteration has read it.
    TmaStoreWaitOp::create(b, loc, b.getI64IntegerAttr(pending), ValueRange{buffer});
    BarrierOp::create(b, loc);
    Value slot = arith::ConstantIntOp::create(b, loc, 0, 32);
    LocalStoreOp::create(b, loc, c.value, buffer, slot);
    TmaStoreOp::create(b, loc, buffer, slot, map, c.store.getCoords());
    llvm::append_range(storeOperands, c.store->getOperands());
    c.store.erase();
  }
  b.setInsertionPointAfter(top); // a loop (or an op holding one), never a store
  TmaStoreWaitOp::create(b, top->getLoc(), b.getI64IntegerAttr(0), buffers);
  eraseDeadDefs(storeOperands); // pointers, masks, the conversion skipped
}

/// The descriptor's column count (its innermost shape): the host
/// descriptor's argument after its base and its outer shapes (one per
/// coordinate), or the field of one made in the kernel.
Value columnsOf(StoreOp store, func::FuncOp func) {
  if (std::optional<int64_t> arg = store.getDescArg())
    return func.getArgument(unsigned(*arg + int64_t(store.getCoords().size())));
  return store.getDesc()[2];
}

struct TileTmaStoresPass : impl::TileTmaStoresBase<TileTmaStoresPass> {
  void runOnOperation() override {
    // Queried before any rewrite (the analysis reads the IR as it was).
    kiln::ModuleAxisInfo axis(getOperation());
    if (failed(axis.status()))
      return signalPassFailure();
    getOperation().walk([&](func::FuncOp func) {
      if (func.isExternal() || !targetHasTma(func))
        return;
      Block &body = func.getBody().front();
      // Per op of the body, its candidate stores in program order.
      llvm::MapVector<Operation *, SmallVector<Candidate>> byTop;
      func.walk([&](StoreOp store) {
        // A store in a loop only: its TMA store runs on while the next
        // iteration computes. The last store of a program would instead
        // hold the program until the unit has read the slot, and measured
        // no faster: the fused-attention tutorial's forward 1 % slower over
        // its configs at HEAD_DIM 64 (session 37); an attention forward's O
        // and Liger's fused-MLP epilogues (rank-3 blocks) geomean 1.002 and
        // 1.000 of the vector stores' time, 0.96-1.07 per config (session
        // 50, H200).
        if (!store->getParentOfType<LoopLikeOpInterface>())
          return;
        if (store.getCoords().empty() || !hasTmaCoords(DescriptorBlock::of(store)) ||
            !isTmaBlock(store.getValue().getType()))
          return;
        // The TMA unit writes whole 16-byte chunks of a row: past the last
        // column unless the rows end on a chunk (measured on the H100, and
        // so under Triton too). Only rows proven to end on one are stored so.
        int64_t elemBytes =
            mlir::getElementTypeOrSelf(store.getValue().getType()).getIntOrFloatBitWidth() / 8;
        if (axis.get(columnsOf(store, func)).getDivisibility(0) * elemBytes % 16 != 0)
          return;
        Operation *top = body.findAncestorOpInBlock(*store);
        if (!top || !llvm::all_of(store.getDesc(), [&](Value v) { return definedOutside(v, top); }))
          return;
        if (Value value = slotValue(store)) {
          auto type = cast<RankedTensorType>(value.getType());
          auto slot = SharedMemoryType::get(store.getContext(),
                                            {1, type.getDimSize(0), type.getDimSize(1)},
                                            type.getElementType());
          byTop[top].push_back({store, value, slot});
        }
      });
      for (auto &[top, candidates] : byTop)
        storeWithTma(top, candidates);
    });
  }
};

} // namespace
} // namespace kiln::tile
