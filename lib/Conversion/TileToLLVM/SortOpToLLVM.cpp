//===- SortOpToLLVM.cpp - tile.sort as a bitonic network ------------------===//
//
// Triton's bitonic sort, step for step, so that results match it bit for
// bit (NaN and signed zeros included): stage s = 1..log2(n) runs
// compare-exchange steps over position bits j = s-1 .. 0. In each step every
// element x at position p takes its partner y at p ^ 2^j and becomes
//   ((x > y) != (flip ^ right)) ? y : x
// with `right` bit j of p and `flip` bit s of p (the descending flag in the
// last stage; `merge` runs that stage only). Which hardware holds bit j of
// the sorted coordinate decides how the partner arrives, as in the scan
// lowering:
//  - a register bit: another register of the same thread;
//  - a lane bit: shfl.sync.bfly;
//  - a warp bit: through shared memory (store all, barrier, load partner).
// Replicated copies compute identical values, so they may all take part.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {

namespace {
enum class BitSource { Reg, Lane, Warp };
struct AxisBit {
  BitSource source;
  unsigned bit; ///< index of the register / lane / warp id bit
};

/// For each bit of the last coordinate (lowest first), the id bit holding
/// it; none if some basis mixes the last dimension with others.
std::optional<SmallVector<AxisBit>> lastAxisBits(const DistributedLayout &layout) {
  unsigned axis = layout.rank() - 1;
  unsigned logN = llvm::Log2_64(layout.shape[axis]);
  SmallVector<std::optional<AxisBit>> found(logN);
  auto scan = [&](BitSource source, ArrayRef<DistributedLayout::Coord> bases) {
    for (auto [i, basis] : llvm::enumerate(bases)) {
      if (basis[axis] == 0)
        continue;
      for (unsigned d = 0; d < basis.size(); ++d)
        if (d != axis && basis[d] != 0)
          return false;
      if (!llvm::isPowerOf2_64(basis[axis]))
        return false;
      found[llvm::Log2_64(basis[axis])] = AxisBit{source, unsigned(i)};
    }
    return true;
  };
  if (!scan(BitSource::Reg, layout.regBases) || !scan(BitSource::Lane, layout.laneBases) ||
      !scan(BitSource::Warp, layout.warpBases))
    return std::nullopt;
  SmallVector<AxisBit> bits;
  for (const std::optional<AxisBit> &b : found) {
    if (!b)
      return std::nullopt;
    bits.push_back(*b);
  }
  return bits;
}

/// Bit `j` of `v` (i32) as i1.
Value bitOf(OpBuilder &b, Location loc, Value v, unsigned j) {
  Value shifted = j ? arith::ShRUIOp::create(b, loc, v, i32Const(b, loc, j)).getResult() : v;
  Value one = arith::AndIOp::create(b, loc, shifted, i32Const(b, loc, 1));
  return arith::TruncIOp::create(b, loc, b.getI1Type(), one);
}

/// x > y with Triton's comparison for the element type (fp16/bf16 compare
/// exactly after widening to f32; NaN compares false).
Value greater(OpBuilder &b, Location loc, Value x, Value y, bool isUnsigned) {
  Type t = x.getType();
  if (auto f = dyn_cast<FloatType>(t)) {
    if (f.getWidth() < 32) {
      x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
      y = arith::ExtFOp::create(b, loc, b.getF32Type(), y);
    }
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, y);
  }
  return arith::CmpIOp::create(
      b, loc, isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt, x, y);
}

struct SortLowering : OpConversionPattern<SortOp> {
  SortLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(SortOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrc().getType());
    std::optional<DistributedLayout> s = getDistributedLayout(type);
    if (!s)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    std::optional<SmallVector<AxisBit>> bits = lastAxisBits(*s);
    if (!bits)
      return op.emitOpError("layout mixes the sorted dimension with others");
    unsigned axis = type.getRank() - 1;
    unsigned logN = bits->size();
    Type elem = type.getElementType();
    Type bitsType = bitsTypeFor(elem);
    unsigned bytes = bitsType.getIntOrFloatBitWidth() / 8;
    bool isUnsigned = op.getIsUnsigned();

