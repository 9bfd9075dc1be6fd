//===- DistributedLayoutTest.cpp - Bit-level layouts against brute force --===//
#include "kiln/Analysis/DistributedLayout.h"
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/MLIRContext.h"
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace {

class LayoutTest : public ::testing::Test {
protected:
  LayoutTest() { ctx.loadDialect<TileDialect>(); }
  BlockedLayoutAttr blocked(ArrayRef<unsigned> spt, ArrayRef<unsigned> tpw,
                            ArrayRef<unsigned> wpc, ArrayRef<unsigned> order) {
    return BlockedLayoutAttr::get(&ctx, spt, tpw, wpc, order);
  }
  MLIRContext ctx;
};

/// The element (row-major index) the blocked definition assigns to
/// (register r, lane, warp) of a 1-D layout, computed the naive way.
int64_t naive1D(int64_t n, unsigned spt, unsigned tpw, unsigned wpc, unsigned r,
                unsigned lane, unsigned warp) {
  int64_t tile = int64_t(spt) * tpw * wpc;
  int64_t rep = r / spt, within = r % spt;
  return (rep * tile + (warp * tpw + lane) * spt + within) % n;
}

TEST_F(LayoutTest, Blocked1DMatchesDefinition) {
  for (auto [n, spt, wpc] : std::vector<std::tuple<int64_t, unsigned, unsigned>>{
           {1024, 8, 4}, {8192, 8, 8}, {2048, 4, 8}, {64, 1, 4}, {16, 2, 1}}) {
    auto layout = getDistributedLayout({n}, blocked({spt}, {32}, {wpc}, {0}));
    ASSERT_TRUE(layout);
    int64_t covered = int64_t(spt) * 32 * wpc;
    unsigned regs = n >= covered ? n / (32 * wpc) : std::min<int64_t>(spt, n);
    EXPECT_EQ(layout->numRegs(), regs) << "n=" << n;
    std::set<int64_t> seen;
    for (unsigned w = 0; w < wpc; ++w)
      for (unsigned l = 0; l < 32; ++l)
        for (unsigned r = 0; r < layout->numRegs(); ++r) {
          int64_t e = layout->coordOf(r, l, w)[0];
          EXPECT_EQ(e, naive1D(n, spt, 32, wpc, r, l, w)) << n << " " << r << " " << l;
          seen.insert(e);
        }
    EXPECT_EQ(int64_t(seen.size()), n) << "every element held by some thread";
  }
}

TEST_F(LayoutTest, ContiguousRegistersGiveVectorWidth) {
  auto layout = getDistributedLayout({8192}, blocked({8}, {32}, {8}, {0}));
  EXPECT_EQ(layout->numRegs(), 32u);
  EXPECT_EQ(layout->contiguousRegsAlong(0), 8u);
  auto col = getDistributedLayout({32, 128}, blocked({1, 8}, {2, 16}, {4, 1}, {1, 0}));
  EXPECT_EQ(col->contiguousRegsAlong(1), 8u);
  EXPECT_EQ(col->contiguousRegsAlong(0), 1u);
}

TEST_F(LayoutTest, ReplicationMasks) {
  // 64 elements on 4 warps of 32 lanes: warp bit 1 repeats warp bit 0's data.
  auto layout = getDistributedLayout({64}, blocked({1}, {32}, {4}, {0}));
  EXPECT_EQ(layout->replicatedLaneMask(), 0u);
  EXPECT_EQ(layout->replicatedWarpMask(), 2u);
  // 16 elements: lane bit 4 and both warp bits replicate.
  auto small = getDistributedLayout({16}, blocked({1}, {32}, {4}, {0}));
  EXPECT_EQ(small->replicatedLaneMask(), 16u);
  EXPECT_EQ(small->replicatedWarpMask(), 3u);
}

TEST_F(LayoutTest, SliceIsParentWithoutTheDimension) {
  auto parent = blocked({1, 8}, {2, 16}, {4, 1}, {1, 0});
  auto s0 = getDistributedLayout({128}, SliceLayoutAttr::get(&ctx, 0, parent));
  ASSERT_TRUE(s0);
  // Columns: 8 per thread, 16 lanes along them; lane bit 4 and the warps,
  // which split rows in the parent, hold copies.
  EXPECT_EQ(s0->numRegs(), 8u);
  EXPECT_EQ(s0->replicatedLaneMask(), 16u);
  EXPECT_EQ(s0->replicatedWarpMask(), 3u);
  auto p = getDistributedLayout({32, 128}, parent);
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned r = 0; r < s0->numRegs(); ++r)
        EXPECT_EQ(s0->coordOf(r, l, w)[0], p->coordOf(r, l, w)[1]);
  auto s1 = getDistributedLayout({32}, SliceLayoutAttr::get(&ctx, 1, parent));
  EXPECT_EQ(s1->numRegs(), 4u); // the row repetitions
  EXPECT_EQ(s1->laneMaskAlong(0), 16u);
  EXPECT_EQ(s1->warpMaskAlong(0), 3u);
}

