//===- ConvertLayoutOpToLLVM.cpp - Layout exchanges through shared memory -===//
//
// tile.convert_layout between layouts that put every element in the same
// thread only renames registers. Otherwise the values are exchanged through
// shared memory: the owners of the source layout write them, a barrier, and
// every thread reads what the destination layout gives it. The shared
// buffer is row-major with the source's most contiguous dimension innermost
// (so that each thread writes whole vectors), and each of its rows is padded
// by the number of elements that makes the writes and the reads of a warp
// the cheapest in bank conflicts, found by replaying the accesses of warp 0
// against the 32 four-byte banks (docs/backend.md, "Layout conversions").
// The shape ops (ShapeOpToLLVM.cpp) reuse this exchange.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

#include <set>

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {

namespace {
using Coord = DistributedLayout::Coord;

unsigned widestContiguous(const DistributedLayout &l, unsigned *dim) {
  unsigned best = 0;
  for (unsigned d = 0; d < l.rank(); ++d) {
    unsigned c = l.contiguousRegsAlong(d);
    if (c > best)
      best = c, *dim = d;
  }
  return best;
}

int64_t indexOf(const Coord &c, ArrayRef<int64_t> strides) {
  int64_t idx = 0;
  for (unsigned d = 0; d < c.size(); ++d)
    idx += c[d] * strides[d];
  return idx;
}

/// Shared-memory cycles (wavefronts) warp 0 needs for the accesses of
/// layout `l`: one access per `vec` registers, `bytes` per element. A
/// request of 16 (8) bytes per lane is served 8 (16) lanes at a time; in
/// each group a bank serves one distinct 4-byte word per cycle.
int64_t bankCycles(const DistributedLayout &l, ArrayRef<int64_t> strides,
                   unsigned vec, unsigned bytes, bool writersOnly) {
  unsigned accessBytes = vec * bytes;
  unsigned lanesPerPhase = accessBytes >= 16 ? 8 : accessBytes == 8 ? 16 : 32;
  unsigned replicated = writersOnly ? l.replicatedLaneMask() : 0;
  int64_t cycles = 0;
  for (unsigned r = 0; r < l.numRegs(); r += vec) {
    for (unsigned first = 0; first < kWarpSize; first += lanesPerPhase) {
      std::array<std::set<int64_t>, 32> words;
      for (unsigned lane = first; lane < first + lanesPerPhase; ++lane) {
        if (lane & replicated)
          continue;
        int64_t byte = indexOf(l.coordOf(r, lane, 0), strides) * bytes;
        for (int64_t w = byte / 4; w <= (byte + accessBytes - 1) / 4; ++w)
          words[w % 32].insert(w);
      }
      size_t worst = 0;
      for (auto &bank : words)
        worst = std::max(worst, bank.size());
      cycles += worst;
    }
  }
  return cycles;
}
} // namespace

ExchangePlan planExchange(const DistributedLayout &src,
                          const DistributedLayout &dst, Type elemType) {
  ExchangePlan plan;
  unsigned bytes = isa<PtrType, LLVM::LLVMPointerType>(elemType)
                       ? 8
                       : bitsTypeFor(elemType).getIntOrFloatBitWidth() / 8;
  unsigned rank = src.rank();
  unsigned inner = rank - 1;
  if (widestContiguous(src, &inner) <= 1)
    widestContiguous(dst, &inner);
  SmallVector<unsigned> order{inner};
  for (int d = rank - 1; d >= 0; --d)
    if (unsigned(d) != inner)
      order.push_back(d);
  int64_t rowLen = src.shape[inner];
  unsigned maxVec = std::max(1u, 16 / bytes);
  auto makeStrides = [&](unsigned pad) {
    SmallVector<int64_t> strides(rank, 1);
    int64_t s = rowLen + pad;
    for (unsigned k = 1; k < rank; ++k) {
      strides[order[k]] = s;
      s *= src.shape[order[k]];
    }
    return std::make_pair(strides, s);
  };
  auto vecFor = [&](const DistributedLayout &l, unsigned pad) {
    unsigned v = std::min(l.contiguousRegsAlong(inner), maxVec);
    while (v > 1 && (rank > 1 && (rowLen + pad) % v != 0))
      v /= 2;
    return std::max(1u, v);
  };
  int64_t bestCost = -1;
  // Candidate paddings: none, then 1, 2, 4, ... elements up to 32 bytes.
  for (unsigned pad = 0; pad <= std::max(1u, 32 / bytes);
       pad = pad ? pad * 2 : 1) {
    if (rank == 1 && pad)
      break; // A single row: nothing to pad.
    auto [strides, total] = makeStrides(pad);
    unsigned wv = vecFor(src, pad), rv = vecFor(dst, pad);
    int64_t cost = bankCycles(src, strides, wv, bytes, /*writersOnly=*/true) +
                   bankCycles(dst, strides, rv, bytes, /*writersOnly=*/false);
    if (bestCost < 0 || cost < bestCost) {
      bestCost = cost;
      plan.pad = pad;
      plan.strides = strides;
      plan.writeVec = wv;
      plan.readVec = rv;
      plan.totalBytes = (rank == 1 ? rowLen : total) * bytes;
    }
  }
  plan.bytes = bytes;
  return plan;
}

unsigned exchangeScratchBytes(const DistributedLayout &src,
                              const DistributedLayout &dst, Type elemType) {
  return planExchange(src, dst, elemType).totalBytes;
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
  if (!src.sameThreadMapping(dst))
    return exchangeThroughShared(b, loc, ids, src, values, dst, elemType, scratchIdle);
  SmallVector<Value> out;
  for (unsigned j = 0; j < dst.numRegs(); ++j)
    out.push_back(values[*src.findReg(dst.regOffset(j))]);
  return out;
}

unsigned relayoutScratchBytes(const DistributedLayout &src,
                              const DistributedLayout &dst, Type elemType) {
  if (src.sameThreadMapping(dst))
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
