//===- DotOpToLLVM.cpp - tile.dot on tensor cores (mma.sync) and FMA ------===//
//
// The operands of tile.dot are in registers in the #tile.dot_op layouts (a
// tile.convert_layout staged them through shared memory), in their own
// layouts (f16/bf16: the dot stages them, A at 0 and B after it, and reads
// each K step with ldmatrix), in pipelined slots, or, for an f16/bf16 A, in
// the accumulator's own layout with all warps along M (its registers are
// the A fragments already); the accumulator is in #tile.mma. Then:
//  - mma.sync path (kWidth > 0): for every 16x8 accumulator tile a thread's
//    warp owns and every K step of the instruction, pack the A fragment (4
//    registers) and the B fragment (2) from the operand values by their
//    coordinates, and issue one mma.sync.aligned.m16n8kK (f16 / bf16: k16,
//    tf32: k8, i8: k32; fp8 converts exactly to f16 first, as PTX 8.1 has no
//    fp8 form). tf32x3 splits each f32 into a tf32 "big" part and the tf32
//    rest and issues three products (small*big, big*small, big*big).
//  - FMA path (kWidth = 0: f32 "ieee", f64): every accumulator element is
//    updated with one fused multiply-add per K, in order.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "kiln/Analysis/MmaLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {

namespace {
using Coord = DistributedLayout::Coord;

bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

/// The slot mma.sync reads dot operand `operandIndex` from in place: a
/// tile.local_load, or a 16-bit one through its 2-D transpose (ldmatrix
/// reads the same bytes either way: `flipped` is set); null if none.
LocalLoadOp mmaSlotOperand(DotOp op, unsigned operandIndex, bool &flipped) {
  LocalLoadOp slot = slotOperand(operandIndex == 0 ? op.getA() : op.getB(), flipped);
  if (slot && flipped &&
      !readsSlotThroughTranspose(/*wgmma=*/false,
                                 slot.getBuffer().getType().getElementBits()))
    return {};
  return slot;
}

/// Whether a (f16/bf16) dot operand goes through the dot's own staging in
/// the scratch area: it is neither in its registers (#tile.dot_op, or an A
/// in the accumulator's layout) nor in a slot. The lowering and the scratch
/// size both ask this.
bool isStagedByDot(DotOp op, unsigned operandIndex) {
  bool flipped;
  return !isRegisterOperand(op, operandIndex) && !mmaSlotOperand(op, operandIndex, flipped);
}

struct DotLowering : OpConversionPattern<DotOp> {
  DotLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto opA = dyn_cast_or_null<DotOperandLayoutAttr>(aType.getEncoding());
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(cType.getEncoding());
    std::optional<DistributedLayout> a = getDistributedLayout(aType),
                                     b = getDistributedLayout(bType),
                                     c = getDistributedLayout(cType);
    if (!mma || !a || !b || !c)
      return rewriter.notifyMatchFailure(op, "operands without layouts");
    Type elem = aType.getElementType();
    if ((isFp8(elem) || isFp8(bType.getElementType())) &&
        state.computeCapability < 89)
      return op.emitOpError("on fp8 operands needs sm_89 or newer, the target "
                            "is sm_")
             << state.computeCapability;
    SmallVector<Value> acc(adaptor.getC().begin(), adaptor.getC().end());
    if (canUseWgmma(op, state.computeCapability)) {
      if (failed(lowerWgmma(rewriter, op, state, *a, adaptor.getA(), *b, adaptor.getB(), *c,
                            acc)))
        return failure();
      rewriter.replaceOpWithMultiple(op, {acc});
      return success();
    }
    Operands ops{SmallVector<Value>(adaptor.getA()), SmallVector<Value>(adaptor.getB()),
                 *a, *b, std::nullopt, std::nullopt};
    auto opB = dyn_cast_or_null<DotOperandLayoutAttr>(bType.getEncoding());
    if (!opA || !opB) {
      // f16/bf16 operands in their own layouts: the dot stages them in
      // swizzled shared memory (A at 0, B after it) and reads each K step's
      // fragments with ldmatrix right before its products, so only one K
      // step of the operands is live next to the accumulator. An A already
      // in its fragments (computed from an accumulator) stays in registers.
      MLIRContext *ctx = op.getContext();
      auto fragA = getDistributedLayout(
          aType.getShape(), DotOperandLayoutAttr::get(ctx, 0, mma, 2));
      auto fragB = getDistributedLayout(
          bType.getShape(), DotOperandLayoutAttr::get(ctx, 1, mma, 2));
      if (!fragA || !fragB)
        return rewriter.notifyMatchFailure(op, "no fragment layouts");
      Location loc = op.getLoc();
      const LoweringState::ThreadIds &ids = state.idsFor(op);
      bool flippedA, flippedB;
      LocalLoadOp slotA = mmaSlotOperand(op, 0, flippedA);
      LocalLoadOp slotB = mmaSlotOperand(op, 1, flippedB);
      // f32 and fp8 slots are made for tf32 / fp8 wgmma only
      // (--tile-pipeline-loops checks the same conditions as canUseWgmma);
      // ldmatrix reads 16-bit slots.
      for (LocalLoadOp slot : {slotA, slotB})
        if (slot && slot.getBuffer().getType().getElementBits() != 16)
          return op.emitOpError("internal error: reads a ")
                 << slot.getBuffer().getType().getElementBits()
                 << "-bit shared-memory slot but cannot run as wgmma";
      bool stageA = isStagedByDot(op, 0), stageB = isStagedByDot(op, 1);
      if (stageA || stageB)
        barrier(rewriter, loc); // an earlier user of the scratch may still read it
      if (!opA && !isAccumulatorLayoutA(op))
        ops.stagedA = slotA ? fromSlot(rewriter, op, slotA, flippedA, *fragA, true)
                            : stageOperand(rewriter, loc, ids, *a, ops.aVals, *fragA, true, 0);
      if (!opB)
        ops.stagedB = slotB ? fromSlot(rewriter, op, slotB, flippedB, *fragB, false)
                            : stageOperand(rewriter, loc, ids, *b, ops.bVals, *fragB, false,
                                           stageA ? aType.getNumElements() * 2 : 0);
      if (stageA || stageB)
        barrier(rewriter, loc);
    }
    LogicalResult done =
        opA && opA.getKWidth() == 0
            ? lowerFma(rewriter, op, ops, *c, acc)
            : lowerMma(rewriter, op, ops, *c, opA ? opA.getKWidth() : 2, acc);
    if (failed(done))
      return failure();
    rewriter.replaceOpWithMultiple(op, {acc});
    return success();
  }

