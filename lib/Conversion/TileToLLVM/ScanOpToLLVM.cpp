//===- ScanOpToLLVM.cpp - tile.scan along an axis --------------------------===//
//
// An inclusive scan as a butterfly over the bits of the scanned coordinate,
// lowest first. Before the step for bit j, every element holds `prefix` (the
// combination of the elements of its aligned block of 2^j up to itself) and
// `total` (of the whole block). The step pairs each element with the one
// whose bit j differs: the later one (in scan order) folds the partner's
// total in front of its prefix, and both blocks' totals become the
// combination of the two. Which hardware holds bit j decides how the
// partner's total arrives:
//  - a register bit: another register of the same thread (in-thread prefix);
//  - a lane bit: shfl.sync.bfly (the Kogge-Stone / Hillis-Steele step);
//  - a warp bit: totals go through shared memory (the cross-warp carry).
// Combinations keep the order of the elements, so the combiner needs to be
// associative only. `reverse` scans from the last element: the partner with
// the higher coordinate comes first.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {

namespace {
using Tuple = SmallVector<Value, 2>;

enum class BitSource { Reg, Lane, Warp };
struct ScanBit {
  BitSource source;
  unsigned bit;   ///< index of the register / lane / warp id bit
  int64_t basis;  ///< its offset along the scanned axis
};

/// The bits of the layout along `axis`, lowest coordinate bit first; none if
/// some basis mixes the axis with other dimensions.
std::optional<SmallVector<ScanBit>> scanBits(const DistributedLayout &layout,
                                             unsigned axis) {
  SmallVector<ScanBit> bits;
  auto add = [&](BitSource source, ArrayRef<DistributedLayout::Coord> bases) {
    for (auto [i, basis] : llvm::enumerate(bases)) {
      if (basis[axis] == 0)
        continue;
      for (unsigned d = 0; d < basis.size(); ++d)
        if (d != axis && basis[d] != 0)
          return false;
      bits.push_back({source, unsigned(i), basis[axis]});
    }
    return true;
  };
  if (!add(BitSource::Reg, layout.regBases) ||
      !add(BitSource::Lane, layout.laneBases) ||
      !add(BitSource::Warp, layout.warpBases))
    return std::nullopt;
  llvm::sort(bits, [](const ScanBit &a, const ScanBit &b) { return a.basis < b.basis; });
  return bits;
}

/// The cross-warp exchange stores one total per block of the bits below the
/// lowest warp bit along the axis (2^shift elements share it), so the scratch
/// holds the tensor with its scanned axis shrunk by 2^shift.
struct ScratchPlan {
  SmallVector<unsigned, 2> elemBytes, baseOffset;
  SmallVector<int64_t, 4> shape; ///< the tensor's, the axis shrunk
  unsigned shift = 0;
  unsigned totalBytes = 0;
};

ScratchPlan scratchPlan(ScanOp op, const DistributedLayout &layout) {
  ScratchPlan plan;
  unsigned axis = op.getAxis();
  int64_t lowest = 0;
  for (const DistributedLayout::Coord &basis : layout.warpBases)
    if (basis[axis] && (!lowest || basis[axis] < lowest))
      lowest = basis[axis];
  plan.shift = lowest ? llvm::Log2_64(lowest) : 0;
  plan.shape.assign(layout.shape.begin(), layout.shape.end());
  plan.shape[axis] >>= plan.shift;
  int64_t elements = 1;
  for (int64_t size : plan.shape)
    elements *= size;
  for (Value v : op.getSrcs()) {
    auto type = cast<RankedTensorType>(v.getType());
    unsigned bytes = bitsTypeFor(type.getElementType()).getIntOrFloatBitWidth() / 8;
    plan.elemBytes.push_back(bytes);
    plan.baseOffset.push_back(plan.totalBytes);
    plan.totalBytes += llvm::alignTo(elements * bytes, 8);
  }
  return plan;
}

Tuple selectTuple(OpBuilder &b, Location loc, Value cond, ValueRange t,
                  ValueRange f) {
  Tuple out;
  for (auto [x, y] : llvm::zip(t, f))
    out.push_back(arith::SelectOp::create(b, loc, cond, x, y));
  return out;
}

/// The steps of `group`, consecutive warp bits, in one shared-memory round
/// (as Triton reads every warp's total at once): each block's total is
/// stored once, and after one barrier every thread reads the totals of all
/// 2^G blocks of its group and folds those before its own block (in scan
/// order) in front of its prefixes. A round per warp bit took two barriers
/// each (4 for 4 warps, 10 for 32).
template <typename Combine>
void exchangeWarpTotals(OpBuilder &b, Location loc, ArrayRef<ScanBit> group, bool last,
                        bool reverse, Value warp, unsigned axis, ArrayRef<Value> coords,
                        const DistributedLayout &layout, const ScratchPlan &plan,
                        int64_t axisStride, Combine combine,
                        SmallVectorImpl<Tuple> &prefix, SmallVectorImpl<Tuple> &total) {
  unsigned numRegs = layout.numRegs(), numOperands = prefix[0].size();
  unsigned blocks = 1u << group.size();
  // This thread's block within the group (bit g of it: group[g]'s warp bit)
  // and the block's offset along the scanned axis.
  Value block = i32Const(b, loc, 0), offset = i32Const(b, loc, 0);
  for (auto [g, sb] : llvm::enumerate(group)) {
    Value shifted = arith::ShRUIOp::create(b, loc, warp, i32Const(b, loc, sb.bit));
    Value bit = arith::AndIOp::create(b, loc, shifted, i32Const(b, loc, 1));
    Value weighted = arith::ShLIOp::create(b, loc, bit, i32Const(b, loc, g));
    block = arith::OrIOp::create(b, loc, block, weighted);
    Value along = arith::MulIOp::create(
        b, loc, bit, i32Const(b, loc, (sb.basis >> plan.shift) * axisStride));
    offset = arith::AddIOp::create(b, loc, offset, along);
  }
  // Its rank in scan order: how many blocks come before it.
  Value rank = reverse ? arith::SubIOp::create(b, loc, i32Const(b, loc, blocks - 1), block)
                       : block;
  auto address = [&](Value index, unsigned k) {
    Value bytes = arith::MulIOp::create(b, loc, index, i32Const(b, loc, plan.elemBytes[k]));
    return sharedPtr(b, loc,
                     arith::AddIOp::create(b, loc, bytes, i32Const(b, loc, plan.baseOffset[k])));
  };
  // Registers that share a total (one block of the bits done so far)
  // exchange it once, through the first of them: every thread of the other
  // blocks holds the same registers' totals there (same program). Liger's
  // sparsemax before its loads were widened: 8 registers in 2 blocks.
  SmallVector<unsigned> owner(numRegs);
  DenseMap<Value, unsigned> firstWith;
  for (unsigned r = 0; r < numRegs; ++r)
    owner[r] = firstWith.try_emplace(total[r][0], r).first->second;
  // Scratch indices: the coordinates with the scanned axis shifted down
  // (`coords` come so already).
  SmallVector<Value> index(numRegs);
  for (unsigned r = 0; r < numRegs; ++r) {
    if (owner[r] != r)
      continue;
    DistributedLayout::Coord off = layout.regOffset(r);
    off[axis] >>= plan.shift;
    index[r] = linearize(b, loc, coords, off, plan.shape);
  }
  // Copies (replicated lanes/warps) store identical bits: harmless.
  barrier(b, loc);
  for (unsigned r = 0; r < numRegs; ++r)
    for (unsigned k = 0; k < numOperands && owner[r] == r; ++k) {
      Value ptr = address(index[r], k); // before the bits: a fixed op order
      LLVM::StoreOp::create(b, loc, toBits(b, loc, total[r][k]), ptr, plan.elemBytes[k]);
    }
  barrier(b, loc);
  // Per owner: the running combination of the group's totals in scan order
  // (running[i]: blocks 0..i of that order), and the part before this
  // thread's block.
  SmallVector<Tuple> before(numRegs), groupTotal(numRegs);
  for (unsigned r = 0; r < numRegs; ++r) {
    if (owner[r] != r)
      continue;
    Value start = arith::SubIOp::create(b, loc, index[r], offset);
    SmallVector<Tuple> running;
    for (unsigned i = 0; i < blocks; ++i) {
      unsigned j = reverse ? blocks - 1 - i : i; // the i-th block in scan order
      int64_t along = 0;
      for (auto [g, sb] : llvm::enumerate(group))
        if (j & (1u << g))
          along += (sb.basis >> plan.shift) * axisStride;
      Value at = arith::AddIOp::create(b, loc, start, i32Const(b, loc, along));
      Tuple t;
      for (unsigned k = 0; k < numOperands; ++k) {
        Type elem = total[r][k].getType();
        Value bitsVal =
            LLVM::LoadOp::create(b, loc, bitsTypeFor(elem), address(at, k), plan.elemBytes[k]);
        t.push_back(fromBits(b, loc, bitsVal, elem));
      }
      running.push_back(running.empty() ? t : combine(running.back(), t));
    }
    // before = running[rank - 1] (unused where rank is 0).
    Tuple chosen = running[0];
    for (unsigned i = 1; i + 1 < blocks; ++i) {
      Value is = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank,
                                       i32Const(b, loc, i + 1));
      chosen = selectTuple(b, loc, is, running[i], chosen);
    }
    before[r] = chosen;
    groupTotal[r] = running.back();
  }
  Value hasBefore =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rank, i32Const(b, loc, 0));
  for (unsigned r = 0; r < numRegs; ++r) {
    prefix[r] = selectTuple(b, loc, hasBefore, combine(before[owner[r]], prefix[r]), prefix[r]);
    if (!last)
      total[r] = groupTotal[owner[r]];
  }
}

