//===- RemoveLayoutConversions.cpp - Drop unneeded tile.convert_layout ----===//
//
// A conversion moves data through shared memory with two barriers; most can
// be avoided. Conversions of conversions collapse, and a conversion of a
// value that is cheap to compute in any layout (constants, splats, aranges,
// and broadcasts, expand_dims or elementwise ops of those) is replaced by
// recomputing that value directly in the requested layout.
//
// Elementwise work between loaded tiles and several conversions of its
// results to one layout (an epilogue combining loaded tiles with a dot's
// accumulator) is done in that layout instead, the loaded tiles converted
// once each, when that moves fewer bytes (convertSourcesInstead).
//
// The rest are made smaller and rarer: a conversion of a broadcast or an
// expand_dims converts the smaller tensor before it (a row of scales, not
// the 64 x 64 tile they are broadcast to); one of an elementwise op whose
// operands are all such values or cheap converts them instead; one of a
// value from outside the loop it is in runs once before the loop; and a
// loop-carried pointer tensor converted for its load in every iteration is
// carried in the load's layout instead (vLLM's fused MoE: its A pointers,
// computed from gathered token ids, are tied to the output tile's layout).
// A loop-carried accumulator laid out for its other readers is carried in
// its dot's layout (carryAccumulatorInDotLayout), and a value narrowed after
// its conversion is narrowed first (ConvertAfterNarrowing).
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "Rematerialize.h"
#include "SlotOperands.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
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
  return cast<RankedTensorType>(type).cloneWithEncoding(layout);
}

Attribute layoutOf(Value v) { return cast<RankedTensorType>(v.getType()).getEncoding(); }

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

/// Layouts a conversion can be pushed through a shape op into: the slice of
/// an expand_dims' operand needs a blocked or mma parent.
bool slicesInto(Attribute layout) { return isa<BlockedLayoutAttr, MmaLayoutAttr>(layout); }

/// convert(broadcast(x)) -> broadcast(convert(x)); convert(expand_dims(y))
/// -> expand_dims(convert(y)): the smaller tensor goes through shared memory.
struct SinkIntoShapeOp : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Attribute layout = layoutOf(op.getResult());
    Location loc = op.getLoc();
    if (auto bcast = op.getSrc().getDefiningOp<BroadcastOp>()) {
      Value src = bcast.getSrc();
      auto cvt = ConvertLayoutOp::create(rewriter, loc, withLayout(src.getType(), layout), src);
      rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), cvt);
      return success();
    }
    if (auto expand = op.getSrc().getDefiningOp<ExpandDimsOp>(); expand && slicesInto(layout)) {
      Value src = expand.getSrc();
      auto slice = SliceLayoutAttr::get(op.getContext(), expand.getAxis(), layout);
      auto cvt = ConvertLayoutOp::create(rewriter, loc, withLayout(src.getType(), slice), src);
      rewriter.replaceOpWithNewOp<ExpandDimsOp>(op, op.getType(), cvt, expand.getAxis());
      return success();
    }
    return failure();
  }
};

/// Whether converting `v` to `layout` where `at` stands goes away or gets
/// smaller: a scalar, a cheap value recomputed in `layout`, a broadcast or
/// expand_dims (SinkIntoShapeOp), another conversion (CollapseConversion),
/// or a value from outside the loop (HoistInvariantConversion).
bool cheapToConvert(Value v, Attribute layout, Operation *at) {
  if (!isa<RankedTensorType>(v.getType()))
    return true;
  Operation *d = v.getDefiningOp();
  auto loop = at->getParentOfType<scf::ForOp>();
  return (d && isa<BroadcastOp, ExpandDimsOp, ConvertLayoutOp>(d)) ||
         (loop && loop.isDefinedOutsideOfLoop(v)) ||
         rematerialize(v, layout, nullptr, /*depth=*/8);
}

