//===- MmaLayoutTest.cpp - mma.sync layouts against the PTX fragments -----===//
//
// Emulates what the tile.dot lowering does with the #tile.mma / #tile.dot_op
// layouts on a whole CTA: every thread holds the operand and accumulator
// elements its layout gives it; every warp then issues the mma.sync tiles
// the lowering issues, building each lane's fragment registers from its
// values by coordinate, and the emulated instruction reads and writes them
// as the PTX ISA defines the m16n8k{8,16,32} fragments ("Matrix Fragments
// for mma.m16n8k*"). The result, read back through the accumulator layout,
// must be A x B + C for every element and every copy.
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/MmaLayout.h"

#include "mlir/IR/MLIRContext.h"
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace {
using Coord = DistributedLayout::Coord;
using Matrix = std::vector<std::vector<int64_t>>;

Matrix pattern(int64_t rows, int64_t cols, int64_t seed) {
  Matrix m(rows, std::vector<int64_t>(cols));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      m[r][c] = ((r * 7 + c * 13 + seed * 5) % 11) - 5;
  return m;
}

/// Values of `m` per (warp, lane, register) of `layout`.
std::vector<std::vector<std::vector<int64_t>>> distribute(const Matrix &m,
                                                          const DistributedLayout &l) {
  std::vector<std::vector<std::vector<int64_t>>> v(l.numWarps());
  for (unsigned w = 0; w < l.numWarps(); ++w)
    for (unsigned lane = 0; lane < 32; ++lane) {
      v[w].emplace_back();
      for (unsigned r = 0; r < l.numRegs(); ++r) {
        Coord c = l.coordOf(r, lane, w);
        v[w][lane].push_back(m[c[0]][c[1]]);
      }
    }
  return v;
}

void checkProduct(MLIRContext &ctx, int64_t m, int64_t n, int64_t k, unsigned kw,
                  MmaLayoutAttr mma) {
  unsigned numWarps = mma.getWarpsPerCTA()[0] * mma.getWarpsPerCTA()[1];
  SCOPED_TRACE(testing::Message() << m << "x" << n << "x" << k << " kWidth " << kw
                                  << " version " << mma.getVersion() << " warps "
                                  << mma.getWarpsPerCTA()[0] << "x" << mma.getWarpsPerCTA()[1]);
  auto a = dotOperandDistributedLayout({m, k}, DotOperandLayoutAttr::get(&ctx, 0, mma, kw));
  auto b = dotOperandDistributedLayout({k, n}, DotOperandLayoutAttr::get(&ctx, 1, mma, kw));
  auto c = mmaDistributedLayout({m, n}, mma);
  ASSERT_TRUE(a && b && c);
  ASSERT_EQ(a->numWarps(), numWarps);
  ASSERT_EQ(c->numWarps(), numWarps);
  Matrix am = pattern(m, k, 1), bm = pattern(k, n, 2), cm = pattern(m, n, 3);
  auto av = distribute(am, *a), bv = distribute(bm, *b), cv = distribute(cm, *c);
  int64_t instrK = mmaInstrK(kw);

  for (unsigned w = 0; w < numWarps; ++w) {
    // Tile origins as the lowering finds them (thread-relative offsets).
    for (unsigned r0 = 0; r0 < c->numRegs(); ++r0) {
      Coord o = c->regOffset(r0);
      if ((o[0] & 8) || (o[1] & 1))
        continue;
      for (int64_t kk = 0; kk < k; kk += instrK) {
        // Emulated instruction: the 16 x instrK, instrK x 8 and 16 x 8 tiles
        // as the PTX fragments place each lane's registers.
        std::map<std::pair<int64_t, int64_t>, int64_t> at, bt, ct;
        for (unsigned lane = 0; lane < 32; ++lane) {
          int64_t g = lane / 4, t = lane % 4;
          for (unsigned i = 0; i < 4 * kw; ++i) {
            unsigned j = i / kw, e = i % kw;
            auto ra = a->findReg(Coord{o[0] + (j & 1) * 8, kk + (j >> 1) * 4 * kw + e});
            ASSERT_TRUE(ra);
            at[{g + 8 * (j & 1), t * kw + e + 4 * kw * (j >> 1)}] = av[w][lane][*ra];
          }
          for (unsigned i = 0; i < 2 * kw; ++i) {
            unsigned j = i / kw, e = i % kw;
            auto rb = b->findReg(Coord{kk + j * 4 * kw + e, o[1]});
            ASSERT_TRUE(rb);
            bt[{t * kw + e + 4 * kw * j, g}] = bv[w][lane][*rb];
          }
          for (unsigned i = 0; i < 4; ++i) {
            auto rc = c->findReg(Coord{o[0] + 8 * (i / 2), o[1] + (i % 2)});
            ASSERT_TRUE(rc);
            ct[{g + 8 * (i / 2), t * 2 + (i % 2)}] = cv[w][lane][*rc];
          }
        }
        ASSERT_EQ(at.size(), size_t(16 * instrK));
        ASSERT_EQ(bt.size(), size_t(instrK * 8));
        for (unsigned lane = 0; lane < 32; ++lane) {
          int64_t g = lane / 4, t = lane % 4;
          for (unsigned i = 0; i < 4; ++i) {
            int64_t row = g + 8 * (i / 2), col = t * 2 + (i % 2);
            int64_t d = ct[{row, col}];
            for (int64_t x = 0; x < instrK; ++x)
              d += at[{row, x}] * bt[{x, col}];
            cv[w][lane][*c->findReg(Coord{o[0] + 8 * (i / 2), o[1] + (i % 2)})] = d;
          }
        }
      }
    }
  }
  for (unsigned w = 0; w < numWarps; ++w)
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned r = 0; r < c->numRegs(); ++r) {
        Coord x = c->coordOf(r, lane, w);
        int64_t want = cm[x[0]][x[1]];
        for (int64_t y = 0; y < k; ++y)
          want += am[x[0]][y] * bm[y][x[1]];
        ASSERT_EQ(cv[w][lane][r], want) << "element (" << x[0] << ", " << x[1]
                                        << ") warp " << w << " lane " << lane;
      }
}

