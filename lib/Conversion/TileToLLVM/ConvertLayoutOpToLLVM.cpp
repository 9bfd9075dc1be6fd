//===- ConvertLayoutOpToLLVM.cpp - Layout exchanges -----------------------===//
//
// tile.convert_layout between layouts that put every element in the same
// thread only renames registers. When every thread finds what it needs in
// its own warp, warp shuffles move the values, if cheaper than shared memory
// (chooseWarpShuffle, Analysis/LayoutExchange.h). Otherwise the values are
// exchanged through shared memory: the owners of the source layout write
// them, a barrier, and every thread reads what the destination layout gives
// it. The shared buffer is row-major with the source's most contiguous
// dimension innermost (so that each thread writes whole vectors), its rows
// padded against bank conflicts (docs/backend.md, "Layout conversions").
// The shape ops (ShapeOpToLLVM.cpp) reuse both.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {

namespace {
using Coord = DistributedLayout::Coord;

int64_t indexOf(const Coord &c, ArrayRef<int64_t> strides) {
  int64_t idx = 0;
  for (unsigned d = 0; d < c.size(); ++d)
    idx += c[d] * strides[d];
  return idx;
}

/// The lanes whose id has bit `i` set.
uint32_t laneBitMask(unsigned i) {
  uint32_t mask = 0;
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    if (lane & (1u << i))
      mask |= 1u << lane;
  return mask;
}

} // namespace

ExchangePlan planExchange(const DistributedLayout &src,
                          const DistributedLayout &dst, Type elemType) {
  return kiln::planExchange(src, dst, exchangeBits(elemType) / 8);
}

unsigned exchangeScratchBytes(const DistributedLayout &src,
                              const DistributedLayout &dst, Type elemType) {
  return planExchange(src, dst, elemType).totalBytes;
}

SmallVector<Value> exchangeByShuffles(OpBuilder &b, Location loc, Value lane,
                                      const WarpShufflePlan &plan,
                                      ArrayRef<Value> values, Type elemType) {
  auto constant = [&](uint32_t v) { return i32Const(b, loc, int32_t(v)); };
  // The lane a reader reads, before each round's constant: xor of the
  // columns of its lane bits.
  Value laneOf = lane;
  if (!plan.lanesKept()) {
    laneOf = constant(0);
    for (unsigned i = 0; i < kLaneBits; ++i) {
      if (!plan.laneColumns[i])
        continue;
      Value bit = arith::AndIOp::create(
          b, loc, arith::ShRUIOp::create(b, loc, lane, constant(i)), constant(1));
      laneOf = arith::XOrIOp::create(
          b, loc, laneOf, arith::MulIOp::create(b, loc, bit, constant(plan.laneColumns[i])));
    }
  }
  std::map<uint32_t, Value> inMask; // lane mask -> i1: this lane is in it
  auto laneIn = [&](uint32_t lanes) {
    Value &pred = inMask[lanes];
    if (!pred) {
      Value bit = arith::AndIOp::create(
          b, loc, arith::ShRUIOp::create(b, loc, constant(lanes), lane), constant(1));
      pred = arith::TruncIOp::create(b, loc, b.getI1Type(), bit);
    }
    return pred;
  };
  auto sent = [&](const ShuffleRound &round) {
    Value v = values[round.sends[0].reg];
    for (const ShuffleRound::Send &s : ArrayRef(round.sends).drop_front())
      v = arith::SelectOp::create(b, loc, laneIn(s.lanes), values[s.reg], v);
    return v;
  };
  SmallVector<Value> received(plan.rounds.size());
  for (const ShuffleRound &round : plan.rounds)
    if (plan.readsOwnLane(round))
      received[round.dstReg] = sent(round); // the thread's own registers
  // Rounds that read the same lanes share a shuffle when their elements fit
  // one 32-bit word together.
  unsigned pack = shufflePack(exchangeBits(elemType));
  for (auto &[laneConst, rounds] : shuffledRoundsByLane(plan)) {
    Value srcLane = laneConst ? arith::XOrIOp::create(b, loc, laneOf, constant(laneConst))
                              : laneOf;
    for (unsigned first = 0; first < rounds.size(); first += pack) {
      unsigned n = std::min<unsigned>(pack, rounds.size() - first);
      if (n == 1) {
        received[rounds[first]->dstReg] = shuffleIdx(b, loc, sent(*rounds[first]), srcLane);
        continue;
      }
      SmallVector<Value> group;
      for (unsigned k = 0; k < n; ++k)
        group.push_back(sent(*rounds[first + k]));
      while (group.size() < pack)
        group.push_back(group.back());
      Value word = shuffleIdx(b, loc, packToI32(b, loc, group), srcLane);
      auto vecType = VectorType::get({int64_t(pack)}, bitsTypeFor(elemType));
      Value vec = LLVM::BitcastOp::create(b, loc, vecType, word);
      for (unsigned k = 0; k < n; ++k)
        received[rounds[first + k]->dstReg] = fromBits(
            b, loc, LLVM::ExtractElementOp::create(b, loc, vec, constant(k)), elemType);
    }
  }
  // Reader lane bit i xors readerRegs[i] into the register a round filled:
  // register j holds what round j ^ regOf(lane) received.
  for (unsigned i = 0; i < kLaneBits; ++i) {
    unsigned h = plan.readerRegs[i];
    if (!h)
      continue;
    Value bitSet = laneIn(laneBitMask(i));
    SmallVector<Value> next(received.size());
    for (unsigned j = 0; j < received.size(); ++j)
      next[j] = arith::SelectOp::create(b, loc, bitSet, received[j ^ h], received[j]);
    received = std::move(next);
  }
  return received;
}

