//===- ReduceOpToLLVM.cpp - tile.reduce / sum / max / min along an axis ---===//
//
// Three levels, each along the bits of the layout whose basis lies on the
// reduced axis:
//  1. registers of the thread: in register order (Triton's order), or a
//     balanced tree for runs longer than 16;
//  2. lanes of the warp: shfl.sync.bfly from the highest lane bit down
//     (Triton's order), after which every lane holds the
//     warp's result (butterflies of commutative ops give identical bits in
//     all lanes); a 32-bit integer sum / max / min over all 32 lanes is one
//     redux.sync on sm_80 and later, as in Triton;
//  3. warps: one lane per warp writes its partial to shared memory, a
//     barrier, then every thread combines all partials in the same order, so
//     all threads end with the same value (uniform control flow on it); a
//     thread with one reduced value and 8 or more partials reads one and the
//     lanes combine them by butterfly instead, as Triton does.
// Replicated lanes/warps (zero bases) are skipped: they hold copies.
// tile.reduce runs the same steps on tuples, inlining its combiner region at
// each combination; like Triton, it assumes the combiner is associative and
// commutative (the combination order follows the layout, not the indices).
// After its butterflies every lane takes its group's first lane's result, so
// all lanes agree bit for bit even when the combiner is not exactly
// commutative (argmax and NaN).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {

