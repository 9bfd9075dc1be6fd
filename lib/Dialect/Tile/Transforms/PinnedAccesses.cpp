//===- PinnedAccesses.cpp - Accesses laid out by their own pointers --------===//
#include "PinnedAccesses.h"

#include "BlockedLayouts.h"
#include "DotLayouts.h"

#include "kiln/Analysis/DistributedLayout.h"

using namespace mlir;

namespace kiln::tile {

int coalescedDim(const ModuleAxisInfo &axis, Value ptr) {
  AxisInfo facts = axis.get(ptr);
  int best = -1;
  int64_t bestContig = 1;
  unsigned rank = cast<RankedTensorType>(ptr.getType()).getRank();
  for (int d = std::min<int>(rank, facts.rank()) - 1; d >= 0; --d)
    if (facts.getContiguity(d) > bestContig)
      bestContig = facts.getContiguity(d), best = d;
  return best;
}

DenseMap<Operation *, int> disagreeingAccesses(func::FuncOp func, const ModuleAxisInfo &axis) {
  // Per rank: the accesses and the fast dimensions they want.
  DenseMap<unsigned, SmallVector<std::pair<Operation *, int>>> byRank;
  func.walk([&](Operation *op) {
    Value ptr;
    if (auto load = dyn_cast<LoadOp>(op))
      ptr = load.getPtr();
    else if (auto store = dyn_cast<StoreOp>(op))
      ptr = store.getPtr();
    auto type = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : RankedTensorType();
    if (!type || type.getRank() < 2)
      return;
    int d = coalescedDim(axis, ptr);
    if (d >= 0)
      byRank[type.getRank()].push_back({op, d});
  });
  DenseMap<Operation *, int> pinned;
  for (auto &[rank, ops] : byRank) {
    bool disagree = llvm::any_of(ops, [&](auto &p) { return p.second != ops.front().second; });
    if (disagree)
      for (auto [op, d] : ops)
        pinned[op] = d;
  }
  return pinned;
}

/// The fast dimension the load's accesses run along (the last when none).
static unsigned fastDimOf(LoadOp load, const ModuleAxisInfo &axis) {
  int d = coalescedDim(axis, beforeConversions(load.getPtr()));
  return d >= 0 ? unsigned(d) : cast<RankedTensorType>(load.getType()).getRank() - 1;
}

BlockedLayoutAttr coalescedLayoutOf(LoadOp load, unsigned numWarps, const ModuleAxisInfo &axis) {
  auto type = cast<RankedTensorType>(load.getType());
  unsigned rank = type.getRank(), fast = fastDimOf(load, axis);
  SmallVector<unsigned> order = fastFirstOrder(rank, fast);
  // The axis facts are those of the values before any conversion.
  unsigned vec = axis.getVectorWidth(beforeConversions(load.getPtr()), fast,
                                     beforeConversions(load.getMask()));
  return makeBlocked(load.getContext(), type.getShape(), order, vec, numWarps, {},
                     getPointeeBytes(load.getPtr().getType()) * 8);
}

/// Load instructions per thread of `load` in `layout`: its distinct elements
/// (registers that repeat another's element, a slice's, are loaded once) over
/// the vector each instruction can move (contiguous registers along the fast
/// dimension, as far as the axis facts allow).
static unsigned loadInstructions(LoadOp load, Attribute layout, const ModuleAxisInfo &axis) {
  auto type = cast<RankedTensorType>(load.getType());
  std::optional<DistributedLayout> d = getDistributedLayout(type.getShape(), layout);
  if (!d)
    return 0;
  unsigned fast = fastDimOf(load, axis);
  unsigned vec = std::min(d->contiguousRegsAlong(fast),
                          axis.getVectorWidth(beforeConversions(load.getPtr()), fast,
                                              beforeConversions(load.getMask())));
  unsigned distinct = 1;
  for (const DistributedLayout::Coord &basis : d->regBases)
    if (llvm::any_of(basis, [](int64_t c) { return c != 0; }))
      distinct *= 2;
  return std::max(1u, distinct / std::max(1u, vec));
}

SmallVector<unsigned> findReplicatedLoads(func::FuncOp func, unsigned numWarps,
                                          const ModuleAxisInfo &axis) {
  SmallVector<unsigned> found;
  unsigned position = 0;
  func.walk([&](LoadOp load) {
    unsigned at = position++;
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!type || !type.getEncoding() || !isa<RankedTensorType>(load.getPtr().getType()) ||
        type.getNumElements() < int64_t(numWarps) * kWarpSize)
      return;
    // Values that live in a tl.dot's layout mostly stay there: a row scale
    // loaded as a slice of the accumulator (a few registers a thread) is what
    // lets arithmetic on it (mamba's scaled A) run in the accumulator's
    // registers. A column vector of the accumulator is another matter: 32
    // and more scalar loads a thread (vLLM's block scales, gathered by
    // `offs_n // group_n`) against one in a coalesced layout and a shuffle
    // through shared memory.
    Attribute root = type.getEncoding();
    while (auto slice = dyn_cast<SliceLayoutAttr>(root))
      root = slice.getParent();
    unsigned ratio = isa<BlockedLayoutAttr>(root) ? 4 : 16;
    unsigned assigned = loadInstructions(load, type.getEncoding(), axis);
    unsigned coalesced =
        loadInstructions(load, coalescedLayoutOf(load, numWarps, axis), axis);
    if (coalesced && assigned >= ratio * coalesced)
      found.push_back(at);
  });
  return found;
}

DenseMap<Operation *, BlockedLayoutAttr> replicatedLoadPins(func::FuncOp func,
                                                           ArrayRef<unsigned> positions,
                                                           unsigned numWarps,
                                                           const ModuleAxisInfo &axis) {
  DenseMap<Operation *, BlockedLayoutAttr> pins;
  if (positions.empty())
    return pins;
  unsigned position = 0;
  func.walk([&](LoadOp load) {
    if (llvm::is_contained(positions, position++))
      pins[load] = coalescedLayoutOf(load, numWarps, axis);
  });
  return pins;
}

} // namespace kiln::tile
