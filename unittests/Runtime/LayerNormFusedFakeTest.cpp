//===- LayerNormFusedFakeTest.cpp - Fused norms against the fake driver ---===//
//
// normForward / normBackward compile every variant of layer_norm_fast.py with
// the real compiler and launch it on FakeCuda.cpp's driver (132 SMs): the
// launch sequence, grids, block sizes and arguments follow planNorm, for the
// odd shapes of the GPU tests, every dtype and every option.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "kiln/Runtime/LayerNorm.h"
#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::rt;
using namespace kiln::rt::fakedrv;

namespace {
/// Buffers for one fused problem, with the operands every option needs.
struct Operands {
  std::vector<DeviceBuffer> bufs;
  NormForwardArgs f;
  NormBackwardArgs b;

  Operands(Device &dev, int64_t M, int64_t N, int64_t S, DType t) {
    auto alloc = [&](size_t bytes) {
      bufs.push_back(llvm::cantFail(
          DeviceBuffer::alloc(dev, std::max<size_t>(bytes, 16))));
      return bufs.back().ptr();
    };
    size_t mat = M == 0 ? 0 : size_t((M - 1) * S + N) * dtypeBytes(t);
    auto matrix = [&] { return DeviceMatrix{alloc(mat), t, M, N, S}; };
    auto vec = [&] { return DeviceVector{alloc(N * dtypeBytes(t)), t, N}; };
    auto stat = [&] { return DeviceVector{alloc(M * 4), DType::F32, M}; };
    f = {matrix(), matrix(), vec(),    vec(),    vec(),  vec(),
         stat(),   matrix(), matrix(), matrix(), stat(), stat()};
    b.dy = matrix();
    b.x = f.residualOut;
    b.dy1 = matrix();
    b.dy1.stride = b.dy.stride;
    b.dresidual = matrix();
    b.w = f.w;
    b.b = f.b;
    b.w1 = f.w1;
    b.b1 = f.b1;
    b.rowScale = f.rowScale;
    b.mean = f.mean;
    b.rstd = f.rstd;
    b.dx = matrix();
    b.dresidualIn = matrix();
    b.dw = vec();
    b.db = vec();
    b.dw1 = vec();
    b.db1 = vec();
  }
};

NormOptions everything() {
  NormOptions o;
  o.residual = o.rowScale = o.secondOutput = o.secondBias = true;
  o.dropoutP = 0.125f;
  o.seed = 42;
  return o;
}
} // namespace

TEST_F(FakeDriver, FusedLayerNormLaunchSequence) {
  TempDir dir;
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), false};
  auto ln = LayerNorm::create(0, std::move(mo));
  ASSERT_TRUE(bool(ln)) << llvm::toString(ln.takeError());
  const int64_t M = 300, N = 1000, S = 1040;
  Operands op(*dev, M, N, S, DType::F16);
  NormOptions o;
  NormWorkspace ws;
  op.b.x = op.f.x;
  ASSERT_EQ(errorText(ln->normForward(op.f, o)), "");
  ASSERT_EQ(errorText(ln->normBackward(op.b, o, ws)), "");
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 3u);
  // 2 rows of BLOCK_N 1024 per program, 2 warps (few rows per SM).
  EXPECT_EQ(l[0].kernel, "_norm_fwd");
  EXPECT_EQ(l[0].grid[0], 150u);
  EXPECT_EQ(l[0].block[0], 64u);
  const NormForwardArgs &f = op.f;
  EXPECT_EQ(l[0].params, (std::vector<uint64_t>{f.x.ptr,
                                                f.y.ptr,
                                                f.w.ptr,
                                                f.b.ptr,
                                                f.x.ptr,
                                                f.x.ptr,
                                                f.rstd.ptr,
                                                f.x.ptr,
                                                f.x.ptr,
                                                f.x.ptr,
                                                f.mean.ptr,
                                                f.rstd.ptr,
                                                uint64_t(S),
                                                uint64_t(S),
                                                0,
                                                0,
                                                uint64_t(M),
                                                uint64_t(N),
                                                floatBitsOf(1e-5f),
                                                floatBitsOf(0.f),
                                                0}));
  // Backward (pipelined): 150 programs of 2 rows (8 warps), then dw and db
  // reduced from the 150 partial rows (BLOCK_N 32: 32 programs).
  EXPECT_EQ(l[1].kernel, "_norm_bwd_pipelined");
  EXPECT_EQ(l[1].grid[0], 150u);
  EXPECT_EQ(l[1].block[0], 256u);
  const uint64_t part = ws.partials.ptr(),
                 region = 600064; // 150*1000*4, 256-aligned
  ASSERT_EQ(l[1].params.size(), 26u);
  EXPECT_EQ(l[1].params[12], part);
  EXPECT_EQ(l[1].params[13], part + region);
  EXPECT_EQ(l[1].params[23], 2u); // rows per program
  // One launch for both gradients: grid (32, 2), dw then db.
  EXPECT_EQ(l[2].kernel, "_norm_bwd_reduce");
  EXPECT_EQ(l[2].grid[0], 32u);
  EXPECT_EQ(l[2].grid[1], 2u);
  EXPECT_EQ(l[2].block[0], 128u);
  const uint64_t dw = op.b.dw.ptr, db = op.b.db.ptr;
  EXPECT_EQ(l[2].params, (std::vector<uint64_t>{part, dw, db, dw, dw, 150,
                                                1000, region / 4}));
  // No memsets: the partial rows are written whole, never accumulated into.
  EXPECT_EQ(memsets().size(), 0u);

  // The tutorial's kernels through the same calls.
  fake().reset();
  o.kernels = NormKernels::Tutorial;
  ASSERT_EQ(errorText(ln->normForward(op.f, o)), "");
  ASSERT_EQ(launches().size(), 1u);
  EXPECT_EQ(launches()[0].kernel, "_layer_norm_fwd_fused");

  // M = 0: no forward launch; dw = db = 0 from zero partial rows.
  fake().reset();
  Operands empty(*dev, 0, N, N, DType::F16);
  empty.b.x = empty.f.x;
  ASSERT_EQ(errorText(ln->normForward(empty.f, {})), "");
  EXPECT_EQ(launches().size(), 0u);
  ASSERT_EQ(errorText(ln->normBackward(empty.b, {}, ws)), "");
  l = launches();
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].kernel, "_norm_bwd_reduce");
  EXPECT_EQ(l[0].grid[1], 2u);
  EXPECT_EQ(l[0].params[5], 0u); // P
}

