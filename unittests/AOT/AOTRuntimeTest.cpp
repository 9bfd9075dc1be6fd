//===- AOTRuntimeTest.cpp - Generated AOT launch functions, stand-in driver
//===//
//
// axpy.h / fill_half.h are generated at build time by kiln_add_kernel from
// kernels.py. KILN_CUDA_DRIVER points the AOT runtime at FakeCuda.cpp's
// library, which records each launch's grid, block and parameter values.
// The fake driver refuses real cubins, so the runtime falls back to the PTX
// (as it does on a driver too old for the toolkit that built the cubin).
//
//===----------------------------------------------------------------------===//
#include "axpy.h"
#include "fill_half.h"

#include "kiln/Runtime/DriverAPI.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

using namespace kiln::aot;

namespace {
const int kUseFakeDriver = [] {
  setenv("KILN_CUDA_DRIVER", KILN_FAKE_CUDA, 1);
  return 0;
}();

struct Recorded {
  std::string kernel;
  unsigned dims[7]; ///< grid x y z, block x y z, shared bytes
  void *stream;
  std::vector<uint64_t> params;
};

/// The fake driver's launch records (kilnFake* functions).
struct Fake {
  int (*count)();
  int (*launch)(int, char *, size_t, unsigned *, void **, uint64_t *, int);
  void (*reset)();
  int (*calls)(const char *);
  Fake() {
    void *h = dlopen(KILN_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
    count = (int (*)())dlsym(h, "kilnFakeLaunchCount");
    launch = (decltype(launch))dlsym(h, "kilnFakeLaunch");
    reset = (void (*)())dlsym(h, "kilnFakeReset");
    calls = (int (*)(const char *))dlsym(h, "kilnFakeCalls");
  }
  std::vector<Recorded> launches() const {
    std::vector<Recorded> out;
    for (int i = 0; i < count(); ++i) {
      Recorded r;
      char name[128];
      uint64_t params[16];
      int n = launch(i, name, sizeof(name), r.dims, &r.stream, params, 16);
      r.kernel = name;
      r.params.assign(params, params + n);
      out.push_back(r);
    }
    return out;
  }
};

const Fake &fake() {
  static Fake f;
  return f;
}

template <typename T> T *devicePtr(uintptr_t address) {
  return reinterpret_cast<T *>(address);
}

uint64_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

class AOTRuntime : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_NE(fake().count, nullptr) << "cannot load " KILN_FAKE_CUDA;
    fake().reset();
  }
};
} // namespace

TEST_F(AOTRuntime, LaunchPassesTheTypedArgumentsInOrder) {
  Status s = axpy(nullptr, Grid(5), devicePtr<float>(0x1000),
                  devicePtr<float>(0x2004), devicePtr<float>(0x3000), 2.5f, 64);
  ASSERT_TRUE(s.ok()) << s.message();
  auto ls = fake().launches();
  ASSERT_EQ(ls.size(), 1u);
  EXPECT_EQ(ls[0].kernel, "axpy");
  EXPECT_EQ(std::vector<unsigned>(ls[0].dims, ls[0].dims + 7),
            (std::vector<unsigned>{5, 1, 1, 128, 1, 1, 0}));
  EXPECT_EQ(ls[0].stream, nullptr);
  EXPECT_EQ(ls[0].params, (std::vector<uint64_t>{0x1000, 0x2004, 0x3000,
                                                 floatBits(2.5f), 64}));
}

TEST_F(AOTRuntime, StreamReachesTheDriver) {
  const kiln::rt::DriverAPI *drv = kiln::rt::processDriver(nullptr);
  ASSERT_NE(drv, nullptr);
  kiln::rt::CUstream stream = nullptr;
  ASSERT_EQ(drv->cuStreamCreate(&stream, 0), 0);
  Status s = axpy(stream, Grid(1, 2, 3), devicePtr<float>(0x1000),
                  devicePtr<float>(0x2000), devicePtr<float>(0x3000), 1, 16);
  ASSERT_TRUE(s.ok()) << s.message();
  auto ls = fake().launches();
  ASSERT_EQ(ls.size(), 1u);
  EXPECT_EQ(ls[0].stream, stream);
  EXPECT_EQ(ls[0].dims[1], 2u);
  EXPECT_EQ(ls[0].dims[2], 3u);
}

TEST_F(AOTRuntime, ArgumentErrorsNameTheParameter) {
  Status s = axpy(nullptr, Grid(1), nullptr, devicePtr<float>(0x2000),
                  devicePtr<float>(0x3000), 1, 16);
  EXPECT_EQ(s.message(), "kernel `axpy` (kiln::aot::axpy): argument #1 `X`: "
                         "null device pointer");
  s = axpy(nullptr, Grid(1), devicePtr<float>(0x1000), nullptr,
           devicePtr<float>(0x3000), 1, 16);
  EXPECT_EQ(s.message(), "kernel `axpy` (kiln::aot::axpy): argument #2 `Y`: "
                         "null device pointer");
  // `*fp32:16`: the code assumes 16-byte alignment.
  s = axpy(nullptr, Grid(1), devicePtr<float>(0x1004), devicePtr<float>(0x2000),
           devicePtr<float>(0x3000), 1, 16);
  EXPECT_EQ(s.message(),
            "kernel `axpy` (kiln::aot::axpy): argument #1 `X`: the kernel was "
            "compiled for a 16-byte aligned pointer but 0x1004 is not");
  s = axpy(nullptr, Grid(1), devicePtr<float>(0x1000), devicePtr<float>(0x2000),
           devicePtr<float>(0x3008), 1, 16);
  EXPECT_EQ(s.message(),
            "kernel `axpy` (kiln::aot::axpy): argument #3 `Out`: the kernel "
            "was compiled for a 16-byte aligned pointer but 0x3008 is not");
  // `i32:16`: divisible by 16.
  s = axpy(nullptr, Grid(1), devicePtr<float>(0x1000), devicePtr<float>(0x2000),
           devicePtr<float>(0x3000), 1, 65);
  EXPECT_EQ(s.message(),
            "kernel `axpy` (kiln::aot::axpy): argument #5 `n`: the kernel was "
            "compiled for a value divisible by 16 but got 65");
  EXPECT_EQ(fake().count(), 0);
}

