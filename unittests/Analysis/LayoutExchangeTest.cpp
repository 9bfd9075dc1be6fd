//===- LayoutExchangeTest.cpp - Warp-shuffle plans, emulated --------------===//
//
// Runs each warp-shuffle plan on every warp of a CTA the way its lowering
// (exchangeByShuffles) does: each lane picks the register it sends by the
// round's lane masks, each reader takes the value of lane
// laneConst ^ laneOf(reader) into register dstReg ^ regOf(reader). Every
// destination register of every thread must end up holding the element the
// destination layout gives it, each exactly once. Layout
// pairs cover the conversions kernels make (accumulator to operand,
// accumulator to blocked, reduced vectors of one axis to the other, blocked
// to blocked, replicated tiles), and those that cross warps must get no
// plan.
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/LayoutExchange.h"
#include "kiln/Analysis/MmaLayout.h"
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>
#include <set>

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace {
using Coord = DistributedLayout::Coord;

std::string text(Attribute a) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << a;
  return s;
}

int64_t key(const Coord &c, const DistributedLayout &l) {
  int64_t k = 0;
  for (unsigned d = 0; d < l.rank(); ++d)
    k = k * l.shape[d] + c[d];
  return k;
}

/// Emulates `plan` from `src` to `dst`; failures name warp, lane, register.
void checkPlan(const WarpShufflePlan &plan, const DistributedLayout &src,
               const DistributedLayout &dst) {
  ASSERT_EQ(plan.rounds.size(), dst.numRegs());
  std::set<unsigned> bases;
  for (const ShuffleRound &round : plan.rounds)
    bases.insert(round.dstReg);
  ASSERT_EQ(bases.size(), dst.numRegs()); // readers xor them: a permutation
  for (unsigned w = 0; w < src.numWarps(); ++w) {
    for (const ShuffleRound &round : plan.rounds) {
      std::array<int64_t, kWarpSize> sent;
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        unsigned reg = round.sends[0].reg;
        for (const ShuffleRound::Send &s : ArrayRef(round.sends).drop_front())
          if (s.lanes & (1u << lane))
            reg = s.reg;
        ASSERT_LT(reg, src.numRegs());
        sent[lane] = key(src.coordOf(reg, lane, w), src);
      }
      for (unsigned m = 0; m < kWarpSize; ++m) {
        unsigned from = round.laneConst, reg = round.dstReg;
        for (unsigned i = 0; i < kLaneBits; ++i)
          if (m & (1u << i))
            from ^= plan.laneColumns[i], reg ^= plan.readerRegs[i];
        ASSERT_LT(from, kWarpSize);
        ASSERT_LT(reg, dst.numRegs());
        EXPECT_EQ(sent[from], key(dst.coordOf(reg, m, w), dst))
            << "warp " << w << " lane " << m << " register " << reg;
      }
    }
  }
}

class LayoutExchangeTest : public testing::Test {
protected:
  void SetUp() override { ctx.loadDialect<TileDialect>(); }
  MLIRContext ctx;

  MmaLayoutAttr mma(unsigned wm, unsigned wn) {
    return MmaLayoutAttr::get(&ctx, 2, {wm, wn});
  }
  BlockedLayoutAttr blocked(ArrayRef<unsigned> spt, ArrayRef<unsigned> tpw,
                            ArrayRef<unsigned> wpc, ArrayRef<unsigned> order) {
    return BlockedLayoutAttr::get(&ctx, spt, tpw, wpc, order);
  }
  DistributedLayout layout(ArrayRef<int64_t> shape, Attribute enc) {
    std::optional<DistributedLayout> l = getDistributedLayout(shape, enc);
    EXPECT_TRUE(l.has_value());
    return l ? *l : DistributedLayout{};
  }
  /// The plan from `from` to `to` exists and is right.
  void expectPlan(ArrayRef<int64_t> shape, Attribute from, Attribute to) {
    SCOPED_TRACE(testing::Message() << "from " << text(from) << " to " << text(to));
    DistributedLayout src = layout(shape, from), dst = layout(shape, to);
    std::optional<WarpShufflePlan> plan = planWarpShuffle(src, dst);
    ASSERT_TRUE(plan.has_value());
    checkPlan(*plan, src, dst);
  }
  void expectNoPlan(ArrayRef<int64_t> shape, Attribute from, Attribute to) {
    SCOPED_TRACE(testing::Message() << "from " << text(from) << " to " << text(to));
    EXPECT_FALSE(planWarpShuffle(layout(shape, from), layout(shape, to)).has_value());
  }
};