TEST(MmaLayout, EmulatedMmaSyncComputesTheProduct) {
  MLIRContext ctx;
  ctx.loadDialect<TileDialect>();
  for (unsigned kw : {1u, 2u, 4u})
    for (auto [m, n, k, warps] : std::vector<std::tuple<int64_t, int64_t, int64_t, unsigned>>{
             {16, 16, 32, 1}, {16, 16, 32, 4}, {64, 32, 64, 4}, {32, 128, 32, 8},
             {128, 64, 32, 4}, {16, 64, 32, 2}})
      checkProduct(ctx, m, n, k, kw, MmaLayoutAttr::get(&ctx, 2, chooseMmaWarps(m, n, warps)));
}

/// Version 3 (warp groups splitting N): the operand layouts stay consistent
/// with the accumulator's (mma.sync over them still computes the product),
/// and every warp holds exactly wgmma's share: rows 16 * (warp % warpsM) of
/// each 16 * warpsM-row block, columns of its own block warp / warpsM.
TEST(MmaLayout, WarpGroupsSplittingNOwnTheirColumnBlocks) {
  MLIRContext ctx;
  ctx.loadDialect<TileDialect>();
  for (auto [m, n, wm, wn] : std::vector<std::tuple<int64_t, int64_t, unsigned, unsigned>>{
           {64, 128, 4, 2}, {64, 256, 4, 4}, {128, 128, 8, 2}, {64, 64, 4, 2}}) {
    auto mma = MmaLayoutAttr::get(&ctx, 3, {wm, wn});
    for (unsigned kw : {1u, 2u})
      checkProduct(ctx, m, n, 32, kw, mma);
    auto c = mmaDistributedLayout({m, n}, mma);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->replicatedWarpMask(), 0u);
    int64_t block = n / wn;
    std::set<std::pair<int64_t, int64_t>> seen;
    for (unsigned w = 0; w < wm * wn; ++w)
      for (unsigned lane = 0; lane < 32; ++lane)
        for (unsigned r = 0; r < c->numRegs(); ++r) {
          Coord x = c->coordOf(r, lane, w);
          EXPECT_EQ((x[0] / 16) % wm, w % wm) << "warp " << w << " row " << x[0];
          EXPECT_EQ(x[1] / block, w / wm) << "warp " << w << " column " << x[1];
          EXPECT_TRUE(seen.insert({x[0], x[1]}).second);
        }
    EXPECT_EQ(seen.size(), size_t(m * n));
    // B's fragments follow the columns; A's are copied across the groups.
    auto b = dotOperandDistributedLayout({32, n}, DotOperandLayoutAttr::get(&ctx, 1, mma, 2));
    auto a = dotOperandDistributedLayout({m, 32}, DotOperandLayoutAttr::get(&ctx, 0, mma, 2));
    ASSERT_TRUE(a && b);
    EXPECT_EQ(b->replicatedWarpMask(), wm - 1);
    EXPECT_EQ(a->replicatedWarpMask(), (wn - 1) * wm);
  }
  // A [BM, 1] tensor in the layout (a row reduction's parent) replicates over
  // the column blocks instead of overlapping the lanes.
  auto slim = mmaDistributedLayout({64, 1}, MmaLayoutAttr::get(&ctx, 3, {4, 2}));
  ASSERT_TRUE(slim);
  EXPECT_EQ(slim->replicatedWarpMask(), 4u);
}