namespace {
using Coord = DistributedLayout::Coord;

Coord dropDim(const Coord &c, unsigned dim) {
  Coord out(c);
  out.erase(out.begin() + dim);
  return out;
}

/// Shape of a reduction's partials in shared memory: per operand, [warps
/// along axis, rest], one operand after the other (each 8-byte aligned).
struct CrossWarp {
  unsigned warpMask = 0, numWarpGroups = 1;
  int64_t outElems = 1;
  SmallVector<unsigned, 2> elemBytes, baseOffset;
  unsigned totalBytes = 0;
};

std::optional<CrossWarp> crossWarpShape(Operation *op) {
  auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
  std::optional<DistributedLayout> s = getDistributedLayout(srcType);
  if (!s)
    return std::nullopt;
  unsigned axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
  CrossWarp cw;
  cw.warpMask = s->warpMaskAlong(axis);
  cw.numWarpGroups = 1u << llvm::popcount(cw.warpMask);
  for (unsigned d = 0; d < srcType.getRank(); ++d)
    if (d != axis)
      cw.outElems *= srcType.getDimSize(d);
  for (Value v : op->getOperands()) {
    Type elem = cast<RankedTensorType>(v.getType()).getElementType();
    unsigned bytes = bitsTypeFor(elem).getIntOrFloatBitWidth() / 8;
    cw.elemBytes.push_back(bytes);
    cw.baseOffset.push_back(cw.totalBytes);
    cw.totalBytes += llvm::alignTo(cw.numWarpGroups * cw.outElems * bytes, 8);
  }
  return cw;
}

/// The most registers of a thread that one reduced value combines in
/// sequence (Triton's order); longer runs take a balanced tree.
constexpr unsigned kSequentialRegisters = 16;

/// One reduced value per operand.
using Tuple = SmallVector<Value, 2>;
using CombineFn =
    llvm::function_ref<Tuple(OpBuilder &, Location, ValueRange, ValueRange)>;

/// Combines each tuple of `partial` across the lanes whose bits are in
/// `laneMask` with shfl.sync.bfly, each lane combining (its own, the other
/// lane's) as Triton does; every lane of a group ends with the same bits
/// when the combiner is commutative. With `lane` (ordered lanes), every lane
/// then takes the group's first lane's result (one shfl.sync.idx per value),
/// so that a combiner that is not exactly commutative (an argmax meeting a
/// NaN) still leaves the same bits in every lane. Ordering both operands of
/// every combination by lane instead cost 4 selects per round of a
/// (value, index) pair: lightllm's MoE router (eight max / argmax per row,
/// one warp) ran 1.31x Triton's time.
void butterfly(OpBuilder &b, Location loc, SmallVector<Tuple> &partial,
               unsigned laneMask, Value lane, CombineFn combine) {
  // Highest bit first, as Triton: sums keep Triton's rounding.
  for (int bit = kLaneBits - 1; bit >= 0; --bit) {
    if (!(laneMask & (1u << bit)))
      continue;
    for (Tuple &t : partial) {
      Tuple other;
      for (Value v : t)
        other.push_back(shuffleXor(b, loc, v, 1u << bit));
      t = combine(b, loc, t, other);
    }
  }
  if (!lane || !laneMask)
    return;
  Value first = arith::AndIOp::create(b, loc, lane, i32Const(b, loc, ~laneMask));
  for (Tuple &t : partial)
    for (Value &v : t)
      v = shuffleIdx(b, loc, v, first);
}

/// Reduces `vals` (per operand, the registers of this thread) along the
/// axis of `op`; returns per operand the values of the result (a scalar or
/// the slice layout's registers).
FailureOr<SmallVector<SmallVector<Value>>>
reduceAlongAxis(Operation *op, ArrayRef<ValueRange> vals, const LoweringState &state,
                ConversionPatternRewriter &rewriter, CombineFn combine,
                bool orderLanes, std::optional<NVVM::ReduxKind> redux = std::nullopt) {
  Location loc = op->getLoc();
  auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
  std::optional<DistributedLayout> s = getDistributedLayout(srcType);
  if (!s)
    return rewriter.notifyMatchFailure(op, "tensor without a layout");
  unsigned axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
  unsigned numOperands = vals.size();
  auto regTuple = [&](unsigned r) {
    Tuple t;
    for (ValueRange v : vals)
      t.push_back(v[r]);
    return t;
  };

  // 1. Registers that differ only along the axis. Up to
  //    kSequentialRegisters of them combine one after the other in register
  //    order, as Triton combines them: the same bits as Triton's for the
  //    same layout, and each product of a sum of products fuses into an FMA
  //    (a tree fuses only its leaves; lightllm's token attention: 47 -> 40
  //    registers). Longer runs take a balanced tree: a chain of 32 fp32 adds
  //    per row is 32 dependent latencies, and under the 128-register cap of
  //    256-thread kernels the tutorial LayerNorm's backward (bf16, N = 8192,
  //    32 per thread) spilled 148 bytes instead of 76 and ran 1.08x slower
  //    (H200, the same machine, alternating builds).
  SmallVector<Coord> keys;
  SmallVector<SmallVector<Tuple>> groups;
  for (unsigned r = 0; r < s->numRegs(); ++r) {
    Coord key = s->regOffset(r);
    key[axis] = 0;
    auto it = llvm::find(keys, key);
    if (it == keys.end()) {
      keys.push_back(key);
      groups.push_back({regTuple(r)});
    } else {
      groups[it - keys.begin()].push_back(regTuple(r));
    }
  }
  SmallVector<Tuple> partial;
  for (SmallVector<Tuple> &g : groups) {
    if (g.size() <= kSequentialRegisters) {
      Tuple acc = g[0];
      for (unsigned i = 1; i < g.size(); ++i)
        acc = combine(rewriter, loc, acc, g[i]);
      partial.push_back(acc);
      continue;
    }
    while (g.size() > 1) {
      SmallVector<Tuple> next;
      for (unsigned i = 0; i + 1 < g.size(); i += 2)
        next.push_back(combine(rewriter, loc, g[i], g[i + 1]));
      if (g.size() % 2)
        next.push_back(g.back());
      g = std::move(next);
    }
    partial.push_back(g[0]);
  }

  // 2. Lanes: butterfly (with `orderLanes`, then the group's first lane's result).
  unsigned laneMask = s->laneMaskAlong(axis);
  bool wholeWarp = laneMask == (1u << kLaneBits) - 1;
  if (redux && wholeWarp && state.computeCapability >= 80 && numOperands == 1 &&
      llvm::all_of(partial, [](const Tuple &t) { return t[0].getType().isInteger(32); })) {
    Value allLanes = i32Const(rewriter, loc, -1);
    for (Tuple &t : partial)
      t[0] = NVVM::ReduxOp::create(rewriter, loc, t[0].getType(), t[0], *redux, allLanes);
    laneMask = 0;
  }
  butterfly(rewriter, loc, partial, laneMask, orderLanes ? state.idsFor(op).lane : Value(),
            combine);

  // 3. Warps, through shared memory.
  std::optional<CrossWarp> cw = crossWarpShape(op);
  if (cw->warpMask) {
    SmallVector<int64_t> outShape(srcType.getShape());
    outShape.erase(outShape.begin() + axis);
    Value lane = state.idsFor(op).lane, warp = state.idsFor(op).warp;
    SmallVector<Value> coords = threadCoords(rewriter, loc, *s, lane, warp);
    coords.erase(coords.begin() + axis);
    // This warp's position along the axis: its axis bits, compacted.
    Value group;
    unsigned i = 0;
    for (unsigned bit = 0; bit < s->warpBases.size(); ++bit) {
      if (!(cw->warpMask & (1u << bit)))
        continue;
      Value b = arith::ShRUIOp::create(rewriter, loc, warp, i32Const(rewriter, loc, bit));
      b = arith::AndIOp::create(rewriter, loc, b, i32Const(rewriter, loc, 1));
      if (i)
        b = arith::ShLIOp::create(rewriter, loc, b, i32Const(rewriter, loc, i));
      group = group ? arith::OrIOp::create(rewriter, loc, group, b).getResult() : b;
      ++i;
    }
    auto address = [&](OpBuilder &b, Value groupIndex, const Coord &key,
                       unsigned operand) {
      Value lin = linearize(b, loc, coords, dropDim(key, axis), outShape);
      Value index = arith::AddIOp::create(
          b, loc, lin,
          arith::MulIOp::create(b, loc, groupIndex, i32Const(b, loc, cw->outElems)));
      Value bytes = arith::MulIOp::create(
          b, loc, index, i32Const(b, loc, cw->elemBytes[operand]));
      return sharedPtr(b, loc,
                       arith::AddIOp::create(
                           b, loc, bytes, i32Const(b, loc, cw->baseOffset[operand])));
    };
    barrier(rewriter, loc);
    Value laneBits = arith::AndIOp::create(
        rewriter, loc, lane,
        i32Const(rewriter, loc, laneMask | s->replicatedLaneMask()));
    Value writer = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                         laneBits, i32Const(rewriter, loc, 0));
    scf::IfOp::create(rewriter, loc, writer, [&](OpBuilder &b, Location l) {
      for (auto [key, t] : llvm::zip(keys, partial))
        for (unsigned k = 0; k < numOperands; ++k) {
          Value ptr = address(b, group, key, k); // before the bits: a fixed op order
          LLVM::StoreOp::create(b, l, toBits(b, l, t[k]), ptr, cw->elemBytes[k]);
        }
      scf::YieldOp::create(b, l);
    });
    barrier(rewriter, loc);
    auto loadPartial = [&](Value groupIndex, const Coord &key, const Tuple &like) {
      Tuple x;
      for (unsigned k = 0; k < numOperands; ++k) {
        Type elem = like[k].getType();
        Value bits = LLVM::LoadOp::create(rewriter, loc, bitsTypeFor(elem),
                                          address(rewriter, groupIndex, key, k),
                                          cw->elemBytes[k]);
        x.push_back(fromBits(rewriter, loc, bits, elem));
      }
      return x;
    };
    if (partial.size() == 1 && cw->numWarpGroups >= 16) {
      // One reduced value per thread and 8 or more partials: lane l reads
      // partial l mod G and the lanes combine them by butterfly, as Triton
      // does. Reading every partial into every thread costs G / 4 vector
      // loads and G - 1 combinations per thread (Liger's cross entropy, 32
      // warps reducing twice per block: 8 loads, 31 combinations each).
      unsigned g = cw->numWarpGroups;
      Value slot = arith::AndIOp::create(rewriter, loc, lane, i32Const(rewriter, loc, g - 1));
      partial[0] = loadPartial(slot, keys[0], partial[0]);
      butterfly(rewriter, loc, partial, g - 1, orderLanes ? lane : Value(), combine);
    } else {
      for (auto [key, t] : llvm::zip(keys, partial)) {
        Tuple acc;
        for (unsigned w = 0; w < cw->numWarpGroups; ++w) {
          Tuple x = loadPartial(i32Const(rewriter, loc, w), key, t);
          acc = acc.empty() ? x : combine(rewriter, loc, acc, x);
        }
        t = acc;
      }
    }
  }