SmallVector<Value> exchangeThroughShared(OpBuilder &b, Location loc,
                                         const LoweringState::ThreadIds &ids,
                                         const DistributedLayout &src,
                                         ArrayRef<Value> values,
                                         const DistributedLayout &dst,
                                         Type elemType, bool scratchIdle) {
  ExchangePlan plan = planExchange(src, dst, elemType);
  Type bitsType = bitsTypeFor(elemType);
  unsigned bytes = plan.bytes;
  auto threadBase = [&](OpBuilder &w, const DistributedLayout &l) {
    SmallVector<Value> coords = threadCoords(w, loc, l, ids.lane, ids.warp);
    Value base = i32Const(w, loc, 0);
    for (unsigned d = 0; d < l.rank(); ++d)
      base = arith::AddIOp::create(
          w, loc, base,
          arith::MulIOp::create(w, loc, coords[d], i32Const(w, loc, plan.strides[d])));
    return base;
  };
  auto address = [&](OpBuilder &w, Value base, const Coord &off) {
    Value idx = arith::AddIOp::create(w, loc, base,
                                      i32Const(w, loc, indexOf(off, plan.strides)));
    return sharedPtr(w, loc,
                     arith::MulIOp::create(w, loc, idx, i32Const(w, loc, bytes)));
  };
  // The scratch may still be read by an earlier exchange.
  if (!scratchIdle)
    barrier(b, loc);
  auto write = [&](OpBuilder &w) {
    Value base = threadBase(w, src);
    for (unsigned r = 0; r < src.numRegs(); r += plan.writeVec) {
      Value ptr = address(w, base, src.regOffset(r));
      if (plan.writeVec == 1) {
        LLVM::StoreOp::create(w, loc, toBits(w, loc, values[r]), ptr, bytes);
        continue;
      }
      auto vecType = VectorType::get({int64_t(plan.writeVec)}, bitsType);
      Value vec = LLVM::UndefOp::create(w, loc, vecType);
      for (unsigned k = 0; k < plan.writeVec; ++k) {
        Value index = i32Const(w, loc, k); // before the bits: a fixed op order
        vec = LLVM::InsertElementOp::create(w, loc, vec, toBits(w, loc, values[r + k]),
                                            index);
      }
      LLVM::StoreOp::create(w, loc, vec, ptr, bytes * plan.writeVec);
    }
  };
  if (Value owner = isFirstCopy(b, loc, src, ids.lane, ids.warp)) {
    scf::IfOp::create(b, loc, owner, [&](OpBuilder &w, Location l) {
      write(w);
      scf::YieldOp::create(w, l);
    });
  } else {
    write(b);
  }
  barrier(b, loc);
  Value base = threadBase(b, dst);
  SmallVector<Value> out;
  for (unsigned r = 0; r < dst.numRegs(); r += plan.readVec) {
    Value ptr = address(b, base, dst.regOffset(r));
    if (plan.readVec == 1) {
      Value bits = LLVM::LoadOp::create(b, loc, bitsType, ptr, bytes);
      out.push_back(fromBits(b, loc, bits, elemType));
      continue;
    }
    auto vecType = VectorType::get({int64_t(plan.readVec)}, bitsType);
    Value vec = LLVM::LoadOp::create(b, loc, vecType, ptr, bytes * plan.readVec);
    for (unsigned k = 0; k < plan.readVec; ++k)
      out.push_back(fromBits(
          b, loc, LLVM::ExtractElementOp::create(b, loc, vec, i32Const(b, loc, k)),
          elemType));
  }
  return out;
}