TEST(MmaLayout, AccumulatorOwnsEachElementOnce) {
  MLIRContext ctx;
  ctx.loadDialect<TileDialect>();
  // 128x128 on 4 warps (2 x 2): 128 accumulator registers per thread, no copies.
  auto mma = MmaLayoutAttr::get(&ctx, 2, chooseMmaWarps(128, 128, 4));
  EXPECT_EQ(mma.getWarpsPerCTA()[0], 2u);
  EXPECT_EQ(mma.getWarpsPerCTA()[1], 2u);
  auto c = mmaDistributedLayout({128, 128}, mma);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->numRegs(), 128u);
  EXPECT_EQ(c->replicatedLaneMask(), 0u);
  EXPECT_EQ(c->replicatedWarpMask(), 0u);
  // The A operand (128x32 f16) is copied across the 2 warps along N.
  auto a = dotOperandDistributedLayout({128, 32}, DotOperandLayoutAttr::get(&ctx, 0, mma, 2));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->numRegs(), 64u);
  EXPECT_EQ(a->replicatedWarpMask(), 1u);
  // FMA operands hold whole rows of K: 8 rows x 32 K per thread.
  auto fa = dotOperandDistributedLayout({128, 32}, DotOperandLayoutAttr::get(&ctx, 0, mma, 0));
  ASSERT_TRUE(fa);
  EXPECT_EQ(fa->numRegs(), 256u);
}

} // namespace