  /// An operand left in a !tile.smem slot (swizzled as the staging above)
  /// by the software pipeliner or --tile-share-dot-operands: ldmatrix reads
  /// it there. Read through a transpose (`flipped`), the slot's rows are
  /// the operand's columns: the other ldmatrix form reads them.
  StagedOperand fromSlot(ConversionPatternRewriter &rewriter, DotOp op, LocalLoadOp slot,
                         bool flipped, const DistributedLayout &fragments, bool isA) const {
    Location loc = op.getLoc();
    SharedMemoryType type = slot.getBuffer().getType();
    StagedOperand staged =
        describeStaged(rewriter, loc, state.idsFor(op), type.getStoredRows(),
                       type.getStoredRowLen(), fragments, isA, /*byteBase=*/0,
                       slotByteOffset(rewriter, loc, state, slot));
    staged.transposed = type.getTransposed() != flipped;
    staged.slot = slot;
    return staged;
  }

  struct Operands {
    SmallVector<Value> aVals, bVals;
    const DistributedLayout &a, &b;
    /// Set when the dot stages its own operands (f16/bf16 in any layout).
    std::optional<StagedOperand> stagedA, stagedB;
  };

  /// The register of `layout` holding thread-relative coordinates `off`.
  static FailureOr<unsigned> reg(DotOp op, const DistributedLayout &layout,
                                 int64_t row, int64_t col) {
    std::optional<unsigned> r = layout.findReg(Coord{row, col});
    if (!r)
      return op.emitOpError("internal error: no register holds (")
             << row << ", " << col << ") of a dot operand";
    return *r;
  }

  LogicalResult lowerFma(OpBuilder &b, DotOp op, const Operands &ops,
                         const DistributedLayout &c, SmallVector<Value> &acc) const {
    Location loc = op.getLoc();
    int64_t k = op.getA().getType().getDimSize(1);
    for (unsigned r = 0; r < c.numRegs(); ++r) {
      Coord off = c.regOffset(r);
      Value sum = acc[r];
      for (int64_t kk = 0; kk < k; ++kk) {
        FailureOr<unsigned> ra = reg(op, ops.a, off[0], kk);
        FailureOr<unsigned> rb = reg(op, ops.b, kk, off[1]);
        if (failed(ra) || failed(rb))
          return failure();
        sum = LLVM::FMAOp::create(b, loc, ops.aVals[*ra], ops.bVals[*rb], sum);
      }
      acc[r] = sum;
    }
    return success();
  }

