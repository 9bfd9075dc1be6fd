//===- LayerNormPlanTest.cpp - Variant choice and option checks (no GPU) --===//
//
// planNorm's choices for the fused LayerNorm / RMSNorm (docs/layernorm.md)
// on a 132-SM device, and the errors for inconsistent options.
//
//===----------------------------------------------------------------------===//
#include "kiln/Runtime/LayerNorm.h"
#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::rt;

namespace {
constexpr int kSMs = 132;

NormPlan plan(int64_t M, int64_t N, DType t = DType::F16, NormOptions o = {}) {
  auto p = planNorm(M, N, t, o, kSMs);
  EXPECT_TRUE(bool(p)) << llvm::toString(p.takeError());
  return p ? *p : NormPlan{};
}

std::string planError(int64_t M, int64_t N, DType t, NormOptions o) {
  auto p = planNorm(M, N, t, o, kSMs);
  if (p)
    return "";
  return llvm::toString(p.takeError());
}
} // namespace

TEST(NormPlan, ShortRowsShareAProgram) {
  // 512 fp16: 8 rows per program (4096 elements, 32 per thread at 4 warps:
  // the H200's measurement).
  NormPlan p = plan(65536, 512);
  EXPECT_EQ(p.forward, NormPlan::Variant::Rows);
  EXPECT_EQ(p.fwdBlockN, 512u);
  EXPECT_EQ(p.fwdRows, 8u);
  EXPECT_EQ(p.fwdWarps, 4u);
  EXPECT_EQ(p.fwdGrid, 8192u);
  // Backward, pipelined: 4 rows per 2048-element tile, 8 warps (8 elements
  // per thread), two programs per SM (264 wanted), 252 rows each.
  EXPECT_EQ(p.backward, NormPlan::Variant::Rows);
  EXPECT_TRUE(p.bwdPipelined);
  EXPECT_FALSE(p.fwdPipelined);
  EXPECT_EQ(p.bwdRows, 4u);
  EXPECT_EQ(p.bwdWarps, 8u);
  EXPECT_EQ(p.programs, 261u);
  EXPECT_EQ(p.rowsPerProgram, 252);
  EXPECT_EQ(p.reduceBlockN, 32u);
  EXPECT_EQ(p.reduceGrid, 16u);
}

TEST(NormPlan, RowsPerProgramNeverExceedTheMatrix) {
  NormPlan p = plan(3, 777);
  EXPECT_EQ(p.fwdBlockN, 1024u);
  EXPECT_EQ(p.fwdRows, 2u); // 1024 with few rows: 2 rows at 2 warps
  EXPECT_EQ(p.fwdWarps, 2u);
  EXPECT_EQ(p.fwdGrid, 2u);
  // 512 with few rows: 4 per program, but never more than next_pow2(M).
  NormPlan q = plan(3, 300);
  EXPECT_EQ(q.fwdRows, 4u);
  EXPECT_EQ(q.fwdWarps, 2u);
  EXPECT_EQ(q.fwdGrid, 1u);
  EXPECT_EQ(plan(1, 300).fwdRows, 1u);
  EXPECT_EQ(p.programs, 2u); // 2 rows per backward tile
  EXPECT_EQ(p.rowsPerProgram, 2);
  NormPlan one = plan(1, 1);
  EXPECT_EQ(one.fwdBlockN, 1u);
  EXPECT_EQ(one.fwdRows, 1u);
  EXPECT_EQ(one.fwdWarps, 4u);
  EXPECT_EQ(one.programs, 1u);
  // Rows of one element: at most 128 rows per tile.
  EXPECT_EQ(plan(100000, 1).fwdRows, 128u);
}