/// convert(op(a, b, ...)) -> op(convert(a), convert(b), ...) for an
/// elementwise op read only by the conversion, when each operand's
/// conversion goes away or gets smaller (cheapToConvert).
struct SinkIntoElementwise : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getSrc().getDefiningOp();
    if (!def || def->getNumResults() != 1 || !isLayoutAgnosticElementwise(def) ||
        !def->hasOneUse())
      return failure();
    Attribute layout = layoutOf(op.getResult());
    if (!llvm::all_of(def->getOperands(),
                      [&](Value v) { return cheapToConvert(v, layout, op); }))
      return failure();
    IRMapping map;
    for (Value v : def->getOperands())
      if (isa<RankedTensorType>(v.getType()))
        map.map(v, ConvertLayoutOp::create(rewriter, op.getLoc(),
                                           withLayout(v.getType(), layout), v));
    Operation *clone = rewriter.clone(*def, map);
    clone->getResult(0).setType(withLayout(def->getResult(0).getType(), layout));
    rewriter.replaceOp(op, clone->getResult(0));
    return success();
  }
};

/// narrow(convert(x)) -> convert(narrow(x)) for a one-operand elementwise op
/// whose result is narrower (a truncf to bf16 of an fp32 accumulator for a
/// store or a dot operand): half the bytes go through shared memory and the
/// wide copy in the other layout is not held. Not where x is cheap to
/// convert: SinkIntoElementwise would move the conversion back before the
/// narrowing, the two patterns forever.
struct ConvertAfterNarrowing : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Type wide = op.getType().getElementType();
    if (!wide.isIntOrFloat())
      return failure();
    bool changed = false;
    for (Operation *user : llvm::make_early_inc_range(op.getResult().getUsers())) {
      // Where the narrowed value's conversion will stand.
      if (user->getNumOperands() != 1 || user->getNumResults() != 1 ||
          !isLayoutAgnosticElementwise(user) ||
          cheapToConvert(op.getSrc(), layoutOf(op.getResult()), user))
        continue;
      auto narrowType = dyn_cast<RankedTensorType>(user->getResult(0).getType());
      if (!narrowType || !narrowType.getElementType().isIntOrFloat() ||
          narrowType.getElementType().getIntOrFloatBitWidth() >= wide.getIntOrFloatBitWidth())
        continue;
      rewriter.setInsertionPoint(user);
      IRMapping map;
      map.map(op.getResult(), op.getSrc());
      Operation *there = rewriter.clone(*user, map);
      there->getResult(0).setType(withLayout(narrowType, layoutOf(op.getSrc())));
      rewriter.replaceOpWithNewOp<ConvertLayoutOp>(user, narrowType, there->getResult(0));
      changed = true;
    }
    return success(changed);
  }
};

/// A conversion of a value from outside the loops it is in runs once, before
/// the outermost of them.
struct HoistInvariantConversion : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *outermost = nullptr;
    for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
         loop = loop->getParentOfType<scf::ForOp>()) {
      if (!loop.isDefinedOutsideOfLoop(op.getSrc()))
        break;
      outermost = loop;
    }
    if (!outermost)
      return failure();
    rewriter.moveOpBefore(op, outermost);
    return success();
  }
};