  /// Two fp8 values as the f16x2 register mma.sync reads (exact conversion).
  static Value fp8PairToF16x2(OpBuilder &b, Location loc, Value lo, Value hi) {
    Type i16 = b.getI16Type();
    auto vecType = VectorType::get({2}, b.getI8Type());
    Value vec = LLVM::UndefOp::create(b, loc, vecType);
    vec = LLVM::InsertElementOp::create(b, loc, vec, toBits(b, loc, lo), i32Const(b, loc, 0));
    vec = LLVM::InsertElementOp::create(b, loc, vec, toBits(b, loc, hi), i32Const(b, loc, 1));
    Value pair = LLVM::BitcastOp::create(b, loc, i16, vec);
    const char *fmt = isa<Float8E4M3FNType>(lo.getType()) ? "e4m3x2" : "e5m2x2";
    return inlinePtx(b, loc, {b.getI32Type()}, {pair},
                     std::string("cvt.rn.f16x2.") + fmt + " $0, $1;", "=r,h",
                     /*hasSideEffects=*/false)[0];
  }

  /// tf32 "big" part of an f32 (rounded) and the tf32 rest.
  static std::pair<Value, Value> splitTf32(OpBuilder &b, Location loc, Value x) {
    Type i32 = b.getI32Type(), f32 = b.getF32Type();
    auto toTf32 = [&](Value v) {
      return inlinePtx(b, loc, {i32}, {v}, "cvt.rna.tf32.f32 $0, $1;", "=r,f",
                       /*hasSideEffects=*/false)[0];
    };
    Value big = toTf32(x);
    Value rest = LLVM::FSubOp::create(b, loc, x, LLVM::BitcastOp::create(b, loc, f32, big));
    return {big, toTf32(rest)};
  }

