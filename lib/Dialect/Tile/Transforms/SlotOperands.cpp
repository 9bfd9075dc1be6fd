//===- SlotOperands.cpp - Which dot operand loads go to shared memory ------===//
//
// f16/bf16 operands go to slots whenever their dot stages them anyway (the
// dot then reads them with ldmatrix, or wgmma on sm_90). f32 (tf32) and fp8
// operands have no ldmatrix path: they go to slots only for a dot that runs
// as sm_90 wgmma, which reads both of them K-major (A as M rows of K, B
// transposed, N rows of K), and only both together. A B written as the
// transpose of a loaded N x K block (tutorial 09's `b_desc.load(...).T`)
// is such a slot read through its tile.trans.
//
//===----------------------------------------------------------------------===//
#include "SlotOperands.h"
#include "TmaCopies.h"

#include "BlockedLayouts.h"
#include "DotLayouts.h"

#include "kiln/Analysis/DistributedLayout.h"
#include "kiln/Analysis/MmaLayout.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace kiln::tile {
namespace {

/// The kernel argument `ptr` (a pointer or pointer tensor) points into:
/// followed through pointer arithmetic, casts, splats, shape and layout
/// changes, hints and loop-carried pointers (init and advance alike); null
/// when it comes from elsewhere (loaded from memory, chosen by a select).
Value pointerRoot(Value ptr, unsigned depth = 0) {
  if (depth > 32)
    return Value();
  if (auto arg = dyn_cast<BlockArgument>(ptr)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<FunctionOpInterface>(owner))
      return arg;
    auto loop = dyn_cast<scf::ForOp>(owner);
    if (!loop || arg == loop.getInductionVar())
      return Value();
    unsigned k = arg.getArgNumber() - loop.getNumInductionVars();
    Value init = pointerRoot(loop.getInitArgs()[k], depth + 1);
    // The advance leads back to `arg` itself: its root is the init's.
    Value step = loop.getBody()->getTerminator()->getOperand(k);
    for (unsigned n = 0; n < 32 && step != arg; ++n) {
      auto add = step.getDefiningOp<AddPtrOp>();
      if (!add)
        return Value();
      step = add.getPtr();
    }
    return step == arg ? init : Value();
  }
  Operation *def = ptr.getDefiningOp();
  if (!def)
    return Value();
  if (auto add = dyn_cast<AddPtrOp>(def))
    return pointerRoot(add.getPtr(), depth + 1);
  if (isa<SplatOp, BroadcastOp, ExpandDimsOp, ConvertLayoutOp, ReshapeOp, TransOp, PtrCastOp,
          MultipleOfOp, MaxContiguousOp, MaxConstancyOp>(def))
    return pointerRoot(def->getOperand(0), depth + 1);
  return Value();
}

