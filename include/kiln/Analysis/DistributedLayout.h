//===- DistributedLayout.h - Which thread holds which tensor element ------===//
//
// Every layout Kiln uses (#tile.blocked, #tile.slice) maps power-of-two
// tensor shapes onto (register, lane, warp) bit by bit: each bit of a
// thread's register index, of its lane id and of its warp id adds a fixed
// coordinate offset (a "basis") to the element it holds. A zero basis means
// that bit does not change the element: lanes or warps that differ only in
// such bits hold copies (replication). Register bits with zero bases are
// dropped, so a thread never holds an element twice.
//
// The lowering works on this form: element coordinates are
//   regOffset(r) + threadOffset(lane, warp)
// (the bases of different bits never overlap, so xor equals sum), a
// reduction combines registers / shuffles lanes / exchanges warps along the
// bits whose bases lie on the reduced axis, and a layout conversion is a
// scatter/gather through shared memory by coordinate.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_ANALYSIS_DISTRIBUTEDLAYOUT_H
#define KILN_ANALYSIS_DISTRIBUTEDLAYOUT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace kiln {

inline constexpr unsigned kWarpSize = 32;
inline constexpr unsigned kLaneBits = 5;

struct DistributedLayout {
  using Coord = llvm::SmallVector<int64_t, 4>;
  llvm::SmallVector<int64_t, 4> shape;
  /// Bases of register-index bits (bit 0 first), lane-id bits (always 5) and
  /// warp-id bits (log2 of the warp count).
  llvm::SmallVector<Coord> regBases, laneBases, warpBases;

  unsigned rank() const { return shape.size(); }
  unsigned numRegs() const { return 1u << regBases.size(); }
  unsigned numWarps() const { return 1u << warpBases.size(); }

  /// Coordinates held in register `r`, relative to the thread's offset.
  Coord regOffset(unsigned r) const;
  /// Full coordinates of register `r` in thread (lane, warp).
  Coord coordOf(unsigned r, unsigned lane, unsigned warp) const;
  /// Register of this thread holding `regOff` (thread-relative), if any.
  std::optional<unsigned> findReg(llvm::ArrayRef<int64_t> regOff) const;

  /// Lane / warp id bits whose basis is zero (their threads hold copies).
  unsigned replicatedLaneMask() const;
  unsigned replicatedWarpMask() const;
  /// Lane / warp id bits whose basis lies on dimension `dim`.
  unsigned laneMaskAlong(unsigned dim) const;
  unsigned warpMaskAlong(unsigned dim) const;

  /// Number of consecutive registers (starting at multiples of it) holding
  /// consecutive elements along `dim`.
  unsigned contiguousRegsAlong(unsigned dim) const;

  /// A 1-D layout as the one row of a 1 x N tile (same registers, lanes and
  /// warps); any other layout unchanged. Shared-memory slots are 2-D.
  DistributedLayout asRows() const;

  /// True when both put every element in the same (lane, warp) positions, so
  /// converting between them only permutes registers.
  bool sameThreadMapping(const DistributedLayout &other) const;
  bool operator==(const DistributedLayout &other) const = default;
};

/// The distributed form of a ranked tensor type whose encoding is a
/// #tile.blocked, #tile.slice, #tile.mma or #tile.dot_op layout. Fails (returns std::nullopt) for
/// other encodings or non-power-of-two shapes.
std::optional<DistributedLayout> getDistributedLayout(mlir::RankedTensorType type);
std::optional<DistributedLayout> getDistributedLayout(llvm::ArrayRef<int64_t> shape,
                                                      mlir::Attribute encoding);

/// The #tile.blocked attribute whose distributed form is `layout` (same
/// lane, warp and register bases), or null when no blocked layout has it.
mlir::Attribute toBlockedLayout(mlir::MLIRContext *ctx,
                                const DistributedLayout &layout);

/// Number of warps a layout attribute spreads over (product of warpsPerCTA of
/// its blocked root).
unsigned getNumWarps(mlir::Attribute encoding);

} // namespace kiln

#endif // KILN_ANALYSIS_DISTRIBUTEDLAYOUT_H
