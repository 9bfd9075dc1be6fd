//===- PipelineLoops.cpp - Software-pipeline the loads feeding tl.dot -----===//
//
// The matmul K loop loads an A and a B tile and multiplies them; without
// pipelining every iteration waits the full global-memory latency before
// its products. This pass splits such a loop into two stages: stage 0, the
// loads and the address / mask computations they need, runs
// `numStages - 1` iterations ahead of stage 1, the rest. Stage 0's loads
// become tile.async_copy into `numStages` shared-memory slots per operand
// (cp.async: no registers held while in flight), and stage 1 reads its slot
// with tile.local_load, which the dot lowering turns into ldmatrix:
//
//   prologue:  for j < numStages - 1: copy iteration j into slot j; commit
//   loop i:    wait until iteration i's group has landed (+ barrier)
//              copy iteration i + numStages - 1 into the slot read at i - 1
//              commit; compute iteration i from slot i % numStages
//   epilogue:  wait for everything (copies of iterations past the end are
//              predicated off but still zero-fill their slots)
//
// Synchronous products (mma.sync) with five or more stages copy after
// computing instead (+ barrier), into the slot just read: `numStages - 1`
// slots. Asynchronous ones (wgmma) copy after computing too, once the
// previous iteration's products are done, into that iteration's slot.
//
// Loop-carried values that only stage 0 uses (the pointer tensors advanced
// by `ptrs += BLOCK_K * stride`) are carried `numStages - 1` iterations
// ahead; the induction variable is offset instead. The transformation is
// skipped, leaving the loop as it was, whenever that split is not clean.
// Which loads become copies, and into which slot orientation, is decided in
// SlotOperands.cpp. On sm_90 the blocks of 2-D host descriptors are copied by
// TMA instead (TmaCopies.h): the first such buffer's slots carry mbarriers
// on which every block of the iteration arrives (tma_init after the
// prologue's barrier, tma_inval after the loop), a copy past the loop's end
// is not started, and the body waits once on the read slot's phase, carried
// with the slots. Loads staged through one slot without pipelining are in
// OneSlotStaging.cpp.
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Analysis/DistributedLayout.h"
#include "kiln/Analysis/MmaLayout.h"
#include "kiln/Dialect/Tile/IR/BufferLife.h"
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "BlockedLayouts.h"
#include "DeadCode.h"
#include "InFlightProducts.h"
#include "NextTilePrologue.h"
#include "RegisterEstimate.h"
#include "Rematerialize.h"
#include "SlotOperands.h"
#include "StagePlan.h"
#include "TmaCopies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEPIPELINELOOPS
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;
using kiln::DistributedLayout;
using kiln::getDistributedLayout;
using kiln::getPointeeBytes;
using kiln::ModuleAxisInfo;

namespace {

/// Shared memory the slots may use: the target's opt-in maximum per block
/// less the scratch the function's other ops will reuse (the lowering sizes
/// it exactly; this errs high: layout exchanges with their padding, dots
/// that stage their own operands, reductions' cross-warp partials, 16 KB
/// for scans, sorts and shape changes: scratchEstimate)
/// and the buffers still in use while the loop runs. Ops after the loop do
/// not count, nor buffers whose life ended before it (an earlier loop's
/// slots and invariant operands: attention's backward runs two pipelined
/// loops one after the other): the lowering lets both share the slots'
/// bytes (SharedMemoryPlan.cpp). The loads of `slotted` go to slots: the
/// dots read them in place (attention's K and V: the QK dot then stages
/// nothing, with Q staged once before the loop, and the PV dot neither, its
/// P in registers). With `forSlots`, the budget of
/// the loop's own slots: ops before the loop share their bytes too (the
/// barrier before the slots' prologue separates them: vLLM's fused MoE
/// exchanges its 128 x 64 tile of gathered A pointers, 72 KB, once before
/// its K loop), but for those in an outer loop's body (the next outer
/// iteration runs them while the slots are in use).
int64_t slotBudgetBytes(scf::ForOp loop, ArrayRef<LoadOp> slotted = {},
                        bool forSlots = false) {
  int64_t scratch = 0;
  Operation *func = loop->getParentOfType<FunctionOpInterface>();
  if (!func)
    func = loop;
  int64_t allocated = 0; // slots of loops pipelined before, invariant operands
  bool seenLoop = false;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    // Pre-order: what is visited after the loop and not inside it runs after
    // it.
    seenLoop |= op == loop.getOperation();
    if (seenLoop && !loop->isAncestor(op))
      return;
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      if (isBufferLiveAt(alloc, loop))
        allocated += alloc.getType().getAllocBytes();
    } else {
      bool beforeSharing = forSlots && !seenLoop && !op->isAncestor(loop) &&
                           !op->getParentOfType<scf::ForOp>() &&
                           !op->getParentOfType<scf::WhileOp>();
      if (!beforeSharing)
        scratch = std::max(scratch, scratchEstimate(op, slotted));
    }
  });
  return sharedMemoryPerBlock(loop) - scratch - allocated;
}

