//===- WgmmaToLLVM.cpp - tile.dot on sm_90 warp-group MMA (wgmma) ---------===//
//
// A tile.dot whose f16/bf16 operands sit in software-pipelined !tile.smem
// slots, in registers (A only: its #tile.dot_op fragments, or the
// accumulator's own layout) or are staged by the dot into swizzled scratch
// (what Triton's local_alloc does), and whose f32 accumulator has its warps
// in warp groups along M (#tile.mma<version = 2, warpsPerCTA = [W, 1]> or
// <version = 3, warpsPerCTA = [W, G]>, W a multiple of 4) runs as
// wgmma.mma_async.m64nNk16 on sm_90: each group of 4 consecutive warps (a
// warp group) owns 64 consecutive rows of every 16*W-row block, which is
// exactly where the mma layout puts them, and (version 3) one of G
// contiguous column blocks, whose B it reads from that block's first row or
// panel; a wgmma accumulator fragment per warp is the mma.sync m16n8 one
// repeated over its columns, so the registers need no shuffling. The operands are read by the tensor cores straight from the
// slots through matrix descriptors:
//  - A (M x K, K innermost) is "K-major": the slot's panels of up to 64
//    elements per row with the 128/64/32-byte swizzle are wgmma's canonical
//    swizzled layout; stride byte offset = 8 rows of a panel;
//  - B (K x N, N innermost) is "N-major" (transposed): leading byte offset =
//    one panel (64 columns x K rows), stride byte offset = 8 rows of a panel;
//  - a transposed A slot (K rows of M, an A loaded M-contiguous) is
//    "M-major", described as an N-major B: f16/bf16 only.
// Each K step of 16 advances A's start address by 32 bytes (inside a panel)
// and B's by 16 rows. tf32 operands (f32 slots, two 16-bit units per
// element) and fp8 operands (e4m3 / e5m2 slots, half a unit per element),
// both K-major, use the same descriptors with k8 and k32 instructions: 8
// tf32 and 32 fp8 are the same 32 bytes as 16 halves. The products of a dot
// form one wgmma group that is waited for before the accumulator is used
// (the wait takes and returns the accumulator, so nothing reads it early).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "kiln/Analysis/MmaLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {
namespace {

/// wgmma's swizzle mode field for a panel row of `bytes` bytes.
std::optional<uint64_t> swizzleMode(int64_t bytes) {
  switch (bytes) {
  case 128:
    return 1;
  case 64:
    return 2;
  case 32:
    return 3;
  default:
    return std::nullopt;
  }
}

/// The 64-bit matrix descriptor of the tile at shared address `addr` (i32).
Value descriptor(OpBuilder &b, Location loc, Value addr, int64_t leadingBytes,
                 int64_t strideBytes, uint64_t mode) {
  Type i64 = b.getI64Type();
  uint64_t fixed = (uint64_t((leadingBytes >> 4) & 0x3FFF) << 16) |
                   (uint64_t((strideBytes >> 4) & 0x3FFF) << 32) | (mode << 62);
  Value start = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, addr, i32Const(b, loc, 4)),
      i32Const(b, loc, 0x3FFF));
  Value wide = arith::ExtUIOp::create(b, loc, i64, start);
  return arith::OrIOp::create(b, loc, wide,
                              arith::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(fixed)));
}

/// The descriptor of the tile `bytes` (a multiple of 16) after `desc`'s: the
/// start address field counts 16-byte units, and shared addresses stay below
/// 2^18 bytes, so the sum never carries out of the field.
Value advance(OpBuilder &b, Location loc, Value desc, int64_t bytes) {
  if (bytes == 0)
    return desc;
  return arith::AddIOp::create(b, loc, desc,
                               arith::ConstantOp::create(b, loc, b.getI64Type(),
                                                         b.getI64IntegerAttr(bytes >> 4)));
}

/// The 32-bit shared address of the slot a tile.local_load reads.
Value slotAddress(ConversionPatternRewriter &rewriter, Location loc, const LoweringState &state,
                  LocalLoadOp slot) {
  Value bytes = slotByteOffset(rewriter, loc, state, slot);
  return LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI32Type(),
                                  sharedPtr(rewriter, loc, bytes));
}