    SmallVector<Value> vals(adaptor.getSrc().begin(), adaptor.getSrc().end());
    unsigned numRegs = vals.size();
    Value lane = state.idsFor(op).lane, warp = state.idsFor(op).warp;
    SmallVector<Value> coords = threadCoords(rewriter, loc, *s, lane, warp);
    SmallVector<Value> pos, index;
    for (unsigned r = 0; r < numRegs; ++r) {
      int64_t off = s->regOffset(r)[axis];
      pos.push_back(off ? arith::AddIOp::create(rewriter, loc, coords[axis],
                                                i32Const(rewriter, loc, off))
                              .getResult()
                        : coords[axis]);
    }
    auto address = [&](Value idx) {
      return sharedPtr(rewriter, loc,
                       arith::MulIOp::create(rewriter, loc, idx,
                                             i32Const(rewriter, loc, bytes)));
    };
    Value descending =
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(op.getDescending()));

    // tl.bitonic_merge is the last stage alone.
    for (unsigned stage = op.getMergeOnly() ? logN : 1; stage <= logN; ++stage) {
      for (unsigned step = 0; step < stage; ++step) {
        unsigned j = stage - 1 - step;
        const AxisBit &ab = (*bits)[j];
        SmallVector<Value> partner(numRegs);
        if (ab.source == BitSource::Reg) {
          for (unsigned r = 0; r < numRegs; ++r)
            partner[r] = vals[r ^ (1u << ab.bit)];
        } else if (ab.source == BitSource::Lane) {
          for (unsigned r = 0; r < numRegs; ++r)
            partner[r] = shuffleXor(rewriter, loc, vals[r], 1u << ab.bit);
        } else {
          if (index.empty())
            for (unsigned r = 0; r < numRegs; ++r)
              index.push_back(linearize(rewriter, loc, coords, s->regOffset(r), s->shape));
          // The scratch may still be read by the previous step.
          barrier(rewriter, loc);
          for (unsigned r = 0; r < numRegs; ++r) {
            Value ptr = address(index[r]); // before the bits: a fixed op order
            LLVM::StoreOp::create(rewriter, loc, toBits(rewriter, loc, vals[r]), ptr, bytes);
          }
          barrier(rewriter, loc);
          for (unsigned r = 0; r < numRegs; ++r) {
            // The sorted dimension is the last one: stride 1.
            Value other = arith::XOrIOp::create(rewriter, loc, index[r],
                                                i32Const(rewriter, loc, 1 << j));
            Value v = LLVM::LoadOp::create(rewriter, loc, bitsType, address(other), bytes);
            partner[r] = fromBits(rewriter, loc, v, elem);
          }
        }
        SmallVector<Value> next(numRegs);
        for (unsigned r = 0; r < numRegs; ++r) {
          Value flip = stage < logN ? bitOf(rewriter, loc, pos[r], stage) : descending;
          Value right = bitOf(rewriter, loc, pos[r], j);
          Value gt = greater(rewriter, loc, vals[r], partner[r], isUnsigned);
          Value take = arith::XOrIOp::create(
              rewriter, loc, gt, arith::XOrIOp::create(rewriter, loc, flip, right));
          next[r] = arith::SelectOp::create(rewriter, loc, take, partner[r], vals[r]);
        }
        vals = std::move(next);
      }
    }
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{std::move(vals)});
    return success();
  }
};
} // namespace

unsigned getSortScratchBytes(SortOp op) {
  auto type = cast<RankedTensorType>(op.getSrc().getType());
  std::optional<DistributedLayout> s = getDistributedLayout(type);
  if (!s || !s->warpMaskAlong(type.getRank() - 1))
    return 0;
  unsigned bytes = bitsTypeFor(type.getElementType()).getIntOrFloatBitWidth() / 8;
  return unsigned(type.getNumElements()) * bytes;
}

void populateSortPatterns(TileTypeConverter &converter, const LoweringState &state,
                          RewritePatternSet &patterns) {
  patterns.add<SortLowering>(converter, patterns.getContext(), state);
}

} // namespace kiln::lowering
