//===- ShareDotOperands.cpp - One shared-memory copy of a tile dots reread ===//
//
// A tile.dot on mma.sync stages each f16/bf16 operand that is in its own
// layout (DotOpToLLVM.cpp): a barrier, st.shared of the operand into the
// scratch, a barrier, then ldmatrix. A tile several dots multiply is then
// stored once per dot, and a tile made before a loop whose dot multiplies
// it is stored every iteration. fla's kkt solve multiplies 4 key blocks,
// each as the A of some of its 10 products and, transposed, as the B of
// others: 20 stores and 21 barriers an iteration of its K loop, where
// Triton stores each block once (local_alloc) and reads it with ldmatrix.
//
// Such a tile is stored once, where it is made, into a one-slot buffer of
// its own (tile.local_store), and its dots read it there (tile.local_load,
// through a tile.trans where they multiply it transposed: ldmatrix reads
// the same bytes either way):
//  - which tiles: those two staged operands or more read, or one in a loop
//    the tile is made outside of; of the former, only tiles of which some
//    dot then stages nothing (else its barriers stay and the store's add to
//    them);
//  - where: right before the first op of the tile's block that holds one
//    of those dots, so that loads issued before it overlap their latency
//    with the barrier; tiles already made there join its group. A group is
//    one barrier after its stores, and one before them unless the barrier
//    of an earlier group of the same loop iteration, which every path to it
//    passes, already follows every earlier read of the slots (a slot is
//    read only after its store, in the same iteration);
//  - the buffers are allocated before the innermost loop holding the
//    stores (live through it), or at the stores outside loops; made only
//    when the kernel's shared memory then still fits as many programs per
//    SM.
// Only mma.sync dots: warp-group layouts (wgmma) stage their own way.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "BlockedLayouts.h"
#include "SharedMemoryEstimate.h"
#include "SlotOperands.h"

#include "kiln/Analysis/DistributedLayout.h"
#include "kiln/Analysis/MmaLayout.h"
#include "kiln/Dialect/Tile/IR/BufferLife.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILESHAREDOTOPERANDS
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using kiln::DistributedLayout;
using kiln::getDistributedLayout;

namespace kiln::tile {
namespace {

/// Operand `index` of `dot`, which the dot would stage, read from a tile
/// directly or through `trans`.
struct StagedUse {
  DotOp dot;
  unsigned index;
  TransOp trans;
};

struct SharedTile {
  Value tile;
  SmallVector<StagedUse> uses;
  SharedMemoryType slot;
  /// The first op of the tile's block that holds one of its dots.
  Operation *firstReader = nullptr;
  /// Some dot runs in a loop the tile is made outside of.
  bool readInLoop = false;
};

bool is16BitFloat(Type type) { return type.isF16() || type.isBF16(); }

RankedTensorType tensorType(Value v) { return cast<RankedTensorType>(v.getType()); }

/// Whether `dot` runs on mma.sync with 16-bit operands.
bool isMmaSyncDot(DotOp dot) {
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(tensorType(dot.getC()).getEncoding());
  return mma && !isWarpGroupMma(mma) && is16BitFloat(tensorType(dot.getA()).getElementType()) &&
         is16BitFloat(tensorType(dot.getB()).getElementType());
}

/// The tile that dot operand `index` stages (and the transpose it goes
/// through); null when the dot stages nothing for it.
Value stagedTile(DotOp dot, unsigned index, TransOp &trans) {
  trans = {};
  if (isRegisterOperand(dot, index))
    return {};
  Value operand = index == 0 ? dot.getA() : dot.getB();
  if (auto t = operand.getDefiningOp<TransOp>()) {
    trans = t;
    operand = t.getSrc();
  }
  return operand.getDefiningOp<LocalLoadOp>() ? Value() : operand;
}

/// The one-slot buffer type `tile` is stored in, or null when none can hold
/// it: a 2-D tile of whole 16 x 16 fragments, made by an op, in a blocked
/// layout (whose transpose keeps every element in its thread). Stored as
/// its threads' runs go (whole 16-byte stores), as the dot's own staging.
SharedMemoryType slotTypeFor(Value tile) {
  RankedTensorType type = tensorType(tile);
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(type.getEncoding());
  if (!tile.getDefiningOp() || !blocked || type.getRank() != 2 || type.getDimSize(0) % 16 ||
      type.getDimSize(1) % 16)
    return {};
  std::optional<DistributedLayout> layout = getDistributedLayout(type);
  if (!layout)
    return {};
  bool transposed = layout->contiguousRegsAlong(0) > layout->contiguousRegsAlong(1);
  return SharedMemoryType::get(tile.getContext(), {1, type.getDimSize(0), type.getDimSize(1)},
                               type.getElementType(), transposed);
}

/// The innermost loop holding `op`, or null.
Operation *innermostLoop(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (isa<LoopLikeOpInterface>(p))
      return p;
    if (isa<FunctionOpInterface>(p))
      return nullptr;
  }
  return nullptr;
}

/// The tiles worth a slot (see the file comment), in the order they are
/// made.
SmallVector<SharedTile> chooseTiles(FunctionOpInterface func) {
  llvm::MapVector<Value, SharedTile> tiles;
  func->walk([&](DotOp dot) {
    if (!isMmaSyncDot(dot))
      return;
    for (unsigned index : {0u, 1u}) {
      TransOp trans;
      if (Value tile = stagedTile(dot, index, trans)) {
        SharedTile &t = tiles[tile];
        t.tile = tile;
        t.uses.push_back({dot, index, trans});
      }
    }
  });
  DenseSet<Value> chosen;
  for (auto &[tile, t] : tiles) {
    t.slot = slotTypeFor(tile);
    Operation *def = tile.getDefiningOp();
    for (StagedUse use : t.uses) {
      Operation *loop = innermostLoop(use.dot);
      t.readInLoop |= loop && !loop->isAncestor(def);
      Operation *top = def->getBlock()->findAncestorOpInBlock(*use.dot);
      if (!top) {
        t.slot = {};
        break;
      }
      if (!t.firstReader || top->isBeforeInBlock(t.firstReader))
        t.firstReader = top;
    }
    if (t.slot && (t.uses.size() >= 2 || t.readInLoop))
      chosen.insert(tile);
  }
  // Drop the tiles of which every dot would still stage another operand,
  // until none is left to drop.
  auto stagesNothing = [&](DotOp dot) {
    for (unsigned index : {0u, 1u}) {
      TransOp trans;
      Value tile = stagedTile(dot, index, trans);
      if (tile && !chosen.contains(tile))
        return false;
    }
    return true;
  };
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (auto &[tile, t] : tiles)
      if (chosen.contains(tile) && !t.readInLoop &&
          llvm::none_of(t.uses, [&](StagedUse use) { return stagesNothing(use.dot); })) {
        chosen.erase(tile);
        dropped = true;
      }
  }
  SmallVector<SharedTile> result;
  for (auto &[tile, t] : tiles)
    if (chosen.contains(tile))
      result.push_back(t);
  return result;
}

