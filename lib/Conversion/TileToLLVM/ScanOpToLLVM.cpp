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

struct ScratchPlan {
  SmallVector<unsigned, 2> elemBytes, baseOffset;
  unsigned totalBytes = 0;
};

ScratchPlan scratchPlan(ScanOp op) {
  ScratchPlan plan;
  for (Value v : op.getSrcs()) {
    auto type = cast<RankedTensorType>(v.getType());
    unsigned bytes = bitsTypeFor(type.getElementType()).getIntOrFloatBitWidth() / 8;
    plan.elemBytes.push_back(bytes);
    plan.baseOffset.push_back(plan.totalBytes);
    plan.totalBytes += llvm::alignTo(type.getNumElements() * bytes, 8);
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
    ScratchPlan plan = scratchPlan(op);
    int64_t axisStride = 1;
    for (unsigned d = axis + 1; d < srcType.getRank(); ++d)
      axisStride *= srcType.getDimSize(d);

    for (auto [step, sb] : llvm::enumerate(*bits)) {
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
      // Lane or warp bit: the partner's totals, and whether this thread's
      // elements come after the partner's in scan order.
      SmallVector<Tuple> partner(s->numRegs());
      Value id = sb.source == BitSource::Lane ? lane : warp;
      Value one = i32Const(rewriter, loc, 1); // named locals: a fixed op order
      Value shifted =
          arith::ShRUIOp::create(rewriter, loc, id, i32Const(rewriter, loc, sb.bit));
      Value bit = arith::AndIOp::create(rewriter, loc, shifted, one);
      Value isLater = arith::CmpIOp::create(
          rewriter, loc,
          reverse ? arith::CmpIPredicate::eq : arith::CmpIPredicate::ne, bit,
          i32Const(rewriter, loc, 0));
      if (sb.source == BitSource::Lane) {
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
      } else {
        if (coords.empty())
          coords = threadCoords(rewriter, loc, *s, lane, warp);
        auto address = [&](Value index, unsigned k) {
          Value bytes = arith::MulIOp::create(
              rewriter, loc, index, i32Const(rewriter, loc, plan.elemBytes[k]));
          return sharedPtr(rewriter, loc,
                           arith::AddIOp::create(
                               rewriter, loc, bytes,
                               i32Const(rewriter, loc, plan.baseOffset[k])));
        };
        // Registers that share a total (one block of the bits done so far)
        // exchange it once, through the first of them: every thread's
        // partner holds the same registers' totals there (same program).
        // Liger's sparsemax, 8 registers in 2 blocks: 2 stores and 2 loads
        // per warp bit instead of 8.
        SmallVector<unsigned> owner(s->numRegs());
        DenseMap<Value, unsigned> firstWith;
        for (unsigned r = 0; r < s->numRegs(); ++r)
          owner[r] = firstWith.try_emplace(total[r][0], r).first->second;
        SmallVector<Value> index(s->numRegs());
        for (unsigned r = 0; r < s->numRegs(); ++r)
          if (owner[r] == r)
            index[r] = linearize(rewriter, loc, coords, s->regOffset(r), s->shape);
        // Copies (replicated lanes/warps) store identical bits: harmless.
        barrier(rewriter, loc);
        for (unsigned r = 0; r < s->numRegs(); ++r)
          for (unsigned k = 0; k < numOperands && owner[r] == r; ++k) {
            Value ptr = address(index[r], k); // before the bits: a fixed op order
            LLVM::StoreOp::create(rewriter, loc, toBits(rewriter, loc, total[r][k]), ptr,
                                  plan.elemBytes[k]);
          }
        barrier(rewriter, loc);
        for (unsigned r = 0; r < s->numRegs(); ++r) {
          if (owner[r] != r) {
            partner[r] = partner[owner[r]];
            continue;
          }
          Value other = arith::XOrIOp::create(
              rewriter, loc, index[r],
              i32Const(rewriter, loc, sb.basis * axisStride));
          for (unsigned k = 0; k < numOperands; ++k) {
            Type elem = total[r][k].getType();
            Value bitsVal = LLVM::LoadOp::create(rewriter, loc, bitsTypeFor(elem),
                                                 address(other, k), plan.elemBytes[k]);
            partner[r].push_back(fromBits(rewriter, loc, bitsVal, elem));
          }
        }
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
  return scratchPlan(op).totalBytes;
}

void populateScanPatterns(TileTypeConverter &converter, const LoweringState &state,
                          RewritePatternSet &patterns) {
  patterns.add<ScanLowering>(converter, patterns.getContext(), state);
}

} // namespace kiln::lowering