unsigned requestedStages(scf::ForOp loop, unsigned option) {
  if (option)
    return option;
  for (Operation *op = loop; op; op = op->getParentOp())
    if (auto a = op->getAttrOfType<IntegerAttr>("tile.num_stages"))
      return unsigned(std::max<int64_t>(a.getInt(), 1));
  return 3;
}

/// Whether `load` runs once (in no loop) and every user is a dot inside a
/// loop. (Inside a loop, a later iteration's copy could overwrite the tile
/// while slower warps still read it.)
bool feedsOnlyLaterLoops(LoadOp load) {
  if (load->getParentOfType<scf::ForOp>() || load->getParentOfType<scf::WhileOp>())
    return false;
  return llvm::all_of(load->getUsers(), [&](Operation *user) {
    return user->getParentOfType<scf::ForOp>() != nullptr;
  });
}

/// Whether the loop's dots will run as sm_90 wgmma (WgmmaToLLVM.cpp): f32
/// (int8 dots: int32) accumulators whose warps form warp groups of 4 along M
/// (isWarpGroupMma). Their products can then stay in flight into the next
/// iteration.
bool feedsWarpGroupDots(scf::ForOp loop, const StagePlan &plan) {
  std::optional<unsigned> cc = getTargetComputeCapability(loop);
  if (!cc || *cc < 90)
    return false;
  for (LoadOp load : plan.loads)
    for (Operation *user : load->getUsers()) {
      auto dot = dyn_cast<DotOp>(user);
      if (!dot)
        continue; // a companion
      auto c = cast<RankedTensorType>(dot.getC().getType());
      auto mma = cast<MmaLayoutAttr>(c.getEncoding());
      if (!(c.getElementType().isF32() || c.getElementType().isInteger(32)) ||
          !kiln::isWarpGroupMma(mma))
        return false;
    }
  return true;
}

/// Whether refilling the slot just read (`stages - 1` slots instead of
/// `stages`) fits a second program on each SM, where shared memory would
/// leave one alone (nothing then overlaps a program's copies but its own
/// products; from two programs on, the registers decide as much: at 4
/// stages, mamba's chunk scan lost 7 % with a slot fewer). vLLM's fused MoE
/// at decode (a 16 x 128 A and a 128 x 256 B tile, 68 KB a stage, two
/// stages) fits one program per SM with two slots, two with one, where
/// Triton, which refills its mma.sync slots so at every stage count, runs
/// two. The copies then start after the products, as Triton's do. Where
/// that leaves one slot, a program's next copy waits for its own products:
/// only a second program overlaps them, so it must fit the SM's registers
/// too, counted at twice the floating-point tensors' estimate (mma
/// fragments, masks and the copies' addresses besides): attention's
/// forward by pointers at HEAD_DIM 128, 64 x 128 blocks, 8 warps, 2 stages
/// (accumulator, scores and probabilities: an estimate of 64, ptxas 175
/// registers a thread) lost 6 % to a slot given up for a program that
/// could not run; vLLM's decode tile estimates 16. With two slots or more
/// left the copies still overlap the products: the same attention at 3
/// stages ran 3.5 % faster refilling two slots than with three ahead.
bool refillFitsMorePrograms(scf::ForOp loop, const StagePlan &plan, unsigned stages) {
  int64_t stageBytes = 0;
  for (LoadOp load : plan.loads) {
    if (copiedWithTma(load)) // cp.async slots only (TMA ones keep their order)
      return false;
    stageBytes += tensorBytes(load.getType());
  }
  int64_t others =
      sharedMemoryPerBlock(loop) - slotBudgetBytes(loop, plan.loads);
  if (!(programsPerSM(loop, stages * stageBytes + others) == 1 &&
        programsPerSM(loop, (stages - 1) * stageBytes + others) >= 2))
    return false;
  if (stages > 2)
    return true;
  int64_t threads = 32 * int64_t(getModuleNumWarps(loop));
  // The loaded tiles go to slots: not in registers.
  auto slotted = [&](Value v) {
    if (auto trans = v.getDefiningOp<TransOp>())
      v = trans.getSrc();
    auto load = v.getDefiningOp<LoadOp>();
    return load && llvm::is_contained(plan.loads, load);
  };
  int64_t registers =
      2 * peakTensorRegisters(*loop.getBody(), threads, slotted) + kRegisterMargin;
  return 2 * threads * std::min(registers, kThreadRegisters) <= 65536;
}

