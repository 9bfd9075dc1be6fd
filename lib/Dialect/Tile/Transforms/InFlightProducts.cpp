//===- InFlightProducts.cpp - wgmma products left in flight across iterations -===//
//
// A pipelined loop's wgmma products run asynchronously; a product into an
// accumulator that only the next iteration reads (the matmul K loop; the
// P @ V of attention, rescaled at the next iteration's top) need not be
// waited for before the iteration ends: the next one waits where it first
// reads the accumulator (its first synchronous product's wait_group 0 has
// retired it by then), as Triton's pipeliner leaves it.
//
// Session 50 kept such a product synchronous where the pinned accumulator
// and the next iteration's tensors would not fit a thread's registers
// (attention at HEAD_DIM 128, 128 x 128 blocks, 4 warps: 3.2 KB of spills
// in flight, 1.1 KB without). The spills came from the order of the
// wgmmas: issued K step by K step across the warp group's two 64-row
// blocks, neither block's scores were complete before the other's, so
// ptxas held both at once. Issued block by block (WgmmaToLLVM.cpp), the
// same kernel in flight spills 96 bytes and runs 3.1 ms (Triton 3.7;
// 7.0 ms synchronous), and no measured kernel gained from the check.
//
//===----------------------------------------------------------------------===//
#include "InFlightProducts.h"

#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace kiln::tile {
namespace {

/// The uses of the loop-carried accumulator `arg` but `head`'s own.
SmallVector<OpOperand *> otherReads(BlockArgument arg, DotOp head) {
  SmallVector<OpOperand *> reads;
  for (OpOperand &use : arg.getUses())
    if (use.getOwner() != head.getOperation() || use.getOperandNumber() != 2)
      reads.push_back(&use);
  return reads;
}

/// The first op of `body` holding one of `reads`, or null.
Operation *firstReader(Block &body, ArrayRef<OpOperand *> reads) {
  Operation *first = nullptr;
  for (OpOperand *use : reads)
    if (Operation *top = body.findAncestorOpInBlock(*use->getOwner()))
      if (!first || top->isBeforeInBlock(first))
        first = top;
  return first;
}

} // namespace

void keepProductsInFlight(scf::ForOp loop) {
  Block *body = loop.getBody();
  auto readsSlot = [](Value b) {
    if (auto trans = b.getDefiningOp<TransOp>())
      b = trans.getSrc();
    return b.getDefiningOp<LocalLoadOp>();
  };
  auto readsOperandsInPlace = [&](DotOp dot) {
    return (dot.getA().getDefiningOp<LocalLoadOp>() ||
            isa_and_nonnull<DotOperandLayoutAttr, MmaLayoutAttr>(
                dot.getA().getType().getEncoding())) &&
           readsSlot(dot.getB());
  };
  // A chain of products into one accumulator (Liger's dI: acc = dot(dG,
  // Wg, acc); acc = dot(dU, Wu, acc)) stays in flight as a whole: wgmma
  // orders the accumulator accesses of instructions of one shape, so a
  // product starts on the one before it without waiting for it; each
  // waits only until its predecessor's group is done. (head, tail) pairs.
  SmallVector<std::pair<DotOp, DotOp>> inFlight;
  llvm::SmallPtrSet<Operation *, 4> chained;
  for (Operation &op : *body) {
    auto head = dyn_cast<DotOp>(op);
    if (!head || chained.contains(head) || !readsOperandsInPlace(head))
      continue;
    SmallVector<DotOp, 2> chain{head};
    while (chain.back()->hasOneUse()) {
      auto next = dyn_cast<DotOp>(*chain.back()->user_begin());
      if (!next || next.getC() != chain.back().getResult() || !readsOperandsInPlace(next) ||
          next.getA().getType().getElementType() != head.getA().getType().getElementType())
        break;
      chain.push_back(next);
    }
    DotOp tail = chain.back();
    if (!tail->hasOneUse() || !isa<scf::YieldOp>(*tail->user_begin()))
      continue;
    auto pendingOne = IntegerAttr::get(IntegerType::get(loop.getContext(), 32), 1);
    for (DotOp dot : chain) {
      dot->setAttr("tile.wgmma_pending", pendingOne);
      chained.insert(dot);
    }
    inFlight.push_back({head, tail});
  }
  // The next iteration may read such an accumulator other than as the
  // chain's own accumulator (attention rescales it: acc * alpha): those
  // reads take it through a tile.dot_wait placed right before the first
  // of them, so nothing reads registers a wgmma may still write.
  for (auto [head, tail] : inFlight) {
    BlockArgument arg = loop.getRegionIterArgs()[tail->use_begin()->getOperandNumber()];
    SmallVector<OpOperand *> reads = otherReads(arg, head);
    Operation *first = firstReader(*body, reads);
    if (!first)
      continue;
    OpBuilder wb(first);
    Value waited = DotWaitOp::create(wb, loop.getLoc(), TypeRange{arg.getType()}, ValueRange{arg})
                       .getResult(0);
    for (OpOperand *use : reads)
      use->set(waited);
  }
}

} // namespace kiln::tile