/// `n` f32 registers passed through inline PTX `text` (tied in and out) with
/// `extra` inputs after them ($n, $n+1, ...).
SmallVector<Value> throughAsm(OpBuilder &b, Location loc, ArrayRef<Value> regs,
                              ArrayRef<Value> extra, StringRef extraConstraints,
                              const std::string &text) {
  unsigned n = regs.size();
  // f32 accumulators, or int32 ones of an int8 dot.
  SmallVector<std::string> cons;
  SmallVector<Type> types;
  for (Value r : regs) {
    cons.push_back(r.getType().isF32() ? "=f" : "=r");
    types.push_back(r.getType());
  }
  if (!extraConstraints.empty())
    cons.push_back(extraConstraints.str());
  for (unsigned i = 0; i < n; ++i)
    cons.push_back(std::to_string(i));
  SmallVector<Value> inputs(extra.begin(), extra.end());
  inputs.append(regs.begin(), regs.end());
  return inlinePtx(b, loc, types, inputs, text, llvm::join(cons, ","), /*hasSideEffects=*/true);
}

/// The dot's K in 16-bit units: twice K for tf32, half of it for fp8, whose
/// K-major slots are laid out as rows of that many halves, so that a K step
/// of 8 tf32 or 32 fp8 is the same 32 bytes as one of 16 halves.
int64_t kUnits(DotOp op) {
  return op.getA().getType().getDimSize(1) *
         op.getA().getType().getElementType().getIntOrFloatBitWidth() / 16;
}

bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

/// The PTX name of an operand element type (int8 is signed, as tl.dot's).
std::string ptxType(Type t) {
  if (t.isF32())
    return "tf32";
  if (t.isInteger(8))
    return "s8";
  if (isa<Float8E4M3FNType>(t))
    return "e4m3";
  if (isa<Float8E5M2Type>(t))
    return "e5m2";
  return t.isF16() ? "f16" : "bf16";
}

bool isTransposedSlot(LocalLoadOp slot) {
  return slot && slot.getBuffer().getType().getTransposed();
}

/// Whether the dot stages operand `index` itself (f16/bf16 in registers in
/// a blocked layout: loaded outside a pipelined loop, or computed; or in an
/// accumulator layout: fla's recurrences multiply by `tl.dot(k, v_new)` a
/// `v_new` computed from another dot's result), and then whether its
/// threads' runs go down the first dimension: stored transposed (B as N
/// rows of K, A as K rows of M), as stageOperand does.
std::optional<bool> stagedTransposed(DotOp op, unsigned index) {
  Value operand = index == 0 ? op.getA() : op.getB();
  auto type = cast<RankedTensorType>(operand.getType());
  bool flipped;
  if (slotOperand(operand, flipped) ||
      !isa_and_nonnull<BlockedLayoutAttr, MmaLayoutAttr>(type.getEncoding()) ||
      !(type.getElementType().isF16() || type.getElementType().isBF16()))
    return std::nullopt;
  std::optional<DistributedLayout> layout = getDistributedLayout(type);
  if (!layout)
    return std::nullopt;
  return layout->contiguousRegsAlong(0) > layout->contiguousRegsAlong(1);
}

/// A's shared-memory tile: M rows of K, or K rows of M when M-major. (A in
/// registers has none; the K-major geometry then only sizes nothing.)
SwizzledTile storedA(bool mMajor, int64_t m, int64_t kUnits) {
  return mMajor ? SwizzledTile(kUnits, m) : SwizzledTile(m, kUnits);
}

/// Where each operand of a wgmma comes from.
struct WgmmaOperands {
  LocalLoadOp slotA, slotB;
  /// The slot is read as its transpose (a tile.trans of its local_load:
  /// the same bytes with the other majorness).
  bool flippedA = false, flippedB = false;
  bool registerA = false;
  /// Set when the dot stages the operand: whether it is stored transposed.
  std::optional<bool> stagedA, stagedB;
  bool smemA() const { return slotA || stagedA; }
  bool mMajorA() const {
    return slotA ? isTransposedSlot(slotA) != flippedA : stagedA.value_or(false);
  }
  bool kMajorB() const {
    return slotB ? isTransposedSlot(slotB) != flippedB : stagedB.value_or(false);
  }
};

