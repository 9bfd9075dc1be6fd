//===- LayoutExchange.cpp - Shared-memory and warp-shuffle exchanges ------===//
//
// The shared-memory plan pads the buffer's rows by the number of elements
// that makes the writes and the reads of a warp the cheapest in bank
// conflicts, found by replaying the accesses of warp 0 against the 32
// four-byte banks.
//
// The shuffle plan works on the bit form of the layouts: an element's index
// bits are the xor of the bases of its register, lane and warp bits. When
// both layouts spread warps alike, the element a reader needs (register j,
// lane m) is the xor of the destination's bases of j and m; Gaussian
// elimination over GF(2) writes each such basis as source register and lane
// bits, so the source lane and register are affine in j and m. Where the
// source holds copies (lanes with a zero basis), the reader asks the copy
// whose copy bits equal its own, which keeps readers of one sender asking
// it for one register (a column of an mma accumulator read as a row vector:
// the readers of rows r and r + 8 differ in a copy bit of the source).
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/LayoutExchange.h"

#include "llvm/Support/MathExtras.h"

#include <map>
#include <set>

using namespace mlir;
using namespace kiln;

namespace {
using Coord = DistributedLayout::Coord;

unsigned widestContiguous(const DistributedLayout &l, unsigned *dim) {
  unsigned best = 0;
  for (unsigned d = 0; d < l.rank(); ++d) {
    unsigned c = l.contiguousRegsAlong(d);
    if (c > best)
      best = c, *dim = d;
  }
  return best;
}

int64_t indexOf(const Coord &c, ArrayRef<int64_t> strides) {
  int64_t idx = 0;
  for (unsigned d = 0; d < c.size(); ++d)
    idx += c[d] * strides[d];
  return idx;
}

/// Shared-memory cycles (wavefronts) warp 0 needs for the accesses of
/// layout `l`: one access per `vec` registers, `bytes` per element. A
/// request of 16 (8) bytes per lane is served 8 (16) lanes at a time; in
/// each group a bank serves one distinct 4-byte word per cycle.
int64_t bankCycles(const DistributedLayout &l, ArrayRef<int64_t> strides,
                   unsigned vec, unsigned bytes, bool writersOnly) {
  unsigned accessBytes = vec * bytes;
  unsigned lanesPerPhase = accessBytes >= 16 ? 8 : accessBytes == 8 ? 16 : 32;
  unsigned replicated = writersOnly ? l.replicatedLaneMask() : 0;
  int64_t cycles = 0;
  for (unsigned r = 0; r < l.numRegs(); r += vec) {
    for (unsigned first = 0; first < kWarpSize; first += lanesPerPhase) {
      std::array<std::set<int64_t>, 32> words;
      for (unsigned lane = first; lane < first + lanesPerPhase; ++lane) {
        if (lane & replicated)
          continue;
        int64_t byte = indexOf(l.coordOf(r, lane, 0), strides) * bytes;
        for (int64_t w = byte / 4; w <= (byte + accessBytes - 1) / 4; ++w)
          words[w % 32].insert(w);
      }
      size_t worst = 0;
      for (auto &bank : words)
        worst = std::max(worst, bank.size());
      cycles += worst;
    }
  }
  return cycles;
}

/// The element-index bits of coordinate offset `c` (row-major, the last
/// dimension lowest), or nullopt when an entry is not 0 or a power of two
/// inside the shape.
std::optional<uint64_t> indexBits(const Coord &c, ArrayRef<int64_t> shape) {
  uint64_t bits = 0;
  unsigned shift = 0;
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    int64_t v = c[d];
    if (v < 0 || v >= shape[d] || (v && !llvm::isPowerOf2_64(v)))
      return std::nullopt;
    bits |= uint64_t(v) << shift;
    shift += llvm::Log2_64(shape[d]);
  }
  return bits;
}

/// Source register and lane bits as columns of a GF(2) system; solve()
/// writes an index-bit vector as a combination of them (bits 0.. of the
/// result: register bits, then the lane bits from bit `laneShift`).
struct SourceBasis {
  struct Pivot {
    uint64_t vec;
    uint64_t lead;
    uint32_t combo;
  };
  SmallVector<Pivot> pivots;
  unsigned laneShift = 0;