/// The elementwise ops of one block between some blocked tiles (the sources:
/// loads, mostly) and conversions of their results to one accumulator
/// (#tile.mma) layout, when every other user of those results is another
/// such op, are computed in that layout instead, each source converted once
/// (or recomputed, when cheap). Done
/// when the sources' bytes are fewer than the conversions' (or as many, in
/// fewer conversions). Liger's dGU epilogue converted silu(G), U and
/// sigmoid'(G), three fp32 tiles, to the accumulator's layout, with the
/// blocked ones all live at once (255 registers, spilled); now it converts
/// G and U, two bf16 tiles. Single-use chains are left to
/// SinkIntoElementwise. Returns whether `seed` was rewritten (and erased).
bool convertSourcesInstead(ConvertLayoutOp seed, DenseSet<Operation *> &erased) {
  constexpr size_t kMaxOps = 64; // the epilogues this is for are a few dozen ops
  Attribute from = layoutOf(seed.getSrc()), to = layoutOf(seed.getResult());
  if (!isa<BlockedLayoutAttr>(from) || !isa<MmaLayoutAttr>(to))
    return false;
  Block *block = seed->getBlock();
  SetVector<Operation *> ops;
  SetVector<Operation *> conversions;
  SetVector<Value> sources;
  SmallVector<Operation *> work;
  auto join = [&](Operation *op) {
    if (op->getBlock() != block || op->getNumResults() != 1 || op->getNumRegions() ||
        !isLayoutAgnosticElementwise(op) || !isa<RankedTensorType>(op->getResult(0).getType()) ||
        layoutOf(op->getResult(0)) != from)
      return false;
    if (ops.insert(op))
      work.push_back(op);
    return true;
  };
  Operation *def = seed.getSrc().getDefiningOp();
  if (!def || !join(def))
    return false;
  while (!work.empty()) {
    if (ops.size() > kMaxOps)
      return false;
    Operation *op = work.pop_back_val();
    for (Value v : op->getOperands()) {
      if (!isa<RankedTensorType>(v.getType()))
        continue;
      Operation *producer = v.getDefiningOp();
      if (!producer || !join(producer))
        sources.insert(v);
    }
    for (Operation *user : op->getResult(0).getUsers()) {
      auto cvt = dyn_cast<ConvertLayoutOp>(user);
      if (cvt && layoutOf(cvt.getResult()) == to && cvt->getBlock() == block)
        conversions.insert(cvt);
      else if (!join(user))
        return false;
    }
  }
  int64_t before = 0, after = 0;
  for (Operation *cvt : conversions)
    before += tensorBytes(cvt->getResult(0).getType());
  unsigned converted = 0;
  for (Value v : sources)
    if (!rematerialize(v, to, nullptr, /*depth=*/8)) {
      after += tensorBytes(v.getType());
      ++converted;
    }
  if (after > before || (after == before && converted >= conversions.size()))
    return false;

  SmallVector<Operation *> order;
  for (Operation &op : *block)
    if (ops.contains(&op))
      order.push_back(&op);
  IRMapping map;
  OpBuilder b(seed.getContext());
  for (Operation *op : order) {
    b.setInsertionPoint(op);
    for (Value v : op->getOperands())
      if (sources.contains(v) && !map.contains(v)) {
        Value there = rematerialize(v, to, &b, 8);
        if (!there)
          there = ConvertLayoutOp::create(b, op->getLoc(), withLayout(v.getType(), to), v);
        map.map(v, there);
      }
    Operation *clone = b.clone(*op, map);
    clone->getResult(0).setType(withLayout(op->getResult(0).getType(), to));
  }
  for (Operation *cvt : conversions) {
    cvt->getResult(0).replaceAllUsesWith(map.lookup(cvt->getOperand(0)));
    erased.insert(cvt);
    cvt->erase();
  }
  for (Operation *op : llvm::reverse(order))
    op->erase(); // its users were the ops above and the conversions
  return true;
}

/// A loop-carried tensor (a pointer tile) whose loop reads it only through
/// one conversion and advances it by a value cheap to recompute is carried
/// in the converted layout: converted once before the loop.
void carryInConvertedLayout(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (BlockArgument arg : loop.getRegionIterArgs()) {
    if (!isa<RankedTensorType>(arg.getType()))
      continue;
    unsigned index = arg.getArgNumber() - loop.getNumInductionVars();
    ConvertLayoutOp cvt;
    AddPtrOp advance;
    bool other = false;
    for (OpOperand &use : arg.getUses()) {
      Operation *user = use.getOwner();
      if (auto c = dyn_cast<ConvertLayoutOp>(user); c && !cvt)
        cvt = c;
      else if (auto a = dyn_cast<AddPtrOp>(user);
               a && !advance && use.getOperandNumber() == 0 && a->hasOneUse() &&
               *a->user_begin() == yield.getOperation() &&
               yield.getOperand(index) == a.getResult())
        advance = a;
      else
        other = true;
    }
    if (other || !cvt || !advance)
      continue;
    Attribute layout = layoutOf(cvt.getResult());
    Value offset = advance.getOffset();
    if (!rematerialize(offset, layout, nullptr, /*depth=*/8))
      continue;
    RankedTensorType oldType = cast<RankedTensorType>(arg.getType());
    RankedTensorType newType = withLayout(oldType, layout);
    OpBuilder b(loop);
    OpOperand &init = loop.getInitArgsMutable()[index];
    init.set(ConvertLayoutOp::create(b, loop.getLoc(), newType, init.get()));
    arg.setType(newType);
    cvt.getResult().replaceAllUsesWith(arg);
    cvt.erase();
    b.setInsertionPoint(advance);
    advance->setOperand(1, rematerialize(offset, layout, &b, 8));
    advance.getResult().setType(newType);
    Value result = loop.getResult(index);
    result.setType(newType);
    if (!result.use_empty()) {
      b.setInsertionPointAfter(loop);
      auto back = ConvertLayoutOp::create(b, loop.getLoc(), oldType, result);
      result.replaceAllUsesExcept(back, back);
    }
  }
}

