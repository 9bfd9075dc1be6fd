//===- GatherOpToLLVM.cpp - tile.gather through shared memory -------------===//
//
// The source is stored to shared memory by element index (copies of
// replicated layouts store identical bits), then each thread loads, for each
// result element it owns, the source element at the same coordinates with
// the one along `axis` replaced by its index value. Indices wrap modulo the
// (power-of-two) source size along the axis, so that no access leaves the
// staged tensor; Triton leaves out-of-range indices undefined.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {

namespace {
struct GatherLowering : OpConversionPattern<GatherOp> {
  GatherLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(GatherOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto indexType = cast<RankedTensorType>(op.getIndex().getType());
    std::optional<DistributedLayout> s = getDistributedLayout(srcType);
    std::optional<DistributedLayout> ix = getDistributedLayout(indexType);
    std::optional<DistributedLayout> res = getDistributedLayout(op.getType());
    if (!s || !ix || !res)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    if (!ix->sameThreadMapping(*res) || ix->regBases != res->regBases)
      return op.emitOpError("index and result must have the same layout");
    unsigned axis = op.getAxis();
    Type elem = srcType.getElementType();
    Type bitsType = bitsTypeFor(elem);
    unsigned bytes = bitsType.getIntOrFloatBitWidth() / 8;
    const LoweringState::ThreadIds &ids = state.idsFor(op);
    auto address = [&](Value idx) {
      return sharedPtr(rewriter, loc,
                       arith::MulIOp::create(rewriter, loc, idx,
                                             i32Const(rewriter, loc, bytes)));
    };

    // The scratch may still be read by an earlier op.
    barrier(rewriter, loc);
    SmallVector<Value> srcCoords = threadCoords(rewriter, loc, *s, ids.lane, ids.warp);
    for (auto [r, v] : llvm::enumerate(adaptor.getSrc())) {
      // Address first, then the bits: a fixed op order.
      Value ptr = address(linearize(rewriter, loc, srcCoords, s->regOffset(r), s->shape));
      LLVM::StoreOp::create(rewriter, loc, toBits(rewriter, loc, v), ptr, bytes);
    }
    barrier(rewriter, loc);

    SmallVector<Value> coords = threadCoords(rewriter, loc, *res, ids.lane, ids.warp);
    SmallVector<int64_t> strides(srcType.getRank(), 1);
    for (int d = srcType.getRank() - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * srcType.getDimSize(d + 1);
    Type i32 = rewriter.getI32Type();
    SmallVector<Value> out;
    for (auto [r, idx] : llvm::enumerate(adaptor.getIndex())) {
      unsigned width = idx.getType().getIntOrFloatBitWidth();
      Value k = idx;
      if (width > 32)
        k = arith::TruncIOp::create(rewriter, loc, i32, k);
      else if (width < 32)
        k = arith::ExtUIOp::create(rewriter, loc, i32, k);
      k = arith::AndIOp::create(rewriter, loc, k,
                                i32Const(rewriter, loc, srcType.getDimSize(axis) - 1));
      DistributedLayout::Coord off = res->regOffset(r);
      Value linear = k;
      if (strides[axis] > 1)
        linear = arith::MulIOp::create(rewriter, loc, k,
                                       i32Const(rewriter, loc, strides[axis]));
      for (unsigned d = 0; d < srcType.getRank(); ++d) {
        if (d == axis)
          continue;
        Value c = coords[d];
        if (off[d])
          c = arith::AddIOp::create(rewriter, loc, c, i32Const(rewriter, loc, off[d]));
        if (strides[d] > 1)
          c = arith::MulIOp::create(rewriter, loc, c, i32Const(rewriter, loc, strides[d]));
        linear = arith::AddIOp::create(rewriter, loc, linear, c);
      }
      Value v = LLVM::LoadOp::create(rewriter, loc, bitsType, address(linear), bytes);
      out.push_back(fromBits(rewriter, loc, v, elem));
    }
    rewriter.replaceOpWithMultiple(op, SmallVector<SmallVector<Value>>{std::move(out)});
    return success();
  }
};
} // namespace

unsigned getSortGatherScratchBytes(Operation *op) {
  if (auto sort = dyn_cast<SortOp>(op))
    return getSortScratchBytes(sort);
  if (auto hist = dyn_cast<HistogramOp>(op))
    return unsigned(hist.getType().getNumElements()) * 4;
  if (auto gather = dyn_cast<GatherOp>(op)) {
    auto type = cast<RankedTensorType>(gather.getSrc().getType());
    return unsigned(type.getNumElements()) *
           (bitsTypeFor(type.getElementType()).getIntOrFloatBitWidth() / 8);
  }
  return 0;
}

void populateGatherPatterns(TileTypeConverter &converter, const LoweringState &state,
                            RewritePatternSet &patterns) {
  patterns.add<GatherLowering>(converter, patterns.getContext(), state);
}

} // namespace kiln::lowering