  void add(uint64_t vec, uint32_t combo) {
    for (const Pivot &p : pivots)
      if (vec & p.lead)
        vec ^= p.vec, combo ^= p.combo;
    if (vec)
      pivots.push_back({vec, uint64_t(1) << llvm::Log2_64(vec), combo});
  }
  std::optional<uint32_t> solve(uint64_t vec) const {
    uint32_t combo = 0;
    for (const Pivot &p : pivots)
      if (vec & p.lead)
        vec ^= p.vec, combo ^= p.combo;
    if (vec)
      return std::nullopt;
    return combo;
  }
};

/// The rounds when readers ask the source's copies whose copy bits equal
/// their own (`followCopies`) or the first copy; nullopt when a sender would
/// be asked for two registers in one round that no choice of reader
/// registers (ShuffleRound::dstReg ^ readerRegs) avoids.
std::optional<WarpShufflePlan>
planRounds(const DistributedLayout &dst, ArrayRef<uint32_t> dstRegCombos,
           ArrayRef<uint32_t> dstLaneCombos, unsigned laneShift,
           unsigned srcCopyLanes, bool followCopies) {
  WarpShufflePlan plan;
  uint32_t regMask = (1u << laneShift) - 1;
  auto regCombo = [&](unsigned j) {
    uint32_t combo = 0;
    for (unsigned b = 0; b < dst.regBases.size(); ++b)
      if (j & (1u << b))
        combo ^= dstRegCombos[b];
    return combo;
  };
  // Reader lane bit i moves the lane read by laneColumns[i] and the
  // register read there by regColumns[i]. Readers whose lane bits differ
  // by a set that cancels in the lane columns read one sender: their
  // register columns must cancel too. Where they do not, reader lane bit i
  // also changes the destination register it fills (readerRegs[i]), which
  // sends it to another lane.
  std::array<unsigned, kLaneBits> regColumns{};
  struct Pivot {
    unsigned lane, reg, lead;
  };
  SmallVector<Pivot> pivots;
  auto reduce = [&](unsigned &lane, unsigned &reg) {
    for (const Pivot &p : pivots)
      if (lane & p.lead)
        lane ^= p.lane, reg ^= p.reg;
  };
  for (unsigned i = 0; i < kLaneBits; ++i) {
    unsigned lane0 = dstLaneCombos[i] >> laneShift;
    if (followCopies && (srcCopyLanes & (1u << i)))
      lane0 ^= 1u << i;
    unsigned reg0 = dstLaneCombos[i] & regMask;
    bool placed = false;
    for (unsigned h = 0; h < dst.numRegs() && !placed; ++h) {
      uint32_t extra = regCombo(h);
      unsigned lane = lane0 ^ (extra >> laneShift), reg = reg0 ^ (extra & regMask);
      unsigned laneCol = lane, regCol = reg;
      reduce(lane, reg);
      if (!lane && reg)
        continue; // one sender, two registers
      plan.laneColumns[i] = laneCol;
      regColumns[i] = regCol;
      plan.readerRegs[i] = h;
      if (lane)
        pivots.push_back({lane, reg, 1u << llvm::Log2_32(lane)});
      placed = true;
    }
    if (!placed)
      return std::nullopt;
  }
  for (unsigned t = 0; t < dst.numRegs(); ++t) {
    uint32_t combo = regCombo(t);
    ShuffleRound round;
    round.dstReg = t;
    round.laneConst = combo >> laneShift;
    unsigned regConst = combo & regMask;
    std::array<int, kWarpSize> sent;
    sent.fill(-1);
    for (unsigned m = 0; m < kWarpSize; ++m) {
      unsigned lane = round.laneConst, reg = regConst;
      for (unsigned i = 0; i < kLaneBits; ++i)
        if (m & (1u << i))
          lane ^= plan.laneColumns[i], reg ^= regColumns[i];
      if (lane >= kWarpSize || (sent[lane] >= 0 && unsigned(sent[lane]) != reg))
        return std::nullopt;
      sent[lane] = reg;
    }
    // The register most lanes send is the default (lanes nobody reads send
    // it too); each other one is selected by a mask of its senders.
    std::map<unsigned, uint32_t> senders;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if (sent[lane] >= 0)
        senders[sent[lane]] |= 1u << lane;
    auto most = std::max_element(senders.begin(), senders.end(), [](auto &a, auto &b) {
      return llvm::popcount(a.second) < llvm::popcount(b.second);
    });
    round.sends.push_back({most->first, 0});
    for (auto &[reg, lanes] : senders)
      if (reg != most->first)
        round.sends.push_back({reg, lanes});
    plan.rounds.push_back(std::move(round));
  }
  return plan;
}
} // namespace

