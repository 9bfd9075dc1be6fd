//===- TmaOpToLLVM.cpp - TMA copies into !tile.smem slots, mbarriers -------===//
//
// The ops the pipeliner writes for descriptor blocks on sm_90
// (Dialect/Tile/Transforms/TmaCopies.h):
//  - tile.tma_copy: thread 0, when the copy is predicated on, orders the
//    program's earlier shared-memory accesses before the async proxy's
//    writes (fence.proxy.async), announces the slot's bytes on its mbarrier
//    (mbarrier.arrive.expect_tx) and starts one cp.async.bulk.tensor per
//    panel of the slot (SwizzledTile: all rows, up to 128 bytes of each; the
//    tensor map's swizzle is the slot's, TmaCopies.cpp);
//  - tile.tma_wait: every thread polls the slot's mbarrier for the phase of
//    the given parity (mbarrier.try_wait.parity);
//  - tile.tma_init / tile.tma_inval: thread 0 initializes (one arrival) or
//    invalidates the buffer's mbarriers, with the barriers around it.
// The mbarriers are 8 bytes per slot, after all other shared memory
// (SharedMemoryPlan.cpp). The tensor
// map is the address of a 128-byte grid-constant kernel parameter
// (TileToLLVMPass.cpp marks it byval, align 64, nvvm.grid_constant).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {
namespace {

/// The 32-bit shared address of byte `offset` of the dynamic shared memory.
Value shared32(OpBuilder &b, Location loc, Value offset) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), sharedPtr(b, loc, offset));
}

/// The shared address of slot `slot`'s mbarrier in `buffer` (a
/// tile.local_alloc; SharedMemoryPlan.cpp places the barriers).
Value barrierAddress(OpBuilder &b, Location loc, const LoweringState &state, Value buffer,
                     Value slot) {
  int64_t base = state.barrierOffset.lookup(buffer.getDefiningOp());
  Value offset = arith::AddIOp::create(
      b, loc, i32Const(b, loc, base), arith::ShLIOp::create(b, loc, slot, i32Const(b, loc, 3)));
  return shared32(b, loc, offset);
}

/// 1 in thread 0 of the program (and `pred` when given), else 0, as i32.
Value electedThread(OpBuilder &b, Location loc, const LoweringState &state, Operation *op,
                    Value pred = Value()) {
  Value first = isThread0(b, loc, state.idsFor(op));
  if (pred)
    first = arith::AndIOp::create(b, loc, first, pred);
  return arith::ExtUIOp::create(b, loc, b.getI32Type(), first);
}

struct TmaCopyLowering : OpConversionPattern<TmaCopyOp> {
  TmaCopyLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(TmaCopyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SharedMemoryType type = op.getBuffer().getType();
    int64_t rows = type.getStoredRows();
    int64_t rowBytes = type.getStoredRowLen() * type.getElementBits() / 8;
    int64_t panelBytes = std::min<int64_t>(rowBytes, 128);
    int64_t panelCols = panelBytes * 8 / type.getElementBits();
    int64_t panels = rowBytes / panelBytes;
    Value slotBase = slotByteOffset(rewriter, loc, type, adaptor.getBuffer(), adaptor.getSlot());
    // Operands: elected, mbarrier, tensor map, outer coordinate, then per
    // panel its inner coordinate and destination.
    SmallVector<Value> inputs{
        electedThread(rewriter, loc, state, op, adaptor.getPred()),
        barrierAddress(rewriter, loc, state, op.getBuffer(), adaptor.getSlot()),
        adaptor.getTensorMap(), adaptor.getCoords()[0]};
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n"
                       "@p fence.proxy.async.shared::cta;\n"
                       "@p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], " +
                       std::to_string(rows * rowBytes) + ";\n";
    std::string constraints = "r,r,l,r";
    for (int64_t p = 0; p < panels; ++p) {
      Value inner = arith::AddIOp::create(rewriter, loc, adaptor.getCoords()[1],
                                          i32Const(rewriter, loc, p * panelCols));
      Value dst = shared32(rewriter, loc,
                           arith::AddIOp::create(rewriter, loc, slotBase,
                                                 i32Const(rewriter, loc, p * rows * panelBytes)));
      unsigned at = inputs.size();
      inputs.push_back(inner);
      inputs.push_back(dst);
      constraints += ",r,r";
      text += "@p cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$" +
              std::to_string(at + 1) + "], [$2, {$" + std::to_string(at) + ", $3}], [$1];\n";
    }
    text += "}";
    inlinePtx(rewriter, loc, {}, inputs, text, constraints, /*hasSideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaWaitLowering : OpConversionPattern<TmaWaitOp> {
  TmaWaitLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;
  LogicalResult matchAndRewrite(TmaWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bar = barrierAddress(rewriter, loc, state, op.getBuffer(), adaptor.getSlot());
    // Labels inside braces are local to the block, so the text may repeat.
    inlinePtx(rewriter, loc, {}, {bar, adaptor.getPhase()},
              "{\n.reg .pred done;\nwait:\n"
              "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
              "@!done bra.uni wait;\n}",
              "r,r", /*hasSideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

/// tile.tma_init (init) and tile.tma_inval (!init).
template <typename OpT, bool init>
struct TmaBarriersLowering : OpConversionPattern<OpT> {
  TmaBarriersLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern<OpT>(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SharedMemoryType type = op.getBuffer().getType();
    if (!init) // no thread polls the barriers any more
      barrier(rewriter, loc);
    Value first = barrierAddress(rewriter, loc, state, op.getBuffer(), i32Const(rewriter, loc, 0));
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n";
    for (int64_t s = 0; s < type.getNumSlots(); ++s)
      text += std::string(init ? "@p mbarrier.init.shared::cta.b64 [$1+"
                               : "@p mbarrier.inval.shared::cta.b64 [$1+") +
              std::to_string(8 * s) + (init ? "], 1;\n" : "];\n");
    if (init) // the initialization, visible to the async proxy (the copies)
      text += "@p fence.mbarrier_init.release.cluster;\n";
    text += "}";
    inlinePtx(rewriter, loc, {}, {electedThread(rewriter, loc, state, op), first}, text, "r,r",
              /*hasSideEffects=*/true);
    if (init) // no thread waits on a barrier before it is initialized
      barrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateTmaPatterns(TileTypeConverter &converter, const LoweringState &state,
                         RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<TmaCopyLowering, TmaWaitLowering, TmaBarriersLowering<TmaInitOp, true>,
               TmaBarriersLowering<TmaInvalOp, false>>(converter, ctx, state);
}

} // namespace kiln::lowering
