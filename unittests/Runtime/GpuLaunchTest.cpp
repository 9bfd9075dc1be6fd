//===- GpuLaunchTest.cpp - Load and launch hand-written PTX on a GPU ------===//
//
// These exercise the driver path (JIT, module load, shared-memory opt-in,
// argument packing, launch errors) independently of Kiln's compiler.
//
//===----------------------------------------------------------------------===//
#include "GpuTestUtil.h"
#include "kiln/Runtime/Module.h"
#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::rt;
using namespace kiln::rt::test;

namespace {
// X[i] = X[i] * scale + i for i < n.
const char *kAxpiPTX = R"ptx(.version 8.0
.target sm_80
.address_size 64
.visible .entry kiln_test_axpi(.param .u64 X, .param .f32 scale, .param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<5>;
	.reg .f32 %f<5>;
	ld.param.u64 %rd1, [X];
	ld.param.f32 %f1, [scale];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra $L_done;
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.f32 %f2, [%rd4];
	cvt.rn.f32.u32 %f3, %r5;
	fma.rn.f32 %f4, %f2, %f1, %f3;
	st.global.f32 [%rd4], %f4;
$L_done:
	ret;
}
)ptx";

// Through dynamic shared memory: Out[t] = nwords - t for t < nwords.
const char *kSmemPTX = R"ptx(.version 8.0
.target sm_80
.address_size 64
.extern .shared .align 16 .b8 kiln_dyn_smem[];
.visible .entry kiln_test_smem(.param .u64 Out, .param .u32 nwords)
{
	.reg .pred %p<2>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [Out];
	ld.param.u32 %r1, [nwords];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, kiln_dyn_smem;
	mov.u32 %r5, %r2;
$L_fill:
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra $L_filled;
	sub.s32 %r6, %r1, %r5;
	sub.s32 %r7, %r6, 1;
	shl.b32 %r8, %r7, 2;
	add.s32 %r8, %r4, %r8;
	add.s32 %r9, %r5, 1;
	st.shared.u32 [%r8], %r9;
	add.s32 %r5, %r5, %r3;
	bra.uni $L_fill;
$L_filled:
	bar.sync 0;
	mov.u32 %r5, %r2;
	cvta.to.global.u64 %rd2, %rd1;
$L_read:
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra $L_done;
	shl.b32 %r8, %r5, 2;
	add.s32 %r8, %r4, %r8;
	ld.shared.u32 %r9, [%r8];
	mul.wide.u32 %rd3, %r5, 4;
	add.s64 %rd4, %rd2, %rd3;
	st.global.u32 [%rd4], %r9;
	add.s32 %r5, %r5, %r3;
	bra.uni $L_read;
$L_done:
	ret;
}
)ptx";

KernelInfo::Param param(const char *name, ParamSpec::Kind kind, DType t,
                        unsigned div = 1) {
  ParamSpec s;
  s.kind = kind;
  s.dtype = t;
  s.divisibility = div;
  return {name, s};
}

CompiledKernel axpiKernel() {
  CompiledKernel k;
  k.info.name = "kiln_test_axpi";
  k.info.params = {param("X", ParamSpec::Kind::Pointer, DType::F32, 16),
                   param("scale", ParamSpec::Kind::Scalar, DType::F32),
                   param("n", ParamSpec::Kind::Scalar, DType::I32)};
  k.info.numWarps = 4;
  k.ptx = kAxpiPTX;
  return k;
}

std::string errorText(llvm::Error e) {
  return e ? llvm::toString(std::move(e)) : std::string();
}
} // namespace

TEST(GpuLaunch, DeviceProperties) {
  KILN_REQUIRE_GPU(dev);
  EXPECT_GE(dev.ccMajor(), 8);
  EXPECT_EQ(dev.arch().rfind("sm_", 0), 0u);
  EXPECT_GT(dev.multiprocessors(), 0);
  EXPECT_GE(dev.limits().maxSharedPerBlockOptin, dev.limits().maxSharedPerBlock);
  std::printf("device 0: %s, cc %d.%d, %d SMs, L2 %d bytes, arch %s, driver "
              "%d\n",
              dev.name().c_str(), dev.ccMajor(), dev.ccMinor(),
              dev.multiprocessors(), dev.l2Bytes(), dev.arch().c_str(),
              dev.driver().version);
  auto missing = Device::get(4096);
  ASSERT_FALSE(bool(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()).rfind(
                "CUDA device 4096 does not exist: the driver sees ", 0),
            0u);
}