namespace {
/// Emulates the ldmatrix staging of DotOperandToLLVM.cpp for a 16-bit
/// operand: every element written to the swizzled buffer, then each warp's
/// ldmatrix.x4 (A) / .x2.trans (B) with the lane addresses the lowering
/// computes, distributing matrix elements as the PTX ISA defines ldmatrix.
/// Each fragment register must receive the element the #tile.dot_op layout
/// assigns to it, and each 8-lane phase must touch 8 distinct bank groups.
void checkLdmatrix(MLIRContext &ctx, unsigned opIdx, int64_t rows, int64_t cols,
                   unsigned numWarps) {
  SCOPED_TRACE(testing::Message() << "opIdx " << opIdx << " " << rows << "x" << cols
                                  << " warps " << numWarps);
  bool isA = opIdx == 0;
  int64_t m = isA ? rows : 64, n = isA ? 64 : cols;
  auto mma = MmaLayoutAttr::get(&ctx, 2, chooseMmaWarps(m, n, numWarps));
  auto l = dotOperandDistributedLayout({rows, cols}, DotOperandLayoutAttr::get(&ctx, opIdx, mma, 2));
  ASSERT_TRUE(l);
  ChunkSwizzle sw = ChunkSwizzle::forRow(cols, 2);
  std::vector<int64_t> smem(rows * cols, -1);
  auto value = [&](int64_t r, int64_t c) { return r * 1000 + c; };
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int64_t at = sw.offset(r, c, 8);
      ASSERT_EQ(smem[at], -1) << "two elements at one address";
      smem[at] = value(r, c);
    }
  for (unsigned w = 0; w < l->numWarps(); ++w) {
    Coord warpBase = l->coordOf(0, 0, w);
    for (unsigned r0 = 0; r0 < l->numRegs(); ++r0) {
      Coord o = l->regOffset(r0);
      if ((o[0] & 15) || (o[1] & (isA ? 15 : 7)))
        continue;
      unsigned nMat = isA ? 4 : 2;
      // Row addresses: lane 8i + j addresses row j of matrix i.
      std::vector<int64_t> rowAddr(32);
      for (unsigned lane = 0; lane < 8 * nMat; ++lane) {
        int64_t row = warpBase[0] + o[0] + lane % 8 + 8 * ((lane / 8) & 1);
        int64_t col = warpBase[1] + o[1] + (isA ? 8 * ((lane / 8) >> 1) : 0);
        rowAddr[lane] = sw.offset(row, col, 8);
      }
      for (unsigned i = 0; i < nMat; ++i) {
        std::set<int64_t> groups;
        for (unsigned j = 0; j < 8; ++j)
          groups.insert((rowAddr[8 * i + j] * 2 / 16) % 8);
        EXPECT_EQ(groups.size(), 8u) << "bank conflict in matrix " << i;
      }
      for (unsigned lane = 0; lane < 32; ++lane)
        for (unsigned i = 0; i < nMat; ++i)
          for (unsigned e = 0; e < 2; ++e) {
            // Non-trans: row lane/4, column 2(lane%4)+e; trans: the transpose.
            unsigned mr = isA ? lane / 4 : 2 * (lane % 4) + e;
            unsigned mc = isA ? 2 * (lane % 4) + e : lane / 4;
            int64_t got = smem[rowAddr[8 * i + mr] + mc];
            // Fragment register i of this lane, element e, per the lowering.
            Coord off = isA ? Coord{o[0] + (i & 1) * 8, o[1] + (i >> 1) * 8 + e}
                            : Coord{o[0] + 8 * i + e, o[1]};
            std::optional<unsigned> reg = l->findReg(off);
            ASSERT_TRUE(reg);
            Coord want = l->coordOf(*reg, lane, w);
            ASSERT_EQ(got, value(want[0], want[1]))
                << "warp " << w << " lane " << lane << " matrix " << i << " elem " << e;
          }
    }
  }
}

TEST(MmaLayout, LdmatrixStagingDeliversTheFragments) {
  MLIRContext ctx;
  ctx.loadDialect<TileDialect>();
  for (auto [rows, cols, warps] : std::vector<std::tuple<int64_t, int64_t, unsigned>>{
           {16, 16, 1}, {64, 32, 4}, {128, 64, 8}, {32, 128, 4}, {128, 256, 8}}) {
    checkLdmatrix(ctx, 0, rows, cols, warps);
    checkLdmatrix(ctx, 1, rows, cols, warps);
  }
}
} // namespace
