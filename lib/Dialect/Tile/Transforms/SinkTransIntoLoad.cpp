//===- SinkTransIntoLoad.cpp - trans(load(p)) -> load(p computed transposed) ===//
//
// Runs before layouts exist. The transpose is pushed up the pointer, mask
// and `other` expressions (elementwise ops, splats, broadcasts, expand_dims,
// splat constants) to their leaves, so that the rewritten load computes its
// addresses exactly as if the kernel had written the transposed load by hand
// (`k + offs_n[None, :] * stride + offs_d[:, None]`): the layout pass then
// sees one consistent contiguity and no layout has to be converted. Where the
// expression cannot be rewritten (a loop argument, a load, ...) a `tile.trans`
// of that value is left. The originals stay for their other users; what
// becomes dead is erased.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "DeadCode.h"
#include "TmaCopies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILESINKTRANSINTOLOAD
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

/// Rewrites values in transposed form, once each (a value the pointer and the
/// mask share is rewritten once).
class Transposer {
public:
  explicit Transposer(ArrayRef<int32_t> order) : order(order.begin(), order.end()) {}

  Value get(Value v) {
    if (Value done = rewritten.lookup(v))
      return done;
    Value result = rewrite(v);
    rewritten[v] = result;
    return result;
  }

private:
  SmallVector<int32_t> order;
  DenseMap<Value, Value> rewritten;

  RankedTensorType permuted(Type type) const {
    auto tensor = cast<RankedTensorType>(type);
    SmallVector<int64_t> shape;
    for (int32_t d : order)
      shape.push_back(tensor.getDimSize(d));
    return RankedTensorType::get(shape, tensor.getElementType());
  }

  bool isIdentity() const {
    for (auto [i, d] : llvm::enumerate(order))
      if (static_cast<int32_t>(i) != d)
        return false;
    return true;
  }

  /// A pure op whose tensor operands and results all have v's shape.
  static bool isElementwise(Operation *op) {
    if (!isMemoryEffectFree(op) || op->getNumRegions() || op->getNumResults() != 1)
      return false;
    if (!isa<AddPtrOp, WhereOp, PtrCastOp>(op) &&
        !(isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
          OpTrait::hasElementwiseMappableTraits(op)))
      return false;
    auto shape = cast<RankedTensorType>(op->getResult(0).getType()).getShape();
    return llvm::all_of(op->getOperandTypes(), [&](Type t) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      return tensor && tensor.getShape() == shape;
    });
  }

  Value rewrite(Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    RankedTensorType newType = permuted(type);
    Operation *def = v.getDefiningOp();
    OpBuilder b(v.getContext());
    if (def)
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
    Location loc = v.getLoc();

    DenseElementsAttr dense;
    if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
      return arith::ConstantOp::create(b, loc, newType, dense.resizeSplat(newType));
    if (def && isa<SplatOp>(def)) {
      Operation *copy = b.clone(*def);
      copy->getResult(0).setType(newType);
      return copy->getResult(0);
    }
    if (auto bcast = dyn_cast_or_null<BroadcastOp>(def)) {
      Value src = get(bcast.getSrc());
      return BroadcastOp::create(b, loc, newType, src);
    }
    // x[:, None] transposed is x[None, :] (and the other way round).
    if (auto expand = dyn_cast_or_null<ExpandDimsOp>(def); expand && type.getRank() == 2) {
      Value src = expand.getSrc();
      int32_t axis = 1 - static_cast<int32_t>(expand.getAxis());
      if (isIdentity())
        axis = expand.getAxis();
      return ExpandDimsOp::create(b, loc, newType, src, axis);
    }
    if (def && isElementwise(def)) {
      SmallVector<Value> operands;
      for (Value operand : def->getOperands())
        operands.push_back(get(operand));
      Operation *copy = b.clone(*def);
      copy->setOperands(operands);
      copy->getResult(0).setType(newType);
      return copy->getResult(0);
    }
    return TransOp::create(b, loc, newType, v, order);
  }
};


bool sinkable(LoadOp load, TransOp trans) {
  auto ptrType = dyn_cast<RankedTensorType>(load.getPtr().getType());
  if (!load->hasOneUse() || load.getIsVolatile() || !ptrType || ptrType.getEncoding())
    return false;
  if (!isTmaCandidate(load) || !load->getParentOfType<scf::ForOp>())
    return true;
  // A descriptor block in a loop stays as stored where a slot can take it:
  // the pipeliner copies it with TMA, which writes rows as the tensor stores
  // them, and wgmma reads the slot through the transpose (TmaCopies.h). For
  // 16-bit blocks either majorness; tf32 and fp8 wgmma read only K-major
  // operands, which the transpose of an N x K block is as B (tutorial 09's
  // `tl.dot(a, b_desc.load([n, k]).T)`).
  if (getElementTypeOrSelf(load.getType()).getIntOrFloatBitWidth() == 16)
    return false;
  // (In the load's own block, as the pipeliner slots only such operands.)
  bool readAsB = trans->hasOneUse() && isa<DotOp>(*trans->user_begin()) &&
                 trans->use_begin()->getOperandNumber() == 1 &&
                 trans->user_begin()->getBlock() == load->getBlock();
  return !readAsB;
}

struct TileSinkTransIntoLoadPass
    : kiln::tile::impl::TileSinkTransIntoLoadBase<TileSinkTransIntoLoadPass> {
  void runOnOperation() override {
    SmallVector<TransOp> transposes;
    getOperation().walk([&](TransOp trans) { transposes.push_back(trans); });
    for (TransOp trans : transposes) {
      auto load = trans.getSrc().getDefiningOp<LoadOp>();
      if (!load || !sinkable(load, trans))
        continue;
      Transposer transposer(trans.getOrder());
      Value ptr = transposer.get(load.getPtr());
      Value mask = load.getMask() ? transposer.get(load.getMask()) : Value();
      Value other = load.getOther() ? transposer.get(load.getOther()) : Value();
      // The new load stays where the old one was (its order against stores
      // and barriers), which every rewritten value precedes.
      OpBuilder b(load);
      auto moved = cast<LoadOp>(b.clone(*load));
      moved.getPtrMutable().assign(ptr);
      if (mask)
        moved.getMaskMutable().assign(mask);
      if (other)
        moved.getOtherMutable().assign(other);
      moved.getResult().setType(trans.getType());
      // The block's coordinates are those of the untransposed block.
      moved.getCoordsMutable().clear();
      moved.getDescMutable().clear();
      moved.removeDescArgAttr();
      moved.removeDescNanAttr();
      SmallVector<Value> old(load->getOperands());
      trans.replaceAllUsesWith(moved.getResult());
      trans.erase();
      load.erase();
      eraseDeadDefs(old); // the untransposed address computations
    }
  }
};

} // namespace
