//===- CompileTest.cpp - The runtime drives the real compiler (no GPU) ----===//
//
// Every specialization the LayerNorm API launches in the GPU tests is
// compiled here through Kernel::compileFor, and the launch arguments are
// checked against the KernelInfo the compiler returns: a mismatch between
// what the runtime passes and what the compiled entry expects shows up
// without a GPU.
//
//===----------------------------------------------------------------------===//
#include "kiln/Runtime/LayerNorm.h"
#include "kiln/Target/BuiltinKernels.h"
#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::rt;

namespace {
std::string errorText(llvm::Error e) {
  return e ? llvm::toString(std::move(e)) : std::string();
}

Module builtinModule() {
  ModuleOptions mo;
  mo.cache = CacheConfig{false, "", false}; // Compile for real every time.
  return Module::fromSource(builtinLayerNormSource().str(),
                            kBuiltinLayerNormName, std::move(mo));
}

struct Call {
  const char *kernel;
  std::vector<Arg> args;
  LaunchOptions options;
  Grid grid;
};

/// The launches LayerNorm::forwardInto / backwardInto make for [M, N] with
/// row stride `stride` (addresses made up, 16-byte aligned like cuMemAlloc).
std::vector<Call> layerNormCalls(DType t, int64_t M, int64_t N,
                                 int64_t stride) {
  auto f = llvm::cantFail(layerNormForwardConfig(N, t));
  auto b = llvm::cantFail(layerNormBackwardConfig(N, t));
  CUdeviceptr base = 0x7f0000000000ull;
  auto p = [&](int i) { return base + (CUdeviceptr(i) << 32); };
  Call fwd{"_layer_norm_fwd_fused",
           {Arg::ptr(p(0), t), Arg::ptr(p(1), t), Arg::ptr(p(2), t),
            Arg::ptr(p(3), t), Arg::ptr(p(4), DType::F32),
            Arg::ptr(p(5), DType::F32), Arg::integer(stride), Arg::integer(N),
            Arg::f32(1e-5f)},
           {},
           Grid(uint32_t(M))};
  fwd.options.numWarps = f.numWarps;
  fwd.options.constexprs.emplace("BLOCK_SIZE", f.blockSize);
  Call dx{"_layer_norm_bwd_dx_fused",
          {Arg::ptr(p(6), t), Arg::ptr(p(7), t), Arg::ptr(p(8), t),
           Arg::ptr(p(9), t), Arg::ptr(p(0), t), Arg::ptr(p(2), t),
           Arg::ptr(p(4), DType::F32), Arg::ptr(p(5), DType::F32),
           Arg::ptr(p(10), DType::I32), Arg::integer(stride), Arg::integer(N)},
          {},
          Grid(uint32_t(M))};
  dx.options.numWarps = b.numWarps;
  dx.options.constexprs.emplace("GROUP_SIZE_M", b.groupSizeM);
  dx.options.constexprs.emplace("BLOCK_SIZE_N", b.blockSizeN);
  Call dwdb{"_layer_norm_bwd_dwdb",
            {Arg::ptr(p(8), t), Arg::ptr(p(9), t), Arg::ptr(p(11), t),
             Arg::ptr(p(12), t),
             Arg::integer(std::min<int64_t>(b.groupSizeM, M)),
             Arg::integer(N)},
            {},
            Grid(uint32_t((N + 127) / 128))};
  dwdb.options.numWarps = b.dwdbNumWarps;
  dwdb.options.constexprs.emplace("BLOCK_SIZE_M", b.dwdbBlockM);
  dwdb.options.constexprs.emplace("BLOCK_SIZE_N", b.dwdbBlockN);
  return {fwd, dx, dwdb};
}
} // namespace

