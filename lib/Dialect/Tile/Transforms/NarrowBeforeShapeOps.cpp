//===- NarrowBeforeShapeOps.cpp - cast(shape(x)) -> shape(cast(x)) ---------===//
//
// Shape ops are visited last to first, so that a chain (reshape, trans,
// split, then the casts) is narrowed from its end back to its start in one
// walk: each move leaves the cast as the only user of the shape op before.
// A cast in another block (under an scf.if) stays: moving it would convert
// values the branch may never use.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILENARROWBEFORESHAPEOPS
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

/// The narrowing cast that is `v`'s only user, in `v`'s block, if any.
Operation *onlyNarrowingUser(Value v) {
  if (!v.hasOneUse())
    return nullptr;
  Operation *user = *v.user_begin();
  if (!isa<arith::TruncFOp, arith::TruncIOp>(user) ||
      user->getBlock() != v.getParentBlock())
    return nullptr;
  return user;
}

/// `cast` applied to `x` (x's shape, the cast's element type and attributes).
Value castLike(OpBuilder &b, Operation *conversion, Value x) {
  Type elem = mlir::getElementTypeOrSelf(conversion->getResult(0).getType());
  Operation *copy = b.clone(*conversion);
  copy->setOperand(0, x);
  copy->getResult(0).setType(cast<RankedTensorType>(x.getType()).clone(elem));
  return copy->getResult(0);
}

/// Moves the narrowing cast(s) of `shape`'s results before it; false if
/// there are none to move.
bool narrowBefore(Operation *shape) {
  SmallVector<Operation *> casts;
  for (Value r : shape->getResults()) {
    Operation *cast = onlyNarrowingUser(r);
    if (!cast)
      return false;
    casts.push_back(cast);
  }
  // A split's halves must be converted alike (one cast of the whole).
  for (Operation *cast : casts)
    if (cast->getName() != casts[0]->getName() ||
        cast->getAttrDictionary() != casts[0]->getAttrDictionary() ||
        mlir::getElementTypeOrSelf(cast->getResult(0).getType()) !=
            mlir::getElementTypeOrSelf(casts[0]->getResult(0).getType()))
      return false;
  OpBuilder b(shape);
  Value narrow = castLike(b, casts[0], shape->getOperand(0));
  Operation *moved = b.clone(*shape);
  moved->setOperand(0, narrow);
  for (auto [r, cast] : llvm::zip(moved->getResults(), casts)) {
    r.setType(cast->getResult(0).getType());
    cast->getResult(0).replaceAllUsesWith(r);
    cast->erase();
  }
  shape->erase();
  return true;
}

struct TileNarrowBeforeShapeOpsPass
    : kiln::tile::impl::TileNarrowBeforeShapeOpsBase<TileNarrowBeforeShapeOpsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> shapes;
    getOperation().walk([&](Operation *op) {
      if (isa<ReshapeOp, TransOp, SplitOp>(op))
        shapes.push_back(op);
    });
    for (Operation *shape : llvm::reverse(shapes))
      narrowBefore(shape);
  }
};

} // namespace
