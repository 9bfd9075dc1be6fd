//===- RebaseCopyPointers.cpp - Copy pointers as base + one offset --------===//
//
// A pipelined loop carries the pointer tensors of its copies `stages - 1`
// iterations ahead and advances them by a loop-invariant step each
// iteration (`a_ptrs += BLOCK_K * stride_ak`). Carried, each of a thread's
// 64-bit pointers is a phi whose next value is computed while the copy
// still reads the current one, and ptxas rotates it through a second
// register: 12-16 MOVs per iteration in a block-scaled matmul's loop, whose
// issue slots the products' scaling already fills. Triton's LLVM
// strength-reduces the same loop to loop-invariant bases plus one scalar
// offset; this pass makes that form at the tile level, for these loops only
// (LLVM's LSR, run on whole kernels, raised registers elsewhere):
//
//   p = phi(p0, p + splat(s))    ->    o = phi(0, o + s)   (one i64 scalar)
//                                      p = p0 + splat(o)
//
// A step the frontend computes in the loop from invariant values (`BLOCK_K
// * stride_bk`, a runtime stride) has its scalar ops moved before the loop.
// The offset is 64-bit: the sum of the steps over a loop may pass 2^31
// elements where each step does not. The loop's result, if read, is
// p0 + splat(o) after the loop.
//
//===----------------------------------------------------------------------===//
#include "DeadCode.h"
#include "kiln/Dialect/Tile/IR/Tile.h"
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEREBASECOPYPOINTERS
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

/// Whether the scalar `value` is computed from loop-invariant values alone by
/// side-effect-free ops of `loop`'s body: the frontend computes a runtime
/// step (`BLOCK_K * stride_bk`) in the loop, where the advance stands. The
/// ops must also be speculatable: before the loop they run even when the
/// loop does not (a division by a runtime value stays where it is).
bool isHoistable(scf::ForOp loop, Value value, unsigned depth = 0) {
  if (loop.isDefinedOutsideOfLoop(value))
    return true;
  Operation *op = value.getDefiningOp();
  if (!op || depth > 8 || op->getBlock() != loop.getBody() || op->getNumRegions() != 0 ||
      !isMemoryEffectFree(op) || !isSpeculatable(op) || isa<ShapedType>(value.getType()))
    return false;
  return llvm::all_of(op->getOperands(),
                      [&](Value operand) { return isHoistable(loop, operand, depth + 1); });
}

/// Moves the ops computing `value` (isHoistable) before `loop`, operands
/// first.
void hoist(scf::ForOp loop, Value value) {
  if (loop.isDefinedOutsideOfLoop(value))
    return;
  Operation *op = value.getDefiningOp();
  for (Value operand : op->getOperands())
    hoist(loop, operand);
  op->moveBefore(loop);
}

/// The loop-invariant i64 scalar that every element of `offset` equals (a
/// splat constant or a tile.splat of a scalar computed from values outside
/// `loop`), created before the loop; null otherwise.
Value invariantScalarStep(scf::ForOp loop, Value offset) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Type i64 = b.getI64Type();
  DenseIntElementsAttr dense;
  if (matchPattern(offset, m_Constant(&dense)) && dense.isSplat())
    return arith::ConstantIntOp::create(b, loc, i64,
                                        dense.getSplatValue<APInt>().getSExtValue());
  auto splat = offset.getDefiningOp<SplatOp>();
  if (!splat || !isHoistable(loop, splat.getSrc()))
    return Value();
  hoist(loop, splat.getSrc());
  Value scalar = splat.getSrc();
  if (scalar.getType() == i64)
    return scalar;
  return arith::ExtSIOp::create(b, loc, i64, scalar);
}

/// `base + splat(offset)` as a pointer tensor of `base`'s type.
Value rebased(OpBuilder &b, Location loc, Value base, Value offset) {
  auto type = cast<RankedTensorType>(base.getType());
  auto offsets = RankedTensorType::get(type.getShape(), offset.getType(), type.getEncoding());
  return AddPtrOp::create(b, loc, type, base, SplatOp::create(b, loc, offsets, offset));
}

/// The first op of `body` that reads `arg` or holds an op that does (the
/// advance, which yields it, at the latest).
Operation *firstUser(BlockArgument arg, Block *body) {
  Operation *first = nullptr;
  for (Operation *user : arg.getUsers()) {
    Operation *at = body->findAncestorOpInBlock(*user);
    if (!first || at->isBeforeInBlock(first))
      first = at;
  }
  return first;
}

void rebaseCarriedPointers(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<unsigned> picked;
  SmallVector<Value> steps;
  for (unsigned k = 0, e = loop.getNumRegionIterArgs(); k < e; ++k) {
    BlockArgument arg = loop.getRegionIterArgs()[k];
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !isa<PtrType>(type.getElementType()))
      continue;
    // Only copy pointers: a load reads its pointer before the advance, so
    // nothing rotates.
    if (llvm::none_of(arg.getUsers(), [](Operation *user) { return isa<AsyncCopyOp>(user); }))
      continue;
    auto advance = yield.getOperand(k).getDefiningOp<AddPtrOp>();
    if (!advance || advance.getPtr() != arg || advance->getBlock() != loop.getBody())
      continue;
    if (Value step = invariantScalarStep(loop, advance.getOffset())) {
      picked.push_back(k);
      steps.push_back(step);
    }
  }
  if (picked.empty())
    return;

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
  SmallVector<Value> inits(picked.size(), zero);
  IRRewriter rewriter(loop.getContext());
  DictionaryAttr attrs = loop->getDiscardableAttrDictionary();
  auto grown = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &y, Location at, ArrayRef<BlockArgument> offsets) {
        SmallVector<Value> next;
        for (auto [offset, step] : llvm::zip(offsets, steps))
          next.push_back(arith::AddIOp::create(y, at, offset, step));
        return next;
      }));
  grown->setDiscardableAttrs(attrs);

  unsigned first = grown.getNumRegionIterArgs() - picked.size();
  auto grownYield = cast<scf::YieldOp>(grown.getBody()->getTerminator());
  SmallVector<Value> advances;
  for (auto [i, k] : llvm::enumerate(picked)) {
    Value base = grown.getInitArgs()[k];
    BlockArgument arg = grown.getRegionIterArgs()[k];
    b.setInsertionPoint(firstUser(arg, grown.getBody()));
    arg.replaceAllUsesWith(rebased(b, loc, base, grown.getRegionIterArgs()[first + i]));
    if (!grown.getResult(k).use_empty()) {
      b.setInsertionPointAfter(grown);
      grown.getResult(k).replaceAllUsesWith(
          rebased(b, loc, base, grown.getResult(first + i)));
    }
    // The old pointer now only passes through: its advance goes with
    // eraseDeadDefs, the iter arg with dropUnusedIterArgs.
    advances.push_back(grownYield.getOperand(k));
    grownYield->setOperand(k, arg);
  }
  eraseDeadDefs(advances);
  dropUnusedIterArgs(grown);
}

struct TileRebaseCopyPointersPass
    : kiln::tile::impl::TileRebaseCopyPointersBase<TileRebaseCopyPointersPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (!loop.getBody()->getOps<AsyncCopyOp>().empty())
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      rebaseCarriedPointers(loop);
  }
};

} // namespace
