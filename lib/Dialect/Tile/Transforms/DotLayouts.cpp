//===- DotLayouts.cpp - What a tl.dot's layout choice looks at -------------===//
//
// Facts about a tl.dot and the values around it that --tile-assign-layouts
// uses to pick its accumulator's warp arrangement.
//
//===----------------------------------------------------------------------===//
#include "DotLayouts.h"
#include "TmaCopies.h"

#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Analysis/MmaLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace kiln::tile {

std::optional<SmallVector<unsigned, 2>> warpGroupWarps(int64_t m, int64_t n, unsigned numWarps,
                                                      int64_t nQuantum) {
  if (numWarps % 4 || !llvm::isPowerOf2_32(numWarps) || m % 64)
    return std::nullopt;
  unsigned warpsM = numWarps;
  while (m % (16 * int64_t(warpsM)))
    warpsM /= 2; // stops at 4: m is a multiple of 64
  unsigned warpsN = numWarps / warpsM;
  int64_t block = n / warpsN;
  if (n % warpsN || block % 8 || (block > 256 && block % 256) ||
      (warpsN > 1 && block % nQuantum))
    return std::nullopt;
  return SmallVector<unsigned, 2>{warpsM, warpsN};
}

/// How `dot` will likely run as sm_90 wgmma (lib/Conversion/TileToLLVM/
/// WgmmaToLLVM.cpp): f16/bf16 operands, an f32 accumulator, warp groups of
/// 4 and whole 16-row blocks. Wherever its operands come from, as in
/// Triton: --tile-pipeline-loops puts the loads of a K loop in shared
/// memory, the dot stages the rest there (mamba's chunk state scales its B;
/// its chunk scan multiplies two tiles loaded once, then an A scaled in that
/// product's layout, which wgmma takes from registers). Warp groups split N
/// in whole 64-column panels, where an N-major B's panels start.
std::optional<SmallVector<unsigned, 2>> warpGroupLayout(DotOp dot, unsigned numWarps) {
  std::optional<unsigned> cc = getTargetComputeCapability(dot);
  auto result = cast<RankedTensorType>(dot.getType());
  Type elem = dot.getA().getType().getElementType();
  if (!cc || *cc < 90 || !result.getElementType().isF32() || !(elem.isF16() || elem.isBF16()) ||
      dot.getA().getType().getDimSize(1) % 16)
    return std::nullopt;
  return warpGroupWarps(result.getDimSize(0), result.getDimSize(1), numWarps, /*nQuantum=*/64);
}

bool isFp8Dot(DotOp dot) {
  auto fp8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  return fp8(dot.getA().getType().getElementType()) && fp8(dot.getB().getType().getElementType());
}

bool isInt8Dot(DotOp dot) {
  return dot.getA().getType().getElementType().isInteger(8) &&
         dot.getB().getType().getElementType().isInteger(8) &&
         dot.getType().getElementType().isInteger(32);
}

bool isKMajorWarpGroupDot(DotOp dot, unsigned warpsM, unsigned warpsN) {
  std::optional<unsigned> cc = getTargetComputeCapability(dot);
  auto result = cast<RankedTensorType>(dot.getType());
  Type elem = dot.getA().getType().getElementType();
  bool tf32 = dot.getInputPrecision() == InputPrecision::tf32 && elem.isF32() &&
              dot.getB().getType().getElementType().isF32();
  bool floatOperands = result.getElementType().isF32() && (tf32 || isFp8Dot(dot));
  if (!cc || *cc < 90 || warpsM % 4 || !(floatOperands || isInt8Dot(dot)))
    return false;
  // Each warp group's columns: B is K-major, so a group's block starts at
  // one of its rows and may be any multiple of 8.
  int64_t m = result.getDimSize(0), n = result.getDimSize(1) / warpsN;
  // K-major rows of 32 or 64 bytes, or 128-byte panels: the swizzle modes.
  int64_t kBytes = dot.getA().getType().getDimSize(1) * elem.getIntOrFloatBitWidth() / 8;
  return m % (16 * warpsM) == 0 && n % 8 == 0 && (n <= 256 || n % 256 == 0) &&
         (kBytes == 32 || kBytes == 64 || kBytes % 128 == 0);
}