TEST(GpuLaunch, HandWrittenPTXRuns) {
  KILN_REQUIRE_GPU(dev);
  const uint32_t n = 1000;
  std::vector<float> host(n);
  for (uint32_t i = 0; i < n; ++i)
    host[i] = 0.5f * float(i % 7) - 1.0f;
  KILN_ASSIGN_OR_FAIL(buf, DeviceBuffer::alloc(dev, n * 4));
  KILN_ASSERT_OK(buf.copyFromHost(host.data(), n * 4));
  Kernel k = Kernel::fromCompiled(axpiKernel());
  KILN_ASSERT_OK(k.launch(Grid((n + 127) / 128),
                          {Arg::ptr(buf.ptr(), DType::F32), Arg::f32(2.0f),
                           Arg::integer(n)}));
  // A second launch reuses the loaded function.
  KILN_ASSERT_OK(k.launch(Grid((n + 127) / 128),
                          {Arg::ptr(buf.ptr(), DType::F32), Arg::f32(1.0f),
                           Arg::integer(n)}));
  std::vector<float> out(n);
  KILN_ASSERT_OK(buf.copyToHost(out.data(), n * 4));
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], (host[i] * 2.0f + float(i)) + float(i)) << i;
}

TEST(GpuLaunch, DynamicSharedMemoryAbove48KB) {
  KILN_REQUIRE_GPU(dev);
  const uint32_t bytes = 100 * 1024;
  const uint32_t words = bytes / 4;
  CompiledKernel ck;
  ck.info.name = "kiln_test_smem";
  ck.info.params = {param("Out", ParamSpec::Kind::Pointer, DType::I32, 16),
                    param("nwords", ParamSpec::Kind::Scalar, DType::I32)};
  ck.info.numWarps = 8;
  ck.info.sharedBytes = bytes;
  ck.ptx = kSmemPTX;
  KILN_ASSIGN_OR_FAIL(out, DeviceBuffer::alloc(dev, bytes));
  KILN_ASSERT_OK(out.fill8(0xff));
  Kernel k = Kernel::fromCompiled(ck);
  KILN_ASSERT_OK(k.launch(Grid(1), {Arg::ptr(out.ptr(), DType::I32),
                                    Arg::integer(words)}));
  std::vector<int32_t> host(words);
  KILN_ASSERT_OK(out.copyToHost(host.data(), bytes));
  for (uint32_t t = 0; t < words; ++t)
    ASSERT_EQ(host[t], int32_t(words - t)) << t;

  // Beyond what any block may have: a clear error, no launch.
  ck.info.sharedBytes = dev.limits().maxSharedPerBlockOptin + 1024;
  Kernel tooBig = Kernel::fromCompiled(ck);
  std::string msg = errorText(tooBig.launch(
      Grid(1), {Arg::ptr(out.ptr(), DType::I32), Arg::integer(words)}));
  EXPECT_NE(msg.find("bytes of shared memory"), std::string::npos) << msg;
}

