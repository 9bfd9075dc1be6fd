//===- MmaLayout.cpp - Bit-level form of the tl.dot layouts ---------------===//
//
// An mma.sync m16n8kK instruction leaves lane l with accumulator rows l/4
// and l/4 + 8 and columns 2*(l%4) + {0, 1}; it reads A rows l/4 (+8) with
// K elements kWidth*(l%4) + {0..kWidth-1} (+4*kWidth), and B columns l/4
// with the same K elements (PTX ISA, "Matrix Fragments for mma.m16n8k*").
// Writing these as bases makes the layouts usable by every generic piece
// of the lowering (elementwise ops, stores, layout exchanges).
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/MmaLayout.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace {
using Coord = DistributedLayout::Coord;

/// `value` along `dim` of a 2-D coordinate, zero past the shape (those bits
/// replicate, as in blocked layouts).
Coord at(ArrayRef<int64_t> shape, unsigned dim, int64_t value) {
  Coord c(2, 0);
  if (value < shape[dim])
    c[dim] = value;
  return c;
}

bool isZero(const Coord &c) { return c[0] == 0 && c[1] == 0; }

void pushNonZero(SmallVector<Coord> &regs, Coord c) {
  if (!isZero(c))
    regs.push_back(std::move(c));
}

unsigned log2(unsigned v) { return llvm::Log2_32(v); }

bool validShape(ArrayRef<int64_t> shape) {
  return shape.size() == 2 && llvm::all_of(shape, [](int64_t s) {
           return s > 0 && llvm::isPowerOf2_64(s);
         });
}

/// Warp bases of the accumulator. Version 2 (mma.sync): warp ids are
/// row-major over warpsPerCTA, so the low bits step along N (8 columns
/// each), the high ones along M. Version 3 (sm_90 warp groups): the low bits
/// step along M (16 rows each), so that 4 consecutive warps hold 64
/// consecutive rows, and the high ones pick one of warpsPerCTA[1] contiguous
/// column blocks of cShape[1] / warpsPerCTA[1]. `keep` masks the dimensions
/// an operand keeps (the others replicate).
void addWarpBases(DistributedLayout &l, ArrayRef<int64_t> cShape, MmaLayoutAttr mma,
                  bool keepM, bool keepN) {
  ArrayRef<unsigned> wpc = mma.getWarpsPerCTA();
  auto addN = [&] {
    int64_t step = mma.getVersion() == 3 ? cShape[1] / wpc[1] : kMmaTileN;
    for (unsigned i = 0; i < log2(wpc[1]); ++i) {
      Coord c(2, 0);
      // A block narrower than a tile (a [BM, 1] slice's parent) replicates.
      if (keepN && step >= kMmaTileN && (step << i) < cShape[1])
        c[1] = step << i;
      l.warpBases.push_back(c);
    }
  };
  if (mma.getVersion() != 3)
    addN();
  for (unsigned i = 0; i < log2(wpc[0]); ++i) {
    Coord c(2, 0);
    if (keepM && (kMmaTileM << i) < cShape[0])
      c[0] = kMmaTileM << i;
    l.warpBases.push_back(c);
  }
  if (mma.getVersion() == 3)
    addN();
}

/// The first column a thread's registers repeat at along N (their columns
/// below it are one instruction tile's), and where they stop: a version 3
/// warp repeats over its own column block only.
std::pair<int64_t, int64_t> nRepeats(int64_t n, MmaLayoutAttr mma) {
  unsigned wn = mma.getWarpsPerCTA()[1];
  if (mma.getVersion() == 3)
    return {kMmaTileN, n / wn};
  return {kMmaTileN * int64_t(wn), n};
}
} // namespace

std::optional<DistributedLayout> kiln::mmaDistributedLayout(ArrayRef<int64_t> shape,
                                                            MmaLayoutAttr mma) {
  ArrayRef<unsigned> wpc = mma.getWarpsPerCTA();
  if (!validShape(shape) || wpc.size() != 2)
    return std::nullopt;
  DistributedLayout l;
  l.shape.assign(shape.begin(), shape.end());
  SmallVector<Coord> regs;
  pushNonZero(regs, at(shape, 1, 1));
  pushNonZero(regs, at(shape, 0, 8));
  l.laneBases = {at(shape, 1, 2), at(shape, 1, 4), at(shape, 0, 1),
                 at(shape, 0, 2), at(shape, 0, 4)};
  addWarpBases(l, shape, mma, true, true);
  auto [nFrom, nTo] = nRepeats(shape[1], mma);
  for (int64_t v = nFrom; v < nTo; v <<= 1)
    regs.push_back(at(shape, 1, v));
  for (int64_t v = kMmaTileM * wpc[0]; v < shape[0]; v <<= 1)
    regs.push_back(at(shape, 0, v));
  l.regBases = std::move(regs);
  return l;
}