WgmmaOperands wgmmaOperands(DotOp op) {
  WgmmaOperands w;
  w.slotA = slotOperand(op.getA(), w.flippedA);
  w.slotB = slotOperand(op.getB(), w.flippedB);
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(op.getC().getType().getEncoding());
  // A in registers: the fragments of this accumulator layout, which are
  // wgmma's register A fragments (the mma.sync m16n8k16 ones per warp).
  auto opA = dyn_cast_or_null<DotOperandLayoutAttr>(op.getA().getType().getEncoding());
  w.registerA =
      (opA && opA.getParent() == mma && opA.getKWidth() == 2) || isAccumulatorLayoutA(op);
  // Operands in registers otherwise are staged into swizzled shared memory
  // for the wgmma to read, as Triton's local_alloc does (mamba's chunk state
  // scales its B; its chunk scan multiplies two tiles loaded once).
  if (!w.slotA && !w.registerA)
    w.stagedA = stagedTransposed(op, 0);
  if (!w.slotB)
    w.stagedB = stagedTransposed(op, 1);
  return w;
}

} // namespace

LocalLoadOp slotOperand(Value operand, bool &flipped) {
  flipped = false;
  if (auto slot = operand.getDefiningOp<LocalLoadOp>())
    return slot;
  auto trans = operand.getDefiningOp<TransOp>();
  if (!trans || trans.getOrder().size() != 2 || trans.getOrder()[0] != 1)
    return {};
  auto slot = trans.getSrc().getDefiningOp<LocalLoadOp>();
  if (!slot)
    return {};
  flipped = true;
  return slot;
}

std::optional<SmallVector<DotOp>> slotReaderDots(LocalLoadOp load) {
  SmallVector<DotOp> dots;
  SmallVector<Operation *> readers(load->getUsers());
  for (unsigned i = 0; i < readers.size(); ++i) {
    if (auto trans = dyn_cast<TransOp>(readers[i])) {
      readers.append(trans->user_begin(), trans->user_end());
      continue;
    }
    auto dot = dyn_cast<DotOp>(readers[i]);
    if (!dot)
      return std::nullopt;
    dots.push_back(dot);
  }
  return dots;
}

bool canUseWgmma(DotOp op, unsigned computeCapability) {
  if (computeCapability < 90)
    return false;
  auto cType = cast<RankedTensorType>(op.getC().getType());
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(cType.getEncoding());
  WgmmaOperands w = wgmmaOperands(op);
  LocalLoadOp slotA = w.slotA, slotB = w.slotB;
  Type elem = op.getA().getType().getElementType();
  // int8 operands accumulate in int32 (s8 wgmma), all others in f32.
  bool int8 = elem.isInteger(8) && cType.getElementType().isInteger(32);
  if ((!w.smemA() && !w.registerA) || (!slotB && !w.stagedB) || !mma ||
      !(cType.getElementType().isF32() || int8))
    return false;
  // fp8 operands may mix e4m3 and e5m2.
  bool fp8 = isFp8(elem) && isFp8(op.getB().getType().getElementType());
  if (op.getB().getType().getElementType() != elem && !fp8)
    return false;
  // tf32 (f32 operands), fp8 and int8: both K-major in slots (their wgmma
  // has no transposed operands; Kiln keeps no such A in registers).
  bool tf32 = elem.isF32() && op.getInputPrecision() == InputPrecision::tf32;
  if ((tf32 || fp8 || int8) && (!slotA || !slotB || w.mMajorA() || !w.kMajorB()))
    return false;
  if (!(elem.isF16() || elem.isBF16() || tf32 || fp8 || int8))
    return false;
  ArrayRef<unsigned> warps = mma.getWarpsPerCTA();
  int64_t m = cType.getDimSize(0), n = cType.getDimSize(1);
  int64_t k = kUnits(op);
  if (!isWarpGroupMma(mma) || m % (16 * warps[0]) || k % 16 || n % warps[1])
    return false;
  // Each warp group's columns (version 3 splits N between groups).
  int64_t block = n / warps[1];
  if (block % 8 || (block > 256 && block % 256))
    return false;
  // Integer shapes are m64nNk32 with N 8, 16, 24, then multiples of 16.
  if (int8 && std::min<int64_t>(block, 256) > 24 && block % 16)
    return false;
  // Panel widths wgmma can describe (128/64/32-byte rows).
  SwizzledTile a = storedA(w.mMajorA(), m, k),
               b = w.kMajorB() ? SwizzledTile(n, k) : SwizzledTile(k, n);
  // An N-major B's group block starts at a panel.
  if (!w.kMajorB() && warps[1] > 1 && block % b.panelLen)
    return false;
  return swizzleMode(a.panelLen * 2) && swizzleMode(b.panelLen * 2);
}