/// Rewrites `loop` as described at the top of the file; with `acrossTiles`,
/// a loop in an outer loop may start its next run's prologue early
/// (NextTilePrologue.h): the outer loop is then replaced, and the new one
/// returned.
scf::ForOp pipeline(scf::ForOp loop, const StagePlan &plan, unsigned stages, bool acrossTiles) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Type i32 = b.getI32Type();
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  // Copies run `lead` iterations ahead. When the products are asynchronous
  // (wgmma), an iteration's products may still read their slot during the
  // next iteration: that one then computes first, waits for the previous
  // iteration's products (each dot leaves only its own group in flight),
  // synchronizes, and only then refills the previous iteration's slot.
  bool asyncDots = feedsWarpGroupDots(loop, plan);
  unsigned lead = stages - 1;
  // Synchronous products (mma.sync, ldmatrix) are done with their slot once
  // the iteration has read it: the copy `lead` iterations ahead can then
  // refill that very slot after a barrier, and `lead` slots do (as Triton's
  // mma.sync loops), one fewer than when the copy goes first. That saves a
  // slot's bytes, which fits more programs per SM where shared memory bounds
  // them, and costs one iteration of the copies' head start. Measured on
  // mamba's 2-warp configs (H200): at 5 stages the saving won (chunk state
  // 64 x 32 and 32 x 64 4 % faster, chunk scan 32 x 64 1 %), at 4 it lost
  // (chunk scan 64 x 64 7 % slower: its registers bound it anyway). Below
  // 5 stages, where the saved slot fits a second program.
  bool refillReadSlot =
      !asyncDots && (stages >= 5 || refillFitsMorePrograms(loop, plan, stages));
  unsigned numSlots = refillReadSlot ? lead : stages;

  // Descriptor blocks go by TMA (TmaCopies.h) into slots with mbarriers;
  // the others by cp.async (a null tensor map).
  SmallVector<Value> buffers, tensorMaps, tmaBuffers;
  int64_t slotBytes = 0;
  for (LoadOp load : plan.loads) { // (a copy: the accessors are not const)
    tensorMaps.push_back(copiedWithTma(load) ? tensorMapFor(load) : Value());
    slotBytes += numSlots * tensorBytes(load.getType());
  }

  // Whether the prologue of the loop's next run (an outer loop's next tile)
  // starts as soon as this run ends (NextTilePrologue.h): what it reads.
  std::optional<NextTilePrologue> early;
  if (acrossTiles) {
    SetVector<Value> inputs;
    inputs.insert(loop.getLowerBound());
    inputs.insert(loop.getUpperBound());
    inputs.insert(loop.getStep());
    for (unsigned k : plan.ahead)
      inputs.insert(loop.getInitArgs()[k]);
    for (Value map : tensorMaps)
      inputs.insert(map);
    for (Operation *op : plan.stage0)
      inputs.insert(op->getOperands().begin(), op->getOperands().end());
    for (LoadOp load : plan.loads)
      inputs.insert(load->operand_begin(), load->operand_end());
    for (LoadOp load : plan.prefetched)
      inputs.insert(load->operand_begin(), load->operand_end());
    early = planNextTilePrologue(loop, inputs.getArrayRef(), slotBytes);
  }
  if (early)
    b.setInsertionPoint(early->outer);

  for (auto [constLoad, tensorMap] : llvm::zip(plan.loads, tensorMaps)) {
    LoadOp load = constLoad;
    auto type = cast<RankedTensorType>(load.getType());
    bool transposed = isTransposedOperand(load);
    SmallVector<int64_t> shape{int64_t(numSlots)};
    if (type.getRank() == 1) // one row
      shape.push_back(1);
    llvm::append_range(shape, type.getShape());
    // The first TMA buffer carries the mbarriers: every block of an
    // iteration arrives on its slot's, and the loop waits once a step.
    bool owner = tensorMap && tmaBuffers.empty();
    buffers.push_back(LocalAllocOp::create(
        b, load.getLoc(), SharedMemoryType::get(b.getContext(), shape, type.getElementType(),
                                                transposed, owner)));
    if (tensorMap)
      tmaBuffers.push_back(buffers.back());
  }
  bool anyCpAsync = tmaBuffers.size() < buffers.size();
  Value tmaOwner = tmaBuffers.empty() ? Value() : tmaBuffers.front();

  // Prologue: iterations 0 .. stages - 2, each into its own slot. The
  // barrier before it lets the scratch of what ran before the loop (a dot
  // staging its operands) share the slots' bytes (SharedMemoryPlan.cpp).
  BarrierOp::create(b, loc);
  if (tmaOwner) // after the barrier: scratch may share its bytes
    TmaInitOp::create(b, loc, tmaOwner, b.getI64IntegerAttr(tmaBuffers.size()));
  // The prologue of the run whose values from around the loop `around`
  // maps: its copies predicated on `runs` as well (if not null) and into the
  // slots from `firstSlot` on (if not null; else from 0). It leaves the
  // carried-ahead values after it in `ahead` and appends the prefetched
  // loads' values (prefetched[j * #prefetched + p]: load p of iteration j).
  Value slotCount = constantLike(b, loc, i32, numSlots);
  auto emitPrologue = [&](const IRMapping &around, Value runs, Value firstSlot,
                          SmallVectorImpl<Value> &ahead, SmallVectorImpl<Value> &prefetched) {
    ahead.clear();
    for (unsigned k : plan.ahead)
      ahead.push_back(around.lookupOrDefault(loop.getInitArgs()[k]));
    Value lb = around.lookupOrDefault(loop.getLowerBound());
    Value ub = around.lookupOrDefault(loop.getUpperBound());
    Value step = around.lookupOrDefault(loop.getStep());
    for (unsigned j = 0; j < lead; ++j) {
      IRMapping map = around;
      auto [iv, inRange] = shiftedIv(b, loc, loop, lb, stepsOf(b, loc, step, j), ub);
      if (runs)
        inRange = arith::AndIOp::create(b, loc, inRange, runs);
      Value slot = constantLike(b, loc, i32, j);
      if (firstSlot && j) { // firstSlot + j, wrapped (j < numSlots)
        Value sum = arith::AddIOp::create(b, loc, firstSlot, slot);
        Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, sum, slotCount);
        slot = arith::SelectOp::create(b, loc, wraps,
                                       arith::SubIOp::create(b, loc, sum, slotCount), sum);
      } else if (firstSlot) {
        slot = firstSlot;
      }
      map.map(loop.getInductionVar(), iv);
      for (auto [k, v] : llvm::zip(plan.ahead, ahead))
        map.map(loop.getRegionIterArgs()[k], v);
      emitStage0(b, loc, plan, buffers, tensorMaps, tmaOwner, map, slot, inRange, prefetched);
      for (auto [i, k] : llvm::enumerate(plan.ahead))
        ahead[i] = map.lookupOrDefault(yield.getOperand(k));
    }
  };
  SmallVector<Value> ahead, prefetchedInit;
  Value copySlotInit = constantLike(b, loc, i32, lead % numSlots),
        readSlotInit = constantLike(b, loc, i32, 0), parityInit = constantLike(b, loc, i32, 0);
  if (early) {
    // The first tile's, before the outer loop; the outer loop then carries
    // the slot ring, the parity and the prologue's values from tile to tile.
    scf::ForOp outer = early->outer;
    IRMapping first;
    cloneSliceFor(b, *early, outer.getLowerBound(), first);
    auto [lb, runs] =
        shiftedIv(b, loc, outer, outer.getLowerBound(), Value(), outer.getUpperBound());
    emitPrologue(first, runs, Value(), ahead, prefetchedInit);
    SmallVector<Value> carried(ahead);
    llvm::append_range(carried, prefetchedInit);
    carried.append({copySlotInit, readSlotInit, parityInit});
    IRRewriter rewriter(b.getContext());
    DictionaryAttr attrs = outer->getDiscardableAttrDictionary(); // tl.range's num_stages
    auto grown = cast<scf::ForOp>(
        *outer.replaceWithAdditionalYields(rewriter, carried, /*replaceInitOperandUsesInLoop=*/false,
                                           [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
                                             return SmallVector<Value>(args);
                                           }));
    grown->setDiscardableAttrs(attrs);
    early->outer = grown;
    unsigned base = grown.getNumRegionIterArgs() - carried.size();
    ValueRange args = grown.getRegionIterArgs().drop_front(base);
    unsigned numAhead = ahead.size(), numPrefetchedInit = prefetchedInit.size();
    ahead.assign(args.begin(), args.begin() + numAhead);
    prefetchedInit.assign(args.begin() + numAhead, args.begin() + numAhead + numPrefetchedInit);
    copySlotInit = args[args.size() - 3];
    readSlotInit = args[args.size() - 2];
    parityInit = args[args.size() - 1];
    b.setInsertionPoint(loop);
  } else {
    emitPrologue(IRMapping(), Value(), Value(), ahead, prefetchedInit);
  }

  // The new loop carries the other iter args, the carried-ahead ones, the
  // prefetched loads' values of iterations i .. i + lead - 1 (in that
  // order, the loads inside), the slot to copy into and the slot to read.
  SmallVector<unsigned> kept;
  SmallVector<Value> inits;
  for (unsigned k = 0; k < loop.getNumRegionIterArgs(); ++k)
    if (!plan.ahead.contains(k)) {
      kept.push_back(k);
      inits.push_back(loop.getInitArgs()[k]);
    }
  llvm::append_range(inits, ahead);
  unsigned prefetchBase = inits.size(), numPrefetched = plan.prefetched.size();
  llvm::append_range(inits, prefetchedInit);
  inits.push_back(copySlotInit);
  inits.push_back(readSlotInit);
  if (!tmaBuffers.empty()) // the parity of the read slot's fill
    inits.push_back(parityInit);
  // Loop invariants, made once before the loop.
  Value distance = stepsOf(b, loc, loop.getStep(), lead);
  Value one = constantLike(b, loc, i32, 1), zero = constantLike(b, loc, i32, 0);
  auto newLoop = scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                                    loop.getStep(), inits, nullptr, loop.getUnsignedCmp());
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *newBody = newLoop.getBody();
  ValueRange newArgs = newLoop.getRegionIterArgs();
  unsigned slotArgs = newArgs.size() - 2 - (tmaBuffers.empty() ? 0 : 1);
  Value copySlot = newArgs[slotArgs], readSlot = newArgs[slotArgs + 1];

  b.setInsertionPointToStart(newBody);
  bool copiesFirst = !asyncDots && !refillReadSlot;
  // The wait's barrier also tells the copies issued first in the iteration
  // that every thread is done with the slot they refill. TMA copies wait on
  // their slot's mbarrier instead (one for all of an iteration's blocks).
  if (anyCpAsync)
    AsyncWaitOp::create(b, loc, lead - 1);
  else if (copiesFirst)
    BarrierOp::create(b, loc);
  if (tmaOwner)
    TmaWaitOp::create(b, loc, tmaOwner, readSlot, newArgs.back());
  // Stage 0 of iteration i + lead.
  IRMapping map0;
  SmallVector<Value> prefetchedAhead;
  auto startCopies = [&] {
    auto [ivAhead, inRange] =
        shiftedIv(b, loc, loop, newLoop.getInductionVar(), distance, loop.getUpperBound());
    map0.map(loop.getInductionVar(), ivAhead);
    for (auto [i, k] : llvm::enumerate(plan.ahead))
      map0.map(loop.getRegionIterArgs()[k], newArgs[kept.size() + i]);
    emitStage0(b, loc, plan, buffers, tensorMaps, tmaOwner, map0, copySlot, inRange,
               prefetchedAhead);
  };
  if (copiesFirst)
    startCopies();
  // Stage 1 of iteration i: everything else, the loads read from the slot.
  // A slot whose tile is only converted to another layout (mamba's fp32 cb
  // tile into the accumulator layout it is scaled in) is read straight into
  // that layout: ld.shared reads any layout, and the exchange through the
  // scratch (two barriers per iteration) goes. Not into #tile.dot_op: a dot
  // reading a tile.local_load reads its slot as an operand slot.
  DenseMap<Operation *, ConvertLayoutOp> readAs; // load -> its only convert
  for (LoadOp load : plan.loads)
    if (load->hasOneUse())
      if (auto cvt = dyn_cast<ConvertLayoutOp>(*load->user_begin());
          cvt && cvt->getBlock() == body &&
          !isa_and_nonnull<DotOperandLayoutAttr>(cvt.getType().getEncoding()))
        readAs[load] = cvt;
  IRMapping map1;
  map1.map(loop.getInductionVar(), newLoop.getInductionVar());
  for (auto [i, k] : llvm::enumerate(kept))
    map1.map(loop.getRegionIterArgs()[k], newArgs[i]);
  for (Operation &op : body->without_terminator()) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      auto it = llvm::find(plan.loads, load);
      if (it != plan.loads.end()) {
        ConvertLayoutOp cvt = readAs.lookup(load);
        Value slotTile = LocalLoadOp::create(b, load.getLoc(),
                                             cvt ? cvt.getType() : load.getType(),
                                             buffers[it - plan.loads.begin()], readSlot);
        map1.map(cvt ? cvt.getResult() : load.getResult(), slotTile);
        continue;
      }
      auto pit = llvm::find(plan.prefetched, load);
      if (pit != plan.prefetched.end()) {
        map1.map(load.getResult(), newArgs[prefetchBase + (pit - plan.prefetched.begin())]);
        continue;
      }
    }
    if (auto cvt = dyn_cast<ConvertLayoutOp>(op)) {
      auto load = cvt.getSrc().getDefiningOp<LoadOp>();
      if (load && readAs.lookup(load) == cvt)
        continue; // read in its layout above
    }
    if (plan.stage0.contains(&op) &&
        llvm::any_of(op.getResults(), [&](Value r) { return plan.aheadValues.contains(r); }))
      continue;
    b.clone(op, map1);
  }
  if (!copiesFirst) {
    BarrierOp::create(b, loc);
    startCopies();
  }
  auto next = [&](Value slot) {
    Value n = arith::AddIOp::create(b, loc, slot, one);
    Value wrap = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, n, slotCount);
    return arith::SelectOp::create(b, loc, wrap, zero, n).getResult();
  };
  SmallVector<Value> yields;
  for (unsigned k : kept)
    yields.push_back(map1.lookupOrDefault(yield.getOperand(k)));
  for (unsigned k : plan.ahead)
    yields.push_back(map0.lookupOrDefault(yield.getOperand(k)));
  // The prefetched values move one iteration down; iteration i + lead's
  // join at the end.
  llvm::append_range(yields, newArgs.slice(prefetchBase + numPrefetched,
                                           numPrefetched * (lead - 1)));
  llvm::append_range(yields, prefetchedAhead);
  yields.push_back(next(copySlot));
  Value nextRead = next(readSlot);
  yields.push_back(nextRead);
  if (!tmaBuffers.empty()) { // the parity flips when the read slot wraps
    Value wrapped = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, nextRead, zero);
    Value flipped = arith::XOrIOp::create(b, loc, newArgs.back(), one);
    yields.push_back(arith::SelectOp::create(b, loc, wrapped, flipped, newArgs.back()));
  }
  scf::YieldOp::create(b, loc, yields);

  // Nothing may still be writing the slots when the loop is left (or
  // entered again: an outer loop). Every TMA copy of an iteration inside the
  // loop was waited for; those past its end were never started.
  b.setInsertionPointAfter(newLoop);
  if (anyCpAsync)
    AsyncWaitOp::create(b, loc, 0);
  if (!early && tmaOwner)
    TmaInvalOp::create(b, loc, tmaOwner);
  SmallVector<Value> results(newLoop.getResults().take_front(kept.size()));
  if (asyncDots) {
    keepProductsInFlight(newLoop);
    auto newYield = cast<scf::YieldOp>(newBody->getTerminator());
    for (unsigned i = 0; i < kept.size(); ++i)
      if (auto dot = newYield.getOperand(i).getDefiningOp<DotOp>();
          dot && dot->hasAttr("tile.wgmma_pending"))
        results[i] = DotWaitOp::create(b, loc, TypeRange{results[i].getType()}, ValueRange{results[i]})
                         .getResult(0);
  }
  if (early) {
    // Every product of this run is done (the waits above) once all warps
    // are here: the next tile's prologue may refill the slots, from where
    // this run stopped reading, before the epilogue.
    scf::ForOp outer = early->outer;
    BarrierOp::create(b, loc);
    Value nextIv = arith::AddIOp::create(b, loc, outer.getInductionVar(), outer.getStep());
    IRMapping next;
    cloneSliceFor(b, *early, nextIv, next);
    Value runs = shiftedIv(b, loc, outer, nextIv, Value(), outer.getUpperBound()).second;
    SmallVector<Value> aheadNext, prefetchedNext;
    Value stoppedAt = newLoop.getResult(slotArgs + 1);
    emitPrologue(next, runs, stoppedAt, aheadNext, prefetchedNext);
    auto outerYield = cast<scf::YieldOp>(outer.getBody()->getTerminator());
    unsigned base = outerYield.getNumOperands() - aheadNext.size() - prefetchedNext.size() - 3;
    SmallVector<Value> carried(aheadNext);
    llvm::append_range(carried, prefetchedNext);
    carried.push_back(newLoop.getResult(slotArgs));
    carried.push_back(stoppedAt);
    carried.push_back(tmaBuffers.empty() ? Value(outer.getRegionIterArgs().back())
                                         : Value(newLoop.getResults().back()));
    for (auto [i, v] : llvm::enumerate(carried))
      outerYield->setOperand(base + i, v);
    // After the last tile: its successor's copies were predicated off (TMA
    // copies not started, cp.async ones zero-filling).
    b.setInsertionPointAfter(outer);
    if (anyCpAsync)
      AsyncWaitOp::create(b, loc, 0);
    if (tmaOwner)
      TmaInvalOp::create(b, loc, tmaOwner);
  }
  for (auto [i, k] : llvm::enumerate(kept))
    loop.getResult(k).replaceAllUsesWith(results[i]);
  loop.erase();

  // Stage-0 copies that stage 1 did not need, and the addresses of TMA
  // copies (the prologue's as well).
  // (Ops with regions stay: other loops the pass has yet to visit.)
  SmallVector<Block *> blocks{newBody, newLoop->getBlock()};
  if (early)
    blocks.push_back(early->outer->getBlock());
  for (Block *block : blocks)
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block)))
      if (op.getNumRegions() == 0 && isOpTriviallyDead(&op))
        op.erase();
  return early ? early->outer : scf::ForOp();
}

