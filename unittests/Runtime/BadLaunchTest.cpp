//===- BadLaunchTest.cpp - Every bad launch through Kernel::launch --------===//
//
// Each wrong launch (argument count, kind, dtype, null or misaligned
// pointer, integer range, grid over the device's limits, too much shared
// memory, a stream of another context) is an error that names the parameter
// or option, and reaches no cuLaunchKernel. Checked end to end through
// Kernel::launch against FakeCuda.cpp's driver, for a kernel compiled from
// source and one given as PTX + KernelInfo.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "kiln/Runtime/Module.h"
#include "gtest/gtest.h"
#include <dlfcn.h>

using namespace kiln;
using namespace kiln::rt;
using namespace kiln::rt::fakedrv;

namespace {

constexpr const char *kCopySource = R"(import triton
import triton.language as tl


@triton.jit
def copy(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)
)";

/// A kernel given as PTX whose first parameter was specialized for a 16-byte
/// aligned pointer, with `sharedBytes` of dynamic shared memory.
CompiledKernel alignedKernel(unsigned sharedBytes = 0) {
  CompiledKernel k;
  k.info.name = "kiln_test_axpi";
  ParamSpec x;
  x.kind = ParamSpec::Kind::Pointer;
  x.dtype = DType::F32;
  x.divisibility = 16;
  ParamSpec n;
  n.kind = ParamSpec::Kind::Scalar;
  n.dtype = DType::I32;
  ParamSpec scale;
  scale.kind = ParamSpec::Kind::Scalar;
  scale.dtype = DType::F32;
  k.info.params = {{"X", x}, {"scale", scale}, {"n", n}};
  k.info.sharedBytes = sharedBytes;
  k.ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
          ".visible .entry kiln_test_axpi(\n"
          "\t.param .u64 X,\n\t.param .f32 scale,\n"
          "\t.param .u32 n\n)\n{\n\tret;\n}\n";
  return k;
}

CUstream fakeStream(const char *hook) {
  void *h = dlopen(KILN_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
  auto fn = h ? (void *(*)())dlsym(h, hook) : nullptr;
  return fn ? static_cast<CUstream>(fn()) : nullptr;
}

class BadLaunch : public FakeDriver {
protected:
  void SetUp() override {
    FakeDriver::SetUp();
    auto b = DeviceBuffer::alloc(*dev, 4096);
    ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
    buf = std::make_unique<DeviceBuffer>(std::move(*b));
  }
  /// The error of launching `k`; no launch may have reached the driver.
  std::string fails(Kernel &k, const Grid &grid, std::vector<Arg> args,
                    const LaunchOptions &o = {}) {
    size_t before = launches().size();
    std::string msg = errorText(k.launch(grid, args, o));
    EXPECT_EQ(launches().size(), before) << "a bad launch reached the driver";
    return msg;
  }
  std::vector<Arg> good() {
    return {Arg::ptr(buf->ptr(), DType::F32), Arg::f32(2.0f),
            Arg::integer(64)};
  }
  std::unique_ptr<DeviceBuffer> buf;
};

} // namespace

TEST_F(BadLaunch, CompiledKernelArguments) {
  Kernel k = Kernel::fromCompiled(alignedKernel());
  ASSERT_EQ(errorText(k.launch(Grid(1), good())), "");
  EXPECT_EQ(fails(k, Grid(1), {Arg::ptr(buf->ptr(), DType::F32)}),
            "kernel `kiln_test_axpi` takes 3 argument(s) (X, scale, n) but 1 "
            "were given: missing `scale` (argument #2)");
  std::vector<Arg> a = good();
  a.push_back(Arg::integer(1));
  EXPECT_EQ(fails(k, Grid(1), a),
            "kernel `kiln_test_axpi` takes 3 argument(s) (X, scale, n) but 4 "
            "were given");
  a = good();
  a[0] = Arg::integer(7);
  EXPECT_EQ(fails(k, Grid(1), a),
            "kernel `kiln_test_axpi`: argument #1 `X`: expected a pointer to "
            "fp32, got integer 7 (i32)");
  a = good();
  a[0] = Arg::ptr(buf->ptr(), DType::F16);
  EXPECT_EQ(fails(k, Grid(1), a),
            "kernel `kiln_test_axpi`: argument #1 `X`: expected a pointer to "
            "fp32, got a pointer to fp16");
  a = good();
  a[0] = Arg::ptr(0, DType::F32);
  EXPECT_EQ(fails(k, Grid(1), a),
            "kernel `kiln_test_axpi`: argument #1 `X`: null device pointer");
  a = good();
  a[0] = Arg::ptr(buf->ptr() + 4, DType::F32);
  std::string misaligned = fails(k, Grid(1), a);
  EXPECT_EQ(misaligned.rfind("kernel `kiln_test_axpi`: argument #1 `X`: the "
                             "kernel was compiled for a 16-byte aligned "
                             "pointer but 0x",
                             0),
            0u)
      << misaligned;
  // Not even aligned to its elements: rejected whatever the specialization.
  a = good();
  a[0] = Arg::ptr(buf->ptr() + 2, DType::F32);
  std::string unaligned = fails(k, Grid(1), a);
  EXPECT_NE(unaligned.find("argument #1 `X`: 0x"), std::string::npos) << unaligned;
  EXPECT_NE(unaligned.find(" is not aligned to its 4-byte elements (fp32)"),
            std::string::npos)
      << unaligned;
  a = good();
  a[1] = Arg::ptr(buf->ptr(), DType::F32);
  EXPECT_EQ(fails(k, Grid(1), a).rfind(
                "kernel `kiln_test_axpi`: argument #2 `scale`: expected a "
                "float (fp32), got a pointer",
                0),
            0u);
  a = good();
  a[2] = Arg::i64(int64_t(1) << 40);
  EXPECT_EQ(fails(k, Grid(1), a),
            "kernel `kiln_test_axpi`: argument #3 `n`: value 1099511627776 "
            "does not fit in i32");
}