TEST(NormPlan, LongRowsInRegistersUpTo32K) {
  // BLOCK_N = 16384, plain fp16 / bf16: whole rows, the persistent
  // pipelined one-pass kernel at 16 warps, one program per SM; fp16 with
  // more than 64 rows per SM: the chunked forward.
  for (DType t : {DType::F16, DType::BF16}) {
    NormPlan p = plan(4096, 16384, t);
    EXPECT_EQ(p.forward, NormPlan::Variant::Rows);
    EXPECT_EQ(p.fwdBlockN, 16384u);
    EXPECT_EQ(p.fwdRows, 1u);
    EXPECT_TRUE(p.fwdPipelined);
    EXPECT_EQ(p.fwdWarps, 16u);
    EXPECT_EQ(p.fwdGrid, 132u);
    EXPECT_EQ(plan(64 * 132, 16384, t).forward, NormPlan::Variant::Rows);
    if (t == DType::BF16) {
      EXPECT_EQ(plan(65536, 16384, t).forward, NormPlan::Variant::Rows);
      continue;
    }
    NormPlan many = plan(64 * 132 + 1, 16384, t);
    EXPECT_EQ(many.forward, NormPlan::Variant::Chunked);
    EXPECT_EQ(many.fwdBlockN, 4096u);
    EXPECT_EQ(many.fwdWarps, 8u);
    EXPECT_TRUE(many.fwdPipelined);
    EXPECT_EQ(many.fwdGrid, uint32_t(64 * 132 + 1));
  }
  // With an option that adds a live tensor (the residual output) or in fp32:
  // the chunked forward, 4096-element chunks at 8 warps, pipelined, one row
  // per program.
  NormOptions resOut;
  resOut.residual = true;
  for (NormPlan p : {plan(4096, 16384, DType::F16, resOut), plan(4096, 16384, DType::F32)}) {
    EXPECT_EQ(p.forward, NormPlan::Variant::Chunked);
    EXPECT_EQ(p.fwdBlockN, 4096u);
    EXPECT_EQ(p.fwdWarps, 8u);
    EXPECT_TRUE(p.fwdPipelined);
    EXPECT_EQ(p.fwdGrid, 4096u);
  }
  // Asking for whole rows gives the persistent pipelined one-pass kernel.
  NormOptions rows;
  rows.rowsPerTile = 1;
  NormPlan w = plan(4096, 16384, DType::F32, rows);
  EXPECT_EQ(w.forward, NormPlan::Variant::Rows);
  EXPECT_TRUE(w.fwdPipelined);
  EXPECT_EQ(w.fwdWarps, 16u);
  EXPECT_EQ(w.fwdGrid, 132u);
  // 1024 / 2048 with many rows per SM (65536 on 132 SMs): 2 rows at 4 warps
  // and 4 rows at 4 warps; 2048 with few: the pipelined kernel, 2 rows at 4
  // warps, 4 programs per SM.
  NormPlan mid = plan(65536, 1024);
  EXPECT_EQ(mid.fwdRows, 2u);
  EXPECT_EQ(mid.fwdWarps, 4u);
  EXPECT_EQ(mid.fwdGrid, 32768u);
  NormPlan halfMany = plan(65536, 2048, DType::BF16);
  EXPECT_EQ(halfMany.fwdRows, 4u);
  EXPECT_EQ(halfMany.fwdWarps, 4u);
  EXPECT_FALSE(halfMany.fwdPipelined);
  EXPECT_EQ(halfMany.fwdGrid, 16384u);
  NormPlan halfFew = plan(4096, 2048);
  EXPECT_EQ(halfFew.fwdRows, 2u);
  EXPECT_EQ(halfFew.fwdWarps, 4u);
  EXPECT_TRUE(halfFew.fwdPipelined);
  EXPECT_EQ(halfFew.fwdGrid, 528u);
  NormPlan narrowFew = plan(4096, 512);
  EXPECT_EQ(narrowFew.fwdRows, 4u);
  EXPECT_EQ(narrowFew.fwdWarps, 2u);
  EXPECT_EQ(narrowFew.fwdGrid, 1024u);
  NormPlan quarter = plan(65536, 4096, DType::BF16);
  EXPECT_EQ(quarter.fwdRows, 1u);
  EXPECT_EQ(quarter.fwdWarps, 4u);
  EXPECT_EQ(quarter.fwdGrid, 65536u);
  // fp32 keeps the general rule (4096-element tiles, 16 per thread).
  NormPlan f2048 = plan(4096, 2048, DType::F32);
  EXPECT_EQ(f2048.fwdRows, 2u);
  EXPECT_EQ(f2048.fwdWarps, 8u);
  EXPECT_FALSE(f2048.fwdPipelined);
  // 32768 in registers: the persistent pipelined kernel at 8 warps, two
  // programs per SM (16 warps in one pass when rowsPerTile asks; 32 when
  // options add live tensors); longer rows chunked.
  NormPlan r = plan(4096, 20000);
  EXPECT_EQ(r.forward, NormPlan::Variant::Rows);
  EXPECT_EQ(r.fwdBlockN, 32768u);
  EXPECT_EQ(r.fwdWarps, 8u);
  EXPECT_TRUE(r.fwdPipelined);
  EXPECT_EQ(r.fwdGrid, 264u);
  NormPlan r1 = plan(4096, 20000, DType::BF16, rows);
  EXPECT_EQ(r1.fwdWarps, 16u);
  EXPECT_FALSE(r1.fwdPipelined);
  NormOptions res;
  res.residual = true;
  EXPECT_EQ(plan(4096, 20000, DType::F16, res).fwdWarps, 32u);
  EXPECT_FALSE(plan(4096, 20000, DType::F16, res).fwdPipelined);
  // 8192: with many rows per SM two rows per program at 4 warps; with few
  // (4096 rows on 132 SMs) the pipelined kernel, 8 warps, 4 per SM.
  NormPlan many = plan(65536, 8192);
  EXPECT_EQ(many.fwdRows, 2u);
  EXPECT_EQ(many.fwdWarps, 4u);
  EXPECT_FALSE(many.fwdPipelined);
  EXPECT_EQ(many.fwdGrid, 32768u);
  NormPlan few = plan(4096, 8192, DType::BF16);
  EXPECT_EQ(few.fwdRows, 1u);
  EXPECT_EQ(few.fwdWarps, 8u);
  EXPECT_TRUE(few.fwdPipelined);
  EXPECT_EQ(few.fwdGrid, 528u);
  EXPECT_FALSE(plan(4096, 8192, DType::F32).fwdPipelined);
  NormOptions two;
  two.secondOutput = true;
  EXPECT_EQ(plan(4096, 20000, DType::F16, two).fwdWarps, 32u);
  EXPECT_EQ(plan(4096, 32769).forward, NormPlan::Variant::Chunked);
  // fp32 rows of BLOCK_N = 32768: chunked, 8192-element chunks at 16 warps
  // (whole rows when rowsPerTile asks).
  NormPlan f = plan(4096, 20000, DType::F32);
  EXPECT_EQ(f.forward, NormPlan::Variant::Chunked);
  EXPECT_EQ(f.fwdBlockN, 8192u);
  EXPECT_EQ(f.fwdWarps, 16u);
  EXPECT_TRUE(f.fwdPipelined);
  EXPECT_EQ(plan(4096, 20000, DType::F32, rows).forward,
            NormPlan::Variant::Rows);
  EXPECT_EQ(plan(4096, 16384, DType::F32).fwdBlockN, 4096u);
  // The one-pass backward keeps whole rows up to 8192: there only for fp32,
  // with the dx options or when rowsPerTile asks for it (the Columns
  // backward otherwise).
  EXPECT_NE(plan(4096, 16384).backward, NormPlan::Variant::Rows);
  for (NormPlan q : {plan(4096, 8192, DType::F32),
                     plan(4096, 8192, DType::BF16, res),
                     plan(4096, 8192, DType::BF16, rows)}) {
    EXPECT_EQ(q.backward, NormPlan::Variant::Rows);
    EXPECT_EQ(q.bwdBlockN, 8192u);
    EXPECT_EQ(q.bwdWarps, 32u);
    EXPECT_EQ(q.programs, 128u); // one per SM (32 warps), 32 rows each
    EXPECT_EQ(q.rowsPerProgram, 32);
  }
  // fp16 / bf16 at 8192 without options: the pipelined one-pass backward,
  // one row per tile at 16 warps, one program per SM.
  for (DType dtype : {DType::F16, DType::BF16}) {
    NormPlan q = plan(4096, 8192, dtype);
    EXPECT_EQ(q.backward, NormPlan::Variant::Rows);
    EXPECT_TRUE(q.bwdPipelined);
    EXPECT_EQ(q.bwdRows, 1u);
    EXPECT_EQ(q.bwdWarps, 16u);
    EXPECT_EQ(q.programs, 128u);
    EXPECT_EQ(q.rowsPerProgram, 32);
  }
  EXPECT_EQ(plan(65536, 8192).programs, 132u);
  EXPECT_EQ(plan(4096, 5000).bwdWarps, 16u);
  for (NormPlan q : {plan(4096, 8192, DType::F32),
                     plan(4096, 8192, DType::BF16, res),
                     plan(4096, 8192, DType::BF16, rows)})
    EXPECT_FALSE(q.bwdPipelined);
}