TEST_F(LayoutExchangeTest, AccumulatorToOperandsInOneWarp) {
  for (unsigned kWidth : {1u, 2u, 4u})
    for (int64_t n : {16, 32, 64}) {
      auto acc = mma(1, 1);
      expectPlan({16, n}, acc, DotOperandLayoutAttr::get(&ctx, 0, acc, kWidth));
      expectPlan({n, 16}, acc, DotOperandLayoutAttr::get(&ctx, 1, acc, kWidth));
    }
}

TEST_F(LayoutExchangeTest, BlockedToOperandsInOneWarp) {
  // A loaded tile read as a 16-bit operand (kWidth 2) in one warp: moved by
  // shuffles, not staged (DotOperandToLLVM.cpp leaves it to them).
  auto acc = mma(1, 1);
  auto rows = blocked({1, 8}, {16, 2}, {1, 1}, {1, 0});
  expectPlan({16, 16}, rows, DotOperandLayoutAttr::get(&ctx, 0, acc, 2));
  expectPlan({16, 16}, rows, DotOperandLayoutAttr::get(&ctx, 1, acc, 2));
  expectPlan({64, 32}, blocked({1, 8}, {8, 4}, {1, 1}, {1, 0}),
             DotOperandLayoutAttr::get(&ctx, 0, acc, 2));
}

TEST_F(LayoutExchangeTest, AccumulatorToOperandAcrossWarpsHasNoPlan) {
  // 2 x 2 warps over 32 x 32: each warp holds 16 x 16 of the accumulator, but
  // an A operand's warp needs all 32 columns of its rows.
  auto acc = mma(2, 2);
  expectNoPlan({32, 32}, acc, DotOperandLayoutAttr::get(&ctx, 0, acc, 1));
  // Warps along M only: each warp's rows are whole, an A operand stays in it.
  auto rows = mma(4, 1);
  expectPlan({64, 32}, rows, DotOperandLayoutAttr::get(&ctx, 0, rows, 1));
}

TEST_F(LayoutExchangeTest, ReducedVectorsBetweenAxes) {
  // A column sum (slice of dim 0) read as a row vector (slice of dim 1):
  // the forward substitution of fla's kkt solve.
  for (auto [wm, wn] : {std::pair{1u, 1u}, {2u, 1u}, {4u, 1u}}) {
    auto acc = mma(wm, wn);
    auto cols = SliceLayoutAttr::get(&ctx, 0, acc);
    auto rowsOf = SliceLayoutAttr::get(&ctx, 1, acc);
    if (wm == 1) {
      expectPlan({16}, cols, rowsOf);
      expectPlan({16}, rowsOf, cols);
    }
  }
}

TEST_F(LayoutExchangeTest, AccumulatorToBlocked) {
  auto acc = mma(1, 1);
  expectPlan({16, 16}, acc, blocked({1, 8}, {16, 2}, {1, 1}, {1, 0}));
  expectPlan({16, 16}, acc, blocked({1, 2}, {4, 8}, {1, 1}, {1, 0}));
  expectPlan({32, 64}, acc, blocked({1, 4}, {2, 16}, {1, 1}, {1, 0}));
}

TEST_F(LayoutExchangeTest, BlockedToBlocked) {
  // Transposed thread order in one warp.
  expectPlan({32, 32}, blocked({1, 4}, {4, 8}, {1, 1}, {1, 0}),
             blocked({4, 1}, {8, 4}, {1, 1}, {0, 1}));
  // Same warps, different lanes: 4 warps along rows in both.
  expectPlan({64, 32}, blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}),
             blocked({2, 2}, {2, 16}, {4, 1}, {1, 0}));
  // The same 4 x 1 warps but tiles of other heights: warp w's rows differ.
  expectNoPlan({64, 32}, blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}),
               blocked({2, 2}, {8, 4}, {4, 1}, {1, 0}));
  // Warps along rows to warps along columns: crosses warps.
  expectNoPlan({64, 64}, blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}),
               blocked({1, 4}, {4, 8}, {1, 4}, {1, 0}));
}

TEST_F(LayoutExchangeTest, ReplicatedSourcesAndReaders) {
  // A tile smaller than the layout (copies in lanes) read by a layout that
  // splits it, and the other way.
  auto wide = blocked({1, 1}, {1, 32}, {1, 1}, {1, 0});
  auto tall = blocked({1, 1}, {32, 1}, {1, 1}, {1, 0});
  expectPlan({8, 8}, wide, tall);
  expectPlan({8, 8}, tall, wide);
  expectPlan({4, 64}, tall, wide);
}

} // namespace
