//===- LayoutExchange.h - How values move between two layouts -------------===//
//
// A layout conversion that moves elements between threads goes one of two
// ways:
//  - through shared memory (ExchangePlan): the source's owners write, a
//    barrier, every thread reads what the destination gives it;
//  - with warp shuffles (WarpShufflePlan), when every element a thread needs
//    is held by a lane of its own warp: one shfl.sync.idx per destination
//    register (two 16-bit ones share a shuffle), each lane sending the
//    register its reader wants, picked by a select on the sender's lane.
// chooseWarpShuffle compares the two and says which one the lowering and
// the shared-memory estimate before it take (docs/backend.md, "Layout
// conversions").
//
//===----------------------------------------------------------------------===//
#ifndef KILN_ANALYSIS_LAYOUTEXCHANGE_H
#define KILN_ANALYSIS_LAYOUTEXCHANGE_H

#include "kiln/Analysis/DistributedLayout.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>

namespace kiln {

/// How a layout exchange uses shared memory: a row-major buffer whose
/// innermost dimension is the source's most contiguous one, rows padded by
/// `pad` elements against bank conflicts, `writeVec` / `readVec` elements
/// per shared access; `cycles` the shared-memory wavefronts of one warp's
/// writes and reads.
struct ExchangePlan {
  llvm::SmallVector<int64_t> strides; // Element strides per dimension.
  unsigned pad = 0, writeVec = 1, readVec = 1, bytes = 1, totalBytes = 0;
  int64_t cycles = 0;
};
/// The exchange of elements of `bytes` bytes each.
ExchangePlan planExchange(const DistributedLayout &src, const DistributedLayout &dst,
                          unsigned bytes);

/// One shuffle round: the reader in lane m reads lane
/// srcLane(m) = laneConst ^ laneOf(m), where laneOf is the plan's linear map
/// of lane bits, and keeps the value as its destination register
/// dstReg ^ regOf(m) (regOf: the plan's readerRegs); each lane sends
/// register sends[0].reg, or sends[k].reg when its bit is set in
/// sends[k].lanes (k >= 1).
struct ShuffleRound {
  unsigned dstReg = 0;
  unsigned laneConst = 0;
  struct Send {
    unsigned reg;
    uint32_t lanes;
  };
  llvm::SmallVector<Send, 2> sends;
};

struct WarpShufflePlan {
  /// laneColumns[i]: what lane bit i of the reader adds (xor) to the lane
  /// it reads; the identity when readers keep their lanes' relative order.
  std::array<unsigned, kLaneBits> laneColumns{};
  /// readerRegs[i]: what lane bit i of the reader xors into the register
  /// index a round fills (where readers of one sender would want two of
  /// its registers: an mma accumulator read as an operand).
  std::array<unsigned, kLaneBits> readerRegs{};
  llvm::SmallVector<ShuffleRound> rounds;
  /// True when laneOf(m) = m.
  bool lanesKept() const;
  /// True when `round` reads the thread's own registers (no shuffle).
  bool readsOwnLane(const ShuffleRound &round) const {
    return round.laneConst == 0 && lanesKept();
  }
  /// Selects the senders and the readers need, over all rounds.
  unsigned selects() const;
};

/// The shuffles that move `src` to `dst` (same shape), or nullopt when some
/// thread needs an element no lane of its warp holds, or a sender would
/// have to send two registers in one round.
std::optional<WarpShufflePlan> planWarpShuffle(const DistributedLayout &src,
                                               const DistributedLayout &dst);

/// Bits an exchange moves per element of `elem`: integer and float widths
/// rounded up to a byte, anything else (pointers) 64.
unsigned exchangeBits(mlir::Type elem);

/// Elements of `bits` bits that one 32-bit shuffle carries (8- and 16-bit
/// ones packed; 1 otherwise).
unsigned shufflePack(unsigned bits);

/// The rounds that shuffle (not reading the thread's own registers), by the
/// lanes they read (laneConst): rounds of one group can share a shuffle.
std::map<unsigned, llvm::SmallVector<const ShuffleRound *>>
shuffledRoundsByLane(const WarpShufflePlan &plan);

/// Shuffle instructions a plan issues for elements of `bits` bits.
unsigned shuffleInstructions(const WarpShufflePlan &plan, unsigned bits);

/// The plan to take instead of the exchange through shared memory, when
/// there is one and it is the cheaper (it saves the two barriers).
std::optional<WarpShufflePlan> chooseWarpShuffle(const DistributedLayout &src,
                                                 const DistributedLayout &dst,
                                                 unsigned bits);

} // namespace kiln

#endif // KILN_ANALYSIS_LAYOUTEXCHANGE_H
