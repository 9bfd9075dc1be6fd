//===- StagePlan.cpp - How a pipelined loop splits into two stages --------===//
//
// See StagePlan.h.
//
//===----------------------------------------------------------------------===//
#include "StagePlan.h"

#include "BlockedLayouts.h"
#include "Rematerialize.h"

#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Analysis/DistributedLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using kiln::DistributedLayout;
using kiln::getDistributedLayout;
using kiln::getNumWarps;

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
    // A load the copies' addresses need (paged attention's token indices,
    // `K + k_loc[:, None] * stride`) runs in stage 0 too, ahead with them and
    // predicated on its iteration being in the loop, as Triton's pipeliner
    // schedules such indirect loads. A slot or prefetched load cannot: stage
    // 0 would need its value before the copy that brings it.
    auto indexLoad = dyn_cast<LoadOp>(def);
    if (indexLoad && (llvm::is_contained(plan.loads, indexLoad) ||
                      llvm::is_contained(plan.prefetched, indexLoad)))
      return failure();
    if ((!isPure(def) && !indexLoad) || def->getNumRegions())
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

Value constantLike(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

std::pair<Value, Value> shiftedIv(OpBuilder &b, Location loc, scf::ForOp loop, Value iv,
                                  Value distance, Value ub) {
  Value shifted = distance ? arith::AddIOp::create(b, loc, iv, distance).getResult() : iv;
  auto pred = loop.getUnsignedCmp() ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
  Value inRange = arith::CmpIOp::create(b, loc, pred, shifted, ub);
  return {shifted, inRange};
}

Value stepsOf(OpBuilder &b, Location loc, Value step, int64_t n) {
  if (n == 0)
    return Value();
  return arith::MulIOp::create(b, loc, constantLike(b, loc, step.getType(), n), step);
}

/// The pointers and mask of a copy, recomputed in a layout without
/// replicated lanes when theirs has some and that is cheap: a tile whose
/// layout variable was sized for a larger tensor (attention's K^T shares one
/// with the BLOCK_M x BLOCK_N mask of the scores) would otherwise copy from
/// only part of the lanes.
static std::pair<Value, Value> copyOperands(OpBuilder &b, Value ptr, Value mask) {
  auto type = cast<RankedTensorType>(ptr.getType());
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(type.getEncoding());
  std::optional<DistributedLayout> layout = getDistributedLayout(type);
  if (!blocked || !layout || (!layout->replicatedLaneMask() && !layout->replicatedWarpMask()))
    return {ptr, mask};
  unsigned fast = blocked.getOrder()[0];
  // Up to 16 bytes of fp8; 8 elements of wider types.
  unsigned bits = kiln::getPointeeBytes(type) * 8;
  unsigned vec = std::min(bits == 8 ? 16u : 8u, layout->contiguousRegsAlong(fast));
  BlockedLayoutAttr better =
      makeBlocked(b.getContext(), type.getShape(), blocked.getOrder(), vec,
                  getNumWarps(blocked), {}, /*elemBits=*/16);
  std::optional<DistributedLayout> betterLayout = getDistributedLayout(type.getShape(), better);
  if (!betterLayout || betterLayout->numRegs() >= layout->numRegs() ||
      betterLayout->contiguousRegsAlong(fast) < vec ||
      !rematerialize(ptr, better, nullptr, /*depth=*/12) ||
      !rematerialize(mask, better, nullptr, 12))
    return {ptr, mask};
  return {rematerialize(ptr, better, &b, 12), rematerialize(mask, better, &b, 12)};
}

void emitStage0(OpBuilder &b, Location loc, const StagePlan &plan, ArrayRef<Value> buffers,
                ArrayRef<Value> tensorMaps, Value tmaOwner, IRMapping &map, Value slot,
                Value inRange, SmallVectorImpl<Value> &prefetchedOut) {
  // A load of a later iteration reads only where that iteration is in the
  // loop (a pointer past the loop's end is not read).
  auto loadAhead = [&](LoadOp load) {
    Value mask = inRange;
    if (auto type = dyn_cast<RankedTensorType>(load.getPtr().getType()))
      mask = SplatOp::create(b, load.getLoc(),
                             RankedTensorType::get(type.getShape(), b.getI1Type(),
                                                   type.getEncoding()),
                             inRange);
    if (Value m = load.getMask())
      mask = arith::AndIOp::create(b, load.getLoc(), map.lookupOrDefault(m), mask);
    auto ahead = cast<LoadOp>(b.clone(*load, map));
    ahead.getMaskMutable().assign(mask);
    return ahead;
  };
  for (Operation *op : plan.stage0) {
    if (auto load = dyn_cast<LoadOp>(op))
      map.map(load.getResult(), loadAhead(load).getResult());
    else
      b.clone(*op, map);
  }
  for (LoadOp load : plan.prefetched)
    prefetchedOut.push_back(loadAhead(load).getResult());
  for (auto [constLoad, buffer, tensorMap] : llvm::zip(plan.loads, buffers, tensorMaps)) {
    LoadOp load = constLoad;
    if (tensorMap) {
      SmallVector<Value> coords;
      for (Value c : load.getCoords())
        coords.push_back(map.lookupOrDefault(c));
      TmaCopyOp::create(b, load.getLoc(), tensorMap, coords, buffer, slot,
                        buffer == tmaOwner ? Value() : tmaOwner, inRange);
      continue;
    }
    auto ptrType = cast<RankedTensorType>(load.getPtr().getType());
    auto maskType = RankedTensorType::get(ptrType.getShape(), b.getI1Type(),
                                          ptrType.getEncoding());
    Value mask = SplatOp::create(b, load.getLoc(), maskType, inRange);
    if (Value m = load.getMask())
      mask = arith::AndIOp::create(b, load.getLoc(), map.lookupOrDefault(m), mask);
    auto [ptr, copyMask] = copyOperands(b, map.lookupOrDefault(load.getPtr()), mask);
    AsyncCopyOp::create(b, load.getLoc(), ptr, copyMask, buffer, slot);
  }
  if (llvm::is_contained(tensorMaps, Value()))
    AsyncCommitOp::create(b, loc);
}

} // namespace kiln::tile