TEST(GpuLaunch, ArgumentErrorsNameTheParameter) {
  KILN_REQUIRE_GPU(dev);
  KILN_ASSIGN_OR_FAIL(buf, DeviceBuffer::alloc(dev, 4096));
  Kernel k = Kernel::fromCompiled(axpiKernel());
  EXPECT_EQ(errorText(k.launch(Grid(1), {Arg::ptr(buf.ptr(), DType::F32),
                                         Arg::f32(1.0f)})),
            "kernel `kiln_test_axpi` takes 3 argument(s) (X, scale, n) but 2 "
            "were given: missing `n` (argument #3)");
  EXPECT_EQ(errorText(k.launch(Grid(1), {Arg::ptr(buf.ptr(), DType::F16),
                                         Arg::f32(1.0f), Arg::integer(8)})),
            "kernel `kiln_test_axpi`: argument #1 `X`: expected a pointer to "
            "fp32, got a pointer to fp16");
  EXPECT_EQ(errorText(k.launch(Grid(1), {Arg::ptr(0, DType::F32),
                                         Arg::f32(1.0f), Arg::integer(8)})),
            "kernel `kiln_test_axpi`: argument #1 `X`: null device pointer");
  EXPECT_EQ(errorText(k.launch(Grid(1, 70000),
                               {Arg::ptr(buf.ptr(), DType::F32),
                                Arg::f32(1.0f), Arg::integer(8)})),
            "kernel `kiln_test_axpi`: grid dimension y is 70000, above the "
            "device limit " +
                std::to_string(dev.limits().maxGrid[1]));
  // Nothing was launched: the buffer is intact after a good launch.
  KILN_ASSERT_OK(buf.fill32(0));
  KILN_ASSERT_OK(k.launch(Grid(1), {Arg::ptr(buf.ptr(), DType::F32),
                                    Arg::f32(1.0f), Arg::integer(4)}));
  float out[5];
  KILN_ASSERT_OK(buf.copyToHost(out, sizeof(out)));
  EXPECT_EQ(out[3], 3.0f);
  EXPECT_EQ(out[4], 0.0f);
}

