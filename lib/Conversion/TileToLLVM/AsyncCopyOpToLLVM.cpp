//===- AsyncCopyOpToLLVM.cpp - !tile.smem slots and cp.async --------------===//
//
// The ops of a software-pipelined loop (--tile-pipeline-loops):
//  - tile.local_alloc becomes its byte offset in the dynamic shared memory
//    (an i32 constant; TileToLLVMPass places every allocation after the
//    scratch area, which the other ops reuse);
//  - tile.async_copy issues one cp.async per run of elements the axis
//    analysis proves contiguous, aligned and equally masked (.cg for 16
//    bytes, .ca below), a masked-off run copying 0 source bytes (zero fill);
//    a run of 2 bytes (one 16-bit element, two fp8; under cp.async's 4) is
//    loaded and stored synchronously, a single f32 is one 4-byte cp.async;
//  - tile.async_commit / tile.async_wait are cp.async.commit_group and
//    cp.async.wait_group N followed by bar.sync;
//  - tile.local_store writes a tile from registers with st.shared;
//  - tile.local_load reads its tile with ld.shared (a tile.dot reading the
//    slot directly leaves these loads unused, and LLVM deletes them).
// A 1-D tile (a loop's vector of per-K factors) is the one row of a 1 x N
// slot: its layout is lifted to that row (DistributedLayout::asRows).
// A slot uses the swizzled layout of the dot's own operand staging
// (SwizzledTile), so ldmatrix reads it free of bank conflicts; f32 slots
// (tf32 wgmma) count two 16-bit units per element, fp8 slots (fp8 wgmma)
// half a unit.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {

Value slotByteOffset(OpBuilder &b, Location loc, SharedMemoryType type, Value base, Value slot) {
  return arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(b, loc, slot, i32Const(b, loc, type.getSlotBytes())));
}

Value slotByteOffset(ConversionPatternRewriter &rewriter, Location loc,
                     const LoweringState &state, LocalLoadOp slot) {
  int64_t base = state.localAllocOffset.lookup(slot.getBuffer().getDefiningOp());
  return slotByteOffset(rewriter, loc, slot.getBuffer().getType(), i32Const(rewriter, loc, base),
                        rewriter.getRemappedValue(slot.getSlot()));
}

