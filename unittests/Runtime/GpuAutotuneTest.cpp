//===- GpuAutotuneTest.cpp - Tuning a kernel on a real GPU ----------------===//
//
// Three configs of an in-place kernel: X is scaled in place (restore_value)
// and Y accumulates (reset_to_zero), so any timing run leaking into the
// user's data shows up in the result. The choice must land on disk and be
// reused by another module without timing.
//
//===----------------------------------------------------------------------===//
#include "GpuTestUtil.h"
#include "kiln/Runtime/Module.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::rt;
using namespace kiln::rt::test;

namespace {
const char *kInPlace = R"(import triton
import triton.language as tl


@triton.jit
def double_and_add(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m)
    y = tl.load(Y + offs, mask=m)
    tl.store(Y + offs, y + x, mask=m)
    tl.store(X + offs, x * 2.0, mask=m)
)";

AutotuneConfig config(unsigned block, unsigned warps) {
  AutotuneConfig c;
  c.constexprs["BLOCK"] = std::to_string(block);
  c.numWarps = warps;
  return c;
}

std::vector<std::string> tuneFiles(const std::string &dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir, ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".tune"))
      out.push_back(it->path());
  return out;
}
} // namespace

TEST(GpuAutotune, TunesThreeConfigsWithoutTouchingUserData) {
  KILN_REQUIRE_GPU(dev);
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kiln-gpu-tune", dir));
  auto layers = std::make_shared<KernelLayers>();
  layers->autotune.emplace();
  layers->autotune->configs = {config(128, 4), config(512, 4),
                               config(1024, 8)};
  layers->autotune->key = {"n"};
  layers->autotune->resetToZero = {"Y"};
  layers->autotune->restoreValue = {"X"};
  layers->autotune->warmupMs = 5;
  layers->autotune->repMs = 20;
  auto makeModule = [&] {
    ModuleOptions mo;
    mo.cache = CacheConfig{true, std::string(dir), false};
    mo.autotune = AutotuneSettings{true, false};
    mo.decorators = [layers](llvm::StringRef, llvm::StringRef,
                             llvm::StringRef) {
      return llvm::Expected<std::shared_ptr<const KernelLayers>>(layers);
    };
    return Module::fromSource(kInPlace, "double_and_add.py", std::move(mo));
  };

  const int64_t n = 100000;
  HostArray x0(DType::F32, n);
  for (int64_t i = 0; i < n; ++i)
    x0.set(i, double(i % 97) - 48);
  KILN_ASSIGN_OR_FAIL(x, DeviceBuffer::alloc(dev, n * 4));
  KILN_ASSIGN_OR_FAIL(y, DeviceBuffer::alloc(dev, n * 4));
  KILN_ASSIGN_OR_FAIL(stream, Stream::create(dev));
  GridFunction grid = [&](const LaunchArgs &meta) {
    return Grid(uint32_t((n + meta.at("BLOCK").i - 1) / meta.at("BLOCK").i));
  };
  std::vector<Arg> args = {Arg::ptr(x.ptr(), DType::F32, x.size()),
                           Arg::ptr(y.ptr(), DType::F32, y.size()),
                           Arg::integer(n)};
  LaunchOptions o;
  o.stream = stream.handle();

  auto run = [&](Module m) {
    KILN_ASSERT_OK(x.copyFromHost(x0.bytes.data(), x.size()));
    KILN_ASSERT_OK(y.fill32(0));
    KILN_ASSIGN_OR_FAIL(k, m.kernel("double_and_add"));
    KILN_ASSERT_OK(k.launch(grid, args, o));
    KILN_ASSERT_OK(stream.synchronize());
    HostArray xs(DType::F32, n), ys(DType::F32, n);
    KILN_ASSERT_OK(x.copyToHost(xs.bytes.data(), x.size()));
    KILN_ASSERT_OK(y.copyToHost(ys.bytes.data(), y.size()));
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(xs.get(i), 2 * x0.get(i)) << "X[" << i << "]";
      ASSERT_EQ(ys.get(i), x0.get(i)) << "Y[" << i << "]";
    }
  };
  run(makeModule());
  std::vector<std::string> files = tuneFiles(std::string(dir));
  ASSERT_EQ(files.size(), 1u);
  llvm::sys::fs::file_status before, after;
  ASSERT_FALSE(llvm::sys::fs::status(files[0], before));
  // Another module reads the choice from disk (not rewritten: no tuning)
  // and computes the same output.
  run(makeModule());
  ASSERT_FALSE(llvm::sys::fs::status(files[0], after));
  EXPECT_EQ(before.getLastModificationTime(), after.getLastModificationTime());
  EXPECT_EQ(tuneFiles(std::string(dir)).size(), 1u);
  llvm::sys::fs::remove_directories(dir);
}