LogicalResult lowerWgmma(ConversionPatternRewriter &rewriter, DotOp op,
                         const LoweringState &state, const DistributedLayout &a,
                         ValueRange aVals, const DistributedLayout &bLayout, ValueRange bVals,
                         const DistributedLayout &c, SmallVector<Value> &acc) {
  Location loc = op.getLoc();
  OpBuilder &b = rewriter;
  WgmmaOperands w = wgmmaOperands(op);
  LocalLoadOp slotA = w.slotA, slotB = w.slotB;
  bool smemA = w.smemA();
  auto cType = cast<RankedTensorType>(op.getC().getType());
  auto mma = cast<MmaLayoutAttr>(cType.getEncoding());
  int64_t m = cType.getDimSize(0), n = cType.getDimSize(1);
  // K in 16-bit units (tf32: two per element, fp8: half a unit); each
  // instruction's K step is 16 units, 32 bytes: k16 for f16/bf16, k8 for
  // tf32, k32 for fp8.
  int64_t k = kUnits(op);
  unsigned warpsM = mma.getWarpsPerCTA()[0], warpsN = mma.getWarpsPerCTA()[1];
  // The columns of each warp group (all of N unless version 3 splits it).
  int64_t block = n / warpsN;
  bool kMajorB = w.kMajorB(), mMajorA = w.mMajorA();
  SwizzledTile tileA = storedA(mMajorA, m, k),
               tileB = kMajorB ? SwizzledTile(n, k) : SwizzledTile(k, n);
  uint64_t modeA = *swizzleMode(tileA.panelLen * 2), modeB = *swizzleMode(tileB.panelLen * 2);
  Type elemType = op.getA().getType().getElementType();
  // tf32, fp8 and int8 are read K-major only: no transpose fields; int8
  // has no scale fields either and accumulates in s32.
  bool int8 = elemType.isInteger(8);
  bool kMajorOnly = elemType.isF32() || isFp8(elemType) || int8;
  int64_t instrK = 16 * 16 / elemType.getIntOrFloatBitWidth();
  std::string types = ptxType(elemType) + "." + ptxType(op.getB().getType().getElementType());

  // Operands the dot stages go to the scratch (getDotScratchBytes sizes
  // it): A at 0, B after it. The generic-proxy stores are fenced before the
  // async-proxy wgmma reads.
  auto scratchAddress = [&](int64_t bytes) -> Value {
    return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(),
                                    sharedPtr(b, loc, i32Const(b, loc, bytes)));
  };
  int64_t bBase = w.stagedA ? m * k * 2 : 0;
  if (w.stagedA || w.stagedB) {
    barrier(b, loc); // an earlier user of the scratch may still read it
    for (unsigned index : {0u, 1u}) {
      if (!(index == 0 ? w.stagedA : w.stagedB))
        continue;
      Value operand = index == 0 ? op.getA() : op.getB();
      auto fragments = getDistributedLayout(
          cast<RankedTensorType>(operand.getType()).getShape(),
          DotOperandLayoutAttr::get(op.getContext(), index, mma, 2));
      if (!fragments)
        return op.emitOpError("internal error: no fragment layout for a staged wgmma operand");
      SmallVector<Value> values(index == 0 ? aVals.begin() : bVals.begin(),
                                index == 0 ? aVals.end() : bVals.end());
      stageOperand(b, loc, state.idsFor(op), index == 0 ? a : bLayout, values, *fragments,
                   /*isA=*/index == 0, /*byteBase=*/index == 0 ? 0 : bBase);
    }
    inlinePtx(b, loc, {}, {}, "fence.proxy.async.shared::cta;", "", /*hasSideEffects=*/true);
    barrier(b, loc);
  }
  Value addrB = slotB ? slotAddress(rewriter, loc, state, slotB) : scratchAddress(bBase);
  Value warp = state.idsFor(op).warp;
  if (warpsN > 1) {
    // Version 3: warp / warpsM picks the group's column block, at `block`
    // rows further (K-major) or whole panels further (N-major).
    int64_t blockBytes = kMajorB ? block * tileB.panelLen * 2
                                 : block / tileB.panelLen * tileB.panelBytes();
    Value column = arith::ShRUIOp::create(b, loc, warp, i32Const(b, loc, llvm::Log2_32(warpsM)));
    addrB = arith::AddIOp::create(
        b, loc, addrB, arith::MulIOp::create(b, loc, column, i32Const(b, loc, blockBytes)));
  }
  Value groupA;
  if (smemA) {
    // The warp group's first row: 16 * (its first warp along M), the warp's
    // M index (warp % warpsM once groups split N) rounded down to a
    // multiple of 4.
    unsigned groupMask = warpsN > 1 ? (warpsM - 1) & ~3u : ~3u;
    Value groupRow = arith::MulIOp::create(
        b, loc, arith::AndIOp::create(b, loc, warp, i32Const(b, loc, int32_t(groupMask))),
        i32Const(b, loc, 16));
    // K-major: groupRow rows of a panel; M-major: groupRow (a multiple of
    // 64) columns, whole panels of K rows each.
    int64_t bytesPerRow = mMajorA ? tileA.panelBytes() / tileA.panelLen : tileA.panelLen * 2;
    groupA = arith::AddIOp::create(
        b, loc, slotA ? slotAddress(rewriter, loc, state, slotA) : scratchAddress(0),
        arith::MulIOp::create(b, loc, groupRow, i32Const(b, loc, bytesPerRow)));
  }
  // A's registers for (M block, K step): the m16n8k16 A fragment of the
  // warp's 16 rows, a0a1 (row, k), a2a3 (row + 8, k), a4a5 (row, k + 8),
  // a6a7 (row + 8, k + 8), two f16 per register.
  auto registerFragment = [&](int64_t mb, int64_t kk) -> FailureOr<SmallVector<Value>> {
    SmallVector<Value> regs;
    for (auto [dr, dk] : {std::pair{0, 0}, {8, 0}, {0, 8}, {8, 8}}) {
      SmallVector<Value, 2> pair;
      for (int64_t e = 0; e < 2; ++e) {
        std::optional<unsigned> r =
            a.findReg(DistributedLayout::Coord{16 * warpsM * mb + dr, kk + dk + e});
        if (!r)
          return op.emitOpError("internal error: wgmma A element without register");
        pair.push_back(aVals[*r]);
      }
      regs.push_back(packToI32(b, loc, pair));
    }
    return regs;
  };

  // Accumulator registers per (M block, N chunk) in wgmma's order: for each
  // 8 columns, (row, col), (row, col + 1), (row + 8, col), (row + 8, col + 1).
  int64_t mBlocks = m / (16 * warpsM);
  int64_t nInstr = std::min<int64_t>(block, 256);
  SmallVector<SmallVector<unsigned>> regsOf; // [mBlock * nChunks + chunk]
  for (int64_t mb = 0; mb < mBlocks; ++mb)
    for (int64_t n0 = 0; n0 < block; n0 += nInstr) {
      SmallVector<unsigned> regs;
      for (int64_t col = n0; col < n0 + nInstr; col += 8)
        for (auto [dr, dc] : {std::pair{0, 0}, {0, 1}, {8, 0}, {8, 1}}) {
          std::optional<unsigned> r =
              c.findReg(DistributedLayout::Coord{16 * warpsM * mb + dr, col + dc});
          if (!r)
            return op.emitOpError("internal error: wgmma accumulator element without register");
          regs.push_back(*r);
        }
      regsOf.push_back(std::move(regs));
    }

  // A's registers, all packed before the fence that orders register writes
  // before the wgmma reads of them.
  SmallVector<SmallVector<Value>> aFragments; // [kStep * mBlocks + mBlock]
  if (!smemA)
    for (int64_t kk = 0; kk < k; kk += 16)
      for (int64_t mb = 0; mb < mBlocks; ++mb) {
        FailureOr<SmallVector<Value>> regs = registerFragment(mb, kk);
        if (failed(regs))
          return failure();
        aFragments.push_back(std::move(*regs));
      }
  inlinePtx(b, loc, {}, {}, "wgmma.fence.sync.aligned;", "", /*hasSideEffects=*/true);
  unsigned nAcc = nInstr / 2;
  // scale-d (a predicate: accumulate), then A and B unscaled, A K-major (0)
  // or M-major (1, a transposed slot; no such field for A in registers), B
  // N-major (1) or K-major (0, a transposed slot); tf32 and fp8 have no
  // transpose fields. Inputs
  // after the accumulators: A (descriptor or 4 registers), B's descriptor,
  // the accumulate flag.
  unsigned aInputs = smemA ? 1 : 4;
  std::string aOperand = smemA ? "$" + std::to_string(nAcc) : asmOperandList(nAcc, 4);
  std::string transposeFields =
      kMajorOnly ? ""
                 : std::string(", ") + (smemA ? (mMajorA ? "1, " : "0, ") : "") +
                       (kMajorB ? "0" : "1");
  std::string text = "{ .reg .pred p; setp.ne.b32 p, $" + std::to_string(nAcc + aInputs + 1) +
                     ", 0; wgmma.mma_async.sync.aligned.m64n" + std::to_string(nInstr) + "k" +
                     std::to_string(instrK) + (int8 ? ".s32." : ".f32.") + types + " " +
                     asmOperandList(0, nAcc) + ", " + aOperand + ", $" +
                     std::to_string(nAcc + aInputs) + (int8 ? ", p" : ", p, 1, 1") +
                     transposeFields + "; }";
  std::string inputConstraints = smemA ? "l,l,r" : "r,r,r,r,l,r";
  // A zero accumulator (attention's scores, a dot without `acc`) is not
  // materialized: the first K step runs with scale-d = 0, which ignores it.
  bool zeroInit = int8 ? matchPattern(op.getC(), m_Zero()) : matchPattern(op.getC(), m_AnyZeroFloat());
  if (zeroInit) {
    Value undef = LLVM::UndefOp::create(b, loc, int8 ? Type(b.getI32Type()) : Type(b.getF32Type()));
    for (Value &v : acc)
      v = undef;
  }
  // Each step's descriptors are the slot's plus its byte offset / 16.
  Value baseDescA = smemA ? descriptor(b, loc, groupA, mMajorA ? tileA.panelBytes() : 16,
                                      8 * tileA.panelLen * 2, modeA)
                          : Value();
  Value baseDescB = descriptor(b, loc, addrB, kMajorB ? 16 : tileB.panelBytes(),
                               8 * tileB.panelLen * 2, modeB);
  Value accumulate = i32Const(b, loc, 1);
  Value overwrite = zeroInit ? i32Const(b, loc, 0) : accumulate;
  // Block by block: all K steps of the warp group's first 64 rows, then
  // the next 64 (Triton's order). Issued K step by K step across the
  // blocks, no block's result was complete before the others', and ptxas
  // held all of them with what the code after the wait computes from the
  // first: attention at HEAD_DIM 128, 128 x 128 blocks, 4 warps spilled
  // 3.2 KB with P @ V in flight, 96 bytes in this order.
  for (int64_t mb = 0; mb < mBlocks; ++mb) {
    for (int64_t kk = 0; kk < k; kk += 16) {
      // A: K-major, the panel holding kk, 32 bytes per K step inside it;
      // M-major as an N-major B, 16 rows per K step.
      auto inPanels = [&](const SwizzledTile &tile) {
        return (kk / tile.panelLen) * tile.panelBytes() + (kk % tile.panelLen) * 2;
      };
      int64_t offA = mMajorA ? kk * tileA.panelLen * 2 : inPanels(tileA);
      // B: N-major, 16 rows per K step; K-major as A (32 bytes per K step
      // inside the panel holding kk).
      int64_t offB = kMajorB ? inPanels(tileB) : kk * tileB.panelLen * 2;
      SmallVector<Value> aIn;
      if (smemA) {
        int64_t rowOff = mMajorA ? 16 * warpsM * mb / tileA.panelLen * tileA.panelBytes()
                                 : 16 * warpsM * mb * tileA.panelLen * 2;
        aIn.push_back(advance(b, loc, baseDescA, offA + rowOff));
      } else {
        aIn = aFragments[(kk / 16) * mBlocks + mb];
      }
      for (int64_t chunk = 0; chunk * nInstr < block; ++chunk) {
        // The chunk's first column: a panel further (N-major), or its first
        // stored row (K-major).
        int64_t chunkOff = kMajorB ? chunk * nInstr * tileB.panelLen * 2
                                   : (chunk * nInstr / tileB.panelLen) * tileB.panelBytes();
        Value descB = advance(b, loc, baseDescB, offB + chunkOff);
        SmallVector<unsigned> &regs = regsOf[mb * (block / nInstr) + chunk];
        SmallVector<Value> in;
        for (unsigned r : regs)
          in.push_back(acc[r]);
        SmallVector<Value> extra(aIn);
        extra.append({descB, kk == 0 ? overwrite : accumulate});
        SmallVector<Value> out = throughAsm(b, loc, in, extra, inputConstraints, text);
        for (auto [r, v] : llvm::zip(regs, out))
          acc[r] = v;
      }
    }
  }
  inlinePtx(b, loc, {}, {}, "wgmma.commit_group.sync.aligned;", "", /*hasSideEffects=*/true);
  // Wait, threading every accumulator register through the wait. In a
  // pipelined loop (tile.wgmma_pending = 1) only the previous iteration's
  // group must be done (its slot is refilled next); tile.dot_wait after the
  // loop waits for the last one.
  int64_t pending = 0;
  if (auto attr = op->getAttrOfType<IntegerAttr>("tile.wgmma_pending"))
    pending = attr.getInt();
  SmallVector<Value> all(acc.begin(), acc.end());
  SmallVector<Value> waited = throughAsm(
      b, loc, all, {}, "", "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";");
  for (auto [i, v] : llvm::enumerate(waited))
    acc[i] = v;
  return success();
}

namespace {
struct DotWaitLowering : OpConversionPattern<DotWaitOp> {
  DotWaitLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(DotWaitOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<SmallVector<Value>> results;
    for (ValueRange regs : adaptor.getInputs()) {
      SmallVector<Value> values(regs.begin(), regs.end());
      // Accumulators: f32, or int32 of int8 dots.
      bool allAcc = llvm::all_of(
          values, [](Value v) { return v.getType().isF32() || v.getType().isInteger(32); });
      if (state.usesWgmma && allAcc && !values.empty())
        values = throughAsm(rewriter, op.getLoc(), values, {}, "",
                            "wgmma.wait_group.sync.aligned 0;");
      results.push_back(std::move(values));
    }
    SmallVector<ValueRange> ranges(results.begin(), results.end());
    rewriter.replaceOpWithMultiple(op, ranges);
    return success();
  }
};
} // namespace

void populateWgmmaPatterns(TileTypeConverter &converter, const LoweringState &state,
                           RewritePatternSet &patterns) {
  patterns.add<DotWaitLowering>(converter, patterns.getContext(), state);
}

} // namespace kiln::lowering