namespace {

/// `elems` elements of `bits` bits as 16-bit units of the swizzled tile
/// (fp8: rounded down, the odd byte is the caller's).
int64_t toUnits(int64_t elems, int64_t bits) { return elems * bits / 16; }
Value toUnits(OpBuilder &b, Location loc, Value elems, int64_t bits) {
  if (bits == 16)
    return elems;
  if (bits == 8)
    return arith::ShRUIOp::create(b, loc, elems, i32Const(b, loc, 1));
  return arith::MulIOp::create(b, loc, elems, i32Const(b, loc, bits / 16));
}

/// Runs `body` in the first copy of each replicated element only.
void inFirstCopy(OpBuilder &b, Location loc, const DistributedLayout &layout,
                 const LoweringState::ThreadIds &ids, function_ref<void(OpBuilder &)> body) {
  if (Value owner = isFirstCopy(b, loc, layout, ids.lane, ids.warp)) {
    scf::IfOp::create(b, loc, owner, [&](OpBuilder &w, Location l) {
      body(w);
      scf::YieldOp::create(w, l);
    });
  } else {
    body(b);
  }
}

/// The shared-memory destinations of a copy's runs (registers r = 0, vec,
/// 2 vec, ...) as (address, constant byte offset) pairs whose offsets the
/// copy instructions take as immediates. The tile counts 16-bit units, so
/// stored-row coordinates of `bits`-bit elements are scaled (runs of fp8
/// are 2 bytes or more: they start at even columns). A register's
/// coordinates are its thread's XOR its own, and the swizzled offset of a
/// power-of-two tile is linear over the bits of its coordinates, so offset =
/// S(thread) ^ S(reg): where S(reg) has no bit that S(thread) can have, the
/// XOR is an addition of a constant. The bits they share select one of a few
/// thread addresses computed once. (One address per register instead would
/// be loop-invariant, and LLVM would keep them all live across the copy's
/// loop: 64 registers for two 128x64 tiles copied element by element.)
SmallVector<std::pair<Value, int64_t>>
slotDestinations(OpBuilder &b, Location loc, const DistributedLayout &layout,
                 const SwizzledTile &tile, unsigned inner, unsigned vec, int64_t bits,
                 Value base, ArrayRef<Value> coords) {
  SmallVector<std::pair<Value, int64_t>> dsts;
  unsigned outer = 1 - inner;
  auto regOffset = [&](unsigned r) {
    DistributedLayout::Coord off = layout.regOffset(r);
    return tile.offset(off[outer], toUnits(off[inner], bits));
  };
  Value innerUnits = toUnits(b, loc, coords[inner], bits);
  if (!tile.isLinear()) {
    for (unsigned r = 0; r < layout.numRegs(); r += vec) {
      DistributedLayout::Coord off = layout.regOffset(r);
      Value row = arith::AddIOp::create(b, loc, coords[outer], i32Const(b, loc, off[outer]));
      Value col =
          arith::AddIOp::create(b, loc, innerUnits, i32Const(b, loc, toUnits(off[inner], bits)));
      dsts.push_back({sharedAddress32(b, loc, tile.offset(b, loc, row, col), 0, base), 0});
    }
    return dsts;
  }
  int64_t threadBits = 0;
  for (const auto *bases : {&layout.laneBases, &layout.warpBases})
    for (const DistributedLayout::Coord &basis : *bases)
      threadBits |= tile.offset(basis[outer], toUnits(basis[inner], bits));
  Value threadOffset = tile.offset(b, loc, coords[outer], innerUnits);
  llvm::SmallDenseMap<int64_t, Value> byShared;
  for (unsigned r = 0; r < layout.numRegs(); r += vec) {
    int64_t own = regOffset(r), shared = own & threadBits;
    Value &address = byShared[shared];
    if (!address) {
      Value offset = shared ? arith::XOrIOp::create(b, loc, threadOffset,
                                                    i32Const(b, loc, shared)).getResult()
                            : threadOffset;
      address = sharedAddress32(b, loc, offset, 0, base);
    }
    dsts.push_back({address, (own & ~threadBits) * 2});
  }
  return dsts;
}

/// "[$n]" or "[$n+bytes]": a shared-memory operand with its immediate offset.
std::string sharedOperand(unsigned n, int64_t bytes) {
  std::string s = "[$" + std::to_string(n);
  if (bytes)
    s += "+" + std::to_string(bytes);
  return s + "]";
}

struct LocalAllocLowering : OpConversionPattern<LocalAllocOp> {
  LocalAllocLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(LocalAllocOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto it = state.localAllocOffset.find(op);
    if (it == state.localAllocOffset.end())
      return op.emitOpError("internal error: no shared-memory offset was assigned");
    rewriter.replaceOp(op, i32Const(rewriter, op.getLoc(), it->second));
    return success();
  }
};

} // namespace

unsigned asyncCopyChunkElements(AsyncCopyOp op, const LoweringState &state) {
  auto ptrType = cast<RankedTensorType>(op.getPtr().getType());
  std::optional<DistributedLayout> layout = getDistributedLayout(ptrType);
  if (!layout)
    return 0;
  layout = layout->asRows();
  SharedMemoryType type = op.getBuffer().getType();
  int64_t elemBytes = type.getElementBits() / 8;
  // Runs along the stored row (the last dimension; the first when the slot
  // is transposed) that stay inside one chunk.
  unsigned inner = type.getTransposed() ? 0 : 1;
  unsigned vec = std::min({unsigned(16 / elemBytes), layout->contiguousRegsAlong(inner),
                           std::max(1u, state.vectorWidth.lookup(op))});
  return layout->numRegs() % vec ? 1 : vec;
}