struct ScanLowering : OpConversionPattern<ScanOp> {
  ScanLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(ScanOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    std::optional<DistributedLayout> s = getDistributedLayout(srcType);
    if (!s)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    for (Value v : op.getSrcs())
      if (getDistributedLayout(cast<RankedTensorType>(v.getType())) != s)
        return op.emitOpError("operands have different layouts");
    unsigned axis = op.getAxis();
    std::optional<SmallVector<ScanBit>> bits = scanBits(*s, axis);
    if (!bits)
      return op.emitOpError("layout mixes the scanned axis with other dimensions");
    bool reverse = op.getReverse();
    Region &region = op.getCombiner();
    auto combine = [&](ValueRange acc, ValueRange x) {
      return Tuple(inlineCombiner(rewriter, region, acc, x));
    };
    unsigned numOperands = op.getSrcs().size();
    SmallVector<Tuple> prefix(s->numRegs());
    for (unsigned r = 0; r < s->numRegs(); ++r)
      for (ValueRange v : adaptor.getSrcs())
        prefix[r].push_back(v[r]);
    SmallVector<Tuple> total = prefix;

    Value lane = state.idsFor(op).lane, warp = state.idsFor(op).warp;
    SmallVector<Value> coords;
    ScratchPlan plan = scratchPlan(op, *s);
    int64_t axisStride = 1;
    for (unsigned d = axis + 1; d < srcType.getRank(); ++d)
      axisStride *= srcType.getDimSize(d);

    for (size_t step = 0; step < bits->size(); ++step) {
      const ScanBit &sb = (*bits)[step];
      if (sb.source == BitSource::Warp) {
        // The consecutive warp bits from here go in one exchange.
        size_t end = step;
        while (end < bits->size() && (*bits)[end].source == BitSource::Warp)
          ++end;
        if (coords.empty()) {
          coords = threadCoords(rewriter, loc, *s, lane, warp);
          if (plan.shift)
            coords[axis] = arith::ShRUIOp::create(rewriter, loc, coords[axis],
                                                  i32Const(rewriter, loc, plan.shift));
        }
        exchangeWarpTotals(rewriter, loc, ArrayRef(*bits).slice(step, end - step),
                           end == bits->size(), reverse, warp, axis, coords, *s, plan,
                           axisStride, combine, prefix, total);
        step = end - 1;
        continue;
      }
      bool last = step + 1 == bits->size();
      if (sb.source == BitSource::Reg) {
        // A block's total is one value for all its registers (combined once
        // per distinct pair), so later steps see which registers share it.
        DenseMap<std::pair<Value, Value>, Tuple> blockTotals;
        for (unsigned r = 0; r < s->numRegs(); ++r) {
          if (r & (1u << sb.bit))
            continue;
          unsigned hi = r | (1u << sb.bit);
          unsigned first = reverse ? hi : r, later = reverse ? r : hi;
          Tuple firstTotal = total[first];
          prefix[later] = combine(firstTotal, prefix[later]);
          if (last)
            continue;
          Tuple &t = blockTotals[{firstTotal[0], total[later][0]}];
          if (t.empty())
            t = combine(firstTotal, total[later]);
          total[r] = total[hi] = t;
        }
        continue;
      }
      // A lane bit: the partner's totals by shuffle, and whether this
      // thread's elements come after the partner's in scan order.
      SmallVector<Tuple> partner(s->numRegs());
      Value one = i32Const(rewriter, loc, 1); // named locals: a fixed op order
      Value shifted =
          arith::ShRUIOp::create(rewriter, loc, lane, i32Const(rewriter, loc, sb.bit));
      Value bit = arith::AndIOp::create(rewriter, loc, shifted, one);
      Value isLater = arith::CmpIOp::create(
          rewriter, loc,
          reverse ? arith::CmpIPredicate::eq : arith::CmpIPredicate::ne, bit,
          i32Const(rewriter, loc, 0));
      // After the register bits, a thread's registers of one row share
      // their totals: shuffle each distinct value once.
      DenseMap<Value, Value> shuffled;
      for (unsigned r = 0; r < s->numRegs(); ++r)
        for (Value v : total[r]) {
          Value &x = shuffled[v];
          if (!x)
            x = shuffleXor(rewriter, loc, v, 1u << sb.bit);
          partner[r].push_back(x);
        }
      // New totals, once per distinct (total, partner) pair (keyed by their
      // first values: tuples are always built whole).
      DenseMap<std::pair<Value, Value>, Tuple> newTotals;
      for (unsigned r = 0; r < s->numRegs(); ++r) {
        prefix[r] = selectTuple(rewriter, loc, isLater, combine(partner[r], prefix[r]),
                                prefix[r]);
        if (last)
          continue;
        Tuple &t = newTotals[{total[r][0], partner[r][0]}];
        if (t.empty()) {
          // Named locals: a fixed op order whatever the compiler.
          Tuple ownFirst = combine(total[r], partner[r]);
          Tuple partnerFirst = combine(partner[r], total[r]);
          t = selectTuple(rewriter, loc, isLater, partnerFirst, ownFirst);
        }
        total[r] = t;
      }
    }

    SmallVector<SmallVector<Value>> results(numOperands);
    for (unsigned r = 0; r < s->numRegs(); ++r)
      for (unsigned k = 0; k < numOperands; ++k)
        results[k].push_back(prefix[r][k]);
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};
} // namespace

unsigned getScanScratchBytes(ScanOp op) {
  auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
  std::optional<DistributedLayout> s = getDistributedLayout(srcType);
  if (!s || !s->warpMaskAlong(op.getAxis()))
    return 0;
  return scratchPlan(op, *s).totalBytes;
}

void populateScanPatterns(TileTypeConverter &converter, const LoweringState &state,
                          RewritePatternSet &patterns) {
  patterns.add<ScanLowering>(converter, patterns.getContext(), state);
}

} // namespace kiln::lowering