/// The kernel arguments the loop's body writes through; nullopt when it
/// writes memory some other way or through a pointer of unknown origin.
/// (Printing and assertions write nothing a load reads.)
std::optional<llvm::SmallPtrSet<Value, 4>> writtenRoots(Block *body) {
  llvm::SmallPtrSet<Value, 4> roots;
  bool unknown = false;
  body->walk([&](Operation *op) {
    if (isa<PrintOp, AssertOp>(op))
      return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (effects ? !effects.hasEffect<MemoryEffects::Write>()
                : op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return;
    Value ptr;
    if (auto store = dyn_cast<StoreOp>(op))
      ptr = store.getPtr();
    else if (auto rmw = dyn_cast<AtomicRMWOp>(op))
      ptr = rmw.getPtr();
    else if (auto cas = dyn_cast<AtomicCASOp>(op))
      ptr = cas.getPtr();
    Value root = ptr ? pointerRoot(ptr) : Value();
    if (root)
      roots.insert(root);
    else
      unknown = true;
  });
  if (unknown)
    return std::nullopt;
  return roots;
}

bool isKMajorOnlyType(Type elem) {
  return elem.isF32() || elem.isInteger(8) || isa<Float8E4M3FNType, Float8E5M2Type>(elem);
}

/// A use of a loaded tile as a dot operand.
struct DotUse {
  DotOp dot;
  unsigned index; ///< 0: A, 1: B
  bool flipped;   ///< through a 2-D tile.trans (B read as N rows of K)
  /// Whether the dot reads the loaded tile K-major when its slot stores it
  /// transposed: B, or A through a transpose.
  bool wantsTransposedSlot() const { return (index == 1) != flipped; }
};

/// The single-use 2-D transpose that `v` alone feeds, if any.
TransOp onlyTranspose(Value v) {
  if (!v.hasOneUse())
    return {};
  auto trans = dyn_cast<TransOp>(*v.user_begin());
  if (!trans || trans.getOrder().size() != 2 || trans.getOrder()[0] != 1)
    return {};
  return trans;
}

/// The dot uses of `load`, through a single-use 2-D transpose and then the
/// #tile.dot_op conversion an f32 or fp8 operand takes (one that several
/// dots share once CSE has merged theirs); empty if any use is something
/// else.
SmallVector<DotUse> dotUses(LoadOp load) {
  Value tile = load.getResult();
  bool flipped = false;
  if (TransOp trans = onlyTranspose(tile); trans && trans->getBlock() == load->getBlock()) {
    tile = trans.getResult();
    flipped = true;
  }
  SmallVector<DotUse> uses;
  auto addDot = [&](OpOperand &operand) {
    auto dot = dyn_cast<DotOp>(operand.getOwner());
    if (!dot || operand.getOperandNumber() > 1)
      return false;
    uses.push_back({dot, operand.getOperandNumber(), flipped});
    return true;
  };
  for (OpOperand &use : tile.getUses()) {
    auto cvt = dyn_cast<ConvertLayoutOp>(use.getOwner());
    if (!cvt) {
      if (!addDot(use))
        return {};
      continue;
    }
    if (cvt->getBlock() != load->getBlock() || cvt->use_empty())
      return {};
    for (OpOperand &converted : cvt->getUses())
      if (!addDot(converted))
        return {};
  }
  return uses;
}

/// The K-major-only operand loads among `loads` whose dot's other operand is
/// not among them are dropped: such a dot reads both operands from slots or
/// neither.
void keepWholeKMajorDots(SmallVector<LoadOp> &loads) {
  auto slotted = [&](Value operand) {
    LoadOp load = operandLoad(operand);
    return load && llvm::is_contained(loads, load);
  };
  // Dropping one operand drops its partner: repeat until nothing changes.
  while (true) {
    llvm::DenseSet<Operation *> dropped;
    for (LoadOp load : loads) {
      if (!isKMajorOnlyLoad(load))
        continue;
      for (DotUse use : dotUses(load))
        if (!slotted(use.dot.getA()) || !slotted(use.dot.getB()))
          dropped.insert(load);
    }
    if (dropped.empty())
      return;
    llvm::erase_if(loads, [&](LoadOp load) { return dropped.contains(load); });
  }
}

} // namespace

LoadOp operandLoad(Value operand) {
  if (auto cvt = operand.getDefiningOp<ConvertLayoutOp>())
    operand = cvt.getSrc();
  if (auto trans = operand.getDefiningOp<TransOp>())
    operand = trans.getSrc();
  return operand.getDefiningOp<LoadOp>();
}

int64_t tensorBytes(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  Type elem = tensor.getElementType();
  int64_t bytes = isa<PtrType>(elem) ? 8 : std::max(1u, elem.getIntOrFloatBitWidth() / 8);
  return tensor.getNumElements() * bytes;
}

bool zeroPadded(LoadOp load) { return !load.getOther() || isZeroConstant(load.getOther()); }

bool paddingFilledByCopy(LoadOp load) {
  // TMA fills a descriptor's padding (zero or NaN) itself.
  return zeroPadded(load) || copiedWithTma(load);
}

bool isZeroConstant(Value v) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return false;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (!dense.isSplat())
      return false;
    attr = dense.getSplatValue<Attribute>();
  }
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().isZero() && !f.getValue().isNegative();
  if (auto i = dyn_cast<IntegerAttr>(attr)) // int8 dot operands
    return i.getValue().isZero();
  return false;
}

bool isKMajorOnlyLoad(LoadOp load) {
  return isKMajorOnlyType(mlir::getElementTypeOrSelf(load.getType()));
}