TEST_F(BadLaunch, GridSharedMemoryAndStream) {
  Kernel k = Kernel::fromCompiled(alignedKernel());
  // A zero grid dimension is no error (as in Triton) and launches nothing.
  EXPECT_EQ(fails(k, Grid(0, 1, 1), good()), "");
  EXPECT_EQ(fails(k, Grid(1, 65536), good()),
            "kernel `kiln_test_axpi`: grid dimension y is 65536, above the "
            "device limit 65535");
  EXPECT_EQ(fails(k, Grid(1, 1, 65536), good()),
            "kernel `kiln_test_axpi`: grid dimension z is 65536, above the "
            "device limit 65535");
  Kernel big = Kernel::fromCompiled(alignedKernel(300 * 1024));
  EXPECT_EQ(fails(big, Grid(1), good()),
            "kernel `kiln_test_axpi` needs 307200 bytes of shared memory (0 "
            "static + 307200 dynamic); device 0 allows at most 232448 per "
            "block");

  LaunchOptions o;
  o.stream = fakeStream("kilnFakeOtherContextStream");
  ASSERT_NE(o.stream, nullptr);
  EXPECT_EQ(fails(k, Grid(1), good(), o),
            "kernel `kiln_test_axpi`: launch option `stream` belongs to "
            "another CUDA context than device 0's primary context, where the "
            "kernel is loaded");
  o.stream = fakeStream("kilnFakeDestroyedStream");
  ASSERT_NE(o.stream, nullptr);
  EXPECT_EQ(fails(k, Grid(1), good(), o),
            "kernel `kiln_test_axpi`: launch option `stream`: not a usable "
            "stream: CUDA_ERROR_INVALID_HANDLE (invalid resource handle)");
  // The device's own streams are accepted.
  auto s = Stream::create(*dev);
  ASSERT_TRUE(bool(s));
  o.stream = s->handle();
  EXPECT_EQ(errorText(k.launch(Grid(1), good(), o)), "");
}

TEST_F(BadLaunch, SourceKernelArguments) {
  ModuleOptions mo;
  mo.cache = CacheConfig{false, "", false};
  Module m = Module::fromSource(kCopySource, "copy.py", mo);
  Kernel k = llvm::cantFail(m.kernel("copy"));
  LaunchOptions o;
  o.constexprs.emplace("BLOCK", 64);
  std::vector<Arg> ok = {Arg::ptr(buf->ptr(), DType::F32),
                         Arg::ptr(buf->ptr() + 1024, DType::F32),
                         Arg::integer(64)};
  ASSERT_EQ(errorText(k.launch(Grid(1), ok, o)), "");
  std::string msg = fails(k, Grid(1), {ok[0], ok[1]}, o);
  EXPECT_NE(msg.find("`n`"), std::string::npos) << msg;
  std::vector<Arg> a = ok;
  a[1] = Arg::f32(1.0f);
  msg = fails(k, Grid(1), a, o);
  EXPECT_NE(msg.find("dst_ptr"), std::string::npos) << msg;
  a = ok;
  a[0] = Arg::ptr(0, DType::F32);
  msg = fails(k, Grid(1), a, o);
  EXPECT_NE(msg.find("`src_ptr`"), std::string::npos) << msg;
  EXPECT_NE(msg.find("null"), std::string::npos) << msg;
  msg = fails(k, Grid(1), ok, LaunchOptions{});
  EXPECT_NE(msg.find("BLOCK"), std::string::npos) << msg;
  EXPECT_EQ(fails(k, Grid(70000, 1, 70000), ok, o),
            "kernel `copy`: grid dimension z is 70000, above the device limit "
            "65535");
}
