//===- DotOperandToLLVM.cpp - Operands to mma.sync fragments via ldmatrix -===//
//
// tile.convert_layout into a 16-bit #tile.dot_op layout (kWidth = 2: f16 /
// bf16) stages the tile through shared memory in the layout ldmatrix reads
// best, instead of the generic exchange:
//  - A (M x K) is stored row-major with K innermost, B (K x N) with N
//    innermost, in 16-byte chunks of 8 elements, rows cut into panels of at
//    most 64 elements stored one after the other (SwizzledTile);
//  - chunk c of row r is stored at chunk position c ^ ((r / perPhase) %
//    maxPhase) in its panel, perPhase = max(1, 128 / panelBytes), maxPhase
//    = min(chunks per panel row, 8 / perPhase) (the same as wgmma's
//    128/64/32-byte swizzles): the 8 rows one ldmatrix phase reads (one chunk
//    each) land in 8 distinct 16-byte bank groups, so reads are free of bank
//    conflicts, and whole chunks stay contiguous, so every thread still
//    writes its source vectors (up to 16 bytes) in one st.shared;
//  - each warp then reads its A fragments with ldmatrix.x4 (one 16x16 tile
//    per instruction: rows 0-7 / 8-15, K 0-7 / 8-15) and its B fragments
//    with ldmatrix.x2.trans (K 0-7 / 8-15 of one 8-column tile; .trans
//    gives each lane the K pairs of its column);
//  - an operand whose threads hold runs along its other dimension is stored
//    transposed (StagedOperand::transposed, also a transposed slot), so the
//    runs stay whole 16-byte stores: a B loaded K-contiguous (K^T of
//    attention) as N rows of K, read with ldmatrix.x2 without .trans (each
//    lane then gets the K pair of its column directly); an A loaded
//    M-contiguous (x^T in mamba's chunk state) as K rows of M, read with
//    ldmatrix.x4.trans (each lane gets the K pair of its row).
// Other conversions into dot operands (tf32, int8, fp8, FMA), and those
// within a warp that warp shuffles carry out, keep the generic conversion
// (ConvertLayoutOpToLLVM.cpp); its buffer is never smaller than this one
// (padding only adds), so the scratch size stays right.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "kiln/Analysis/MmaLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {
using Coord = DistributedLayout::Coord;

SwizzledTile::SwizzledTile(int64_t rows, int64_t rowLen)
    : rows(rows), rowLen(rowLen), panelLen(std::min<int64_t>(rowLen, 64)) {
  ChunkSwizzle swizzle = ChunkSwizzle::forRow(panelLen, /*elemBytes=*/2);
  perPhase = swizzle.perPhase;
  maxPhase = swizzle.maxPhase;
}

Value sharedAddress32(OpBuilder &b, Location loc, Value offset, int64_t byteBase,
                      Value dynamicBase) {
  Value bytes = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, offset, i32Const(b, loc, 2)),
      i32Const(b, loc, byteBase));
  if (dynamicBase)
    bytes = arith::AddIOp::create(b, loc, bytes, dynamicBase);
  return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), sharedPtr(b, loc, bytes));
}

Value SwizzledTile::offset(OpBuilder &b, Location loc, Value row, Value col) const {
  Value panel = arith::DivUIOp::create(b, loc, col, i32Const(b, loc, panelLen));
  Value inPanel = arith::RemUIOp::create(b, loc, col, i32Const(b, loc, panelLen));
  Value chunk = arith::ShRUIOp::create(b, loc, inPanel, i32Const(b, loc, 3));
  Value within = arith::AndIOp::create(b, loc, col, i32Const(b, loc, 7));
  Value phase = arith::RemUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, row, i32Const(b, loc, perPhase)),
      i32Const(b, loc, maxPhase));
  Value swizzled = arith::XOrIOp::create(b, loc, chunk, phase);
  Value rowStart = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, row, i32Const(b, loc, panelLen)),
      arith::MulIOp::create(b, loc, panel, i32Const(b, loc, rows * panelLen)));
  return arith::AddIOp::create(
      b, loc, rowStart,
      arith::AddIOp::create(b, loc, arith::ShLIOp::create(b, loc, swizzled, i32Const(b, loc, 3)),
                            within));
}