struct PipelineLoopsPass : kiln::tile::impl::TilePipelineLoopsBase<PipelineLoopsPass> {
  using TilePipelineLoopsBase::TilePipelineLoopsBase;

  void runOnOperation() override {
    if (!useTma)
      getOperation()->setAttr(kNoTmaAttr, UnitAttr::get(&getContext()));
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp &loop : loops) // inner loops first: an outer one keeps them
      loop = dropUnusedIterArgs(loop);
    // Whether every dot operand of a loop can be copied asynchronously,
    // decided on the IR as written: the axis analysis must not see it change,
    // and it only runs where some loop has dot operands.
    // fp8 operands that cannot be copied in runs of 4 bytes stay loads
    // (with their partners: their dots run on mma.sync), as single bytes
    // are not copied into slots.
    DenseMap<Operation *, bool> copiesAllWords;
    llvm::DenseSet<Operation *> wordCopies; // dot operand loads cp.async can copy
    DenseMap<Operation *, CompanionLoads> companions;
    llvm::DenseSet<Operation *> excluded;
    std::optional<ModuleAxisInfo> axis;
    auto ensureAxis = [&] {
      if (!axis)
        axis.emplace(getOperation());
      return succeeded(axis->status());
    };
    for (scf::ForOp loop : loops) {
      SmallVector<LoadOp> loads = dotOperandLoads(loop);
      bool hasDot = llvm::any_of(*loop.getBody(), [](Operation &op) { return isa<DotOp>(op); });
      if (loads.empty()) {
        if (hasDot) {
          if (!ensureAxis())
            return signalPassFailure();
          companions[loop] = companionLoads(loop, {}, excluded, *axis);
        }
        continue;
      }
      if (!ensureAxis())
        return signalPassFailure();
      // TMA copies whole blocks: no alignment needed.
      auto copyable = [&](LoadOp load) { return copiedWithTma(load) || copiesWords(load, *axis); };
      for (LoadOp load : loads)
        if (mlir::getElementTypeOrSelf(load.getType()).getIntOrFloatBitWidth() == 8 &&
            !copyable(load))
          excluded.insert(load);
      loads = dotOperandLoads(loop, excluded);
      if (loads.empty())
        continue;
      // (stageInLoop copies only wordCopies; it loads the others.)
      for (LoadOp load : loads)
        if (copiesWords(load, *axis) && zeroPadded(load))
          wordCopies.insert(load);
      copiesAllWords[loop] = llvm::all_of(loads, copyable);
      companions[loop] = companionLoads(loop, loads, excluded, *axis);
    }