SmallVector<Value> relayout(OpBuilder &b, Location loc,
                            const LoweringState::ThreadIds &ids,
                            const DistributedLayout &src, ArrayRef<Value> values,
                            const DistributedLayout &dst, Type elemType, bool scratchIdle) {
  if (!src.sameThreadMapping(dst)) {
    if (std::optional<WarpShufflePlan> plan =
            chooseWarpShuffle(src, dst, exchangeBits(elemType)))
      return exchangeByShuffles(b, loc, ids.lane, *plan, values, elemType);
    return exchangeThroughShared(b, loc, ids, src, values, dst, elemType, scratchIdle);
  }
  SmallVector<Value> out;
  for (unsigned j = 0; j < dst.numRegs(); ++j)
    out.push_back(values[*src.findReg(dst.regOffset(j))]);
  return out;
}

unsigned relayoutScratchBytes(const DistributedLayout &src,
                              const DistributedLayout &dst, Type elemType) {
  if (src.sameThreadMapping(dst) || chooseWarpShuffle(src, dst, exchangeBits(elemType)))
    return 0;
  return exchangeScratchBytes(src, dst, elemType);
}

namespace {
struct ConvertLayoutLowering : OpConversionPattern<ConvertLayoutOp> {
  ConvertLayoutLowering(TypeConverter &tc, MLIRContext *ctx,
                        const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<DistributedLayout> s = getDistributedLayout(op.getSrc().getType());
    std::optional<DistributedLayout> d = getDistributedLayout(op.getType());
    if (!s || !d)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    ValueRange vals = adaptor.getSrc();
    SmallVector<Value> results =
        relayout(rewriter, op.getLoc(), state.idsFor(op), *s, SmallVector<Value>(vals),
                 *d, vals[0].getType(), op->hasAttr(kScratchIdleAttr));
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};
} // namespace

unsigned getConvertLayoutScratchBytes(ConvertLayoutOp op) {
  auto s = getDistributedLayout(op.getSrc().getType());
  auto d = getDistributedLayout(op.getType());
  if (!s || !d)
    return 0;
  return relayoutScratchBytes(*s, *d, op.getType().getElementType());
}

void populateConvertLayoutPatterns(TileTypeConverter &converter,
                                   const LoweringState &state,
                                   RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutLowering>(converter, patterns.getContext(), state);
}

} // namespace kiln::lowering