ExchangePlan kiln::planExchange(const DistributedLayout &src, const DistributedLayout &dst,
                                unsigned bytes) {
  ExchangePlan plan;
  unsigned rank = src.rank();
  unsigned inner = rank - 1;
  if (widestContiguous(src, &inner) <= 1)
    widestContiguous(dst, &inner);
  SmallVector<unsigned> order{inner};
  for (int d = rank - 1; d >= 0; --d)
    if (unsigned(d) != inner)
      order.push_back(d);
  int64_t rowLen = src.shape[inner];
  unsigned maxVec = std::max(1u, 16 / bytes);
  auto makeStrides = [&](unsigned pad) {
    SmallVector<int64_t> strides(rank, 1);
    int64_t s = rowLen + pad;
    for (unsigned k = 1; k < rank; ++k) {
      strides[order[k]] = s;
      s *= src.shape[order[k]];
    }
    return std::make_pair(strides, s);
  };
  auto vecFor = [&](const DistributedLayout &l, unsigned pad) {
    unsigned v = std::min(l.contiguousRegsAlong(inner), maxVec);
    while (v > 1 && (rank > 1 && (rowLen + pad) % v != 0))
      v /= 2;
    return std::max(1u, v);
  };
  int64_t bestCost = -1;
  // Candidate paddings: none, then 1, 2, 4, ... elements up to 32 bytes.
  for (unsigned pad = 0; pad <= std::max(1u, 32 / bytes); pad = pad ? pad * 2 : 1) {
    if (rank == 1 && pad)
      break; // A single row: nothing to pad.
    auto [strides, total] = makeStrides(pad);
    unsigned wv = vecFor(src, pad), rv = vecFor(dst, pad);
    int64_t cost = bankCycles(src, strides, wv, bytes, /*writersOnly=*/true) +
                   bankCycles(dst, strides, rv, bytes, /*writersOnly=*/false);
    if (bestCost < 0 || cost < bestCost) {
      bestCost = cost;
      plan.pad = pad;
      plan.strides = strides;
      plan.writeVec = wv;
      plan.readVec = rv;
      plan.totalBytes = (rank == 1 ? rowLen : total) * bytes;
    }
  }
  plan.bytes = bytes;
  plan.cycles = bestCost;
  return plan;
}

bool WarpShufflePlan::lanesKept() const {
  for (unsigned i = 0; i < kLaneBits; ++i)
    if (laneColumns[i] != (1u << i))
      return false;
  return true;
}

unsigned WarpShufflePlan::selects() const {
  unsigned n = 0;
  for (const ShuffleRound &r : rounds)
    n += r.sends.size() - 1;
  for (unsigned h : readerRegs)
    if (h)
      n += rounds.size();
  return n;
}