/// A load whose threads hold single elements (a gathered operand) is copied
/// element by element, which writes either orientation: A then takes M rows
/// of K, which wgmma reads, and a K-major-only B N rows of K, the only B
/// that tf32 and fp8 wgmma read.
bool isTransposedOperand(LoadOp load) {
  auto type = cast<RankedTensorType>(load.getType());
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(type.getEncoding());
  // A 1-D load is one row of its slot, whatever its layout (a blocked one:
  // a load pinned to its own coalesced layout, PinnedAccesses.h).
  if (!blocked || type.getRank() == 1)
    return false;
  bool runsDown = blocked.getOrder()[0] == 0;
  if (blocked.getSizePerThread()[blocked.getOrder()[0]] > 1)
    return runsDown;
  SmallVector<DotUse> uses = dotUses(load);
  auto all = [&](bool transposed) {
    return !uses.empty() && llvm::all_of(uses, [&](const DotUse &use) {
      return use.wantsTransposedSlot() == transposed;
    });
  };
  if (all(false))
    return false;
  if (all(true) && isKMajorOnlyType(type.getElementType()))
    return true;
  return runsDown;
}

/// Rows not proven 4-byte aligned (a stride of 1000 f16 elements) are not
/// pipelined, as in Triton (stageInLoop in PipelineLoops.cpp): element-wise
/// copies are synchronous, and stages ahead would keep a 64-bit pointer per
/// element alive for each (255 registers and spills on the corpus' odd
/// matmul).
bool copiesWords(LoadOp load, const kiln::ModuleAxisInfo &axis) {
  unsigned inner =
      cast<RankedTensorType>(load.getType()).getRank() == 1 || isTransposedOperand(load) ? 0 : 1;
  return axis.getVectorWidth(load.getPtr(), inner, load.getMask()) *
             kiln::getPointeeBytes(load.getPtr().getType()) >= 4;
}

/// The conditions of canUseWgmma (lib/Conversion/TileToLLVM/WgmmaToLLVM.cpp),
/// which the lowering checks again: both operands K-major (A as loaded, B
/// transposed or read through a transpose), an f32 accumulator with its
/// warps in groups of 4 along M (version 3: groups also split N), K a
/// swizzle width. A tile several dots read
/// the same way (Liger's fused MLP: one input block, a gate and an up
/// projection) is one slot they all read.
bool isKMajorSlotOperand(LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2 || !isKMajorOnlyType(type.getElementType()))
    return false;
  SmallVector<DotUse> uses = dotUses(load);
  if (uses.empty())
    return false;
  bool transposedSlot = isTransposedOperand(load);
  return llvm::all_of(uses, [&](DotUse use) {
    // A transposed read needs the transpose's own tile in the slot: a TMA
    // copy, which stores the block as the tensor does.
    if (use.flipped && !copiedWithTma(load))
      return false;
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(use.dot.getC().getType().getEncoding());
    return mma && kiln::isWarpGroupMma(mma) &&
           isKMajorWarpGroupDot(use.dot, mma.getWarpsPerCTA()[0], mma.getWarpsPerCTA()[1]) &&
           transposedSlot == use.wantsTransposedSlot();
  });
}

/// An f16/bf16 2-D tile whose only users are tl.dot operands that the dot
/// stages itself (an #mma accumulator and operands not yet in #dot_op), or
/// an f32 / fp8 one that a tf32 / fp8 wgmma can read (isKMajorSlotOperand).
bool isCopyableDotOperand(LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2)
    return false;
  if (isKMajorOnlyType(type.getElementType()))
    return type.getDimSize(0) >= 16 && type.getDimSize(1) >= 16 &&
           paddingFilledByCopy(load) && isKMajorSlotOperand(load);
  if (!(type.getElementType().isF16() || type.getElementType().isBF16()))
    return false;
  if (type.getDimSize(0) < 16 || type.getDimSize(1) < 16 || type.getDimSize(1) % 8)
    return false;
  if (!paddingFilledByCopy(load))
    return false;
  // Copies move runs along the slot's stored rows. A load whose threads'
  // runs go down the columns (K^T loaded with K contiguous, an A loaded
  // M-contiguous) is copied into a transposed slot, which ldmatrix (.trans
  // for A) and wgmma (K-major B, M-major A) read as well.
  bool transposed = isTransposedOperand(load);
  if (type.getDimSize(0) % 8 && transposed)
    return false;
  if (load.getResult().use_empty())
    return false;
  if (isa_and_nonnull<DotOperandLayoutAttr>(type.getEncoding()))
    return false;
  // Dots that stage it, directly or through a 2-D transpose (a tile used
  // both ways, as the fused-attention backward's Q^T and dO: the slot holds
  // it once and wgmma reads it with either majorness).
  auto staged = [](OpOperand &use) {
    auto dot = dyn_cast<DotOp>(use.getOwner());
    return dot && use.getOperandNumber() <= 1 &&
           isa_and_nonnull<MmaLayoutAttr>(dot.getC().getType().getEncoding());
  };
  for (OpOperand &use : load.getResult().getUses()) {
    if (staged(use))
      continue;
    auto trans = dyn_cast<TransOp>(use.getOwner());
    if (!trans || trans.getResult().use_empty() ||
        !llvm::all_of(trans.getResult().getUses(), staged))
      return false;
  }
  return true;
}