  // 4. The results: scalars, or the slice layout's registers.
  SmallVector<SmallVector<Value>> results(numOperands);
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType) {
    for (unsigned k = 0; k < numOperands; ++k)
      results[k].push_back(partial[0][k]);
    return results;
  }
  std::optional<DistributedLayout> res = getDistributedLayout(resultType);
  if (!res)
    return rewriter.notifyMatchFailure(op, "result without a layout");
  for (Value r : op->getResults())
    if (getDistributedLayout(cast<RankedTensorType>(r.getType())) != res)
      return op->emitOpError("results have different layouts");
  for (unsigned j = 0; j < res->numRegs(); ++j) {
    Coord key = res->regOffset(j);
    key.insert(key.begin() + axis, 0);
    auto it = llvm::find(keys, key);
    if (it == keys.end())
      return op->emitOpError("result layout is not the slice of the operand's");
    for (unsigned k = 0; k < numOperands; ++k)
      results[k].push_back(partial[it - keys.begin()][k]);
  }
  return results;
}

template <typename OpT, ReduceKind Kind>
struct NamedReduceLowering : OpConversionPattern<OpT> {
  NamedReduceLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern<OpT>(tc, ctx), state(state) {}
  const LoweringState &state;
  using Adaptor = typename OpT::template GenericAdaptor<ArrayRef<ValueRange>>;

