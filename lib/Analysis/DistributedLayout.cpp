//===- DistributedLayout.cpp - Bit-level form of tile layouts -------------===//
#include "kiln/Analysis/DistributedLayout.h"

#include "kiln/Analysis/MmaLayout.h"
#include "kiln/Dialect/Tile/IR/Tile.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace {
using Coord = DistributedLayout::Coord;

bool isZero(ArrayRef<int64_t> c) {
  return llvm::all_of(c, [](int64_t v) { return v == 0; });
}

/// Basis `value` along `dim`, or zero when it wraps past the shape (the
/// layout tile is larger than the tensor: those bits replicate).
Coord basis(ArrayRef<int64_t> shape, unsigned dim, int64_t value) {
  Coord c(shape.size(), 0);
  if (value < shape[dim])
    c[dim] = value;
  return c;
}

std::optional<DistributedLayout> fromBlocked(ArrayRef<int64_t> shape,
                                             BlockedLayoutAttr blocked) {
  unsigned rank = shape.size();
  if (blocked.getSizePerThread().size() != rank)
    return std::nullopt;
  for (int64_t s : shape)
    if (s <= 0 || !llvm::isPowerOf2_64(s))
      return std::nullopt;
  ArrayRef<unsigned> spt = blocked.getSizePerThread();
  ArrayRef<unsigned> tpw = blocked.getThreadsPerWarp();
  ArrayRef<unsigned> wpc = blocked.getWarpsPerCTA();
  ArrayRef<unsigned> order = blocked.getOrder();
  for (unsigned d = 0; d < rank; ++d)
    if (!llvm::isPowerOf2_32(spt[d]) || !llvm::isPowerOf2_32(tpw[d]) ||
        !llvm::isPowerOf2_32(wpc[d]))
      return std::nullopt;

  DistributedLayout layout;
  layout.shape.assign(shape.begin(), shape.end());
  // Registers: the sizePerThread block of every dimension (fastest first),
  // then the repetitions when the tensor is larger than the layout tile.
  SmallVector<Coord> regs;
  for (unsigned d : order)
    for (unsigned i = 0; (1u << i) < spt[d]; ++i)
      regs.push_back(basis(shape, d, int64_t(1) << i));
  for (unsigned d : order)
    for (unsigned i = 0; (1u << i) < tpw[d]; ++i)
      layout.laneBases.push_back(basis(shape, d, int64_t(spt[d]) << i));
  for (unsigned d : order)
    for (unsigned i = 0; (1u << i) < wpc[d]; ++i)
      layout.warpBases.push_back(
          basis(shape, d, int64_t(spt[d]) * tpw[d] << i));
  for (unsigned d : order) {
    int64_t tile = int64_t(spt[d]) * tpw[d] * wpc[d];
    for (int64_t v = tile; v < shape[d]; v <<= 1)
      regs.push_back(basis(shape, d, v));
  }
  for (Coord &c : regs)
    if (!isZero(c))
      layout.regBases.push_back(std::move(c));
  return layout;
}
} // namespace

Coord DistributedLayout::regOffset(unsigned r) const {
  Coord c(rank(), 0);
  for (unsigned b = 0; b < regBases.size(); ++b)
    if (r & (1u << b))
      for (unsigned d = 0; d < rank(); ++d)
        c[d] += regBases[b][d];
  return c;
}

DistributedLayout DistributedLayout::asRows() const {
  if (rank() != 1)
    return *this;
  DistributedLayout rows;
  rows.shape = {1, shape[0]};
  for (auto [from, to] : {std::pair{&regBases, &rows.regBases}, {&laneBases, &rows.laneBases},
                          {&warpBases, &rows.warpBases}})
    for (const Coord &basis : *from)
      to->push_back(Coord{0, basis[0]});
  return rows;
}

Coord DistributedLayout::coordOf(unsigned r, unsigned lane, unsigned warp) const {
  Coord c = regOffset(r);
  for (unsigned b = 0; b < laneBases.size(); ++b)
    if (lane & (1u << b))
      for (unsigned d = 0; d < rank(); ++d)
        c[d] += laneBases[b][d];
  for (unsigned b = 0; b < warpBases.size(); ++b)
    if (warp & (1u << b))
      for (unsigned d = 0; d < rank(); ++d)
        c[d] += warpBases[b][d];
  return c;
}

std::optional<unsigned> DistributedLayout::findReg(ArrayRef<int64_t> off) const {
  // Bases are distinct powers of two per dimension: decompose greedily.
  Coord rest(off.begin(), off.end());
  unsigned r = 0;
  for (unsigned b = 0; b < regBases.size(); ++b) {
    bool contained = true;
    for (unsigned d = 0; d < rank(); ++d)
      if (regBases[b][d] && !(rest[d] & regBases[b][d]))
        contained = false;
    if (!contained)
      continue;
    r |= 1u << b;
    for (unsigned d = 0; d < rank(); ++d)
      rest[d] -= regBases[b][d];
  }
  if (!isZero(rest))
    return std::nullopt;
  return r;
}

static unsigned maskWhere(ArrayRef<Coord> bases,
                          llvm::function_ref<bool(const Coord &)> pred) {
  unsigned mask = 0;
  for (auto [i, c] : llvm::enumerate(bases))
    if (pred(c))
      mask |= 1u << i;
  return mask;
}