/// The same for such a dot whose operands are loaded in its loop. wgmma
/// reads them only K-major: tf32 A's loads must not run along M nor B's
/// along N (`fastDimOf` gives the dimension a pointer tensor is contiguous
/// along, -1 for none: gathered f32 operands are copied element by element,
/// into either orientation); fp8 operands must run along K in copies of 4
/// bytes or more (cp.async's least; single bytes are not copied into slots),
/// which `axis` proves from contiguity, alignment and mask constancy.
/// Descriptor blocks the TMA unit copies need neither: A as its M x K
/// block, B as the transpose of an N x K block (`b_desc.load([n, k]).T`), which
/// the slot then holds N rows of K.
std::optional<SmallVector<unsigned, 2>>
kMajorWarpGroupLayout(DotOp dot, unsigned numWarps, const kiln::ModuleAxisInfo &axis,
                      llvm::function_ref<int(Value)> fastDimOf) {
  auto result = cast<RankedTensorType>(dot.getType());
  std::optional<SmallVector<unsigned, 2>> warps =
      warpGroupWarps(result.getDimSize(0), result.getDimSize(1), numWarps, /*nQuantum=*/8);
  if (!warps || !isKMajorWarpGroupDot(dot, (*warps)[0], (*warps)[1]))
    return std::nullopt;
  auto load = [&](Value v) {
    auto l = v.getDefiningOp<LoadOp>();
    return l && l->getBlock() == dot->getBlock() && isa_and_nonnull<scf::ForOp>(dot->getParentOp())
               ? l
               : LoadOp();
  };
  // Each operand either as a copy proves it (below) or as a TMA copy: A an
  // M x K block, B the transpose of an N x K one.
  LoadOp a = load(dot.getA()), b = load(dot.getB());
  auto trans = dot.getB().getDefiningOp<TransOp>();
  LoadOp flippedB = trans ? load(trans.getSrc()) : LoadOp();
  bool aByTma = a && isTmaCandidate(a), bByTma = flippedB && isTmaCandidate(flippedB);
  if (!a || !(b || bByTma))
    return std::nullopt;
  bool bytes = isFp8Dot(dot) || isInt8Dot(dot);
  // The assignment may already have converted a loop-carried pointer (or
  // mask) into its load's layout: the facts are the unconverted value's.
  auto kMajorA = [&] {
    Value ptr = beforeConversions(a.getPtr());
    int fast = fastDimOf(ptr);
    return bytes ? fast == 1 && axis.getVectorWidth(ptr, 1, beforeConversions(a.getMask())) >= 4
                 : fast != 0;
  };
  auto kMajorB = [&] {
    Value ptr = beforeConversions(b.getPtr());
    int fast = fastDimOf(ptr);
    return bytes ? fast == 0 && axis.getVectorWidth(ptr, 0, beforeConversions(b.getMask())) >= 4
                 : fast != 1;
  };
  if ((aByTma || kMajorA()) && (bByTma || kMajorB()))
    return warps;
  return std::nullopt;
}

Value beforeConversions(Value v) {
  while (v)
    if (auto cvt = v.getDefiningOp<ConvertLayoutOp>())
      v = cvt.getSrc();
    else
      break;
  return v;
}

/// tile.where or an elementwise arith / math op: arithmetic that keeps a
/// tensor's layout.
static bool isElementwiseArithmetic(Operation *op) {
  return isa<WhereOp>(op) || (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
                              OpTrait::hasElementwiseMappableTraits(op));
}

/// Whether `v` (through arithmetic on it) is reduced along its rows, as
/// attention's scores are for the running maximum and sum.
bool isRowReduced(Value v, unsigned depth) {
  for (Operation *user : v.getUsers()) {
    if (isa<SumOp, MaxOp, MinOp, ReduceOp>(user))
      if (user->getOperand(0) == v && user->getAttrOfType<IntegerAttr>("axis").getInt() == 1)
        return true;
    if (isElementwiseArithmetic(user) && depth > 0 && user->getNumResults() == 1 &&
        isRowReduced(user->getResult(0), depth - 1))
      return true;
  }
  return false;
}

/// The tl.dot whose result `v` is computed from by arithmetic alone (P of
/// attention's P @ V comes from the scores Q @ K^T), if any.
DotOp producingDot(Value v, unsigned depth) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return {};
  if (auto dot = dyn_cast<DotOp>(def))
    return dot;
  if (!isElementwiseArithmetic(def) || depth == 0)
    return {};
  for (Value operand : def->getOperands())
    if (isa<RankedTensorType>(operand.getType()))
      if (DotOp dot = producingDot(operand, depth - 1))
        return dot;
  return {};
}

} // namespace kiln::tile
