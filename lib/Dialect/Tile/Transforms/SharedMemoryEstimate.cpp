//===- SharedMemoryEstimate.cpp - Shared memory before the lowering -------===//
//
// See SharedMemoryEstimate.h.
//
//===----------------------------------------------------------------------===//
#include "SharedMemoryEstimate.h"
#include "SlotOperands.h"

#include "kiln/Analysis/DistributedLayout.h"
#include "kiln/Analysis/LayoutExchange.h"
#include "kiln/Analysis/MmaLayout.h"

using namespace mlir;

namespace kiln::tile {

namespace {
/// What the estimate assumes of ops whose scratch it does not size (scans,
/// sorts, gathers, histograms, atomics returning values, shape changes):
/// their lowering's buffers are small next to a layout exchange.
constexpr int64_t kUnsizedScratch = 16 * 1024;

/// A reduction's cross-warp partials (ReduceOpToLLVM.cpp): one per output
/// element, operand and warp along the axis; none within a warp.
int64_t reductionScratch(Operation *op) {
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  std::optional<DistributedLayout> layout = getDistributedLayout(type);
  auto axis = op->getAttrOfType<IntegerAttr>("axis");
  if (!layout || !axis)
    return kUnsizedScratch;
  unsigned warpMask = layout->warpMaskAlong(axis.getInt());
  if (!warpMask)
    return 0;
  int64_t partials = (int64_t(1) << llvm::popcount(warpMask)) * type.getNumElements() /
                     type.getDimSize(axis.getInt());
  int64_t bytes = 0;
  for (Value operand : op->getOperands()) {
    Type elem = cast<RankedTensorType>(operand.getType()).getElementType();
    bytes += llvm::alignTo(partials * std::max(1u, elem.getIntOrFloatBitWidth() / 8), 8);
  }
  return bytes;
}

/// Whether `value` is read from a slot: a tile.local_load, or a load of
/// `slotted` (the loads the pipeliner is about to put in slots).
bool readsSlot(Value value, ArrayRef<LoadOp> slotted) {
  LoadOp load = value.getDefiningOp<LoadOp>();
  return value.getDefiningOp<LocalLoadOp>() || (load && llvm::is_contained(slotted, load));
}
} // namespace

int64_t scratchEstimate(Operation *op, ArrayRef<LoadOp> slotted) {
  if (isa<SumOp, MaxOp, MinOp, ReduceOp>(op))
    return reductionScratch(op);
  if (isa<ScanOp, SortOp, GatherOp, HistogramOp, AtomicCASOp, AtomicRMWOp, TensormapCreateOp,
          ReshapeOp, JoinOp, SplitOp, CatOp>(op))
    return kUnsizedScratch;
  if (auto trans = dyn_cast<TransOp>(op)) {
    // A slot read transposed (a dot's operand) is read so by the dot.
    return readsSlot(trans.getSrc(), slotted) ? 0 : kUnsizedScratch;
  }
  if (auto cvt = dyn_cast<ConvertLayoutOp>(op)) {
    // The #dot_op conversions of tf32 / fp8 operands that go to slots
    // vanish (a B read through its transpose's too).
    LoadOp load = operandLoad(cvt.getResult());
    if (load && isKMajorSlotOperand(load))
      return 0;
    // A conversion that keeps every element in its thread (an f16
    // accumulator into wgmma's register A: attention's P) moves registers.
    std::optional<DistributedLayout> from = getDistributedLayout(cvt.getSrc().getType());
    std::optional<DistributedLayout> to = getDistributedLayout(cvt.getType());
    if (from && to && from->sameThreadMapping(*to))
      return 0;
    // Nor one that warp shuffles carry out (lowered the same way).
    if (from && to &&
        chooseWarpShuffle(*from, *to, exchangeBits(cvt.getType().getElementType())))
      return 0;
    return tensorBytes(cvt.getType()) * 9 / 8;
  }
  if (auto dot = dyn_cast<DotOp>(op)) {
    // What the dot stages itself (isStagedByDot, getDotScratchBytes):
    // neither fragments in registers nor operands read from slots (a
    // tile.local_load or a load among `slotted`), also through a transpose
    // (readsSlotThroughTranspose).
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(dot.getC().getType().getEncoding());
    std::optional<unsigned> cc = getTargetComputeCapability(dot);
    bool wgmma = mma && isWarpGroupMma(mma) && cc && *cc >= 90;
    auto staged = [&](unsigned index) -> int64_t {
      Value operand = index == 0 ? dot.getA() : dot.getB();
      if (isRegisterOperand(dot, index))
        return 0;
      Value read = operand;
      if (auto trans = operand.getDefiningOp<TransOp>();
          trans && readsSlotThroughTranspose(
                       wgmma, cast<RankedTensorType>(operand.getType())
                                  .getElementType()
                                  .getIntOrFloatBitWidth()))
        read = trans.getSrc();
      return readsSlot(read, slotted) ? 0 : tensorBytes(operand.getType());
    };
    return staged(0) + staged(1);
  }
  return 0;
}

int64_t sharedMemoryPerBlock(Operation *op) {
  std::optional<unsigned> cc = getTargetComputeCapability(op);
  return !cc ? 48 * 1024
         : *cc >= 90 ? 227 * 1024
         : *cc == 80 ? 163 * 1024
         : *cc >= 86 ? 99 * 1024
                     : 48 * 1024;
}

int64_t epilogueScratchEstimate(Operation *op) {
  // A slot read transposed (a dot's operand) is read so by the dot.
  if (auto trans = dyn_cast<TransOp>(op); trans && trans.getSrc().getDefiningOp<LocalLoadOp>())
    return 0;
  int64_t bytes = scratchEstimate(op);
  if (!isa<TileDialect>(op->getDialect()) || op->getNumRegions() || op->getNumOperands() == 0 ||
      op->getNumResults() == 0 || isa<ExpandDimsOp, BroadcastOp, SplatOp, DotOp>(op))
    return bytes;
  auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (in && out && in.getEncoding() != out.getEncoding())
    bytes = std::max(bytes, std::max(tensorBytes(in), tensorBytes(out)) * 9 / 8);
  return bytes;
}

int64_t programsPerSM(Operation *op, int64_t bytes) {
  int64_t perSM = sharedMemoryPerBlock(op) + 1024;
  int64_t programs = std::min<int64_t>(perSM / (bytes + 1024), 32);
  // An SM holds 2048 threads.
  return std::min<int64_t>(programs, 64 / std::max(getModuleNumWarps(op), 1u));
}

} // namespace kiln::tile