std::optional<DistributedLayout>
kiln::dotOperandDistributedLayout(ArrayRef<int64_t> shape, DotOperandLayoutAttr op) {
  if (!validShape(shape) || op.getOpIdx() > 1)
    return std::nullopt;
  ArrayRef<unsigned> wpc = op.getParent().getWarpsPerCTA();
  if (wpc.size() != 2)
    return std::nullopt;
  bool isA = op.getOpIdx() == 0;
  unsigned kDim = isA ? 1 : 0, mnDim = isA ? 0 : 1;
  int64_t kSize = shape[kDim];
  DistributedLayout l;
  l.shape.assign(shape.begin(), shape.end());
  SmallVector<Coord> regs;

  if (op.getKWidth() == 0) {
    // FMA operand: the accumulator's rows (A) or columns (B) of this thread,
    // every K. Take the accumulator layout of a result whose other dimension
    // is 1 (its bases wrap to zero) and move the kept dimension in place.
    SmallVector<int64_t> cShape = isA ? SmallVector<int64_t>{shape[0], 1}
                                      : SmallVector<int64_t>{1, shape[1]};
    std::optional<DistributedLayout> c = mmaDistributedLayout(cShape, op.getParent());
    if (!c)
      return std::nullopt;
    auto move = [&](const Coord &b) {
      Coord out(2, 0);
      out[mnDim] = b[mnDim];
      return out;
    };
    for (int64_t v = 1; v < kSize; v <<= 1)
      regs.push_back(at(shape, kDim, v));
    for (const Coord &b : c->regBases)
      pushNonZero(regs, move(b));
    for (const Coord &b : c->laneBases)
      l.laneBases.push_back(move(b));
    for (const Coord &b : c->warpBases)
      l.warpBases.push_back(move(b));
    l.regBases = std::move(regs);
    return l;
  }

  unsigned kw = op.getKWidth();
  if (!llvm::isPowerOf2_32(kw) || kw > 4)
    return std::nullopt;
  int64_t instrK = mmaInstrK(kw);
  // One instruction's fragment: kWidth packed K elements, then (A only) the
  // row half, then the upper K half.
  for (unsigned i = 0; i < log2(kw); ++i)
    pushNonZero(regs, at(shape, kDim, int64_t(1) << i));
  if (isA)
    pushNonZero(regs, at(shape, 0, 8));
  pushNonZero(regs, at(shape, kDim, 4 * int64_t(kw)));
  l.laneBases = {at(shape, kDim, kw), at(shape, kDim, 2 * kw),
                 at(shape, mnDim, 1), at(shape, mnDim, 2), at(shape, mnDim, 4)};
  // The accumulator's M x N shape as far as this operand can tell.
  SmallVector<int64_t> cShape = isA ? SmallVector<int64_t>{shape[0], INT64_MAX}
                                    : SmallVector<int64_t>{INT64_MAX, shape[1]};
  addWarpBases(l, cShape, op.getParent(), /*keepM=*/isA, /*keepN=*/!isA);
  for (int64_t v = instrK; v < kSize; v <<= 1)
    regs.push_back(at(shape, kDim, v));
  auto [from, to] = isA ? std::pair<int64_t, int64_t>{kMmaTileM * int64_t(wpc[0]), shape[0]}
                        : nRepeats(shape[1], op.getParent());
  for (int64_t v = from; v < to; v <<= 1)
    regs.push_back(at(shape, mnDim, v));
  l.regBases = std::move(regs);
  return l;
}

unsigned kiln::dotKWidth(Type elem, InputPrecision precision) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (elem.isF64() || (elem.isF32() && precision == InputPrecision::ieee))
    return 0;
  // fp8 runs as f16 (PTX 8.1 has no fp8 mma.sync): two per register.
  if (isa<Float8E4M3FNType, Float8E5M2Type>(elem))
    return 2;
  return 32 / bits;
}

SmallVector<unsigned, 2> kiln::chooseMmaWarps(int64_t m, int64_t n,
                                              unsigned numWarps) {
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    bool canM = m / (kMmaTileM * wm) >= 2, canN = n / (kMmaTileN * wn) >= 2;
    // Split the longer side of each warp's block (M first on ties).
    bool preferM = m / wm >= n / wn;
    if (canM && (preferM || !canN))
      wm *= 2;
    else if (canN)
      wn *= 2;
    else
      wm *= 2; // More warps than tiles: the extra ones hold copies.
  }
  return {wm, wn};
}

bool kiln::isAccumulatorLayoutA(DotOp op) {
  auto a = cast<RankedTensorType>(op.getA().getType());
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(a.getEncoding());
  return mma && mma == op.getC().getType().getEncoding() && mma.getWarpsPerCTA()[1] == 1 &&
         (a.getElementType().isF16() || a.getElementType().isBF16());
}

bool kiln::isRegisterOperand(DotOp op, unsigned index) {
  if (index == 0 && isAccumulatorLayoutA(op))
    return true;
  Value operand = index == 0 ? op.getA() : op.getB();
  return isa_and_nonnull<DotOperandLayoutAttr>(
      cast<RankedTensorType>(operand.getType()).getEncoding());
}