TEST(GpuLaunch, BadPTXReportsTheJITLog) {
  KILN_REQUIRE_GPU(dev);
  CompiledKernel ck = axpiKernel();
  ck.ptx = std::string(kAxpiPTX);
  size_t at = ck.ptx.find("fma.rn.f32");
  ck.ptx.replace(at, 10, "fma.bogus.f32");
  KILN_ASSIGN_OR_FAIL(buf, DeviceBuffer::alloc(dev, 4096));
  std::string msg = errorText(Kernel::fromCompiled(ck).launch(
      Grid(1), {Arg::ptr(buf.ptr(), DType::F32), Arg::f32(1.0f),
                Arg::integer(8)}));
  EXPECT_NE(msg.find("driver JIT of kernel `kiln_test_axpi`"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("CUDA_ERROR_INVALID_PTX"), std::string::npos) << msg;
  EXPECT_NE(msg.find("JIT log:"), std::string::npos) << msg;
  std::printf("%s\n", msg.c_str());

  ck = axpiKernel();
  ck.info.name = "not_in_the_ptx";
  msg = errorText(Kernel::fromCompiled(ck).launch(
      Grid(1), {Arg::ptr(buf.ptr(), DType::F32), Arg::f32(1.0f),
                Arg::integer(8)}));
  EXPECT_NE(msg.find("cuModuleGetFunction(`not_in_the_ptx`): "
                     "CUDA_ERROR_NOT_FOUND"),
            std::string::npos)
      << msg;
}

TEST(GpuLaunch, StreamsAndEvents) {
  KILN_REQUIRE_GPU(dev);
  KILN_ASSIGN_OR_FAIL(stream, Stream::create(dev));
  KILN_ASSIGN_OR_FAIL(start, Event::create(dev));
  KILN_ASSIGN_OR_FAIL(stop, Event::create(dev));
  const uint32_t n = 1 << 20;
  KILN_ASSIGN_OR_FAIL(buf, DeviceBuffer::alloc(dev, n * 4));
  KILN_ASSERT_OK(buf.fill32(0, stream.handle()));
  Kernel k = Kernel::fromCompiled(axpiKernel());
  LaunchOptions opts;
  opts.stream = stream.handle();
  KILN_ASSERT_OK(start.record(stream.handle()));
  KILN_ASSERT_OK(k.launch(Grid(n / 128), {Arg::ptr(buf.ptr(), DType::F32),
                                          Arg::f32(1.0f), Arg::integer(n)},
                          opts));
  KILN_ASSERT_OK(stop.record(stream.handle()));
  KILN_ASSIGN_OR_FAIL(ms, Event::elapsedMs(start, stop));
  EXPECT_GE(ms, 0.0f);
  KILN_ASSERT_OK(stream.synchronize());
  float last;
  KILN_ASSERT_OK(buf.copyToHost(&last, 4));
  EXPECT_EQ(last, 0.0f);
  std::vector<float> all(n);
  KILN_ASSERT_OK(buf.copyToHost(all.data(), n * 4));
  EXPECT_EQ(all[n - 1], float(n - 1));
}

// bf16 atomic adds: compiled for the device (sm_90: `atom.add.noftz.bf16`,
// vector where contiguous) and for sm_80 (no bf16 `atom.add`: a
// compare-and-swap loop), whose PTX the driver also runs on a newer GPU. The
// values are small integers, so every order of the adds gives the exact sum.
TEST(GpuLaunch, BF16AtomicAddOnEveryTarget) {
  KILN_REQUIRE_GPU(dev);
  Module m = Module::fromSource(
      "import triton\nimport triton.language as tl\n\n@triton.jit\n"
      "def add16(X, OUT, SCAT, N, SLOTS: tl.constexpr, BLOCK: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    m = offs < N\n"
      "    x = tl.load(X + offs, mask=m, other=0.0)\n"
      "    tl.atomic_add(OUT + tl.arange(0, BLOCK), x, mask=m)\n"
      "    tl.atomic_add(SCAT + offs % SLOTS, x, mask=m, sem=\"relaxed\")\n",
      "add16.py", ModuleOptions{{}, CacheConfig{false, "", false}});
  Kernel k = llvm::cantFail(m.kernel("add16"));
  const uint32_t n = 8000, block = 1024, slots = 64;
  std::vector<uint16_t> x(n);
  std::vector<double> out(block, 0.0), scat(slots, 0.0);
  for (uint32_t i = 0; i < n; ++i) {
    double v = (i * 7919u) % 3 == 0 ? 2.0 : 1.0;
    x[i] = floatToBF16(float(v));
    out[i % block] += v; // at most 8 programs add 2.0: <= 16
    scat[i % slots] += v; // 125 values: <= 250, exact in bf16
  }
  LaunchOptions o;
  o.constexprs.emplace("SLOTS", int64_t(slots));
  o.constexprs.emplace("BLOCK", int64_t(block));
  for (const char *arch : {"device", "sm_80"}) {
    KILN_ASSIGN_OR_FAIL(xb, DeviceBuffer::alloc(dev, n * 2));
    KILN_ASSIGN_OR_FAIL(ob, DeviceBuffer::alloc(dev, block * 2));
    KILN_ASSIGN_OR_FAIL(sb, DeviceBuffer::alloc(dev, slots * 2));
    std::vector<uint16_t> zeros(block, 0);
    KILN_ASSERT_OK(xb.copyFromHost(x.data(), n * 2));
    KILN_ASSERT_OK(ob.copyFromHost(zeros.data(), block * 2));
    KILN_ASSERT_OK(sb.copyFromHost(zeros.data(), slots * 2));
    std::vector<Arg> args = {Arg::ptr(xb.ptr(), DType::BF16),
                             Arg::ptr(ob.ptr(), DType::BF16),
                             Arg::ptr(sb.ptr(), DType::BF16), Arg::integer(n)};
    Grid grid((n + block - 1) / block);
    if (std::string(arch) == "device") {
      KILN_ASSERT_OK(k.launch(grid, args, o));
    } else {
      KILN_ASSIGN_OR_FAIL(ck, k.compileFor(arch, args, o));
      ASSERT_NE(ck->ptx.find("atom.global.gpu.acq_rel.cas.b16"), std::string::npos);
      ASSERT_EQ(ck->ptx.find("add.noftz.bf16"), std::string::npos);
      KILN_ASSERT_OK(Kernel::fromCompiled(*ck).launch(grid, args));
    }
    std::vector<uint16_t> gotOut(block), gotScat(slots);
    KILN_ASSERT_OK(ob.copyToHost(gotOut.data(), block * 2));
    KILN_ASSERT_OK(sb.copyToHost(gotScat.data(), slots * 2));
    for (uint32_t i = 0; i < block; ++i)
      ASSERT_EQ(bf16ToFloat(gotOut[i]), out[i]) << arch << " OUT[" << i << "]";
    for (uint32_t i = 0; i < slots; ++i)
      ASSERT_EQ(bf16ToFloat(gotScat[i]), scat[i]) << arch << " SCAT[" << i << "]";
  }
}