TEST(NormPlan, BackwardOfAFewTilesSplitsColumnsAcrossPrograms) {
  // 16384 (fp16, bf16): the whole row in one 16384-column chunk at 16
  // warps, one program per SM.
  NormPlan p = plan(4096, 16384);
  EXPECT_EQ(p.backward, NormPlan::Variant::Columns);
  EXPECT_EQ(p.bwdBlockN, 16384u);
  EXPECT_EQ(p.bwdWarps, 16u);
  EXPECT_EQ(p.bwdRows, 1u);
  EXPECT_EQ(p.columnChunks, 1u);
  EXPECT_EQ(p.programs, 128u);
  EXPECT_EQ(p.rowsPerProgram, 32);
  EXPECT_EQ(plan(4096, 12288, DType::BF16).bwdBlockN, 16384u);
  // 8192 (fp16, bf16) with a second output: one 8192-column chunk.
  NormOptions second;
  second.secondOutput = true;
  NormPlan e = plan(65536, 8192, DType::F16, second);
  EXPECT_EQ(e.backward, NormPlan::Variant::Columns);
  EXPECT_EQ(e.bwdBlockN, 8192u);
  EXPECT_EQ(e.columnChunks, 1u);
  EXPECT_EQ(e.programs, 132u);
  // A second output (two more accumulators) or fp32: 8192-column chunks.
  NormOptions two;
  two.secondOutput = true;
  for (NormPlan q : {plan(4096, 16384, DType::F16, two),
                     plan(4096, 16384, DType::F32)}) {
    EXPECT_EQ(q.backward, NormPlan::Variant::Columns);
    EXPECT_EQ(q.bwdBlockN, 8192u);
    EXPECT_EQ(q.bwdWarps, 16u);
    EXPECT_EQ(q.columnChunks, 2u);
    EXPECT_EQ(q.programs, 66u);
    EXPECT_EQ(q.rowsPerProgram, 63);
  }
  EXPECT_EQ(plan(4096, 8192, DType::F16, two).columnChunks, 1u);
  // Up to 16384; then the cooperative backward (fp32: chunked); the dx
  // options or noColumnsBackward: chunked.
  EXPECT_EQ(plan(8, 16384).backward, NormPlan::Variant::Columns);
  EXPECT_EQ(plan(8, 16385).backward, NormPlan::Variant::Cooperative);
  EXPECT_EQ(plan(300, 16385, DType::F32).backward, NormPlan::Variant::Chunked);
  NormOptions off;
  off.noColumnsBackward = true;
  EXPECT_EQ(plan(4096, 16384, DType::F16, off).backward,
            NormPlan::Variant::Chunked);
  EXPECT_EQ(plan(4096, 8192, DType::F16, off).backward,
            NormPlan::Variant::Rows);
  for (int option = 0; option < 3; ++option) {
    NormOptions dx;
    dx.residual = option == 0;
    dx.dropoutP = option == 1 ? 0.1f : 0.f;
    dx.rowScale = option == 2;
    EXPECT_EQ(plan(4096, 16384, DType::F16, dx).backward,
              NormPlan::Variant::Chunked);
  }
}