int64_t SwizzledTile::offset(int64_t row, int64_t col) const {
  ChunkSwizzle panel{panelLen, perPhase, maxPhase};
  return col / panelLen * rows * panelLen + panel.offset(row, col % panelLen, 8);
}

bool SwizzledTile::isLinear() const {
  return llvm::isPowerOf2_64(rows) && llvm::isPowerOf2_64(panelLen) &&
         llvm::isPowerOf2_64(perPhase) && llvm::isPowerOf2_64(maxPhase);
}

StagedOperand describeStaged(OpBuilder &b, Location loc, const LoweringState::ThreadIds &ids,
                             int64_t rows, int64_t rowLen, const DistributedLayout &fragments,
                             bool isA,
                             int64_t byteBase, Value dynamicBase) {
  // Per lane: the warp's offset in the fragment layout (lane part zero) and
  // the row of the 8x8 matrix the lane addresses.
  StagedOperand s{rows, rowLen, isA, byteBase, dynamicBase, {}, {}, {}, {}};
  s.warpBase = threadCoords(b, loc, fragments, i32Const(b, loc, 0), ids.warp);
  s.laneRow = arith::AndIOp::create(b, loc, ids.lane, i32Const(b, loc, 7));
  Value matrix = arith::ShRUIOp::create(b, loc, ids.lane, i32Const(b, loc, 3)); // 0..3
  s.matLow = arith::AndIOp::create(b, loc, matrix, i32Const(b, loc, 1));
  s.matHigh = arith::ShRUIOp::create(b, loc, matrix, i32Const(b, loc, 1));
  return s;
}

StagedOperand stageOperand(OpBuilder &b, Location loc, const LoweringState::ThreadIds &ids,
                           const DistributedLayout &src, ArrayRef<Value> values,
                           const DistributedLayout &fragments, bool isA, int64_t byteBase) {
  // Threads holding runs down the columns (B along K, A along M) store the
  // tile transposed, so that those runs stay whole 16-byte stores.
  bool transposed = src.contiguousRegsAlong(0) > src.contiguousRegsAlong(1);
  unsigned inner = transposed ? 0 : 1;
  SwizzledTile tile(src.shape[1 - inner], src.shape[inner]);
  Type i16 = b.getI16Type();
  // Writes: every first copy stores its runs along the inner dimension.
  unsigned vec = std::min(8u, src.contiguousRegsAlong(inner));
  auto write = [&](OpBuilder &w) {
    SmallVector<Value> base = threadCoords(w, loc, src, ids.lane, ids.warp);
    for (unsigned r = 0; r < src.numRegs(); r += vec) {
      Coord off = src.regOffset(r);
      Value row = arith::AddIOp::create(w, loc, base[1 - inner],
                                        i32Const(w, loc, off[1 - inner]));
      Value col = arith::AddIOp::create(w, loc, base[inner], i32Const(w, loc, off[inner]));
      Value bytes = arith::AddIOp::create(
          w, loc,
          arith::MulIOp::create(w, loc, tile.offset(w, loc, row, col), i32Const(w, loc, 2)),
          i32Const(w, loc, byteBase));
      Value ptr = sharedPtr(w, loc, bytes);
      if (vec == 1) {
        LLVM::StoreOp::create(w, loc, toBits(w, loc, values[r]), ptr, 2);
        continue;
      }
      auto vecType = VectorType::get({int64_t(vec)}, i16);
      Value v = LLVM::UndefOp::create(w, loc, vecType);
      for (unsigned k = 0; k < vec; ++k)
        v = LLVM::InsertElementOp::create(w, loc, v, toBits(w, loc, values[r + k]),
                                          i32Const(w, loc, k));
      LLVM::StoreOp::create(w, loc, v, ptr, 2 * vec);
    }
  };
  if (Value owner = isFirstCopy(b, loc, src, ids.lane, ids.warp)) {
    scf::IfOp::create(b, loc, owner, [&](OpBuilder &w, Location l) {
      write(w);
      scf::YieldOp::create(w, l);
    });
  } else {
    write(b);
  }
  StagedOperand staged =
      describeStaged(b, loc, ids, tile.rows, tile.rowLen, fragments, isA, byteBase, Value());
  staged.transposed = transposed;
  return staged;
}