  LogicalResult lowerMma(OpBuilder &b, DotOp op, const Operands &ops,
                         const DistributedLayout &c, unsigned kWidth,
                         SmallVector<Value> &acc) const {
    Location loc = op.getLoc();
    Type elem = op.getA().getType().getElementType();
    Type accElem = op.getC().getType().getElementType();
    int64_t k = op.getA().getType().getDimSize(1);
    int64_t instrK = mmaInstrK(kWidth);
    bool tf32x3 = elem.isF32() && op.getInputPrecision() == InputPrecision::tf32x3;
    bool f16Acc = accElem.isF16();

    // The instruction and its operand kinds.
    std::string shape = "m16n8k" + std::to_string(instrK);
    std::string types;
    if (elem.isF16() || isFp8(elem))
      types = f16Acc ? "f16.f16.f16.f16" : "f32.f16.f16.f32";
    else if (elem.isBF16())
      types = "f32.bf16.bf16.f32";
    else if (elem.isF32())
      types = "f32.tf32.tf32.f32";
    else
      types = "s32.s8.s8.s32";
    unsigned nAcc = f16Acc ? 2 : 4;
    std::string text = "mma.sync.aligned." + shape + ".row.col." + types + " " +
                       asmOperandList(0, nAcc) + ", " + asmOperandList(nAcc, 4) + ", " +
                       asmOperandList(nAcc + 4, 2) + ", " + asmOperandList(nAcc + 6, nAcc) +
                       ";";
    std::string accOut = accElem.isF32() ? "=f" : "=r";
    std::string accIn = accElem.isF32() ? "f" : "r";
    SmallVector<std::string> cons;
    for (unsigned i = 0; i < nAcc; ++i)
      cons.push_back(accOut);
    for (unsigned i = 0; i < 6; ++i)
      cons.push_back("r");
    for (unsigned i = 0; i < nAcc; ++i)
      cons.push_back(accIn);
    std::string constraints = llvm::join(cons, ",");
    Type i32 = b.getI32Type();
    SmallVector<Type> resultTypes(nAcc, f16Acc ? i32 : accElem);

    // Fragments, packed once per (tile origin, K step); for tf32x3 the big
    // parts first, then the small ones.
    using Key = std::pair<int64_t, int64_t>;
    DenseMap<Key, SmallVector<Value, 8>> aFrags, bFrags;
    // A staged B is read two n-tiles at a time (ldmatrix.x4, as Triton
    // does): the thread's tile columns in order, paired first with second,
    // third with fourth; an odd last one reads alone.
    SmallVector<int64_t> tileCols;
    for (unsigned r = 0; r < c.numRegs(); ++r)
      if (int64_t n = c.regOffset(r)[1]; !(n & 1) && !llvm::is_contained(tileCols, n))
        tileCols.push_back(n);
    llvm::sort(tileCols);
    auto pairOf = [&](int64_t n) -> std::pair<int64_t, int64_t> { // (first, delta)
      size_t i = llvm::find(tileCols, n) - tileCols.begin();
      size_t first = i & ~size_t(1);
      if (first + 1 >= tileCols.size())
        return {n, 0};
      return {tileCols[first], tileCols[first + 1] - tileCols[first]};
    };
    auto fragment = [&](bool isA, int64_t mn, int64_t kk)
        -> FailureOr<SmallVector<Value, 8>> {
      auto &cache = isA ? aFrags : bFrags;
      if (auto it = cache.find({mn, kk}); it != cache.end())
        return it->second;
      const std::optional<StagedOperand> &staged = isA ? ops.stagedA : ops.stagedB;
      if (staged) {
        // A slot an earlier dot of this block has read the same way: its
        // fragments (the slot holds the tile until its last reader). Not
        // across regions: fragments held over an scf.if took fla's kkt solve
        // at 2 and 4 warps, BK = 64, from 128 to 146-152 registers (fewer
        // programs per SM; 1.26-1.37x its time, session 55's call 4).
        std::optional<LoweringState::SlotFragmentKey> key;
        if (staged->slot) {
          key = {staged->slot, op.getC().getType().getEncoding(),
                 unsigned(isA) | unsigned(staged->transposed) << 1, mn, kk};
          auto it = state.slotFragments.find(*key);
          if (it != state.slotFragments.end() && definedBeforeInBlock(it->second[0], b)) {
            cache[{mn, kk}] = it->second;
            return it->second;
          }
        }
        auto [first, delta] = isA ? std::pair<int64_t, int64_t>{mn, 0} : pairOf(mn);
        SmallVector<Value> regs = isA ? loadFragment(b, loc, *staged, mn, kk)
                                      : loadFragment(b, loc, *staged, kk, first, delta);
        // A: one fragment of 4 registers; B: 2 registers per n-tile read.
        unsigned perTile = isA ? 4 : 2;
        for (unsigned t = 0; t < regs.size() / perTile; ++t) {
          int64_t origin = isA ? mn : first + t * delta;
          SmallVector<Value, 8> frag(regs.begin() + t * perTile,
                                     regs.begin() + (t + 1) * perTile);
          cache[{origin, kk}] = frag;
          if (key) {
            std::get<3>(*key) = origin;
            state.slotFragments[*key] = frag;
          }
        }
        return cache[{mn, kk}];
      }
      const DistributedLayout &l = isA ? ops.a : ops.b;
      ArrayRef<Value> vals = isA ? ops.aVals : ops.bVals;
      unsigned nRegs = isA ? 4 : 2;
      SmallVector<Value, 8> big, small;
      for (unsigned j = 0; j < nRegs; ++j) {
        int64_t rowOff = isA ? (j & 1) * 8 : 0;
        int64_t kOff = kk + (isA ? (j >> 1) : j) * 4 * int64_t(kWidth);
        SmallVector<Value, 4> elems;
        for (unsigned e = 0; e < kWidth; ++e) {
          FailureOr<unsigned> r = isA ? reg(op, l, mn + rowOff, kOff + e)
                                      : reg(op, l, kOff + e, mn);
          if (failed(r))
            return failure();
          elems.push_back(vals[*r]);
        }
        if (tf32x3) {
          auto [hi, lo] = splitTf32(b, loc, elems[0]);
          big.push_back(hi);
          small.push_back(lo);
        } else if (isFp8(elems[0].getType())) {
          big.push_back(fp8PairToF16x2(b, loc, elems[0], elems[1]));
        } else {
          big.push_back(packToI32(b, loc, elems));
        }
      }
      big.append(small.begin(), small.end());
      cache[{mn, kk}] = big;
      return big;
    };

    // Accumulator tiles: registers whose offset has neither the row-8 nor
    // the column-1 instruction bit (repeats step by 16 rows / 8 columns).
    struct Tile {
      int64_t m, n;
      SmallVector<unsigned, 4> regs; // c0..c3
    };
    SmallVector<Tile> tiles;
    for (unsigned r = 0; r < c.numRegs(); ++r) {
      Coord off = c.regOffset(r);
      if ((off[0] & 8) || (off[1] & 1))
        continue;
      Tile t{off[0], off[1], {}};
      for (auto [dm, dn] : {std::pair{0, 0}, {0, 1}, {8, 0}, {8, 1}}) {
        std::optional<unsigned> cr = c.findReg(Coord{off[0] + dm, off[1] + dn});
        if (!cr)
          return op.emitOpError("internal error: accumulator tile without register");
        t.regs.push_back(*cr);
      }
      tiles.push_back(std::move(t));
    }

    auto issue = [&](Tile &t, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs) {
      SmallVector<Value> inputs(aRegs.begin(), aRegs.end());
      inputs.append(bRegs.begin(), bRegs.end());
      if (f16Acc) {
        inputs.push_back(packToI32(b, loc, {acc[t.regs[0]], acc[t.regs[1]]}));
        inputs.push_back(packToI32(b, loc, {acc[t.regs[2]], acc[t.regs[3]]}));
      } else {
        for (unsigned cr : t.regs)
          inputs.push_back(acc[cr]);
      }
      SmallVector<Value> out =
          inlinePtx(b, loc, resultTypes, inputs, text, constraints, false);
      if (!f16Acc) {
        for (auto [i, cr] : llvm::enumerate(t.regs))
          acc[cr] = out[i];
        return;
      }
      auto halves = VectorType::get({2}, b.getI16Type());
      for (unsigned h = 0; h < 2; ++h) {
        Value vec = LLVM::BitcastOp::create(b, loc, halves, out[h]);
        for (unsigned e = 0; e < 2; ++e)
          acc[t.regs[2 * h + e]] = fromBits(
              b, loc, LLVM::ExtractElementOp::create(b, loc, vec, i32Const(b, loc, e)),
              accElem);
      }
    };

    for (int64_t kk = 0; kk < k; kk += instrK) {
      for (Tile &t : tiles) {
        FailureOr<SmallVector<Value, 8>> fa = fragment(true, t.m, kk);
        FailureOr<SmallVector<Value, 8>> fb = fragment(false, t.n, kk);
        if (failed(fa) || failed(fb))
          return failure();
        ArrayRef<Value> aBig = ArrayRef<Value>(*fa).take_front(4);
        ArrayRef<Value> bBig = ArrayRef<Value>(*fb).take_front(2);
        if (tf32x3) {
          issue(t, ArrayRef<Value>(*fa).drop_front(4), bBig);
          issue(t, aBig, ArrayRef<Value>(*fb).drop_front(2));
        }
        issue(t, aBig, bBig);
      }
    }
    return success();
  }
};
} // namespace