TEST(NormPlan, LongRowsTakeTheCooperativeBackward) {
  // fp16: 8192-column chunks at 16 warps, one program per SM, each group
  // of chunk programs owning a block of rows.
  NormPlan p = plan(4096, 32768);
  EXPECT_EQ(p.backward, NormPlan::Variant::Cooperative);
  EXPECT_EQ(p.bwdBlockN, 8192u);
  EXPECT_EQ(p.bwdWarps, 16u);
  EXPECT_EQ(p.columnChunks, 4u);
  EXPECT_EQ(p.programs, 33u);
  EXPECT_EQ(p.rowsPerProgram, 125);
  EXPECT_LE(p.programs * p.columnChunks, 132u);
  // bf16: 8 warps; 262144 columns: 32 chunks, 4 groups.
  NormPlan b = plan(4096, 262144, DType::BF16);
  EXPECT_EQ(b.backward, NormPlan::Variant::Cooperative);
  EXPECT_EQ(b.bwdWarps, 8u);
  EXPECT_EQ(b.columnChunks, 32u);
  EXPECT_EQ(b.programs, 4u);
  EXPECT_EQ(b.rowsPerProgram, 1024);
  // Fewer rows than groups: one row per group.
  EXPECT_EQ(plan(3, 100000).programs, 3u);
  // Not measured there, or asked not to: chunked.
  NormOptions two, res, off, parts;
  two.secondOutput = true;
  res.residual = true;
  off.noCooperativeBackward = true;
  parts.partialRows = 64;
  for (const NormOptions &o : {two, res, off, parts})
    EXPECT_EQ(plan(4096, 32768, DType::F16, o).backward,
              NormPlan::Variant::Chunked);
  // A row of more chunks than SMs: chunked.
  EXPECT_EQ(planNorm(8, 8192 * 9, DType::F16, {}, 8)->backward,
            NormPlan::Variant::Chunked);
}

