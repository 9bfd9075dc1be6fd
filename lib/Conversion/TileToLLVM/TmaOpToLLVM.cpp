//===- TmaOpToLLVM.cpp - TMA copies into !tile.smem slots, mbarriers -------===//
//
// The ops the pipeliner writes for descriptor blocks on sm_90
// (Dialect/Tile/Transforms/TmaCopies.h):
//  - tile.tma_copy: one lane of warp 0 (elect.sync), when the copy is
//    predicated on, orders the program's earlier shared-memory accesses
//    before the async proxy's writes (fence.proxy.async), announces the slot's bytes on its mbarrier
//    (mbarrier.arrive.expect_tx) and starts one cp.async.bulk.tensor per
//    panel of the slot (SwizzledTile: all rows, up to 128 bytes of each; the
//    tensor map's swizzle is the slot's, TmaCopies.cpp);
//  - tile.tma_wait: every thread polls the slot's mbarrier for the phase of
//    the given parity (mbarrier.try_wait.parity);
//  - tile.tma_store / tile.tma_store_wait (TmaStores.cpp): thread 0 stores
//    a slot's panels with cp.async.bulk.tensor in one bulk group, after
//    every thread's fence.proxy.async and a barrier; the wait is
//    cp.async.bulk.wait_group.read;
//  - tile.tma_init / tile.tma_inval: thread 0 initializes (for the copies
//    that arrive on each in a phase) or invalidates the buffer's mbarriers,
//    with the barriers around it. A copy with `arrive %owner` announces its
//    bytes on the owner's mbarrier of the slot.
// The mbarriers are 8 bytes per slot, after all other shared memory
// (SharedMemoryPlan.cpp). The tensor map of a host descriptor is the
// address of a 128-byte grid-constant kernel parameter (TileToLLVMPass.cpp
// marks it byval, align 64, nvvm.grid_constant); that of a descriptor made
// in the kernel is built by tile.tensormap_create in the kernel's global
// scratch.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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

/// 1 in one lane of warp 0 chosen by elect.sync (and `pred` when given),
/// else 0, as i32: ptxas then issues a TMA copy once per warp with uniform
/// operands, where under `tid == 0` it wraps each copy in a loop over the
/// lanes it cannot prove uniform (R2UR, ELECT, BRA.U.ANY per copy). A copy
/// runs where every lane of the warp does (the pipeliner's loop bodies).
Value electedLane(OpBuilder &b, Location loc, const LoweringState &state, Operation *op,
                  Value pred) {
  Value warp0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, state.idsFor(op).tid,
                                      i32Const(b, loc, 32));
  Value elected = NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value());
  Value first = arith::AndIOp::create(b, loc, warp0, elected);
  if (pred)
    first = arith::AndIOp::create(b, loc, first, pred);
  return arith::ExtUIOp::create(b, loc, b.getI32Type(), first);
}

/// The panels of a slot that TMA moves one box each (all rows, at most 128
/// bytes of each: TmaCopies.cpp's boxes): per panel its inner coordinate
/// (the block's, `inner`, plus the panel's first column) and its 32-bit
/// shared address, appended to `inputs` as a pair; returns the index of
/// each pair's coordinate.
SmallVector<unsigned> slotPanels(OpBuilder &b, Location loc, SharedMemoryType type,
                                  Value slotBase, Value inner, SmallVectorImpl<Value> &inputs,
                                  std::string &constraints, int64_t *slotBytes = nullptr) {
  int64_t rows = type.getStoredRows();
  int64_t rowBytes = type.getStoredRowLen() * type.getElementBits() / 8;
  int64_t panelBytes = std::min<int64_t>(rowBytes, 128);
  int64_t panelCols = panelBytes * 8 / type.getElementBits();
  if (slotBytes)
    *slotBytes = rows * rowBytes;
  SmallVector<unsigned> panels;
  for (int64_t p = 0; p < rowBytes / panelBytes; ++p) {
    panels.push_back(inputs.size());
    inputs.push_back(arith::AddIOp::create(b, loc, inner, i32Const(b, loc, p * panelCols)));
    inputs.push_back(shared32(
        b, loc, arith::AddIOp::create(b, loc, slotBase, i32Const(b, loc, p * rows * panelBytes))));
    constraints += ",r,r";
  }
  return panels;
}

/// The coordinates of a TMA box but the innermost (which the panels step),
/// appended to `inputs` innermost first: the operand list ", $k, ..." they
/// take in a `cp.async.bulk.tensor`'s coordinate vector after the inner one.
std::string outerCoordinates(ValueRange coords, SmallVectorImpl<Value> &inputs,
                             std::string &constraints) {
  std::string outer;
  for (Value c : llvm::reverse(coords.drop_back())) {
    outer += ", $" + std::to_string(inputs.size());
    inputs.push_back(c);
    constraints += ",r";
  }
  return outer;
}

