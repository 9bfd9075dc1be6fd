//===- HistogramOpToLLVM.cpp - tile.histogram with shared atomics ---------===//
//
// Zeroed i32 bins in shared memory, one `atom.shared.add` per element (only
// the first of replicated copies counts), then every thread reads the bins
// it owns in the result layout. Out-of-range values follow Triton's NVIDIA
// lowering, which bins by ballots over the low bits: a value lands in bin
// `v & (P - 1)` with P = max(num_bins, 32) and counts only if that bin is
// below num_bins. Elements that do not count add 0, so there is no branch.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {

namespace {
struct HistogramLowering : OpConversionPattern<HistogramOp> {
  HistogramLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(HistogramOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    std::optional<DistributedLayout> s = getDistributedLayout(srcType);
    std::optional<DistributedLayout> res = getDistributedLayout(op.getType());
    if (!s || !res)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    if (Value mask = op.getMask())
      if (getDistributedLayout(cast<RankedTensorType>(mask.getType())) != s)
        return op.emitOpError("mask and source must have the same layout");
    int64_t numBins = op.getType().getDimSize(0);
    int64_t padded = std::max<int64_t>(numBins, kWarpSize);
    const LoweringState::ThreadIds &ids = state.idsFor(op);
    Type i32 = rewriter.getI32Type();
    auto binPtr = [&](Value bin) {
      return sharedPtr(rewriter, loc,
                       arith::MulIOp::create(rewriter, loc, bin, i32Const(rewriter, loc, 4)));
    };

    // The scratch may still be read by an earlier op. Threads beyond the bin
    // count zero a bin again (modulo): harmless.
    barrier(rewriter, loc);
    int64_t threads = int64_t(kWarpSize) * state.numWarps;
    for (int64_t k = 0; k < std::max<int64_t>(1, numBins / threads); ++k) {
      Value bin = arith::AddIOp::create(rewriter, loc, ids.tid,
                                        i32Const(rewriter, loc, k * threads));
      bin = arith::AndIOp::create(rewriter, loc, bin, i32Const(rewriter, loc, numBins - 1));
      Value ptr = binPtr(bin); // before the zero: a fixed op order
      LLVM::StoreOp::create(rewriter, loc, i32Const(rewriter, loc, 0), ptr, 4);
    }
    barrier(rewriter, loc);

    Value first = isFirstCopy(rewriter, loc, *s, ids.lane, ids.warp);
    SmallVector<Value> values(adaptor.getSrc().begin(), adaptor.getSrc().end());
    SmallVector<Value> masks;
    if (op.getMask())
      masks.assign(adaptor.getMask().begin(), adaptor.getMask().end());
    for (unsigned r = 0; r < values.size(); ++r) {
      Value v = values[r];
      if (v.getType().getIntOrFloatBitWidth() > 32)
        v = arith::TruncIOp::create(rewriter, loc, i32, v);
      Value low = arith::AndIOp::create(rewriter, loc, v, i32Const(rewriter, loc, padded - 1));
      SmallVector<Value> conds{arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                                     low, i32Const(rewriter, loc, numBins))};
      if (!masks.empty())
        conds.push_back(masks[r]);
      if (first)
        conds.push_back(first);
      Value counts = andAll(rewriter, loc, conds);
      Value bin = arith::AndIOp::create(rewriter, loc, low, i32Const(rewriter, loc, numBins - 1));
      Value amount = arith::ExtUIOp::create(rewriter, loc, i32, counts);
      LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::add, binPtr(bin), amount,
                                LLVM::AtomicOrdering::monotonic);
    }
    barrier(rewriter, loc);

    SmallVector<Value> coords = threadCoords(rewriter, loc, *res, ids.lane, ids.warp);
    SmallVector<Value> out;
    for (unsigned r = 0; r < res->numRegs(); ++r) {
      Value bin = linearize(rewriter, loc, coords, res->regOffset(r), res->shape);
      out.push_back(LLVM::LoadOp::create(rewriter, loc, i32, binPtr(bin), 4));
    }
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{std::move(out)});
    return success();
  }
};
} // namespace

void populateHistogramPatterns(TileTypeConverter &converter, const LoweringState &state,
                               RewritePatternSet &patterns) {
  patterns.add<HistogramLowering>(converter, patterns.getContext(), state);
}

} // namespace kiln::lowering
