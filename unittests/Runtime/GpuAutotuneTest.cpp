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

// The same kernel with its decorators in the source, as users write them.
const char *kDecorated = R"(import triton
import triton.language as tl


def even(args):
    return args["n"] % args["BLOCK"] == 0


@triton.autotune(
    configs=[
        triton.Config(dict(BLOCK=128), num_warps=4),
        triton.Config(dict(BLOCK=512), num_warps=4),
        triton.Config(dict(BLOCK=1024), num_warps=8),
    ],
    key=["n"],
    reset_to_zero=["Y"],
    restore_value=["X"],
    warmup=5,
    rep=20,
)
@triton.heuristics(dict(EVEN=even))
@triton.jit
def double_and_add(X, Y, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        x = tl.load(X + offs)
        tl.store(Y + offs, tl.load(Y + offs) + x)
        tl.store(X + offs, x * 2.0)
    else:
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

/// Tunes `double_and_add` from modules `makeModule(dir)` makes, twice: the
/// output is exact both times and the second module reuses the disk result.
void tuneTwice(Device &dev,
               const std::function<Module(const std::string &)> &makeModule,
               int64_t n) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kiln-gpu-tune", dir));
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
  run(makeModule(std::string(dir)));
  std::vector<std::string> files = tuneFiles(std::string(dir));
  ASSERT_EQ(files.size(), 1u);
  llvm::sys::fs::file_status before, after;
  ASSERT_FALSE(llvm::sys::fs::status(files[0], before));
  // Another module reads the choice from disk (not rewritten: no tuning)
  // and computes the same output.
  run(makeModule(std::string(dir)));
  ASSERT_FALSE(llvm::sys::fs::status(files[0], after));
  EXPECT_EQ(before.getLastModificationTime(), after.getLastModificationTime());
  EXPECT_EQ(tuneFiles(std::string(dir)).size(), 1u);
  llvm::sys::fs::remove_directories(dir);
}

TEST(GpuAutotune, TunesThreeConfigsWithoutTouchingUserData) {
  KILN_REQUIRE_GPU(dev);
  auto layers = std::make_shared<KernelLayers>();
  layers->autotune.emplace();
  layers->autotune->configs = {config(128, 4), config(512, 4),
                               config(1024, 8)};
  layers->autotune->key = {"n"};
  layers->autotune->resetToZero = {"Y"};
  layers->autotune->restoreValue = {"X"};
  layers->autotune->warmupMs = 5;
  layers->autotune->repMs = 20;
  tuneTwice(
      dev,
      [&](const std::string &dir) {
        ModuleOptions mo;
        mo.cache = CacheConfig{true, dir, false};
        mo.autotune = AutotuneSettings{true, false};
        mo.decorators = [layers](llvm::StringRef, llvm::StringRef,
                                 llvm::StringRef) {
          return llvm::Expected<std::shared_ptr<const KernelLayers>>(layers);
        };
        return Module::fromSource(kInPlace, "double_and_add.py",
                                  std::move(mo));
      },
      100000);
}

TEST(GpuAutotune, DecoratorsFromTheSourceFile) {
  KILN_REQUIRE_GPU(dev);
  auto makeModule = [](const std::string &dir) {
    ModuleOptions mo;
    mo.cache = CacheConfig{true, dir, false};
    mo.autotune = AutotuneSettings{true, false};
    return Module::fromSource(kDecorated, "double_and_add.py", std::move(mo));
  };
  tuneTwice(dev, makeModule, 100000);  // EVEN false: masked
  tuneTwice(dev, makeModule, 131072);  // EVEN true for every config
}