    // Tiles loaded once only to be converted (an epilogue's), staged after
    // the loops: whether cp.async can copy each is decided on the IR as
    // written, as above.
    SmallVector<std::pair<LoadOp, bool>> converted;
    getOperation().walk([&](LoadOp load) {
      if (!isConvertedOnlyLoad(load))
        return WalkResult::advance();
      if (copiedWithTma(load)) {
        converted.push_back({load, false});
        return WalkResult::advance();
      }
      if (!ensureAxis())
        return WalkResult::interrupt();
      converted.push_back({load, copiesWords(load, *axis) && zeroPadded(load)});
      return WalkResult::advance();
    });
    if (axis && failed(axis->status()))
      return signalPassFailure();

    SmallVector<LoadOp> invariant;
    getOperation().walk([&](LoadOp load) {
      if (!isKMajorOnlyLoad(load) && isCopyableDotOperand(load) && zeroPadded(load) &&
          feedsOnlyLaterLoops(load))
        invariant.push_back(load);
    });
    // Whatever the loops' num_stages: staging the operand once is not
    // pipelining, and a num_stages=1 loop would otherwise hold it in
    // registers and stage it from there every iteration.
    for (LoadOp load : invariant) {
      auto loop = (*load->getUsers().begin())->getParentOfType<scf::ForOp>();
      if (tensorBytes(load.getType()) <= slotBudgetBytes(loop) / 2)
        stageInvariantOperand(load);
    }
    for (unsigned n = 0; n < loops.size(); ++n) {
      scf::ForOp loop = loops[n];
      unsigned stages = requestedStages(loop, numStages);
      if (stages < 2)
        continue;
      auto words = copiesAllWords.find(loop);
      SmallVector<LoadOp> loads;
      if (words != copiesAllWords.end())
        loads = dotOperandLoads(loop, excluded);
      CompanionLoads others = companions.lookup(loop);
      if (loads.empty() && others.slotted.empty())
        continue;
      int64_t budget = slotBudgetBytes(loop);
      auto bytesOf = [](ArrayRef<LoadOp> slotted) {
        int64_t bytes = 0;
        for (LoadOp load : slotted)
          bytes += tensorBytes(load.getType());
        return bytes;
      };
      if (!loads.empty() && !words->second) {
        loads = stageableTogether(loop, excluded);
        if (!loads.empty() && bytesOf(loads) <= budget) {
          readKMajorOperandsFromSlots(loads);
          stageInLoop(loop, loads, wordCopies);
        }
        continue;
      }
      // The dot operands with the loop's other loads if they all fit, else
      // the dot operands alone.
      auto tryPipeline = [&](ArrayRef<LoadOp> slotted, ArrayRef<LoadOp> prefetched) {
        int64_t slotBytes = bytesOf(slotted);
        // The dots stage none of the operands they will read from the slots,
        // and what runs before the loop shares the slots' bytes (vLLM's
        // fused MoE at 128 x 256 x 64 asks for 4 stages of 48 KB; counting
        // a 72 KB exchange before its loop left room for 3).
        int64_t slotsBudget =
            slotBudgetBytes(loop, slotted, /*forSlots=*/true);
        unsigned fitting = stages;
        while (fitting >= 2 && int64_t(fitting) * slotBytes > slotsBudget)
          --fitting;
        FailureOr<StagePlan> plan = planStages(loop, slotted, prefetched);
        if (failed(plan) || fitting < 2)
          return false;
        readKMajorOperandsFromSlots(loads);
        Operation *outer = loop->getParentOp();
        // An outer loop replaced by one with more iter args (visited later:
        // post-order). The old one is erased: compared, never dereferenced.
        if (scf::ForOp grown = pipeline(loop, *plan, fitting, acrossTiles))
          for (scf::ForOp &later : llvm::drop_begin(loops, n + 1))
            if (later.getOperation() == outer)
              later = grown;
        return true;
      };
      if (!others.empty()) {
        SmallVector<LoadOp> all(loads);
        llvm::append_range(all, others.slotted);
        // fp32 scalars go to slots too (scalarAsTileLoad), the others ahead
        // in registers; if the loop cannot take them, they are put back.
        unsigned warps = kiln::getNumWarps(cast<RankedTensorType>(all.front().getType()).getEncoding());
        SmallVector<LoadOp> prefetched, scalarTiles;
        for (LoadOp load : others.prefetched) {
          if (warps && scalarCopyable(load))
            scalarTiles.push_back(scalarAsTileLoad(load, warps));
          else
            prefetched.push_back(load);
        }
        llvm::append_range(all, scalarTiles);
        if (tryPipeline(all, prefetched))
          continue;
        llvm::for_each(scalarTiles, restoreScalarLoad);
      }
      if (loads.empty() || tryPipeline(loads, {}))
        continue;
      // tf32 / fp8 operands too large for two slots each still go through
      // one (copied and read in the same iteration) rather than registers.
      bool kMajorOnly = llvm::any_of(loads, [](LoadOp l) { return isKMajorOnlyLoad(l); });
      if (kMajorOnly)
        loads = stageableTogether(loop, excluded);
      if (kMajorOnly && !loads.empty() &&
          bytesOf(loads) <= slotBudgetBytes(loop, loads)) {
        readKMajorOperandsFromSlots(loads);
        stageInLoop(loop, loads, wordCopies);
      }
    }
    for (auto [load, byCpAsync] : converted)
      stageConvertedLoad(load, byCpAsync);
  }
};


} // namespace