TEST(NormPlan, RowsFrom128KTakeTheCooperativeForward) {
  // fp16 plain LayerNorm or RMSNorm: 16384-column chunks at 16
  // warps, one program per SM, each group of chunk programs owning a block
  // of rows; the grid counts only the groups that get rows.
  NormPlan p = plan(4096, 262144);
  EXPECT_EQ(p.forward, NormPlan::Variant::Cooperative);
  EXPECT_EQ(p.fwdBlockN, 16384u);
  EXPECT_EQ(p.fwdWarps, 16u);
  EXPECT_EQ(p.fwdChunks, 16u);
  EXPECT_EQ(p.fwdRowsPerProgram, 512);
  EXPECT_EQ(p.fwdGrid, 128u);
  NormPlan b = plan(4096, 100000, DType::F16, NormOptions{.rms = true});
  EXPECT_EQ(b.forward, NormPlan::Variant::Cooperative);
  EXPECT_EQ(b.fwdChunks, 7u);
  EXPECT_EQ(b.fwdRowsPerProgram, 228); // cdiv(4096, 132 / 7 = 18)
  EXPECT_EQ(b.fwdGrid, 7u * 18u);
  NormPlan few = plan(3, 131072);
  EXPECT_EQ(few.fwdRowsPerProgram, 1);
  EXPECT_EQ(few.fwdGrid, 8u * 3u);
  // 65536 columns (measured slower), bf16 (spills), fp32, options that add
  // live tensors, or asked not to: chunked.
  EXPECT_EQ(plan(4096, 65536).forward, NormPlan::Variant::Chunked);
  EXPECT_EQ(plan(4096, 262144, DType::BF16).forward, NormPlan::Variant::Chunked);
  EXPECT_EQ(plan(4096, 262144, DType::F32).forward, NormPlan::Variant::Chunked);
  NormOptions res, two, off;
  res.residual = true;
  two.secondOutput = true;
  off.noCooperativeForward = true;
  for (const NormOptions &o : {res, two, off})
    EXPECT_EQ(plan(4096, 262144, DType::F16, o).forward,
              NormPlan::Variant::Chunked);
  // A row of more chunks than SMs: chunked.
  EXPECT_EQ(planNorm(8, 16384 * 9, DType::F16, {}, 8)->forward,
            NormPlan::Variant::Chunked);
}

TEST(NormPlan, RowsBeyond64KBAreChunkedNotAnError) {
  for (int64_t N : {65537, 100000, 262144}) {
    SCOPED_TRACE(N);
    NormPlan p = plan(4096, N, DType::F32);
    EXPECT_EQ(p.forward, NormPlan::Variant::Chunked);
    EXPECT_EQ(p.fwdBlockN, 16384u);
    EXPECT_EQ(p.fwdWarps, 16u);
    EXPECT_TRUE(p.fwdPipelined);
    EXPECT_EQ(p.fwdGrid, 4096u);
    EXPECT_EQ(p.backward, NormPlan::Variant::Chunked);
    EXPECT_EQ(p.bwdBlockN, 2048u);
    EXPECT_EQ(p.bwdWarps, 16u);
    EXPECT_EQ(p.columnChunks, uint32_t((N + 2047) / 2048));
    // ~4 programs per SM over the 2-D grid.
    EXPECT_GE(uint64_t(p.programs) * p.columnChunks, 528u);
    EXPECT_LT(uint64_t(p.programs) * p.columnChunks, 528u + p.columnChunks);
    EXPECT_EQ(p.rowsPerProgram % 4, 0);
    EXPECT_GE(p.rowsPerProgram * p.programs, 4096);
  }
  // Just above 32768: 16384-element chunks at 16 warps.
  EXPECT_EQ(plan(4096, 32769).fwdBlockN, 16384u);
  EXPECT_EQ(plan(4096, 32769).fwdWarps, 16u);
  NormOptions noCoop;
  noCoop.noCooperativeBackward = true;
  NormPlan p = plan(65536, 262144, DType::F16, noCoop);
  EXPECT_EQ(p.columnChunks, 128u);
  EXPECT_EQ(p.programs, 5u);
  EXPECT_EQ(p.rowsPerProgram, 13108);
}

TEST(NormPlan, EmptyInputHasNoPartialRows) {
  NormPlan p = plan(0, 4096);
  EXPECT_EQ(p.fwdGrid, 0u);
  EXPECT_EQ(p.programs, 0u);
  EXPECT_EQ(p.reduceGrid, 128u); // cdiv(4096, 32)
}