TEST_F(FakeDriver, FusedNormEveryVariantCompilesAndLaunches) {
  TempDir dir;
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), false};
  auto ln = LayerNorm::create(0, std::move(mo));
  ASSERT_TRUE(bool(ln)) << llvm::toString(ln.takeError());
  struct Shape {
    int64_t M, N;
  };
  NormOptions rms = RMSNorm::defaultOptions();
  NormOptions all = everything(), allRms = everything();
  allRms.rms = true;
  allRms.bias = false;
  for (DType t : {DType::F16, DType::BF16, DType::F32}) {
    for (Shape s : {Shape{1, 1}, Shape{3, 777}, Shape{7, 3000}, Shape{64, 512},
                    Shape{600, 4096}, Shape{300, 16384}, Shape{5, 16385}, Shape{300, 20000}, Shape{4, 65537},
                    Shape{3, 100000}, Shape{2, 262144}}) {
      for (const NormOptions &o : {NormOptions{}, rms, all, allRms}) {
        SCOPED_TRACE(std::string(dtypeName(t)) + " " + std::to_string(s.M) +
                     "x" + std::to_string(s.N) + (o.rms ? " rms" : "") +
                     (o.residual ? " all" : ""));
        fake().reset();
        Operands op(*dev, s.M, s.N, s.N, t);
        if (!o.writesResidualOut())
          op.b.x = op.f.x;
        NormWorkspace ws;
        ASSERT_EQ(errorText(ln->normForward(op.f, o, ws)), "");
        const int fwdMemsets = fake().memsetCount();
        ASSERT_EQ(errorText(ln->normBackward(op.b, o, ws)), "");
        NormPlan p = llvm::cantFail(ln->plan(s.M, s.N, t, o));
        std::vector<Launch> l = launches();
        std::vector<std::string> names;
        for (const Launch &k : l)
          names.push_back(k.kernel);
        const bool coopFwd = p.forward == NormPlan::Variant::Cooperative;
        std::string fwd = coopFwd ? "_norm_fwd_coop"
                          : p.forward == NormPlan::Variant::Rows
                              ? "_norm_fwd"
                              : "_norm_fwd_chunked";
        std::vector<std::string> want = {p.fwdPipelined ? fwd + "_pipelined"
                                                        : fwd};
        // The cooperative forward zeroes its exchange words first and is
        // launched cooperatively; the others need no memset.
        EXPECT_EQ(fwdMemsets, coopFwd ? 1 : 0);
        if (p.backward == NormPlan::Variant::Rows) {
          want.push_back(p.bwdPipelined ? "_norm_bwd_pipelined" : "_norm_bwd");
        } else if (p.backward == NormPlan::Variant::Columns) {
          want.push_back("_norm_bwd_cols");
        } else if (p.backward == NormPlan::Variant::Cooperative) {
          want.push_back("_norm_bwd_coop");
        } else {
          want.push_back("_norm_bwd_row_stats");
          want.push_back("_norm_bwd_chunked");
        }
        unsigned grads = 1 + o.bias + o.secondOutput + o.secondBias;
        want.push_back("_norm_bwd_reduce");
        ASSERT_EQ(names, want);
        // One reduction for every gradient that is on, its partial rows in
        // consecutive regions from the workspace's start.
        const Launch &red = l.back();
        EXPECT_EQ(red.grid[1], grads);
        EXPECT_EQ(red.params[0], ws.partials.ptr());
        EXPECT_EQ(l[0].grid[0], p.fwdGrid);
        EXPECT_EQ(l[0].block[0], 32 * p.fwdWarps);
        bool chunked = p.backward == NormPlan::Variant::Chunked;
        const Launch &bwd = l[chunked ? 2 : 1];
        if (p.backward == NormPlan::Variant::Columns) {
          EXPECT_EQ(bwd.grid[0], p.columnChunks);
          EXPECT_EQ(bwd.grid[1], p.programs);
        } else if (p.backward == NormPlan::Variant::Cooperative) {
          // Launched cooperatively, after zeroing its exchange words.
          EXPECT_EQ(bwd.grid[0], p.columnChunks * p.programs);
          EXPECT_EQ(bwd.grid[1], 1u);
          EXPECT_EQ(fake().calls("cuLaunchCooperativeKernel"), 1 + coopFwd);
          EXPECT_EQ(fake().memsetCount(), 1 + coopFwd);
        } else {
          EXPECT_EQ(bwd.grid[0], p.programs);
          EXPECT_EQ(bwd.grid[1], p.columnChunks);
        }
        EXPECT_EQ(bwd.block[0], 32 * p.bwdWarps);
        EXPECT_EQ(l.back().grid[0], p.reduceGrid);
      }
    }
  }
}