unsigned getDotScratchBytes(DotOp op) {
  auto a = cast<RankedTensorType>(op.getA().getType());
  auto b = cast<RankedTensorType>(op.getB().getType());
  if (!isa_and_nonnull<MmaLayoutAttr>(op.getC().getType().getEncoding()))
    return 0;
  // wgmma reads any slot in place even through a transpose (attention's K^T
  // from its TMA slot; readsSlotThroughTranspose); mma.sync a 16-bit one
  // (isStagedByDot).
  std::optional<unsigned> cc = getTargetComputeCapability(op);
  bool wgmma = cc && canUseWgmma(op, *cc);
  auto staged = [&](unsigned index) {
    bool flipped;
    if (wgmma && slotOperand(index == 0 ? op.getA() : op.getB(), flipped))
      return false;
    return isStagedByDot(op, index);
  };
  int64_t elements = (staged(0) ? a.getNumElements() : 0) + (staged(1) ? b.getNumElements() : 0);
  return unsigned(elements * 2);
}

void populateDotPatterns(TileTypeConverter &converter, const LoweringState &state,
                         RewritePatternSet &patterns) {
  patterns.add<DotLowering>(converter, patterns.getContext(), state);
  populateDotOperandPatterns(converter, state, patterns);
}

} // namespace kiln::lowering