/// Tiles stored together: right before `at`, each tile made before it.
struct Group {
  Operation *at;
  SmallVector<SharedTile> tiles;
};

SmallVector<Group> groupStores(ArrayRef<SharedTile> tiles) {
  // By block, in the order of their first readers.
  llvm::MapVector<Block *, SmallVector<SharedTile>> byBlock;
  for (const SharedTile &t : tiles)
    byBlock[t.firstReader->getBlock()].push_back(t);
  SmallVector<Group> groups;
  for (auto &[block, list] : byBlock) {
    llvm::stable_sort(list, [](const SharedTile &a, const SharedTile &b) {
      return a.firstReader->isBeforeInBlock(b.firstReader);
    });
    Group *current = nullptr;
    for (const SharedTile &t : list) {
      if (current && t.tile.getDefiningOp()->isBeforeInBlock(current->at)) {
        current->tiles.push_back(t);
        continue;
      }
      groups.push_back({t.firstReader, {t}});
      current = &groups.back();
    }
  }
  return groups;
}

/// Whether a barrier of the whole program runs before `op` in every
/// iteration of the innermost loop holding `op`, after that iteration
/// began: it is in a block of that iteration holding `op`, before it. (The
/// slots live through the loop, so the loop's earlier reads of them are all
/// a previous iteration's.)
bool fencedInIteration(Operation *op) {
  Operation *loop = innermostLoop(op);
  if (!loop)
    return false;
  for (Operation *at = op; at && at != loop; at = at->getParentOp())
    for (Operation *prev = at->getPrevNode(); prev; prev = prev->getPrevNode())
      if (isa<BarrierOp, AsyncWaitOp>(prev))
        return true;
  return false;
}

/// Where the buffers of a group's tiles are allocated: before the innermost
/// loop holding the group's stores (so they live through it), else at them.
Operation *allocationPoint(const Group &group) {
  Operation *loop = innermostLoop(group.at);
  return loop ? loop : group.at;
}