SmallVector<LoadOp> dotOperandLoads(scf::ForOp loop,
                                    const llvm::DenseSet<Operation *> &excluded) {
  SmallVector<LoadOp> loads;
  for (Operation &op : *loop.getBody())
    if (auto load = dyn_cast<LoadOp>(op);
        load && !excluded.contains(load) && isCopyableDotOperand(load))
      loads.push_back(load);
  keepWholeKMajorDots(loads);
  return loads;
}

CompanionLoads companionLoads(scf::ForOp loop, ArrayRef<LoadOp> dotLoads,
                              const llvm::DenseSet<Operation *> &excluded,
                              const kiln::ModuleAxisInfo &axis) {
  CompanionLoads found;
  Block *body = loop.getBody();
  // Kernel arguments are taken not to overlap (as Triton's pipeliner takes
  // every load not to meet the loop's stores): a load through an argument
  // the body also writes through stays where it is. And only a loop that
  // carries a tile from one iteration to the next (fla's recurrent state)
  // waits for its loads in every iteration; one whose iterations are
  // independent and store their results (fla's recompute_w_u: two
  // iterations, 73.6 us with its loads ahead against 64.2) overlaps them
  // with other programs, and slots would only cost it programs per SM.
  std::optional<llvm::SmallPtrSet<Value, 4>> written = writtenRoots(body);
  bool carriesTile = llvm::any_of(loop.getRegionIterArgs(), [](BlockArgument arg) {
    return isa<RankedTensorType>(arg.getType());
  });
  if (!written || (!written->empty() && !carriesTile))
    return found;
  for (Operation &op : *body) {
    auto load = dyn_cast<LoadOp>(op);
    if (!load || load.getIsVolatile() || llvm::is_contained(dotLoads, load) ||
        excluded.contains(load))
      continue;
    if (!written->empty()) {
      Value root = pointerRoot(load.getPtr());
      if (!root || written->contains(root))
        continue;
    }
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!type) { // a scalar: one register per iteration ahead
      found.prefetched.push_back(load);
      continue;
    }
    // A slot: a 1-D or 2-D tile of 16- or 32-bit floats in rows of whole
    // 16-byte chunks, copied in runs of 4 bytes or more, masked lanes zero.
    // (Tensors are not carried ahead in registers: a 1-D factor broadcast
    // against an accumulator layout holds a register per column, and four
    // iterations of them cost mamba's chunk scan 67 registers.)
    Type elem = type.getElementType();
    unsigned bits = elem.getIntOrFloatBitWidth();
    bool rowTile = type.getRank() == 1 && getDistributedLayout(type);
    bool blocked = type.getRank() == 2 && isa_and_nonnull<BlockedLayoutAttr>(type.getEncoding());
    if (!(rowTile || blocked) || !(elem.isF16() || elem.isBF16() || elem.isF32()) ||
        !paddingFilledByCopy(load))
      continue;
    int64_t storedRow = type.getDimSize(rowTile || isTransposedOperand(load) ? 0 : 1);
    if ((storedRow * bits / 8) % 16 || !copiesWords(load, axis))
      continue;
    found.slotted.push_back(load);
  }
  return found;
}