  LogicalResult matchAndRewrite(OpT op, Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto combine = [](OpBuilder &b, Location loc, ValueRange acc, ValueRange x) {
      return Tuple{kiln::lowering::combine(b, loc, Kind, acc[0], x[0])};
    };
    SmallVector<ValueRange> vals{adaptor.getSrc()};
    NVVM::ReduxKind redux = Kind == ReduceKind::Sum   ? NVVM::ReduxKind::ADD
                            : Kind == ReduceKind::Max ? NVVM::ReduxKind::MAX
                                                      : NVVM::ReduxKind::MIN;
    FailureOr<SmallVector<SmallVector<Value>>> results =
        reduceAlongAxis(op, vals, state, rewriter, combine, /*orderLanes=*/false, redux);
    if (failed(results))
      return failure();
    rewriter.replaceOpWithMultiple(op, *results);
    return success();
  }
};

/// tile.reduce: the combiner region is inlined at every combination.
struct ReduceLowering : OpConversionPattern<ReduceOp> {
  ReduceLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(ReduceOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Region &region = op.getCombiner();
    auto combine = [&](OpBuilder &b, Location, ValueRange acc, ValueRange x) {
      return Tuple(inlineCombiner(b, region, acc, x));
    };
    FailureOr<SmallVector<SmallVector<Value>>> results =
        reduceAlongAxis(op, adaptor.getSrcs(), state, rewriter, combine,
                        /*orderLanes=*/true);
    if (failed(results))
      return failure();
    rewriter.replaceOpWithMultiple(op, *results);
    return success();
  }
};

} // namespace

unsigned getScratchBytes(Operation *op) {
  if (isa<TensormapCreateOp>(op)) // a map staged before it goes to global memory
    return 128;
  if (isa<SumOp, MaxOp, MinOp, ReduceOp>(op)) {
    std::optional<CrossWarp> cw = crossWarpShape(op);
    if (!cw || !cw->warpMask)
      return 0;
    return cw->totalBytes;
  }
  if (auto scan = dyn_cast<ScanOp>(op))
    return getScanScratchBytes(scan);
  if (isa<SortOp, GatherOp, HistogramOp>(op))
    return getSortGatherScratchBytes(op);
  auto elemBytes = [](Type t) {
    Type elem = mlir::getElementTypeOrSelf(t);
    if (isa<PtrType>(elem))
      return 8u;
    return std::max(1u, elem.getIntOrFloatBitWidth() / 8);
  };
  if (auto cvt = dyn_cast<ConvertLayoutOp>(op))
    return getConvertLayoutScratchBytes(cvt);
  if (auto dot = dyn_cast<DotOp>(op))
    return getDotScratchBytes(dot);
  if (unsigned bytes = getShapeScratchBytes(op))
    return bytes;
  if (isa<AtomicCASOp, AtomicRMWOp>(op)) {
    Type t = op->getResult(0).getType();
    if (op->getResult(0).use_empty())
      return 0;
    if (!isa<RankedTensorType>(t))
      return elemBytes(t);
    auto layout = getDistributedLayout(cast<RankedTensorType>(t));
    if (layout && (layout->replicatedLaneMask() || layout->replicatedWarpMask()))
      return exchangeScratchBytes(*layout, *layout, mlir::getElementTypeOrSelf(t));
  }
  return 0;
}

void populateReducePatterns(TileTypeConverter &converter,
                            const LoweringState &state,
                            RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<NamedReduceLowering<SumOp, ReduceKind::Sum>,
               NamedReduceLowering<MaxOp, ReduceKind::Max>,
               NamedReduceLowering<MinOp, ReduceKind::Min>, ReduceLowering>(
      converter, ctx, state);
}

} // namespace kiln::lowering