/// Whether `value` is computed from `carried` by ops of its block that keep
/// every element where it is (elementwise arithmetic, conversions).
bool derivesFrom(Value value, BlockArgument carried, unsigned depth = 8) {
  if (value == carried)
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth == 0 || def->getBlock() != carried.getOwner() ||
      !(isa<ConvertLayoutOp>(def) || isLayoutAgnosticElementwise(def)))
    return false;
  return llvm::any_of(def->getOperands(),
                      [&](Value v) { return derivesFrom(v, carried, depth - 1); });
}

/// A loop-carried accumulator that the assignment laid out for its other
/// readers is converted into its dot's layout and back in every iteration
/// (fla's recurrent state `h`: stored, multiplied by a decay and read as
/// a dot operand, then `h += tl.dot(k, v)`, two conversions of a 64 x 64
/// fp32 tile per iteration). Carried in the dot's layout, the other readers
/// get one conversion, and the arithmetic leading to the dot follows the
/// accumulator into its layout (SinkIntoElementwise, CollapseConversion).
void carryAccumulatorInDotLayout(scf::ForOp loop) {
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (BlockArgument arg : loop.getRegionIterArgs()) {
    unsigned index = arg.getArgNumber() - loop.getNumInductionVars();
    auto back = yield.getOperand(index).getDefiningOp<ConvertLayoutOp>();
    auto dot = back ? back.getSrc().getDefiningOp<DotOp>() : DotOp();
    if (!dot || back->getBlock() != body || dot->getBlock() != body ||
        !derivesFrom(dot.getC(), arg))
      continue;
    auto oldType = cast<RankedTensorType>(arg.getType());
    RankedTensorType newType = withLayout(oldType, layoutOf(dot.getResult()));
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    OpOperand &init = loop.getInitArgsMutable()[index];
    Value there = rematerialize(init.get(), newType.getEncoding(), &b, /*depth=*/8);
    init.set(there ? there : ConvertLayoutOp::create(b, loc, newType, init.get()).getResult());
    arg.setType(newType);
    b.setInsertionPointToStart(body);
    auto forReaders = ConvertLayoutOp::create(b, loc, oldType, arg);
    arg.replaceAllUsesExcept(forReaders, forReaders);
    yield->setOperand(index, dot.getResult());
    if (back->use_empty())
      back->erase();
    Value result = loop.getResult(index);
    result.setType(newType);
    if (!result.use_empty()) {
      b.setInsertionPointAfter(loop);
      auto after = ConvertLayoutOp::create(b, loc, oldType, result);
      result.replaceAllUsesExcept(after, after);
    }
  }
}

struct TileRemoveLayoutConversionsPass
    : kiln::tile::impl::TileRemoveLayoutConversionsBase<
          TileRemoveLayoutConversionsPass> {
  void runOnOperation() override {
    getOperation().walk([](scf::ForOp loop) {
      carryInConvertedLayout(loop);
      carryAccumulatorInDotLayout(loop);
    });
    SmallVector<ConvertLayoutOp> conversions;
    getOperation().walk([&](ConvertLayoutOp cvt) { conversions.push_back(cvt); });
    DenseSet<Operation *> erased;
    for (ConvertLayoutOp cvt : conversions)
      if (!erased.contains(cvt))
        convertSourcesInstead(cvt, erased);
    RewritePatternSet patterns(&getContext());
    patterns.add<CollapseConversion, SinkIntoShapeOp, SinkIntoElementwise,
                 ConvertAfterNarrowing, HoistInvariantConversion>(&getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