TEST(NormPlan, OverridesReplaceTheHeuristics) {
  NormOptions o;
  o.rowsPerTile = 2;
  o.numWarps = 4;
  o.partialRows = 10;
  NormPlan p = plan(1000, 1024, DType::F16, o);
  EXPECT_EQ(p.fwdRows, 2u);
  EXPECT_EQ(p.fwdWarps, 4u);
  EXPECT_EQ(p.bwdRows, 2u);
  EXPECT_EQ(p.bwdWarps, 4u);
  EXPECT_EQ(p.programs, 10u);
  EXPECT_EQ(p.rowsPerProgram, 100);
}

TEST(NormPlan, TutorialKernelsKeepTheirHeuristicsAndLimit) {
  NormOptions o;
  o.kernels = NormKernels::Tutorial;
  NormPlan p = plan(300, 8192, DType::F16, o);
  EXPECT_EQ(p.forward, NormPlan::Variant::Tutorial);
  EXPECT_EQ(p.fwdBlockN, 8192u);
  EXPECT_EQ(p.fwdWarps, 8u);
  EXPECT_EQ(p.fwdGrid, 300u);
  EXPECT_EQ(planError(4, 65537, DType::F16, o),
            "layer_norm: N = 65537 is above the limit of 32768 fp16 elements "
            "(64 KB) per row; larger rows are not supported yet");
}

TEST(NormPlan, BadOptionsAreErrors) {
  NormOptions o;
  o.dropoutP = 1.f;
  EXPECT_EQ(planError(4, 4, DType::F16, o),
            "norm: dropoutP = 1; need 0 <= p < 1");
  o = {};
  o.dropoutP = -0.5f;
  EXPECT_EQ(planError(4, 4, DType::F16, o),
            "norm: dropoutP = -0.5; need 0 <= p < 1");
  o = {};
  o.secondBias = true;
  EXPECT_EQ(planError(4, 4, DType::F16, o),
            "norm: secondBias needs secondOutput (b1 is the bias of the "
            "second output y1)");
  o = {};
  o.numWarps = 3;
  EXPECT_EQ(planError(4, 4, DType::F16, o),
            "norm: numWarps = 3; need a power of two from 1 to 32");
  o = {};
  o.rowsPerTile = 6;
  EXPECT_EQ(planError(4, 4, DType::F16, o),
            "norm: rowsPerTile = 6; need a power of two from 1 to 1024");
  o = {};
  o.rowsPerTile = 64;
  EXPECT_EQ(planError(4096, 4096, DType::F16, o),
            "norm: rowsPerTile = 64 with BLOCK_N = 4096 makes a tile of "
            "262144 elements; at most 65536");
  o = {};
  o.kernels = NormKernels::Tutorial;
  o.rms = true;
  EXPECT_EQ(planError(4, 4, DType::F16, o),
            "norm: the tutorial kernels compute plain LayerNorm with bias and "
            "their own launch parameters; option `rms` needs "
            "NormKernels::Auto");
  o.rms = false;
  o.dropoutP = 0.1f;
  EXPECT_EQ(planError(4, 4, DType::F16, o),
            "norm: the tutorial kernels compute plain LayerNorm with bias and "
            "their own launch parameters; option `dropoutP > 0` needs "
            "NormKernels::Auto");
  EXPECT_EQ(planError(4, 4, DType::I32, {}),
            "norm: dtype i32 is not supported (fp16, bf16 or fp32)");
  EXPECT_EQ(planError(4, 0, DType::F16, {}),
            "norm: the input is [4, 0]; need M >= 0 and N >= 1");
  EXPECT_EQ(planError(-1, 8, DType::F16, {}),
            "norm: the input is [-1, 8]; need M >= 0 and N >= 1");
}

TEST(NormPlan, ResidualOutIsWrittenWhenTheBackwardNeedsIt) {
  NormOptions o;
  EXPECT_FALSE(o.writesResidualOut());
  o.rowScale = true;
  EXPECT_TRUE(o.writesResidualOut());
  o = {};
  o.dropoutP = 0.1f;
  EXPECT_TRUE(o.writesResidualOut());
  o = {};
  o.residual = true;
  EXPECT_TRUE(o.writesResidualOut());
  EXPECT_TRUE(RMSNorm::defaultOptions().rms);
  EXPECT_FALSE(RMSNorm::defaultOptions().bias);
}