TEST_F(AOTRuntime, GridIsCheckedAgainstTheDevice) {
  Status s = axpy(nullptr, Grid(1, 70000), devicePtr<float>(0x1000),
                  devicePtr<float>(0x2000), devicePtr<float>(0x3000), 1, 16);
  EXPECT_EQ(s.message(), "kernel `axpy` (kiln::aot::axpy): grid dimension y "
                         "is 70000, above the device limit 65535");
  // A zero dimension launches nothing, as in Triton and the JIT.
  s = axpy(nullptr, Grid(0), devicePtr<float>(0x1000), devicePtr<float>(0x2000),
           devicePtr<float>(0x3000), 1, 16);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(fake().count(), 0);
}

TEST_F(AOTRuntime, HalfScalarsAndKeywordNames) {
  // fill(Out, new, count): `new` is `new_` in C++, an fp16 scalar passed as
  // float and converted; count is i64; NUM_WARPS 2.
  Status s = fill_half(nullptr, Grid(8), devicePtr<half>(0x4002), 1.5f,
                       int64_t(1) << 40);
  ASSERT_TRUE(s.ok()) << s.message();
  auto ls = fake().launches();
  ASSERT_EQ(ls.size(), 1u);
  EXPECT_EQ(ls[0].kernel, "fill");
  EXPECT_EQ(ls[0].dims[3], 64u);
  EXPECT_EQ(ls[0].params,
            (std::vector<uint64_t>{0x4002, 0x3E00, uint64_t(1) << 40}));
}

TEST_F(AOTRuntime, ImagesAreChosenByArch) {
#ifdef KILN_AOT_HAS_CUBINS
  const bool cubins = true;
#else
  const bool cubins = false;
#endif
  ASSERT_EQ(axpy_kernel.numImages, cubins ? 4u : 2u);
  const Image *on90 = selectImage(axpy_kernel, 90);
  ASSERT_NE(on90, nullptr);
  EXPECT_EQ(on90->sm, 90);
  EXPECT_EQ(on90->isCubin, cubins);
  // sm_86 has no cubin: the sm_80 PTX, compiled by the driver.
  const Image *on86 = selectImage(axpy_kernel, 86);
  ASSERT_NE(on86, nullptr);
  EXPECT_EQ(on86->sm, 80);
  EXPECT_FALSE(on86->isCubin);
  EXPECT_EQ(selectImage(axpy_kernel, 75), nullptr);
  EXPECT_EQ(selectImage(fill_half_kernel, 86), nullptr);

  LoadInfo info;
  Status s = prepare(axpy_kernel, nullptr, &info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(info.deviceSm, 90);
  // The stand-in driver refuses real cubins: the PTX is the fallback.
  EXPECT_TRUE(info.jitFromPTX);
  EXPECT_EQ(info.image->sm, 90);
  EXPECT_FALSE(info.image->isCubin);
  if (cubins)
    EXPECT_EQ(info.cubinError, "cuModuleLoadDataEx of the sm_90 cubin: "
                               "CUDA_ERROR_INVALID_IMAGE (device kernel image "
                               "is invalid)");
  else
    EXPECT_EQ(info.cubinError, "");
}

// PTX the backend marked for a whole-program compile (pipelined tensor-core
// loops) is loaded as a module, not linked, as the JIT runtime does.
TEST_F(AOTRuntime, MarkedPTXCompilesAsAWholeProgram) {
  static const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                            ".visible .entry marked(\n\t.param .u64 X\n)\n{\n\tret;\n}\n"
                            "// kiln.jit: whole-program\n";
  static const Image images[] = {{90, false, ptx, sizeof(ptx) - 1}};
  static const KernelDescriptor marked = {"marked", "kiln::aot::marked", 4, 0, images, 1};
  int links = fake().calls("cuLinkCreate"), ptxLoads = fake().calls("cuModuleLoadDataEx(PTX)");
  LoadInfo info;
  Status s = prepare(marked, nullptr, &info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(info.jitFromPTX);
  EXPECT_EQ(fake().calls("cuLinkCreate"), links);
  EXPECT_EQ(fake().calls("cuModuleLoadDataEx(PTX)"), ptxLoads + 1);
}

TEST_F(AOTRuntime, NoImageForTheDeviceIsAnError) {
  static const char ptx[] = "// sm_95 only";
  static const Image images[] = {{95, false, ptx, sizeof(ptx) - 1}};
  static const KernelDescriptor future = {
      "future", "kiln::aot::future", 4, 0, images, 1};
  Status s = launch(future, nullptr, Grid(1), nullptr);
  EXPECT_EQ(s.message(),
            "kernel `future` (kiln::aot::future): no image for this device "
            "(sm_90); embedded: sm_95 PTX (compile it for this architecture: "
            "ARCHS / --arch)");
}