TEST_F(LayoutTest, FindRegInvertsRegOffset) {
  auto layout = getDistributedLayout({32, 128}, blocked({1, 8}, {2, 16}, {4, 1}, {1, 0}));
  for (unsigned r = 0; r < layout->numRegs(); ++r)
    EXPECT_EQ(layout->findReg(layout->regOffset(r)), r);
  EXPECT_FALSE(layout->findReg({1, 0})); // row 1 belongs to another lane
}

TEST_F(LayoutTest, SameThreadMapping) {
  auto a = getDistributedLayout({2, 64}, blocked({2, 2}, {1, 32}, {1, 1}, {1, 0}));
  auto b = getDistributedLayout({2, 64}, blocked({2, 2}, {1, 32}, {1, 1}, {0, 1}));
  auto c = getDistributedLayout({2, 64}, blocked({1, 2}, {2, 16}, {1, 1}, {1, 0}));
  EXPECT_TRUE(a->sameThreadMapping(*b));
  EXPECT_FALSE(*a == *b); // registers in another order
  EXPECT_FALSE(a->sameThreadMapping(*c));
}

TEST_F(LayoutTest, RejectsNonPowerOfTwoShapes) {
  EXPECT_FALSE(getDistributedLayout({1000}, blocked({8}, {32}, {4}, {0})));
  EXPECT_FALSE(getDistributedLayout({1024}, Attribute()));
}

TEST_F(LayoutTest, ToBlockedInvertsBlocked) {
  struct Case {
    SmallVector<int64_t> shape;
    SmallVector<unsigned> spt, tpw, wpc, order;
  };
  for (const Case &c : std::vector<Case>{
           {{32, 64}, {1, 4}, {2, 16}, {4, 1}, {1, 0}},
           {{64, 32}, {4, 1}, {16, 2}, {1, 4}, {0, 1}},
           {{32, 4, 16}, {1, 1, 4}, {2, 4, 4}, {4, 1, 1}, {2, 1, 0}},
           {{1024}, {8}, {32}, {4}, {0}},
           {{16, 64, 2}, {1, 4, 2}, {2, 16, 1}, {4, 1, 1}, {2, 1, 0}}}) {
    BlockedLayoutAttr attr = blocked(c.spt, c.tpw, c.wpc, c.order);
    auto layout = getDistributedLayout(c.shape, attr);
    ASSERT_TRUE(layout);
    Attribute back = toBlockedLayout(&ctx, *layout);
    ASSERT_TRUE(back);
    // The same element of every register, lane and warp (an equivalent
    // attribute may list the dimensions of size-1 parts in another order).
    EXPECT_EQ(getDistributedLayout(c.shape, back), layout);
  }
  // A lane basis along two dimensions at once: no blocked layout has it.
  auto layout = getDistributedLayout({32, 32}, blocked({1, 1}, {1, 32}, {4, 1}, {1, 0}));
  ASSERT_TRUE(layout);
  layout->laneBases[0] = {1, 1};
  EXPECT_FALSE(toBlockedLayout(&ctx, *layout));
}

} // namespace
