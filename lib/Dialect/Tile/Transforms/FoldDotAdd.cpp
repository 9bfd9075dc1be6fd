//===- FoldDotAdd.cpp - c + dot(a, b, 0) -> dot(a, b, c) -------------------===//
//
// The new dot is created where the addition was: its operands dominate the
// old dot, and the addend dominates the addition, so all of them dominate
// it there. For floats the result may differ in its last bits (c enters the
// sum first instead of last), as with Triton's same fold; int8 dots'
// int32 sums wrap, so for them the fold is exact.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEFOLDDOTADD
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

bool isZeroTensor(Value v) {
  DenseElementsAttr dense;
  if (!matchPattern(v, m_Constant(&dense)) || !dense.isSplat())
    return false;
  Attribute zero = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(zero))
    return f.getValue().isZero();
  if (auto i = dyn_cast<IntegerAttr>(zero))
    return i.getValue().isZero();
  return false;
}

/// Folds every `c + dot(a, b, 0)` among the additions `adds`.
template <typename AddOp> void foldAdds(ArrayRef<AddOp> adds) {
  for (AddOp add : adds) {
    for (unsigned i = 0; i < 2; ++i) {
      auto dot = add->getOperand(i).template getDefiningOp<DotOp>();
      Value addend = add->getOperand(1 - i);
      if (!dot || !dot->hasOneUse() || !isZeroTensor(dot.getC()) ||
          dot.getType() != add.getType())
        continue;
      OpBuilder b(add);
      auto fused = cast<DotOp>(b.clone(*dot));
      fused->setOperand(2, addend);
      add.replaceAllUsesWith(fused.getResult());
      add.erase();
      dot.erase();
      break;
    }
  }
}

struct TileFoldDotAddPass : kiln::tile::impl::TileFoldDotAddBase<TileFoldDotAddPass> {
  void runOnOperation() override {
    SmallVector<arith::AddFOp> addfs;
    SmallVector<arith::AddIOp> addis;
    getOperation().walk([&](Operation *op) {
      if (auto f = dyn_cast<arith::AddFOp>(op))
        addfs.push_back(f);
      else if (auto i = dyn_cast<arith::AddIOp>(op))
        addis.push_back(i);
    });
    foldAdds<arith::AddFOp>(addfs);
    foldAdds<arith::AddIOp>(addis);
  }
};

} // namespace
