//===- FoldDotAdd.cpp - c + dot(a, b, 0) -> dot(a, b, c) -------------------===//
//
// The new dot is created where the addition was: its operands dominate the
// old dot, and the addend dominates the addition, so all of them dominate
// it there. Floating point only; the result may differ in its last bits (c
// enters the sum first instead of last), as with Triton's same fold.
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
  if (auto f = dyn_cast<FloatAttr>(dense.getSplatValue<Attribute>()))
    return f.getValue().isZero();
  return false;
}

struct TileFoldDotAddPass : kiln::tile::impl::TileFoldDotAddBase<TileFoldDotAddPass> {
  void runOnOperation() override {
    SmallVector<arith::AddFOp> adds;
    getOperation().walk([&](arith::AddFOp add) { adds.push_back(add); });
    for (arith::AddFOp add : adds) {
      for (unsigned i = 0; i < 2; ++i) {
        auto dot = add.getOperand(i).getDefiningOp<DotOp>();
        Value addend = add.getOperand(1 - i);
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
};

} // namespace
