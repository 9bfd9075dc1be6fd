//===- DotOps.cpp - tile.dot and the #tile.mma / #tile.dot_op layouts -----===//
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln::tile;

LogicalResult MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    unsigned version, ArrayRef<unsigned> warpsPerCTA) {
  if (version != 2 && version != 3)
    return emitError() << "mma layout version must be 2 (mma.sync) or 3 (sm_90 warp groups), got "
                       << version;
  if (warpsPerCTA.size() != 2)
    return emitError() << "mma layout warpsPerCTA must have 2 entries, got "
                       << warpsPerCTA.size();
  if (version == 3 && warpsPerCTA[0] % 4)
    return emitError() << "mma layout version 3 needs warp groups of 4 along M, got "
                       << warpsPerCTA[0] << " warps along M";
  for (unsigned w : warpsPerCTA)
    if (w == 0 || !llvm::isPowerOf2_32(w))
      return emitError() << "mma layout warpsPerCTA entries must be powers of "
                            "two, got "
                         << w;
  return success();
}

LogicalResult
DotOperandLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             unsigned opIdx, MmaLayoutAttr parent, unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "dot operand opIdx must be 0 (A) or 1 (B), got " << opIdx;
  if (kWidth != 0 && kWidth != 1 && kWidth != 2 && kWidth != 4)
    return emitError() << "dot operand kWidth must be 0 (FMA), 1, 2 or 4, got "
                       << kWidth;
  return success();
}

namespace {
bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

/// Elements per 32-bit mma.sync register for these operands (0: FMA).
unsigned expectedKWidth(Type elem, InputPrecision precision) {
  if (elem.isF64() || (elem.isF32() && precision == InputPrecision::ieee))
    return 0;
  if (isFp8(elem)) // converted to f16 in registers (see DotOpToLLVM.cpp)
    return 2;
  return 32 / elem.getIntOrFloatBitWidth();
}
} // namespace

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  int64_t rank = a.getRank();
  if ((rank != 2 && rank != 3) || b.getRank() != rank || c.getRank() != rank)
    return emitOpError("operands must be all 2-D or all 3-D (batched), got ")
           << a << ", " << b << " and " << c;
  if (rank == 3) {
    if (b.getDimSize(0) != a.getDimSize(0) || c.getDimSize(0) != a.getDimSize(0) ||
        !llvm::isPowerOf2_64(a.getDimSize(0)))
      return emitOpError("expects one power-of-two batch size, got ")
             << a << ", " << b << " and " << c;
    // tile-decompose-batched-dot splits batched products before layouts.
    if (a.getEncoding() || b.getEncoding() || c.getEncoding())
      return emitOpError("3-D (batched) operands carry no layouts: "
                         "--tile-decompose-batched-dot runs first");
  }
  int64_t m = a.getDimSize(rank - 2), k = a.getDimSize(rank - 1),
          n = b.getDimSize(rank - 1);
  if (b.getDimSize(rank - 2) != k || c.getDimSize(rank - 2) != m ||
      c.getDimSize(rank - 1) != n)
    return emitOpError("expects an M x K times K x N product into M x N, got ")
           << a << " x " << b << " -> " << c;
  Type ea = a.getElementType(), eb = b.getElementType(), ec = c.getElementType();
  bool fp8 = isFp8(ea) && isFp8(eb);
  if (!fp8 && ea != eb)
    return emitOpError("operands must have one element type (or both be fp8), got ")
           << ea << " and " << eb;
  bool accOk = false;
  if (ea.isF16())
    accOk = ec.isF32() || ec.isF16();
  else if (fp8)
    accOk = ec.isF32();
  else if (ea.isBF16() || ea.isF32())
    accOk = ec.isF32();
  else if (ea.isF64())
    accOk = ec.isF64();
  else if (ea.isInteger(8))
    accOk = ec.isInteger(32);
  else
    return emitOpError("operands must be f16, bf16, f32, f64, i8 or fp8, got ") << ea;
  if (!accOk)
    return emitOpError("accumulator type ") << ec << " does not fit operands of " << ea;
  int64_t minK = ea.getIntOrFloatBitWidth() == 8 ? 32 : 16;
  for (int64_t d : {m, n, k})
    if (!llvm::isPowerOf2_64(d))
      return emitOpError("M, N and K must be powers of two, got ")
             << m << ", " << n << ", " << k;
  if (k < minK)
    return emitOpError("needs K >= ") << minK << ", got " << k;

  // Layouts: none yet, or the accumulator's mma layout and its operands'.
  Attribute ca = c.getEncoding(), aa = a.getEncoding(), ba = b.getEncoding();
  if (!ca && !aa && !ba)
    return success();
  // tile-pad-small-dot pads M and N to the mma tile before layouts.
  if (m < 16 || n < 16)
    return emitOpError("with layouts needs M >= 16 and N >= 16 (--tile-pad-"
                       "small-dot runs first), got ")
           << m << " and " << n;
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(ca);
  auto opA = dyn_cast_or_null<DotOperandLayoutAttr>(aa);
  auto opB = dyn_cast_or_null<DotOperandLayoutAttr>(ba);
  // f16/bf16 operands may keep other layouts: the dot stages them itself.
  // A may also be in its fragments already (computed from an accumulator)
  // with B staged.
  bool half = ea.isF16() || ea.isBF16();
  if (mma && half && aa && ba && !opA && !opB)
    return success();
  // tf32, fp8 and int8 operands that wgmma reads from shared-memory slots
  // (both of them, --tile-pipeline-loops) keep the layouts they were copied
  // in; B may be read through a transpose of its slot (an N x K block).
  auto fromSlot = [](Value operand) {
    if (auto trans = operand.getDefiningOp<TransOp>();
        trans && trans.getOrder().size() == 2 && trans.getOrder()[0] == 1)
      operand = trans.getSrc();
    return operand.getDefiningOp<LocalLoadOp>() != nullptr;
  };
  if (mma && (ea.isF32() || fp8 || ea.isInteger(8)) && aa && ba && !opA && !opB &&
      getA().getDefiningOp<LocalLoadOp>() && fromSlot(getB()))
    return success();
  if (!mma || !opA || (!opB && !(half && ba)))
    return emitOpError("accumulator must have a #tile.mma layout and the "
                       "operands #tile.dot_op layouts of it (f16/bf16 operands: "
                       "other layouts too, for A only when B has one; f32, fp8 "
                       "and int8 operands both read from tile.local_load, B "
                       "possibly through a tile.trans)");
  unsigned kw = expectedKWidth(ea, getInputPrecision());
  if (opA.getOpIdx() != 0 || opA.getParent() != mma || opA.getKWidth() != kw ||
      (opB && (opB.getOpIdx() != 1 || opB.getParent() != mma || opB.getKWidth() != kw)))
    return emitOpError("operand layouts must be #tile.dot_op<opIdx = 0 / 1, "
                       "parent = ")
           << mma << ", kWidth = " << kw << ">, got " << aa << " and " << ba;
  return success();
}