namespace {

/// Calls `run(w, r, dst, dstBytes)` for each run of `vec` registers r, r + 1,
/// ... of a tile in `layout` (as slot rows) written to a slot of `type` at
/// byte `base`: in the first copy of replicated elements only, `dst` the
/// run's shared address (a thread base) and `dstBytes` its constant offset.
void forEachSlotRun(OpBuilder &b, Location loc, const DistributedLayout &layout,
                    SharedMemoryType type, Value base, unsigned vec,
                    const LoweringState::ThreadIds &ids,
                    function_ref<void(OpBuilder &, unsigned, Value, int64_t)> run) {
  SwizzledTile tile(type.getStoredRows(), type.getStoredRowUnits());
  unsigned inner = type.getTransposed() ? 0 : 1;
  inFirstCopy(b, loc, layout, ids, [&](OpBuilder &w) {
    SmallVector<Value> coords = threadCoords(w, loc, layout, ids.lane, ids.warp);
    SmallVector<std::pair<Value, int64_t>> dsts = slotDestinations(
        w, loc, layout, tile, inner, vec, type.getElementBits(), base, coords);
    for (unsigned r = 0; r < layout.numRegs(); r += vec)
      run(w, r, dsts[r / vec].first, dsts[r / vec].second);
  });
}

struct AsyncCopyLowering : OpConversionPattern<AsyncCopyOp> {
  AsyncCopyLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(AsyncCopyOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto ptrType = cast<RankedTensorType>(op.getPtr().getType());
    std::optional<DistributedLayout> layout = getDistributedLayout(ptrType);
    if (!layout)
      return rewriter.notifyMatchFailure(op, "pointer tensor without a layout");
    layout = layout->asRows();
    SharedMemoryType type = op.getBuffer().getType();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask();
    Value base = slotByteOffset(b, loc, type, adaptor.getBuffer().front(), adaptor.getSlot().front());
    int64_t elemBytes = type.getElementBits() / 8;
    unsigned vec = asyncCopyChunkElements(op, state);
    // A single byte has no 16-bit unit of its own; --tile-pipeline-loops
    // copies fp8 only in runs of 4 bytes or more.
    if (vec * elemBytes < 2)
      return op.emitOpError("internal error: copies single bytes into ") << type;
    Type i32 = b.getI32Type(), i16 = b.getI16Type();
    forEachSlotRun(b, loc, *layout, type, base, vec, state.idsFor(op),
                   [&](OpBuilder &w, unsigned r, Value dst, int64_t dstBytes) {
      Value mask = masks.empty() ? Value() : masks[r];
      if (vec * elemBytes < 4) {
        // cp.async moves at least 4 bytes: load and store these 2.
        std::string text = "{ .reg .pred p; setp.ne.b32 p, $2, 0; mov.b16 $0, 0; "
                           "@p ld.global.b16 $0, [$1]; }";
        Value pred = mask ? arith::ExtUIOp::create(w, loc, i32, mask).getResult()
                          : i32Const(w, loc, 1);
        Value bits = inlinePtx(w, loc, {i16}, {ptrs[r], pred}, text, "=h,l,r",
                               /*hasSideEffects=*/true)[0];
        inlinePtx(w, loc, {}, {dst, bits}, "st.shared.b16 " + sharedOperand(0, dstBytes) + ", $1;",
                  "r,h", /*hasSideEffects=*/true);
        return;
      }
      unsigned bytes = vec * elemBytes;
      std::string text = std::string("cp.async.") + (bytes == 16 ? "cg" : "ca") +
                         ".shared.global " + sharedOperand(0, dstBytes) + ", [$1], " +
                         std::to_string(bytes);
      if (!mask) {
        inlinePtx(w, loc, {}, {dst, ptrs[r]}, text + ";", "r,l", /*hasSideEffects=*/true);
        return;
      }
      Value srcBytes = arith::SelectOp::create(w, loc, mask, i32Const(w, loc, bytes),
                                               i32Const(w, loc, 0));
      inlinePtx(w, loc, {}, {dst, ptrs[r], srcBytes}, text + ", $2;", "r,l,r",
                /*hasSideEffects=*/true);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Whether only mma.sync reads `buffer`'s slots (ldmatrix: the generic
/// proxy, ordered after st.shared by a barrier alone): every read is a
/// tile.local_load that only dots unable to run as wgmma use, directly or
/// through a transpose (--tile-share-dot-operands' slots).
static bool readOnlyByMmaSync(Value buffer) {
  std::optional<unsigned> cc = getTargetComputeCapability(buffer.getParentRegion()->getParentOp());
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    if (isa<LocalStoreOp>(user))
      return true;
    auto load = dyn_cast<LocalLoadOp>(user);
    std::optional<SmallVector<DotOp>> dots = load ? slotReaderDots(load) : std::nullopt;
    return dots && llvm::none_of(*dots, [&](DotOp dot) { return cc && canUseWgmma(dot, *cc); });
  });
}

/// Marks the first tile.async_wait after each tile.local_store in its block.
/// Where none follows there (a store under control flow, or the staging of a
/// TMA store, which fences itself), every wait of the function: what the
/// lowering did for all waits before this marking. Stores into slots only
/// mma.sync reads need no fence.
void markWaitsAfterSlotStoresIn(Operation *root) {
  bool markAll = false;
  root->walk([&](LocalStoreOp store) {
    if (readOnlyByMmaSync(store.getBuffer()))
      return;
    for (Operation *op = store->getNextNode(); op; op = op->getNextNode())
      if (auto wait = dyn_cast<AsyncWaitOp>(op)) {
        wait->setAttr(kFenceSlotStoresAttr, UnitAttr::get(op->getContext()));
        return;
      }
    markAll = true;
  });
  if (markAll)
    root->walk([](AsyncWaitOp wait) {
      wait->setAttr(kFenceSlotStoresAttr, UnitAttr::get(wait->getContext()));
    });
}

struct AsyncCommitLowering : OpConversionPattern<AsyncCommitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AsyncCommitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    inlinePtx(rewriter, op.getLoc(), {}, {}, "cp.async.commit_group;", "",
              /*hasSideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncWaitLowering : OpConversionPattern<AsyncWaitOp> {
  AsyncWaitLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;
  LogicalResult matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    inlinePtx(rewriter, op.getLoc(), {}, {},
              "cp.async.wait_group " + std::to_string(op.getPending()) + ";", "",
              /*hasSideEffects=*/true);
    // wgmma reads shared memory through the async proxy: st.shared writes
    // to its slots need the proxy fence before it. cp.async writes are taken
    // as visible to it after the wait and the barrier, as Triton takes them
    // (its fence insertion looks only for register-to-shared copies): no
    // fence, which cost each pipelined iteration a MEMBAR.ALL.CTA.
    if (state.computeCapability >= 90 && op->hasAttr(kFenceSlotStoresAttr))
      inlinePtx(rewriter, op.getLoc(), {}, {}, "fence.proxy.async.shared::cta;", "",
                /*hasSideEffects=*/true);
    barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalStoreLowering : OpConversionPattern<LocalStoreOp> {
  LocalStoreLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(LocalStoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto valueType = cast<RankedTensorType>(op.getValue().getType());
    std::optional<DistributedLayout> layout = getDistributedLayout(valueType);
    if (!layout)
      return rewriter.notifyMatchFailure(op, "value without a layout");
    layout = layout->asRows();
    SharedMemoryType type = op.getBuffer().getType();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    ValueRange values = adaptor.getValue();
    Value base = slotByteOffset(b, loc, type, adaptor.getBuffer().front(), adaptor.getSlot().front());
    int64_t bits = type.getElementBits();
    unsigned inner = type.getTransposed() ? 0 : 1;
    // Runs of registers along the stored row, at most one 16-byte chunk of
    // the swizzle (which keeps a chunk's units together).
    unsigned vec = std::min(unsigned(128 / bits), layout->contiguousRegsAlong(inner));
    if (layout->numRegs() % vec)
      vec = 1;
    if (vec * bits < 16)
      return op.emitOpError("internal error: stores single bytes into ") << type;
    Type i16 = b.getI16Type(), i32 = b.getI32Type();
    forEachSlotRun(b, loc, *layout, type, base, vec, state.idsFor(op),
                   [&](OpBuilder &w, unsigned r, Value dst, int64_t dstBytes) {
      // The run's bits as one 16-bit unit or 32-bit words.
      int64_t runBits = vec * bits;
      auto runType = VectorType::get({int64_t(vec)}, w.getIntegerType(bits));
      Value run = LLVM::UndefOp::create(w, loc, runType);
      for (unsigned k = 0; k < vec; ++k)
        run = LLVM::InsertElementOp::create(w, loc, run, toBits(w, loc, values[r + k]),
                                            i32Const(w, loc, k));
      SmallVector<Value> inputs{dst};
      std::string text, constraints = "r";
      if (runBits == 16) {
        inputs.push_back(LLVM::BitcastOp::create(w, loc, i16, run));
        text = "st.shared.b16 " + sharedOperand(0, dstBytes) + ", $1;";
        constraints += ",h";
      } else {
        int64_t words = runBits / 32;
        Value packed = LLVM::BitcastOp::create(w, loc, VectorType::get({words}, i32), run);
        text = "st.shared" + (words > 1 ? ".v" + std::to_string(words) : std::string()) +
               ".b32 " + sharedOperand(0, dstBytes) + ", " + (words > 1 ? "{" : "");
        for (int64_t i = 0; i < words; ++i) {
          inputs.push_back(LLVM::ExtractElementOp::create(w, loc, packed, i32Const(w, loc, i)));
          text += (i ? ", $" : "$") + std::to_string(i + 1);
          constraints += ",r";
        }
        text += words > 1 ? "};" : ";";
      }
      // Ordered after the barrier that frees the slot.
      inlinePtx(w, loc, {}, inputs, text, constraints, /*hasSideEffects=*/true);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalLoadLowering : OpConversionPattern<LocalLoadOp> {
  LocalLoadLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(LocalLoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    std::optional<DistributedLayout> layout = getDistributedLayout(resultType);
    if (!layout)
      return rewriter.notifyMatchFailure(op, "result without a layout");
    layout = layout->asRows();
    SharedMemoryType type = op.getBuffer().getType();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value base =
        slotByteOffset(b, loc, type, adaptor.getBuffer().front(), adaptor.getSlot().front());
    SwizzledTile tile(type.getStoredRows(), type.getStoredRowUnits());
    int64_t bits = type.getElementBits();
    unsigned inner = type.getTransposed() ? 0 : 1;
    unsigned vec = std::min(unsigned(128 / bits), layout->contiguousRegsAlong(inner));
    if (layout->numRegs() % vec)
      vec = 1;
    const LoweringState::ThreadIds &ids = state.idsFor(op);
    Type elem = resultType.getElementType(), bitsType = b.getIntegerType(bits);
    SmallVector<Value> coords = threadCoords(b, loc, *layout, ids.lane, ids.warp);
    SmallVector<Value> out(layout->numRegs());
    for (unsigned r = 0; r < layout->numRegs(); r += vec) {
      DistributedLayout::Coord off = layout->regOffset(r);
      Value row = arith::AddIOp::create(b, loc, coords[1 - inner],
                                        i32Const(b, loc, off[1 - inner]));
      Value colElems =
          arith::AddIOp::create(b, loc, coords[inner], i32Const(b, loc, off[inner]));
      Value col = toUnits(b, loc, colElems, bits);
      Value bytes = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, tile.offset(b, loc, row, col), i32Const(b, loc, 2)),
          base);
      if (bits == 8) // the byte within its unit
        bytes = arith::AddIOp::create(
            b, loc, bytes, arith::AndIOp::create(b, loc, colElems, i32Const(b, loc, 1)));
      Value ptr = sharedPtr(b, loc, bytes);
      auto vecType = VectorType::get({int64_t(vec)}, bitsType);
      Value v = LLVM::LoadOp::create(b, loc, vecType, ptr, /*alignment=*/bits / 8 * vec);
      for (unsigned k = 0; k < vec; ++k)
        out[r + k] = fromBits(
            b, loc, LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, k)), elem);
    }
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};

} // namespace

void markWaitsAfterSlotStores(ModuleOp module) {
  for (Operation &function : module.getBody()->getOperations())
    markWaitsAfterSlotStoresIn(&function);
}

void populateAsyncCopyPatterns(TileTypeConverter &converter, const LoweringState &state,
                               RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<LocalAllocLowering, AsyncCopyLowering, LocalStoreLowering, LocalLoadLowering,
               AsyncWaitLowering>(
      converter, ctx, state);
  patterns.add<AsyncCommitLowering>(converter, ctx);
}

} // namespace kiln::lowering