std::optional<WarpShufflePlan> kiln::planWarpShuffle(const DistributedLayout &src,
                                                     const DistributedLayout &dst) {
  if (src.shape != dst.shape || src.warpBases != dst.warpBases ||
      src.laneBases.size() != kLaneBits || dst.laneBases.size() != kLaneBits ||
      src.regBases.size() + kLaneBits > 32)
    return std::nullopt;
  SourceBasis basis;
  basis.laneShift = src.regBases.size();
  unsigned srcCopyLanes = 0;
  auto addColumn = [&](const Coord &c, unsigned column) {
    std::optional<uint64_t> bits = indexBits(c, src.shape);
    if (!bits)
      return false;
    basis.add(*bits, 1u << column);
    return true;
  };
  for (unsigned b = 0; b < src.regBases.size(); ++b)
    if (!addColumn(src.regBases[b], b))
      return std::nullopt;
  for (unsigned i = 0; i < kLaneBits; ++i) {
    if (!addColumn(src.laneBases[i], basis.laneShift + i))
      return std::nullopt;
    if (llvm::all_of(src.laneBases[i], [](int64_t v) { return v == 0; }))
      srcCopyLanes |= 1u << i;
  }
  auto solve = [&](const Coord &c) -> std::optional<uint32_t> {
    std::optional<uint64_t> bits = indexBits(c, dst.shape);
    if (!bits)
      return std::nullopt;
    return basis.solve(*bits);
  };
  SmallVector<uint32_t> regCombos, laneCombos;
  for (const Coord &c : dst.regBases) {
    std::optional<uint32_t> combo = solve(c);
    if (!combo)
      return std::nullopt; // held by another warp
    regCombos.push_back(*combo);
  }
  for (const Coord &c : dst.laneBases) {
    std::optional<uint32_t> combo = solve(c);
    if (!combo)
      return std::nullopt;
    laneCombos.push_back(*combo);
  }
  for (bool followCopies : {true, false})
    if (std::optional<WarpShufflePlan> plan =
            planRounds(dst, regCombos, laneCombos, basis.laneShift, srcCopyLanes,
                       followCopies))
      return plan;
  return std::nullopt;
}

unsigned kiln::exchangeBits(Type elem) {
  return elem.isIntOrFloat() ? std::max(8u, elem.getIntOrFloatBitWidth()) : 64;
}

unsigned kiln::shufflePack(unsigned bits) {
  return (bits == 8 || bits == 16) ? 32 / bits : 1;
}

std::map<unsigned, SmallVector<const ShuffleRound *>>
kiln::shuffledRoundsByLane(const WarpShufflePlan &plan) {
  std::map<unsigned, SmallVector<const ShuffleRound *>> byLane;
  for (const ShuffleRound &r : plan.rounds)
    if (!plan.readsOwnLane(r))
      byLane[r.laneConst].push_back(&r);
  return byLane;
}

unsigned kiln::shuffleInstructions(const WarpShufflePlan &plan, unsigned bits) {
  unsigned words = bits > 32 ? 2 : 1, pack = shufflePack(bits);
  unsigned n = 0;
  for (auto &[lane, rounds] : shuffledRoundsByLane(plan))
    n += (rounds.size() + pack - 1) / pack * words;
  return n;
}

std::optional<WarpShufflePlan> kiln::chooseWarpShuffle(const DistributedLayout &src,
                                                       const DistributedLayout &dst,
                                                       unsigned bits) {
  std::optional<WarpShufflePlan> plan = planWarpShuffle(src, dst);
  if (!plan)
    return std::nullopt;
  // Units of half a cycle. A shuffle and a conflict-free 4-byte warp access
  // through shared memory each take about one cycle of the SM's shared-memory
  // pipe; a select takes an issue slot, and another for its predicate (the
  // lane mask it tests), which one warp alone on its scheduler waits for as
  // for the pipe. The exchange adds two barriers and a store-to-load round
  // trip. Counting a select as half a cycle had fla's kkt solve at 1 warp
  // convert its ten 16 x 16 bf16 results for their stores with 40 selects
  // and 4 shuffles each: 58 more instructions each than the exchange.
  constexpr int64_t kBarrierCost = 16;
  int64_t shuffles =
      2 * int64_t(shuffleInstructions(*plan, bits)) + 2 * int64_t(plan->selects());
  ExchangePlan shared = planExchange(src, dst, std::max(1u, bits / 8));
  if (shuffles > 2 * (shared.cycles + kBarrierCost))
    return std::nullopt;
  return plan;
}