SmallVector<Value> loadFragment(OpBuilder &b, Location loc, const StagedOperand &s,
                                int64_t row0, int64_t col0, int64_t pairCol) {
  assert((!pairCol || !s.isA) && "only B fragments load in pairs");
  SwizzledTile tile(s.rows, s.rowLen);
  Type i32 = b.getI32Type();
  Value eight = i32Const(b, loc, 8);
  // A pair of B fragments: lanes 16-31 address the second tile, pairCol
  // columns on (matrices 2 and 3 of an x4 read).
  auto pairOffset = [&](Value n) -> Value {
    if (!pairCol)
      return n;
    return arith::AddIOp::create(b, loc, n,
                                 arith::MulIOp::create(b, loc, s.matHigh,
                                                       i32Const(b, loc, pairCol)));
  };
  // B's read: x2 (one tile) or x4 (a pair), with or without .trans.
  auto loadB = [&](Value addr, bool trans) {
    unsigned n = pairCol ? 4 : 2;
    std::string text = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(n) +
                       (trans ? ".trans" : "") + ".shared.b16 " + asmOperandList(0, n) +
                       ", [$" + std::to_string(n) + "];";
    std::string constraints;
    for (unsigned i = 0; i < n; ++i)
      constraints += "=r,";
    return inlinePtx(b, loc, SmallVector<Type>(n, i32), {addr}, text, constraints + "r",
                     /*hasSideEffects=*/true);
  };
  if (s.transposed && s.isA) {
    // A (row0 = M, col0 = K) stored as K rows of M: lane l addresses K row
    // (l % 8) + 8 * (matrix >> 1) at M column 8 * (matrix & 1), the four
    // 8x8 matrices in the order of the non-transposed read; .trans gives
    // each lane the K pair of its row.
    Value k = arith::AddIOp::create(
        b, loc, arith::AddIOp::create(b, loc, s.warpBase[1], i32Const(b, loc, col0)),
        arith::AddIOp::create(b, loc, s.laneRow, arith::MulIOp::create(b, loc, s.matHigh, eight)));
    Value m = arith::AddIOp::create(
        b, loc, arith::AddIOp::create(b, loc, s.warpBase[0], i32Const(b, loc, row0)),
        arith::MulIOp::create(b, loc, s.matLow, eight));
    Value addr = sharedAddress32(b, loc, tile.offset(b, loc, k, m), s.byteBase, s.dynamicBase);
    return inlinePtx(b, loc, {i32, i32, i32, i32}, {addr},
                     "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];",
                     "=r,=r,=r,=r,r", /*hasSideEffects=*/true);
  }
  if (s.transposed) {
    // B (row0 = K, col0 = N) stored as N rows of K: lanes 0-7 address the 8
    // columns' K 0-7, lanes 8-15 their K 8-15; each lane receives the K pair
    // of its column, as .trans gives it from the N-major form.
    Value n = pairOffset(arith::AddIOp::create(
        b, loc, arith::AddIOp::create(b, loc, s.warpBase[1], i32Const(b, loc, col0)), s.laneRow));
    Value k = arith::AddIOp::create(
        b, loc, arith::AddIOp::create(b, loc, s.warpBase[0], i32Const(b, loc, row0)),
        arith::MulIOp::create(b, loc, s.matLow, eight));
    Value addr = sharedAddress32(b, loc, tile.offset(b, loc, n, k), s.byteBase, s.dynamicBase);
    return loadB(addr, /*trans=*/false);
  }
  // Lane l addresses row (l % 8) + 8 * (matrix & 1) of the tile at (row0,
  // col0); A's matrices 2 and 3 are the next K chunk.
  Value row = arith::AddIOp::create(
      b, loc, arith::AddIOp::create(b, loc, s.warpBase[0], i32Const(b, loc, row0)),
      arith::AddIOp::create(b, loc, s.laneRow, arith::MulIOp::create(b, loc, s.matLow, eight)));
  Value col = arith::AddIOp::create(b, loc, s.warpBase[1], i32Const(b, loc, col0));
  if (s.isA)
    col = arith::AddIOp::create(b, loc, col, arith::MulIOp::create(b, loc, s.matHigh, eight));
  else
    col = pairOffset(col);
  Value addr = sharedAddress32(b, loc, tile.offset(b, loc, row, col), s.byteBase, s.dynamicBase);
  if (s.isA)
    return inlinePtx(b, loc, {i32, i32, i32, i32}, {addr},
                     "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];",
                     "=r,=r,=r,=r,r", /*hasSideEffects=*/true);
  return loadB(addr, /*trans=*/true);
}