struct TmaCopyLowering : OpConversionPattern<TmaCopyOp> {
  TmaCopyLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(TmaCopyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SharedMemoryType type = op.getBuffer().getType();
    Value slotBase = slotByteOffset(rewriter, loc, type, adaptor.getBuffer(), adaptor.getSlot());
    // Operands: elected, mbarrier, tensor map, the outer coordinates, then
    // per panel its inner coordinate and destination. A descriptor of rank
    // 3 to 5 whose block's unit dimensions the slot drops has a coordinate
    // per dimension; the panels step the innermost.
    ValueRange coords = adaptor.getCoords();
    SmallVector<Value> inputs{
        electedLane(rewriter, loc, state, op, adaptor.getPred()),
        barrierAddress(rewriter, loc, state, op.getOwner() ? op.getOwner() : op.getBuffer(),
                       adaptor.getSlot()),
        adaptor.getTensorMap()};
    std::string constraints = "r,r,l";
    std::string outer = outerCoordinates(coords, inputs, constraints);
    int64_t slotBytes;
    SmallVector<unsigned> panels = slotPanels(rewriter, loc, type, slotBase, coords.back(),
                                               inputs, constraints, &slotBytes);
    // The proxy fence orders earlier generic-proxy accesses to the slot's
    // bytes before the copy's async-proxy writes; a steady-state copy of a
    // slot that only wgmma reads has none to order (kAsyncProxySlotAttr).
    std::string fence = op->hasAttr(kAsyncProxySlotAttr)
                            ? ""
                            : "@p fence.proxy.async.shared::cta;\n";
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n" + fence +
                       "@p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], " +
                       std::to_string(slotBytes) + ";\n";
    std::string rank = std::to_string(coords.size());
    for (unsigned at : panels)
      text += "@p cp.async.bulk.tensor." + rank +
              "d.shared::cluster.global.mbarrier::complete_tx::bytes [$" + std::to_string(at + 1) +
              "], [$2, {$" + std::to_string(at) + outer + "}], [$1];\n";
    text += "}";
    inlinePtx(rewriter, loc, {}, inputs, text, constraints, /*hasSideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

/// tile.tma_store: every thread fences its writes of the slot for the async
/// proxy, the program synchronizes, and thread 0 starts one
/// cp.async.bulk.tensor per panel of the slot (the tensor map's box; global
/// <- shared::cta, bulk groups) and commits them as one group.
struct TmaStoreLowering : OpConversionPattern<TmaStoreOp> {
  TmaStoreLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(TmaStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SharedMemoryType type = op.getBuffer().getType();
    inlinePtx(rewriter, loc, {}, {}, "fence.proxy.async.shared::cta;", "",
              /*hasSideEffects=*/true);
    barrier(rewriter, loc);
    Value slotBase = slotByteOffset(rewriter, loc, type, adaptor.getBuffer(), adaptor.getSlot());
    // Operands: elected, tensor map, the outer coordinates, then per panel
    // its inner coordinate and source. A descriptor of rank 3 to 5 whose
    // block's unit dimensions the slot drops has a coordinate per dimension.
    ValueRange coords = adaptor.getCoords();
    SmallVector<Value> inputs{electedThread(rewriter, loc, state, op), adaptor.getTensorMap()};
    std::string constraints = "r,l";
    std::string outer = outerCoordinates(coords, inputs, constraints);
    SmallVector<unsigned> panels =
        slotPanels(rewriter, loc, type, slotBase, coords.back(), inputs, constraints);
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n";
    std::string rank = std::to_string(coords.size());
    for (unsigned at : panels)
      text += "@p cp.async.bulk.tensor." + rank + "d.global.shared::cta.bulk_group [$1, {$" +
              std::to_string(at) + outer + "}], [$" + std::to_string(at + 1) + "];\n";
    text += "@p cp.async.bulk.commit_group;\n}";
    inlinePtx(rewriter, loc, {}, inputs, text, constraints, /*hasSideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

/// tile.tma_store_wait: every thread (only thread 0 has groups; the others
/// pass at once).
struct TmaStoreWaitLowering : OpConversionPattern<TmaStoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TmaStoreWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    inlinePtx(rewriter, op.getLoc(), {}, {},
              "cp.async.bulk.wait_group.read " + std::to_string(op.getPending()) + ";", "",
              /*hasSideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

/// tensormap.replace's `elemtype` of a slot element type (fp8 and int8
/// move as bytes). PTX numbers the types as CUtensorMapDataType does up to f32,
/// then differently: 8 f32.ftz, 9 f64, 10 bf16 (the driver's bf16 is 9).
int tensorMapDataType(Type elem) {
  if (elem.isF16())
    return 6;
  if (elem.isBF16())
    return 10;
  if (elem.isF32())
    return 7;
  return 0; // UINT8
}

/// tile.tensormap_create, staged in the shared scratch (128 bytes at offset
/// 0; scratch users start with a barrier): warp 0 zeroes it, thread 0 sets
/// every field of a 2-D tiled map with tensormap.replace (as
/// cuTensorMapEncodeTiled would for a host descriptor, Runtime/Launch.cpp),
/// then warp 0 copies it to the program's slot of the global scratch with
/// the tensormap proxy's release and acquires it there: thread 0 issues
/// every TMA copy through the map. Setting the fields in global memory
/// instead costs a round trip to memory each.
struct TensormapCreateLowering : OpConversionPattern<TensormapCreateOp> {
  TensormapCreateLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(TensormapCreateOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto perProgram = state.scratchPerProgram.find(op);
    if (perProgram == state.scratchPerProgram.end())
      return rewriter.notifyMatchFailure(op, "scratch is not the kernel's global scratch");
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    auto i64Const = [&](int64_t v) {
      return LLVM::ConstantOp::create(rewriter, loc, i64, rewriter.getI64IntegerAttr(v));
    };
    // Program (x fastest) * bytes per program + the map's offset.
    Value x = NVVM::BlockIdXOp::create(rewriter, loc, i32);
    Value y = NVVM::BlockIdYOp::create(rewriter, loc, i32);
    Value z = NVVM::BlockIdZOp::create(rewriter, loc, i32);
    Value nx = NVVM::GridDimXOp::create(rewriter, loc, i32);
    Value ny = NVVM::GridDimYOp::create(rewriter, loc, i32);
    auto wide = [&](Value v) { return arith::ExtUIOp::create(rewriter, loc, i64, v); };
    Value program = arith::AddIOp::create(
        rewriter, loc, wide(x),
        arith::MulIOp::create(rewriter, loc, wide(nx),
                              arith::AddIOp::create(rewriter, loc, wide(y),
                                                    arith::MulIOp::create(rewriter, loc,
                                                                          wide(ny), wide(z)))));
    Value bytes = arith::AddIOp::create(
        rewriter, loc, arith::MulIOp::create(rewriter, loc, program, i64Const(perProgram->second)),
        i64Const(op.getOffset()));
    Value map = LLVM::GEPOp::create(rewriter, loc, adaptor.getScratch().getType(),
                                    rewriter.getI8Type(), adaptor.getScratch(), ValueRange{bytes});
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getBase());
    // An empty tensor: a map of one element, as the runtime encodes it.
    Value rows = adaptor.getRows(), cols = adaptor.getCols();
    Value zero = i32Const(rewriter, loc, 0), one = i32Const(rewriter, loc, 1);
    Value empty = arith::OrIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sle, rows, zero),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sle, cols, zero));
    rows = arith::SelectOp::create(rewriter, loc, empty, one, rows);
    cols = arith::SelectOp::create(rewriter, loc, empty, one, cols);
    Type elem = cast<PtrType>(op.getBase().getType()).getPointeeType();
    int64_t elemBytes = elem.getIntOrFloatBitWidth() / 8;
    Value strideBytes = arith::MulIOp::create(rewriter, loc, adaptor.getStride(),
                                              i64Const(elemBytes));
    ArrayRef<int64_t> box = op.getBox();
    int64_t swizzle = op.getSwizzle();
    int swizzleMode = swizzle == 128 ? 3 : swizzle == 64 ? 2 : swizzle == 32 ? 1 : 0;
    const LoweringState::ThreadIds &ids = state.idsFor(op);
    auto flag = [&](Value cond) { return arith::ExtUIOp::create(rewriter, loc, i32, cond); };
    Value warp0 = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, ids.warp, zero);
    Value staged = shared32(rewriter, loc, zero);
    Value laneWord = arith::AddIOp::create(
        rewriter, loc, staged, arith::ShLIOp::create(rewriter, loc, ids.lane, i32Const(rewriter, loc, 2)));
    barrier(rewriter, loc); // the scratch's earlier users are done with it
    SmallVector<Value> inputs{flag(isThread0(rewriter, loc, ids)),
                              flag(warp0),
                              staged,
                              laneWord,
                              map,
                              base,
                              rows,
                              cols,
                              strideBytes,
                              i32Const(rewriter, loc, box[0]),
                              i32Const(rewriter, loc, box[1])};
    // Ordinal 0 is the innermost dimension (columns).
    std::string field = "@p tensormap.replace.tile.";
    std::string space = ".shared::cta.b1024.";
    std::string text = "{\n.reg .pred p, w;\n.reg .b32 z, one;\nsetp.ne.b32 p, $0, 0;\n"
                       "setp.ne.b32 w, $1, 0;\nmov.b32 z, 0;\nmov.b32 one, 1;\n"
                       "@w st.shared.b32 [$3], z;\nbar.warp.sync -1;\n";
    text += field + "global_address" + space + "b64 [$2], $5;\n";
    text += field + "rank" + space + "b32 [$2], 1;\n"; // rank - 1
    text += field + "box_dim" + space + "b32 [$2], 0, $10;\n";
    text += field + "box_dim" + space + "b32 [$2], 1, $9;\n";
    text += field + "global_dim" + space + "b32 [$2], 0, $7;\n";
    text += field + "global_dim" + space + "b32 [$2], 1, $6;\n";
    text += field + "global_stride" + space + "b64 [$2], 0, $8;\n";
    text += field + "element_stride" + space + "b32 [$2], 0, one;\n";
    text += field + "element_stride" + space + "b32 [$2], 1, one;\n";
    text += field + "elemtype" + space + "b32 [$2], " + std::to_string(tensorMapDataType(elem)) +
            ";\n";
    text += field + "interleave_layout" + space + "b32 [$2], 0;\n";
    text += field + "swizzle_mode" + space + "b32 [$2], " + std::to_string(swizzleMode) + ";\n";
    text += field + "fill_mode" + space + "b32 [$2], " + (op.getNanFill() ? "1" : "0") + ";\n";
    text += "bar.warp.sync -1;\n"
            "@w tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu"
            ".sync.aligned [$4], [$2], 128;\n"
            "@w fence.proxy.tensormap::generic.acquire.gpu [$4], 128;\n}";
    inlinePtx(rewriter, loc, {}, inputs, text, "r,r,r,r,l,l,r,r,l,r,r", /*hasSideEffects=*/true);
    rewriter.replaceOp(op, map);
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
    std::string arrivals;
    if constexpr (init)
      arrivals = std::to_string(op.getArrivals());
    for (int64_t s = 0; s < type.getNumSlots(); ++s)
      text += std::string(init ? "@p mbarrier.init.shared::cta.b64 [$1+"
                               : "@p mbarrier.inval.shared::cta.b64 [$1+") +
              std::to_string(8 * s) + (init ? "], " + arrivals + ";\n" : "];\n");
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
  patterns.add<TmaCopyLowering, TmaStoreLowering, TensormapCreateLowering, TmaWaitLowering,
               TmaBarriersLowering<TmaInitOp, true>, TmaBarriersLowering<TmaInvalOp, false>>(
      converter, ctx, state);
  patterns.add<TmaStoreWaitLowering>(converter, ctx);
}

void markAsyncProxySlotCopies(ModuleOp module, unsigned computeCapability) {
  // Whether a wgmma reads `load`'s slot through its shared-memory
  // descriptor (directly or as a tile.trans view); a slot read into
  // registers (ldmatrix, a dot-operand layout) is a generic-proxy access.
  auto readByWgmma = [&](LocalLoadOp load) {
    if (isa_and_nonnull<DotOperandLayoutAttr>(load.getType().getEncoding()))
      return false;
    std::optional<SmallVector<DotOp>> dots = slotReaderDots(load);
    return dots && llvm::all_of(*dots, [&](DotOp dot) {
      bool flipped;
      return canUseWgmma(dot, computeCapability) &&
             (slotOperand(dot.getA(), flipped) == load || slotOperand(dot.getB(), flipped) == load);
    });
  };
  // Whether every access to `buffer` is TMA's or a wgmma's read of a slot.
  auto asyncProxyOnly = [&](Value buffer) {
    return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
      if (isa<TmaCopyOp, TmaWaitOp, TmaInitOp, TmaInvalOp>(user))
        return true;
      auto load = dyn_cast<LocalLoadOp>(user);
      return load && readByWgmma(load);
    });
  };
  module.walk([&](TmaCopyOp copy) {
    auto loop = dyn_cast<scf::ForOp>(copy->getParentOp());
    if (!loop || !asyncProxyOnly(copy.getBuffer()))
      return;
    // Only the loop that reads the slots (the steady state): the bytes are
    // the buffer's alone while it runs (SharedMemoryPlan.cpp), whereas copies
    // before it (a prologue, the next tile's) may follow a scratch user that
    // shared them.
    bool readHere = llvm::any_of(copy.getBuffer().getUsers(), [&](Operation *user) {
      return isa<LocalLoadOp>(user) && user->getParentOp() == loop.getOperation();
    });
    if (readHere)
      copy->setAttr(kAsyncProxySlotAttr, UnitAttr::get(copy->getContext()));
  });
}

} // namespace kiln::lowering