TEST(CompileThroughRuntime, EveryLayerNormTestSpecialization) {
  Module m = builtinModule();
  std::map<std::string, Kernel> kernels;
  for (const char *k : {"_layer_norm_fwd_fused", "_layer_norm_bwd_dx_fused",
                        "_layer_norm_bwd_dwdb"})
    kernels.emplace(k, llvm::cantFail(m.kernel(k)));
  struct Shape {
    int64_t M, N, stride;
  };
  for (DType t : {DType::F16, DType::BF16, DType::F32}) {
    int64_t maxN = 65536 / dtypeBytes(t);
    for (Shape s : std::vector<Shape>{{1151, 8192, 8192},
                                      {4096, 1024, 1024},
                                      {1, 1, 1},
                                      {7, 3000, 3000},
                                      {3, 777, 777},
                                      {4096, 4096, 4096},
                                      {200, maxN, maxN},
                                      {300, 1000, 1040},
                                      {300, 1000, 1003}}) {
      for (Call &c : layerNormCalls(t, s.M, s.N, s.stride)) {
        SCOPED_TRACE(std::string(c.kernel) + " " + dtypeName(t) + " N=" +
                     std::to_string(s.N) + " stride=" +
                     std::to_string(s.stride));
        auto ck = kernels.at(c.kernel).compileFor("sm_90", c.args, c.options);
        ASSERT_TRUE(bool(ck)) << llvm::toString(ck.takeError());
        const KernelInfo &info = (*ck)->info;
        EXPECT_EQ(info.name, c.kernel);
        EXPECT_EQ(info.numWarps, c.options.numWarps);
        EXPECT_NE((*ck)->ptx.find(".entry " + info.name), std::string::npos);
        // The compiled entry takes exactly what the runtime passes (integers
        // equal to 1, e.g. N = stride = 1, were specialized as constexprs).
        EXPECT_EQ(errorText(validateLaunch(info, c.args, c.grid, {},
                                           /*onesAreConstant=*/true)),
                  "");
        if (s.N == 1) {
          EXPECT_EQ(info.constexprs.count("N"), 1u);
        }
      }
    }
  }
}

TEST(CompileThroughRuntime, CompileErrorsComeBackWithLocations) {
  Module m = Module::fromSource(
      "import triton\nimport triton.language as tl\n\n@triton.jit\n"
      "def k(X, N, BLOCK: tl.constexpr):\n"
      "    cols = tl.arange(0, BLOCK)\n"
      "    tl.store(X + cols, tl.load(X + colz))\n",
      "/abs/where/bad.py", ModuleOptions{{}, CacheConfig{false, "", false}});
  Kernel k = llvm::cantFail(m.kernel("k"));
  LaunchOptions o;
  o.constexprs.emplace("BLOCK", 128);
  auto ck = k.compileFor("sm_90",
                         {Arg::ptr(0x7f0000000000ull, DType::F32),
                          Arg::integer(128)},
                         o);
  ASSERT_FALSE(bool(ck));
  std::string msg = llvm::toString(ck.takeError());
  EXPECT_EQ(msg.rfind("/abs/where/bad.py:7:", 0), 0u) << msg;
  EXPECT_NE(msg.find("colz"), std::string::npos) << msg;
}

// Constexprs given inline in the signature (not in KernelSpec::constexprs)
// and defaults reach KernelInfo through the module's `tile.constexprs`.
TEST(CompileThroughRuntime, EveryConstexprReachesKernelInfo) {
  const char *src = "import triton\nimport triton.language as tl\n\n"
                    "@triton.jit\n"
                    "def k(X, N, BLOCK: tl.constexpr, SCALE: tl.constexpr = "
                    "2.5):\n"
                    "    cols = tl.arange(0, BLOCK)\n"
                    "    tl.store(X + cols, cols * SCALE, mask=cols < N)\n";
  struct Case {
    const char *signature;
    std::map<std::string, std::string> defines, expected;
  } cases[] = {
      {"*fp32:16,i32,64,0.5", {}, {{"BLOCK", "64"}, {"SCALE", "0.5"}}},
      {"*fp32:16,i32", {{"BLOCK", "32"}}, {{"BLOCK", "32"}, {"SCALE", "2.5"}}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.signature);
    KernelSpec spec;
    spec.kernelName = "k";
    spec.signature = llvm::cantFail(parseSignature(c.signature));
    spec.constexprs = c.defines;
    spec.arch = "sm_90";
    auto ck = compileKernel(src, "k.py", spec);
    ASSERT_TRUE(bool(ck)) << llvm::toString(ck.takeError());
    EXPECT_EQ(ck->info.constexprs, c.expected);
    std::string json;
    llvm::raw_string_ostream(json) << ck->info.toJSON();
    EXPECT_NE(json.find(R"("constexprs":{"BLOCK":")"), std::string::npos)
        << json;
  }
}