TEST_F(FakeDriver, CooperativeForwardNeedsAWorkspace) {
  auto ln = LayerNorm::create(0);
  ASSERT_TRUE(bool(ln)) << llvm::toString(ln.takeError());
  Operands op(*dev, 4, 262144, 262144, DType::F16);
  NormOptions o;
  NormPlan p = llvm::cantFail(ln->plan(4, 262144, DType::F16, o));
  ASSERT_EQ(p.forward, NormPlan::Variant::Cooperative);
  // Without a workspace: the chunked forward, no memset.
  ASSERT_EQ(errorText(ln->normForward(op.f, o)), "");
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].kernel, "_norm_fwd_chunked_pipelined");
  EXPECT_EQ(l[0].grid[0], 4u);
  EXPECT_EQ(fake().memsetCount(), 0);
  EXPECT_EQ(fake().calls("cuLaunchCooperativeKernel"), 0);
  // With one: its exchange words zeroed, then 16 chunk programs per row
  // (4 groups of one row), launched cooperatively; RMSNorm too.
  fake().reset();
  NormWorkspace ws;
  ASSERT_EQ(errorText(ln->normForward(op.f, o, ws)), "");
  l = launches();
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].kernel, "_norm_fwd_coop");
  EXPECT_EQ(l[0].grid[0], 64u);
  EXPECT_EQ(l[0].block[0], 512u);
  EXPECT_EQ(fake().memsetCount(), 1);
  EXPECT_EQ(fake().calls("cuLaunchCooperativeKernel"), 1);
  EXPECT_GE(ws.exchange.size(), 16u + 4u * 16u * 16u);
  fake().reset();
  RMSNorm rms = llvm::cantFail(RMSNorm::create(0));
  ASSERT_EQ(errorText(rms.forward(op.f, RMSNorm::defaultOptions(), ws)), "");
  EXPECT_EQ(launches().at(0).kernel, "_norm_fwd_coop");
  EXPECT_EQ(fake().calls("cuLaunchCooperativeKernel"), 1);
}

TEST_F(FakeDriver, FusedNormOperandErrors) {
  TempDir dir;
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), false};
  auto ln = LayerNorm::create(0, std::move(mo));
  ASSERT_TRUE(bool(ln)) << llvm::toString(ln.takeError());
  Operands op(*dev, 8, 64, 64, DType::BF16);
  NormOptions o;
  o.residual = true;
  op.f.residual = {};
  EXPECT_EQ(errorText(ln->normForward(op.f, o)),
            "norm: `residual` is [0, 0] fp16 (stride 0); expected [8, 64] "
            "bf16");
  Operands op2(*dev, 8, 64, 64, DType::BF16);
  o = {};
  o.secondOutput = true;
  op2.f.y1.stride = 80;
  EXPECT_EQ(errorText(ln->normForward(op2.f, o)),
            "norm: `y1` has row stride 80 but `y` has 64; the kernels "
            "address them with one stride");
  op2.f.y1.stride = 64;
  op2.f.rstd.dtype = DType::F16;
  EXPECT_EQ(errorText(ln->normForward(op2.f, o)),
            "norm: `rstd` is [8] fp16; expected [8] fp32");
  op2.f.rstd.dtype = DType::F32;
  op2.b.dw.ptr = 0;
  NormWorkspace ws;
  EXPECT_EQ(errorText(ln->normBackward(op2.b, {}, ws)),
            "norm: `dw` is a null pointer");
  EXPECT_EQ(launches().size(), 0u);
}