namespace {
struct LdmatrixOperandLowering : OpConversionPattern<ConvertLayoutOp> {
  LdmatrixOperandLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx, /*benefit=*/2), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(ConvertLayoutOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto dstType = cast<RankedTensorType>(op.getType());
    auto dotOp = dyn_cast_or_null<DotOperandLayoutAttr>(dstType.getEncoding());
    Type elem = dstType.getElementType();
    if (!dotOp || dotOp.getKWidth() != 2 || !(elem.isF16() || elem.isBF16()))
      return rewriter.notifyMatchFailure(op, "not a 16-bit mma.sync operand");
    std::optional<DistributedLayout> src = getDistributedLayout(op.getSrc().getType());
    std::optional<DistributedLayout> dst = getDistributedLayout(dstType);
    if (!src || !dst)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    // Register renaming needs no scratch (and gets none): leave it to the
    // generic conversion.
    if (src->sameThreadMapping(*dst))
      return rewriter.notifyMatchFailure(op, "no data moves between threads");
    // Nor do warp shuffles (and the scratch size, getConvertLayoutScratchBytes,
    // counts none for them).
    if (chooseWarpShuffle(*src, *dst, exchangeBits(elem)))
      return rewriter.notifyMatchFailure(op, "moved by warp shuffles");
    bool isA = dotOp.getOpIdx() == 0;
    if (dstType.getDimSize(0) < 16 || dstType.getDimSize(1) < 16)
      return rewriter.notifyMatchFailure(op, "tile smaller than one fragment");

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    SmallVector<Value> values(adaptor.getSrc().begin(), adaptor.getSrc().end());
    barrier(b, loc); // an earlier user of the scratch may still read it
    StagedOperand staged =
        stageOperand(b, loc, state.idsFor(op), *src, values, *dst, isA, /*byteBase=*/0);
    barrier(b, loc);

    SmallVector<Value> out(dst->numRegs());
    auto unpack = [&](Value reg, unsigned r0, unsigned r1) {
      auto halves = VectorType::get({2}, b.getI16Type());
      Value v = LLVM::BitcastOp::create(b, loc, halves, reg);
      out[r0] = fromBits(b, loc, LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, 0)), elem);
      out[r1] = fromBits(b, loc, LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, 1)), elem);
    };
    auto regOf = [&](int64_t r, int64_t c) -> FailureOr<unsigned> {
      std::optional<unsigned> reg = dst->findReg(Coord{r, c});
      if (!reg)
        return op.emitOpError("internal error: no register of the dot operand holds (")
               << r << ", " << c << ")";
      return *reg;
    };
    for (unsigned r = 0; r < dst->numRegs(); ++r) {
      Coord o = dst->regOffset(r);
      // Fragment origins: A 16x16 tiles, B 16 (K) x 8 tiles.
      if ((o[0] & 15) || (o[1] & (isA ? 15 : 7)))
        continue;
      SmallVector<Value> regs = loadFragment(b, loc, staged, o[0], o[1]);
      for (auto [j, reg] : llvm::enumerate(regs)) {
        // A: register j = rows +8*(j&1), K +8*(j>>1); B: K +8*j.
        int64_t rr = isA ? o[0] + (j & 1) * 8 : o[0] + 8 * j;
        int64_t cc = isA ? o[1] + (j >> 1) * 8 : o[1];
        FailureOr<unsigned> lo = regOf(rr, cc);
        FailureOr<unsigned> hi = isA ? regOf(rr, cc + 1) : regOf(rr + 1, cc);
        if (failed(lo) || failed(hi))
          return failure();
        unpack(reg, *lo, *hi);
      }
    }
    for (Value v : out)
      if (!v)
        return op.emitOpError("internal error: a dot operand register was not loaded");
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};
} // namespace

void populateDotOperandPatterns(TileTypeConverter &converter, const LoweringState &state,
                                RewritePatternSet &patterns) {
  patterns.add<LdmatrixOperandLowering>(converter, patterns.getContext(), state);
}

} // namespace kiln::lowering