unsigned DistributedLayout::replicatedLaneMask() const {
  return maskWhere(laneBases, [](const Coord &c) { return isZero(c); });
}
unsigned DistributedLayout::replicatedWarpMask() const {
  return maskWhere(warpBases, [](const Coord &c) { return isZero(c); });
}
unsigned DistributedLayout::laneMaskAlong(unsigned dim) const {
  return maskWhere(laneBases, [&](const Coord &c) { return c[dim] != 0; });
}
unsigned DistributedLayout::warpMaskAlong(unsigned dim) const {
  return maskWhere(warpBases, [&](const Coord &c) { return c[dim] != 0; });
}

unsigned DistributedLayout::contiguousRegsAlong(unsigned dim) const {
  unsigned n = 0;
  while (n < regBases.size()) {
    Coord expected(rank(), 0);
    expected[dim] = int64_t(1) << n;
    if (regBases[n] != expected)
      break;
    ++n;
  }
  return 1u << n;
}

bool DistributedLayout::sameThreadMapping(const DistributedLayout &o) const {
  if (shape != o.shape || laneBases != o.laneBases || warpBases != o.warpBases ||
      regBases.size() != o.regBases.size())
    return false;
  for (const Coord &c : regBases)
    if (!llvm::is_contained(o.regBases, c))
      return false;
  return true;
}

std::optional<DistributedLayout>
kiln::getDistributedLayout(ArrayRef<int64_t> shape, Attribute encoding) {
  if (auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(encoding))
    return fromBlocked(shape, blocked);
  if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(encoding))
    return mmaDistributedLayout(shape, mma);
  if (auto dotOp = dyn_cast_or_null<DotOperandLayoutAttr>(encoding))
    return dotOperandDistributedLayout(shape, dotOp);
  auto slice = dyn_cast_or_null<SliceLayoutAttr>(encoding);
  if (!slice || slice.getDim() > shape.size())
    return std::nullopt;
  // A slice holds what its parent holds for the parent shape with a size-1
  // dimension inserted: every basis on that dimension wraps to zero.
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + slice.getDim(), 1);
  std::optional<DistributedLayout> parent =
      getDistributedLayout(parentShape, slice.getParent());
  if (!parent)
    return std::nullopt;
  DistributedLayout layout;
  layout.shape.assign(shape.begin(), shape.end());
  auto drop = [&](ArrayRef<Coord> bases, SmallVector<Coord> &out) {
    for (const Coord &c : bases) {
      Coord reduced(c);
      reduced.erase(reduced.begin() + slice.getDim());
      out.push_back(std::move(reduced));
    }
  };
  drop(parent->regBases, layout.regBases);
  drop(parent->laneBases, layout.laneBases);
  drop(parent->warpBases, layout.warpBases);
  return layout;
}

std::optional<DistributedLayout>
kiln::getDistributedLayout(RankedTensorType type) {
  return getDistributedLayout(type.getShape(), type.getEncoding());
}

unsigned kiln::getNumWarps(Attribute encoding) {
  if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(encoding))
    encoding = slice.getParent();
  if (auto dotOp = dyn_cast_or_null<DotOperandLayoutAttr>(encoding))
    encoding = dotOp.getParent();
  if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(encoding)) {
    unsigned n = 1;
    for (unsigned w : mma.getWarpsPerCTA())
      n *= w;
    return n;
  }
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(encoding);
  if (!blocked)
    return 0;
  unsigned n = 1;
  for (unsigned w : blocked.getWarpsPerCTA())
    n *= w;
  return n;
}


Attribute kiln::toBlockedLayout(MLIRContext *ctx, const DistributedLayout &l) {
  unsigned rank = l.rank();
  // The one dimension a basis runs along (-1: zero; -2: several).
  auto dimOf = [&](const Coord &c) {
    int dim = -1;
    for (unsigned d = 0; d < rank; ++d)
      if (c[d])
        dim = dim == -1 ? int(d) : -2;
    return dim;
  };
  // order: dims as the in-thread registers (unit bases), lanes, warps, then
  // repeated registers first use them.
  SmallVector<unsigned> order;
  SmallVector<Coord> unitRegs;
  for (const Coord &c : l.regBases)
    if (llvm::count(c, 1) == 1 && llvm::count(c, 0) == int64_t(rank) - 1)
      unitRegs.push_back(c);
  for (ArrayRef<Coord> bases :
       {ArrayRef<Coord>(unitRegs), ArrayRef<Coord>(l.laneBases),
        ArrayRef<Coord>(l.warpBases), ArrayRef<Coord>(l.regBases)})
    for (const Coord &c : bases) {
      int d = dimOf(c);
      if (d == -2)
        return {};
      if (d >= 0 && !llvm::is_contained(order, unsigned(d)))
        order.push_back(d);
    }
  for (int d = rank - 1; d >= 0; --d)
    if (!llvm::is_contained(order, unsigned(d)))
      order.push_back(d);
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  for (unsigned d = 0; d < rank; ++d) {
    Coord next(rank, 0);
    next[d] = 1;
    while (llvm::is_contained(l.regBases, next)) {
      spt[d] *= 2;
      next[d] *= 2;
    }
  }
  unsigned zeroLanes = 1, zeroWarps = 1;
  for (const Coord &c : l.laneBases) {
    int d = dimOf(c);
    (d >= 0 ? tpw[d] : zeroLanes) *= 2;
  }
  for (const Coord &c : l.warpBases) {
    int d = dimOf(c);
    (d >= 0 ? wpc[d] : zeroWarps) *= 2;
  }
  tpw[order.back()] *= zeroLanes;
  wpc[order.back()] *= zeroWarps;
  auto blocked = BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
  std::optional<DistributedLayout> check = fromBlocked(l.shape, blocked);
  if (!check || !check->sameThreadMapping(l))
    return {};
  return blocked;
}
