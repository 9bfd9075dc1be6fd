//===- Rematerialize.cpp - Recompute cheap tensors in another layout ------===//
#include "Rematerialize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace kiln::tile;

namespace {
RankedTensorType withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(), layout);
}

} // namespace

bool kiln::tile::isLayoutAgnosticElementwise(Operation *op) {
  return isa<AddPtrOp, PtrCastOp, WhereOp, PreciseDivFOp, PreciseSqrtOp, ExternElementwiseOp>(op) ||
         (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
          OpTrait::hasElementwiseMappableTraits(op));
}

Value kiln::tile::rematerialize(Value v, Attribute layout, OpBuilder *rewriter,
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
  } else if (isLayoutAgnosticElementwise(def)) {
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

/// Index math cheap to compute in any layout: aranges, splats, constants,
/// and expand_dims / broadcast / integer and pointer arithmetic of those.
static bool isCheapIndexOp(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return false;
  if (isa<ArangeOp, SplatOp, ExpandDimsOp, BroadcastOp, AddPtrOp>(op))
    return true;
  if (auto cst = dyn_cast<arith::ConstantOp>(op))
    return isa<DenseElementsAttr>(cst.getValue());
  return op->getDialect() && isa<arith::ArithDialect>(op->getDialect()) &&
         OpTrait::hasElementwiseMappableTraits(op) &&
         !isa<FloatType>(mlir::getElementTypeOrSelf(op->getResult(0)));
}

void kiln::tile::untieCheapIndexMath(func::FuncOp func) {
  SmallVector<Operation *> cheap;
  func.walk([&](Operation *op) {
    if (isCheapIndexOp(op))
      cheap.push_back(op);
  });
  // Consumers before producers: a copy's operands are then untied in turn.
  for (Operation *op : llvm::reverse(cheap)) {
    Value result = op->getResult(0);
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : result.getUses())
      uses.push_back(&use);
    if (uses.size() < 2)
      continue;
    OpBuilder b(op);
    b.setInsertionPointAfter(op);
    for (OpOperand *use : llvm::drop_begin(uses)) {
      Operation *copy = b.clone(*op);
      use->set(copy->getResult(0));
    }
  }
}