bool scalarCopyable(LoadOp load) {
  // A copy fills masked lanes with zeros: another `other` stays in registers.
  return load.getType().isF32() && !load.getIsVolatile() && zeroPadded(load);
}

LoadOp scalarAsTileLoad(LoadOp load, unsigned numWarps) {
  OpBuilder b(load);
  Location loc = load.getLoc();
  Type elem = load.getType();
  // Four copies of the element: a slot row is whole 16-byte chunks. All in
  // one thread, so reading one back takes no exchange.
  constexpr int64_t kCopies = 4;
  auto layout = BlockedLayoutAttr::get(b.getContext(), {unsigned(kCopies)}, {32u}, {numWarps}, {0u});
  auto tileOf = [&](Type t) { return RankedTensorType::get({kCopies}, t, layout); };
  auto splat = [&](Value v) -> Value {
    return v ? SplatOp::create(b, loc, tileOf(v.getType()), v).getResult() : Value();
  };
  auto tile = LoadOp::create(b, loc, tileOf(elem), splat(load.getPtr()), splat(load.getMask()),
                             splat(load.getOther()));
  tile.setCache(load.getCache());
  tile.setEvict(load.getEvict());
  // One of the equal copies, whichever the lowering combines first: no
  // arithmetic, and LLVM narrows the read to that one element.
  auto element = ReduceOp::create(b, loc, TypeRange{elem}, ValueRange{tile.getResult()}, 0);
  Block *combiner = b.createBlock(&element.getCombiner(), {}, {elem, elem}, {loc, loc});
  YieldOp::create(b, loc, ValueRange{combiner->getArgument(0)});
  load.getResult().replaceAllUsesWith(element.getResult(0));
  load.erase();
  return tile;
}

void restoreScalarLoad(LoadOp tile) {
  OpBuilder b(tile);
  auto source = [](Value v) { return v ? v.getDefiningOp<SplatOp>().getSrc() : Value(); };
  auto scalar = LoadOp::create(b, tile.getLoc(), mlir::getElementTypeOrSelf(tile.getType()),
                               source(tile.getPtr()), source(tile.getMask()),
                               source(tile.getOther()));
  scalar.setCache(tile.getCache());
  scalar.setEvict(tile.getEvict());
  Operation *element = *tile->getUsers().begin();
  element->getResult(0).replaceAllUsesWith(scalar.getResult());
  SmallVector<Operation *> splats;
  for (Value v : {tile.getPtr(), tile.getMask(), tile.getOther()})
    if (v)
      splats.push_back(v.getDefiningOp());
  element->erase();
  tile.erase();
  for (Operation *splat : splats)
    if (splat->use_empty())
      splat->erase();
}

SmallVector<LoadOp> stageableTogether(scf::ForOp loop, llvm::DenseSet<Operation *> excluded) {
  Block *body = loop.getBody();
  while (true) {
    SmallVector<LoadOp> loads = dotOperandLoads(loop, excluded);
    Operation *firstUse = nullptr;
    auto see = [&](Operation *user) {
      if (Operation *top = body->findAncestorOpInBlock(*user);
          top && (!firstUse || top->isBeforeInBlock(firstUse)))
        firstUse = top;
    };
    for (LoadOp load : loads) {
      if (!isKMajorOnlyLoad(load)) {
        llvm::for_each(load->getUsers(), see);
        continue;
      }
      for (const DotUse &use : dotUses(load))
        see(use.dot);
    }
    bool dropped = false;
    for (LoadOp load : loads)
      if (firstUse && !load->isBeforeInBlock(firstUse))
        dropped |= excluded.insert(load).second;
    if (!dropped)
      return loads;
  }
}

void readKMajorOperandsFromSlots(ArrayRef<LoadOp> loads) {
  for (LoadOp load : loads) {
    if (!isKMajorOnlyLoad(load))
      continue;
    Value tile = load.getResult();
    if (TransOp trans = onlyTranspose(tile))
      tile = trans.getResult();
    for (Operation *user : llvm::make_early_inc_range(tile.getUsers()))
      if (auto cvt = dyn_cast<ConvertLayoutOp>(user)) {
        cvt.getResult().replaceAllUsesWith(tile);
        cvt.erase();
      }
  }
}

} // namespace kiln::tile
