//===- RemoveLayoutConversions.cpp - Drop unneeded tile.convert_layout ----===//
//
// A conversion moves data through shared memory with two barriers; most can
// be avoided. Conversions of conversions collapse, and a conversion of a
// value that is cheap to compute in any layout (constants, splats, aranges,
// and broadcasts, expand_dims or elementwise ops of those) is replaced by
// recomputing that value directly in the requested layout.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEREMOVELAYOUTCONVERSIONS
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

RankedTensorType withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(), layout);
}

/// Recomputes `v` in `layout` when that is cheap; returns null otherwise.
/// With a null `rewriter` nothing is created: a non-null result only says
/// that it would succeed.
Value rematerialize(Value v, Attribute layout, PatternRewriter *rewriter,
                    unsigned depth) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getEncoding() == layout)
    return v;
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0 || def->getNumResults() != 1 || def->getNumRegions())
    return {};
  RankedTensorType newType = withLayout(type, layout);
  if (auto cst = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    if (!dense)
      return {};
    if (!rewriter)
      return v;
    return arith::ConstantOp::create(*rewriter, def->getLoc(), newType,
                                     dense.reshape(newType));
  }
  if (auto cvt = dyn_cast<ConvertLayoutOp>(def)) {
    Value src = cvt.getSrc();
    if (cast<RankedTensorType>(src.getType()).getEncoding() == layout)
      return src;
    return {};
  }
  // Operand layouts the recomputed op needs.
  SmallVector<Attribute> operandLayouts;
  if (isa<ArangeOp, SplatOp>(def)) {
    // No tensor operands.
  } else if (isa<BroadcastOp>(def)) {
    operandLayouts.push_back(layout);
  } else if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
    if (!isa<BlockedLayoutAttr, MmaLayoutAttr>(layout))
      return {};
    operandLayouts.push_back(
        SliceLayoutAttr::get(def->getContext(), expand.getAxis(), layout));
  } else if (isa<AddPtrOp, WhereOp, PreciseDivFOp, PreciseSqrtOp,
                 ExternElementwiseOp>(def) ||
             (isa<arith::ArithDialect, math::MathDialect>(def->getDialect()) &&
              OpTrait::hasElementwiseMappableTraits(def))) {
    for (Value operand : def->getOperands())
      operandLayouts.push_back(isa<RankedTensorType>(operand.getType()) ? layout
                                                                        : Attribute());
  } else {
    return {};
  }
  IRMapping mapping;
  unsigned i = 0;
  for (Value operand : def->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType())) {
      ++i;
      continue;
    }
    Value remat = rematerialize(operand, operandLayouts[i++], rewriter, depth - 1);
    if (!remat)
      return {};
    mapping.map(operand, remat);
  }
  if (!rewriter)
    return v;
  Operation *clone = rewriter->clone(*def, mapping);
  clone->getResult(0).setType(newType);
  return clone->getResult(0);
}

struct CollapseConversion : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Attribute layout = cast<RankedTensorType>(op.getType()).getEncoding();
    if (auto inner = op.getSrc().getDefiningOp<ConvertLayoutOp>()) {
      if (inner.getSrc().getType() == op.getType())
        rewriter.replaceOp(op, inner.getSrc());
      else
        rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(), inner.getSrc());
      return success();
    }
    if (rematerialize(op.getSrc(), layout, nullptr, /*depth=*/8)) {
      rewriter.replaceOp(op, rematerialize(op.getSrc(), layout, &rewriter, 8));
      return success();
    }
    return failure();
  }
};

struct TileRemoveLayoutConversionsPass
    : kiln::tile::impl::TileRemoveLayoutConversionsBase<
          TileRemoveLayoutConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CollapseConversion>(&getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
