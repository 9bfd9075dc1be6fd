//===- ShapeOpToLLVM.cpp - trans, reshape, join, split, cat ---------------===//
//
// Every shape op moves elements by a fixed map of coordinates, and with
// power-of-two shapes that map sends each single-bit coordinate offset to a
// single-bit offset. So the result layout can be rewritten in the source's
// coordinates basis by basis (registers, lanes, warps), and the op becomes
// a layout conversion between two layouts of one shape: register renaming
// when every element stays in its thread (trans of a blocked layout into the
// permuted one, join/split along an in-thread dimension of size 2), else an
// exchange through padded shared memory (ConvertLayoutOpToLLVM.cpp).
// join and cat first combine their two operands into one layout with one
// more register bit (selecting the operand); split does the same with its
// two results.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {

namespace {
using Coord = DistributedLayout::Coord;

/// `l` with every basis sent through `f` and the shape replaced.
DistributedLayout mapBases(const DistributedLayout &l, ArrayRef<int64_t> shape,
                           llvm::function_ref<Coord(const Coord &)> f) {
  DistributedLayout out;
  out.shape.assign(shape.begin(), shape.end());
  for (const Coord &c : l.regBases)
    out.regBases.push_back(f(c));
  for (const Coord &c : l.laneBases)
    out.laneBases.push_back(f(c));
  for (const Coord &c : l.warpBases)
    out.warpBases.push_back(f(c));
  return out;
}

/// `l` with one more register bit whose basis is `extra`, as bit 0 (the
/// two operands interleaved register by register) or as the top bit.
DistributedLayout withRegisterBit(const DistributedLayout &l,
                                  ArrayRef<int64_t> shape, const Coord &extra,
                                  bool lowest, bool appendDim) {
  auto widen = [&](const Coord &c) {
    Coord out(c);
    if (appendDim)
      out.push_back(0);
    return out;
  };
  DistributedLayout out = mapBases(l, shape, widen);
  if (lowest)
    out.regBases.insert(out.regBases.begin(), extra);
  else
    out.regBases.push_back(extra);
  return out;
}

SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int d = int(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// The layout the values come in and the layout they must leave in, both
/// over the source coordinates (for join/cat: the combined operands).
struct ShapeMove {
  DistributedLayout from, to;
};

std::optional<ShapeMove> planShapeMove(Operation *op) {
  auto layoutOf = [](Value v) {
    return getDistributedLayout(cast<RankedTensorType>(v.getType()));
  };
  std::optional<DistributedLayout> src = layoutOf(op->getOperand(0));
  std::optional<DistributedLayout> dst = layoutOf(op->getResult(0));
  if (!src || !dst)
    return std::nullopt;
  if (auto trans = dyn_cast<TransOp>(op)) {
    ArrayRef<int32_t> order = trans.getOrder();
    auto toSrc = [&](const Coord &c) {
      Coord s(c.size(), 0);
      for (unsigned i = 0; i < c.size(); ++i)
        s[order[i]] = c[i];
      return s;
    };
    return ShapeMove{*src, mapBases(*dst, src->shape, toSrc)};
  }
  if (isa<ReshapeOp>(op)) {
    SmallVector<int64_t> dstStrides = rowMajorStrides(dst->shape);
    SmallVector<int64_t> srcStrides = rowMajorStrides(src->shape);
    auto toSrc = [&](const Coord &c) {
      int64_t lin = 0;
      for (unsigned d = 0; d < c.size(); ++d)
        lin += c[d] * dstStrides[d];
      Coord s(src->rank(), 0);
      for (unsigned d = 0; d < src->rank(); ++d)
        s[d] = (lin / srcStrides[d]) % src->shape[d];
      return s;
    };
    return ShapeMove{*src, mapBases(*dst, src->shape, toSrc)};
  }
  if (isa<JoinOp>(op)) {
    Coord minor(dst->rank(), 0);
    minor.back() = 1;
    return ShapeMove{withRegisterBit(*src, dst->shape, minor, /*lowest=*/true,
                                     /*appendDim=*/true),
                     *dst};
  }
  if (isa<SplitOp>(op)) {
    Coord minor(src->rank(), 0);
    minor.back() = 1;
    return ShapeMove{*src, withRegisterBit(*dst, src->shape, minor, /*lowest=*/true,
                                           /*appendDim=*/true)};
  }
  if (isa<CatOp>(op)) {
    Coord second(src->rank(), 0);
    second[0] = src->shape[0];
    return ShapeMove{withRegisterBit(*src, dst->shape, second, /*lowest=*/false,
                                     /*appendDim=*/false),
                     *dst};
  }
  return std::nullopt;
}

template <typename OpT>
struct ShapeOpLowering : OpConversionPattern<OpT> {
  ShapeOpLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern<OpT>(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(OpT op, typename OpT::template GenericAdaptor<ArrayRef<ValueRange>> adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<ShapeMove> move = planShapeMove(op);
    if (!move)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    ArrayRef<ValueRange> operands = adaptor.getOperands();
    SmallVector<Value> values;
    if (isa<JoinOp>(op)) {
      for (auto [a, b] : llvm::zip(operands[0], operands[1]))
        values.append({a, b});
    } else {
      for (ValueRange range : operands)
        values.append(range.begin(), range.end());
    }
    SmallVector<Value> moved =
        relayout(rewriter, op.getLoc(), state.idsFor(op), move->from, values,
                 move->to, values[0].getType());
    if (!isa<SplitOp>(op)) {
      rewriter.replaceOpWithMultiple(op, {moved});
      return success();
    }
    SmallVector<Value> lhs, rhs;
    for (unsigned j = 0; j < moved.size(); ++j)
      (j % 2 ? rhs : lhs).push_back(moved[j]);
    rewriter.replaceOpWithMultiple(op, {lhs, rhs});
    return success();
  }
};
} // namespace

unsigned getShapeScratchBytes(Operation *op) {
  if (!isa<TransOp, ReshapeOp, JoinOp, SplitOp, CatOp>(op))
    return 0;
  std::optional<ShapeMove> move = planShapeMove(op);
  if (!move)
    return 0;
  Type elem = cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
  return relayoutScratchBytes(move->from, move->to, elem);
}

void populateShapePatterns(TileTypeConverter &converter, const LoweringState &state,
                           RewritePatternSet &patterns) {
  patterns.add<ShapeOpLowering<TransOp>, ShapeOpLowering<ReshapeOp>,
               ShapeOpLowering<JoinOp>, ShapeOpLowering<SplitOp>,
               ShapeOpLowering<CatOp>>(converter, patterns.getContext(), state);
}

} // namespace kiln::lowering
