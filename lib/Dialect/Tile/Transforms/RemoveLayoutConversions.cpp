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

#include "Rematerialize.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEREMOVELAYOUTCONVERSIONS
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

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