/// Whether the kernel's shared memory with the groups' slots fits its
/// target and as many programs per SM as before. The estimate at each op:
/// the largest scratch of the ops up to it (a buffer is placed after the
/// scratch of those before it, SharedMemoryPlan.cpp) plus the buffers live
/// there, each slot from its allocation to the end of the op of that block
/// holding its last reader; with the slots, the dots no longer stage what
/// they read from them, nor do the transposes of the tiles move anything.
bool slotsFit(FunctionOpInterface func, ArrayRef<Group> groups) {
  DenseSet<Value> slotted;
  for (const Group &group : groups)
    for (const SharedTile &t : group.tiles)
      slotted.insert(t.tile);
  // An op's scratch once the tiles are in slots (`bytes`: before).
  auto scratchWithSlots = [&](Operation *op, int64_t bytes) {
    if (auto trans = dyn_cast<TransOp>(op); trans && slotted.contains(trans.getSrc()))
      return int64_t(0);
    if (auto dot = dyn_cast<DotOp>(op); dot && isMmaSyncDot(dot))
      for (unsigned index : {0u, 1u}) {
        TransOp trans;
        if (Value tile = stagedTile(dot, index, trans); tile && slotted.contains(tile))
          bytes -= tensorBytes(index == 0 ? dot.getA().getType() : dot.getB().getType());
      }
    return bytes;
  };
  OpOrder order = numberOps(func);
  SmallVector<Operation *> ops(order.size);
  for (auto [op, i] : order.index)
    ops[i] = op;
  struct Life {
    int64_t start, end, bytes;
  };
  SmallVector<Life> slots;
  for (const Group &group : groups) {
    Operation *at = allocationPoint(group);
    for (const SharedTile &t : group.tiles) {
      Life life{order.index[at], order.index[at], int64_t(llvm::alignTo(t.slot.getAllocBytes(), 1024))};
      for (StagedUse use : t.uses)
        if (Operation *top = at->getBlock()->findAncestorOpInBlock(*use.dot))
          life.end = std::max(life.end, order.lastIndex[top]);
      slots.push_back(life);
    }
  }
  // The buffers already there, over their lives as the plan places them.
  SmallVector<Life> buffers;
  func->walk([&](LocalAllocOp alloc) {
    buffers.push_back(
        {order.index[alloc], bufferLifeEnd(alloc, order), alloc.getType().getAllocBytes()});
  });
  auto liveBytes = [](ArrayRef<Life> lives, int64_t i) {
    int64_t bytes = 0;
    for (const Life &life : lives)
      if (life.start <= i && i <= life.end)
        bytes += life.bytes;
    return bytes;
  };
  int64_t before = 0, after = 0, scratchBefore = 0, scratchAfter = 0;
  for (auto [i, op] : llvm::enumerate(ops)) {
    int64_t bytes = scratchEstimate(op);
    scratchBefore = std::max(scratchBefore, bytes);
    scratchAfter = std::max(scratchAfter, scratchWithSlots(op, bytes));
    int64_t live = liveBytes(buffers, int64_t(i));
    before = std::max(before, scratchBefore + live);
    after = std::max(after, scratchAfter + live + liveBytes(slots, int64_t(i)));
  }
  return after <= sharedMemoryPerBlock(func) &&
         programsPerSM(func, after) >= programsPerSM(func, before);
}

void storeGroups(FunctionOpInterface func, SmallVector<Group> groups) {
  // In program order, so that an earlier group's barrier can serve as a
  // later one's first.
  OpOrder order = numberOps(func);
  llvm::stable_sort(groups, [&](const Group &a, const Group &b) {
    return order.index.lookup(a.at) < order.index.lookup(b.at);
  });
  for (Group &group : groups) {
    Operation *at = group.at;
    Location loc = at->getLoc();
    OpBuilder outer(allocationPoint(group));
    OpBuilder b(at);
    SmallVector<Value> buffers;
    for (const SharedTile &t : group.tiles)
      buffers.push_back(LocalAllocOp::create(outer, t.tile.getLoc(), t.slot));
    if (!fencedInIteration(at))
      BarrierOp::create(b, loc); // earlier readers of the slots' bytes are done
    Value slot = arith::ConstantIntOp::create(b, loc, 0, 32);
    for (auto [t, buffer] : llvm::zip(group.tiles, buffers))
      LocalStoreOp::create(b, t.tile.getLoc(), t.tile, buffer, slot);
    BarrierOp::create(b, loc); // the stores are done
    for (auto [t, buffer] : llvm::zip(group.tiles, buffers)) {
      RankedTensorType type = tensorType(t.tile);
      Value read = LocalLoadOp::create(b, t.tile.getLoc(), type, buffer, slot);
      // A transpose of the read keeps every element in its thread: the
      // dots read the slot, not its registers.
      TransOp readTransposed;
      for (StagedUse use : t.uses) {
        Value operand = read;
        if (use.trans) {
          if (!readTransposed) {
            auto layout = derivedLayout(use.trans, cast<BlockedLayoutAttr>(type.getEncoding()));
            auto transType = RankedTensorType::get(tensorType(use.trans).getShape(),
                                                   type.getElementType(), layout);
            readTransposed =
                TransOp::create(b, use.trans.getLoc(), transType, read, use.trans.getOrder());
          }
          operand = readTransposed;
        }
        use.dot->setOperand(use.index, operand);
      }
    }
  }
  // Transposes no dot reads any more.
  llvm::SetVector<Operation *> transposes;
  for (Group &group : groups)
    for (const SharedTile &t : group.tiles)
      for (StagedUse use : t.uses)
        if (use.trans)
          transposes.insert(use.trans);
  for (Operation *trans : transposes)
    if (trans->use_empty())
      trans->erase();
}

struct ShareDotOperandsPass
    : kiln::tile::impl::TileShareDotOperandsBase<ShareDotOperandsPass> {
  void runOnOperation() override {
    getOperation().walk([](FunctionOpInterface func) {
      SmallVector<SharedTile> tiles = chooseTiles(func);
      if (tiles.empty())
        return;
      SmallVector<Group> groups = groupStores(tiles);
      if (slotsFit(func, groups))
        storeGroups(func, std::move(groups));
    });
  }
};

} // namespace
} // namespace kiln::tile
