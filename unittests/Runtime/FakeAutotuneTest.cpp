//===- FakeAutotuneTest.cpp - Autotune and heuristics in Kernel::launch ---===//
//
// Against FakeCuda.cpp: launch times come from rules keyed by threads per
// block (num_warps * 32), so each config of a test spec has a known time.
// The kernel is compiled by the real compiler; the decorator layers are
// given through ModuleOptions::decorators, as the frontend would read them.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "kiln/Runtime/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <fstream>
#include <set>

using namespace kiln;
using namespace kiln::rt;
using namespace kiln::rt::fakedrv;

namespace {
const char *kScale = R"(import triton
import triton.language as tl


@triton.jit
def scale(X, Y, n, BLOCK: tl.constexpr, EVEN: tl.constexpr = False):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(Y + offs, tl.load(X + offs) * 2.0)
    else:
        m = offs < n
        tl.store(Y + offs, tl.load(X + offs, mask=m) * 2.0, mask=m)
)";

AutotuneConfig config(unsigned block, unsigned warps) {
  AutotuneConfig c;
  c.constexprs["BLOCK"] = std::to_string(block);
  c.numWarps = warps;
  return c;
}

/// BLOCK 64 / 2 warps, 128 / 4, 256 / 8: 64, 128 and 256 threads.
AutotuneSpec spec() {
  AutotuneSpec s;
  s.configs = {config(64, 2), config(128, 4), config(256, 8)};
  s.key = {"n"};
  s.warmupMs = 5;
  s.repMs = 10;
  s.where = "scale.py:5:1";
  return s;
}

int64_t metaInt(const LaunchArgs &meta, const char *name) {
  auto it = meta.find(name);
  return it == meta.end() ? -1 : it->second.i;
}

GridFunction cdivGrid() {
  return [](const LaunchArgs &meta) {
    int64_t n = metaInt(meta, "n"), block = metaInt(meta, "BLOCK");
    return Grid(uint32_t((n + block - 1) / block));
  };
}

class FakeAutotune : public FakeDriver {
protected:
  void SetUp() override {
    FakeDriver::SetUp();
    x = llvm::cantFail(DeviceBuffer::alloc(*dev, 4 * kMax));
    y = llvm::cantFail(DeviceBuffer::alloc(*dev, 4 * kMax));
    fake().setKernelTime(nullptr, 64, 3.0f);
    fake().setKernelTime(nullptr, 128, 1.0f);
    fake().setKernelTime(nullptr, 256, 2.0f);
  }

  /// A module whose `scale` kernel has `layers`.
  Module module(KernelLayers layers, bool timing = true) {
    ModuleOptions mo;
    mo.cache = CacheConfig{true, dir.str(), false};
    mo.autotune = AutotuneSettings{timing, false};
    auto shared = std::make_shared<const KernelLayers>(std::move(layers));
    mo.decorators = [shared](llvm::StringRef, llvm::StringRef,
                             llvm::StringRef) {
      return llvm::Expected<std::shared_ptr<const KernelLayers>>(shared);
    };
    return Module::fromSource(kScale, "scale.py", std::move(mo));
  }
  static KernelLayers tuned(AutotuneSpec s = spec()) {
    KernelLayers l;
    l.autotune = std::move(s);
    return l;
  }
  std::vector<Arg> args(int64_t n, bool sizes = true) {
    return {Arg::ptr(x.ptr(), DType::F32, sizes ? x.size() : 0),
            Arg::ptr(y.ptr(), DType::F32, sizes ? y.size() : 0),
            Arg::integer(n)};
  }
  /// Launches and returns the last (real) launch.
  Launch launchOnce(Kernel &k, int64_t n, const LaunchOptions &o = {}) {
    std::string err = errorText(k.launch(cdivGrid(), args(n), o));
    EXPECT_EQ(err, "");
    std::vector<Launch> l = launches();
    return l.empty() ? Launch() : l.back();
  }

  static constexpr size_t kMax = 8192;
  TempDir dir;
  DeviceBuffer x, y;
};

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

/// Launches per block size (one per config here).
std::map<unsigned, int> launchesByThreads(const std::vector<Launch> &all) {
  std::map<unsigned, int> out;
  for (const Launch &l : all)
    ++out[l.block[0]];
  return out;
}

TEST_F(FakeAutotune, TimedRunsFollowTheBudget) {
  // Per config: one run, 5 to estimate, warm-ups filling the warm-up budget
  // (at least one), timed runs filling rep (at least 5); a first run longer
  // than rep is followed by one timed run only. Configs take 3, 1 and 2 ms;
  // the last launch is the chosen 128-thread config's.
  {
    Module m = module(tuned()); // the decorator's 5 + 10 ms
    auto k = m.kernel("scale");
    ASSERT_TRUE(bool(k)) << llvm::toString(k.takeError());
    launchOnce(*k, 1000);
    EXPECT_EQ(launchesByThreads(launches()),
              (std::map<unsigned, int>{{64, 1 + 5 + 1 + 5},
                                       {128, 1 + 5 + 5 + 10 + 1},
                                       {256, 1 + 5 + 2 + 5}}));
  }
  fake().reset();
  fake().setKernelTime(nullptr, 64, 30.0f); // longer than rep
  fake().setKernelTime(nullptr, 128, 1.0f);
  fake().setKernelTime(nullptr, 256, 2.0f);
  AutotuneSpec kilnBudget = spec();
  kilnBudget.warmupMs.reset();
  kilnBudget.repMs.reset();
  Module m = module(tuned(kilnBudget)); // Kiln's 2 + 10 ms
  auto k = m.kernel("scale");
  ASSERT_TRUE(bool(k)) << llvm::toString(k.takeError());
  launchOnce(*k, 2000);
  EXPECT_EQ(launchesByThreads(launches()),
            (std::map<unsigned, int>{{64, 1 + 1}, // first run, one timed run
                                     {128, 1 + 5 + 2 + 10 + 1},
                                     {256, 1 + 5 + 1 + 5}}));
}

TEST_F(FakeAutotune, ChoosesTheFastestConfigOnceAndLaunchesIt) {
  Module m = module(tuned());
  auto k = m.kernel("scale");
  ASSERT_TRUE(bool(k)) << llvm::toString(k.takeError());
  ASSERT_NE(k->autotuner(), nullptr);
  Launch l = launchOnce(*k, 1000);
  EXPECT_EQ(l.block[0], 128u); // The 1 ms config.
  EXPECT_EQ(l.grid[0], 8u);    // cdiv(1000, 128)
  EXPECT_EQ(l.params, (std::vector<uint64_t>{x.ptr(), y.ptr(), 1000}));
  // Every config ran: a first run, 5 to estimate, warm-ups and reps.
  std::vector<Launch> all = launches();
  for (unsigned threads : {64u, 128u, 256u})
    EXPECT_GE(std::count_if(all.begin(), all.end(),
                            [&](const Launch &r) {
                              return r.block[0] == threads;
                            }),
              7)
        << threads;
  // The same key again: no timing, one launch.
  int records = fake().calls("cuEventRecord");
  size_t before = launches().size();
  l = launchOnce(*k, 1000);
  EXPECT_EQ(l.block[0], 128u);
  EXPECT_EQ(fake().calls("cuEventRecord"), records);
  EXPECT_EQ(launches().size(), before + 1);
}

TEST_F(FakeAutotune, ANewKeyTunesAgain) {
  Module m = module(tuned());
  Kernel k = llvm::cantFail(m.kernel("scale"));
  EXPECT_EQ(launchOnce(k, 1000).block[0], 128u);
  fake().reset();
  fake().setKernelTime(nullptr, 64, 0.5f);
  fake().setKernelTime(nullptr, 128, 1.0f);
  fake().setKernelTime(nullptr, 256, 2.0f);
  Launch l = launchOnce(k, 4096);
  EXPECT_EQ(l.block[0], 64u);
  EXPECT_EQ(l.grid[0], 64u);
  EXPECT_GT(fake().calls("cuEventRecord"), 0);
  // The first key keeps its result.
  EXPECT_EQ(launchOnce(k, 1000).block[0], 128u);
}

TEST_F(FakeAutotune, ResultPersistsAcrossModulesAndCorruptEntriesAreRetuned) {
  {
    Kernel k = llvm::cantFail(module(tuned()).kernel("scale"));
    EXPECT_EQ(launchOnce(k, 1000).block[0], 128u);
  }
  std::vector<std::string> files = tuneFiles(dir.str());
  ASSERT_EQ(files.size(), 1u);
  // Another module (as another process would): from disk, no timing, even
  // though the fastest config is now another one.
  fake().reset();
  fake().setKernelTime(nullptr, 64, 0.1f);
  {
    Kernel k = llvm::cantFail(module(tuned()).kernel("scale"));
    EXPECT_EQ(launchOnce(k, 1000).block[0], 128u);
    EXPECT_EQ(fake().calls("cuEventRecord"), 0);
    EXPECT_EQ(launches().size(), 1u);
  }
  // A corrupt entry: ignored, tuned again, rewritten.
  std::ofstream(files[0], std::ios::trunc | std::ios::binary) << "garbage";
  fake().reset();
  fake().setKernelTime(nullptr, 64, 0.1f);
  {
    Kernel k = llvm::cantFail(module(tuned()).kernel("scale"));
    EXPECT_EQ(launchOnce(k, 1000).block[0], 64u);
    EXPECT_GT(fake().calls("cuEventRecord"), 0);
  }
  auto rewritten = llvm::MemoryBuffer::getFile(files[0]);
  ASSERT_TRUE(bool(rewritten));
  EXPECT_TRUE((*rewritten)->getBuffer().starts_with("KILNCACHE 1 tune "));
  fake().reset();
  {
    Kernel k = llvm::cantFail(module(tuned()).kernel("scale"));
    EXPECT_EQ(launchOnce(k, 1000).block[0], 64u);
    EXPECT_EQ(fake().calls("cuEventRecord"), 0);
  }
}

TEST_F(FakeAutotune, OffTakesTheFirstConfigWithoutTiming) {
  Kernel k = llvm::cantFail(module(tuned(), /*timing=*/false).kernel("scale"));
  Launch l = launchOnce(k, 1000);
  EXPECT_EQ(l.block[0], 64u);
  EXPECT_EQ(l.grid[0], 16u);
  EXPECT_EQ(launches().size(), 1u);
  EXPECT_EQ(fake().calls("cuEventRecord"), 0);
}

TEST_F(FakeAutotune, ResetToZeroAndRestoreValueGuardUserBuffers) {
  AutotuneSpec s = spec();
  s.resetToZero = {"Y"};
  s.restoreValue = {"X"};
  Kernel k = llvm::cantFail(module(tuned(s)).kernel("scale"));
  std::vector<uint32_t> pattern(kMax, 0x3f800000u);
  ASSERT_EQ(errorText(x.copyFromHost(pattern.data(), x.size())), "");
  ASSERT_EQ(errorText(y.fill32(0xdeadbeefu)), "");
  fake().reset();
  fake().setKernelTime(nullptr, 64, 3.0f);
  fake().setKernelTime(nullptr, 128, 1.0f);
  fake().setKernelTime(nullptr, 256, 2.0f);
  Launch l = launchOnce(k, 1000);
  EXPECT_EQ(l.block[0], 128u);

  // Y is zeroed before every tuning run and once after tuning.
  std::vector<MemsetRec> m = memsets();
  size_t tuningRuns = launches().size() - 1;
  ASSERT_EQ(m.size(), tuningRuns + 1);
  for (const MemsetRec &r : m) {
    EXPECT_EQ(r.ptr, y.ptr());
    EXPECT_EQ(r.elementBytes, 1u);
    EXPECT_EQ(r.count, y.size());
    EXPECT_EQ(r.value, 0u);
  }
  // X is copied aside once, copied back after each config and at the end.
  std::vector<CopyRec> c = copies();
  ASSERT_EQ(c.size(), 1u + 3 + 1);
  EXPECT_EQ(c[0].src, x.ptr());
  EXPECT_EQ(c[0].bytes, x.size());
  uint64_t saved = c[0].dst;
  for (size_t i = 1; i < c.size(); ++i) {
    EXPECT_EQ(c[i].dst, x.ptr());
    EXPECT_EQ(c[i].src, saved);
    EXPECT_EQ(c[i].bytes, x.size());
  }
  std::vector<uint32_t> back(kMax);
  ASSERT_EQ(errorText(x.copyToHost(back.data(), x.size())), "");
  EXPECT_EQ(back, pattern);
  ASSERT_EQ(errorText(y.copyToHost(back.data(), y.size())), "");
  EXPECT_EQ(back, std::vector<uint32_t>(kMax, 0));

  // Without the buffer sizes tuning cannot guard them.
  EXPECT_EQ(errorText(k.launch(cdivGrid(), args(2048, /*sizes=*/false))),
            "kernel `scale`: reset_to_zero names `Y`, but its size is "
            "unknown: pass it as Arg::ptr(pointer, dtype, bytes)");
}

TEST_F(FakeAutotune, FailingConfigsAreSkipped) {
  AutotuneSpec s = spec();
  s.configs.push_back(config(100, 1)); // tl.arange needs a power of two.
  fake().reset();
  fake().setKernelTime(nullptr, 64, 3.0f);
  fake().setKernelTime(nullptr, 128, -1.0f); // Out of resources.
  fake().setKernelTime(nullptr, 256, 2.0f);
  Kernel k = llvm::cantFail(module(tuned(s)).kernel("scale"));
  Launch l = launchOnce(k, 1000);
  EXPECT_EQ(l.block[0], 256u);
  EXPECT_EQ(l.grid[0], 4u);

  // Nothing runs: the error lists every config's reason.
  fake().reset();
  fake().setKernelTime(nullptr, 0, -1.0f);
  std::string msg = errorText(k.launch(cdivGrid(), args(64)));
  EXPECT_EQ(msg.rfind("scale.py:5:1: error: kernel `scale`: every autotune "
                      "config failed for key (n=64,",
                      0),
            0u)
      << msg;
  EXPECT_NE(msg.find("BLOCK: 256, num_warps: 8, num_stages: 3: failed to "
                     "run: cuLaunchKernel of `scale`"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("BLOCK: 100, num_warps: 1, num_stages: 3: does not "
                     "compile: "),
            std::string::npos)
      << msg;
}

TEST_F(FakeAutotune, HeuristicsSeeTheConfigAndSetConstexprs) {
  KernelLayers layers = tuned();
  layers.heuristics = [](LaunchArgs &a) -> llvm::Error {
    a["EVEN"] = LaunchValue::boolean(a.at("n").i % a.at("BLOCK").i == 0);
    return llvm::Error::success();
  };
  Kernel k = llvm::cantFail(module(std::move(layers)).kernel("scale"));
  LaunchArgs meta;
  auto o = k.resolveOptions(args(1024), {}, cdivGrid(), &meta);
  ASSERT_TRUE(bool(o)) << llvm::toString(o.takeError());
  EXPECT_EQ(o->constexprs.at("BLOCK").text(), "128");
  EXPECT_EQ(o->constexprs.at("EVEN").text(), "True");
  EXPECT_EQ(o->numWarps, 4u);
  EXPECT_EQ(metaInt(meta, "num_warps"), 4);
  EXPECT_EQ(metaInt(meta, "num_stages"), 3);
  o = k.resolveOptions(args(1000), {}, cdivGrid(), &meta);
  ASSERT_TRUE(bool(o));
  // EVEN keeps its default (False): nothing to add.
  EXPECT_EQ(meta.at("EVEN").kind, LaunchValue::Kind::Bool);
  EXPECT_EQ(meta.at("EVEN").i, 0);
  EXPECT_EQ(o->constexprs.count("EVEN"), 0u);
  ASSERT_EQ(errorText(k.launch(cdivGrid(), args(1024))), "");

  // An auto-tuned meta-parameter cannot also come from the launch.
  LaunchOptions user;
  user.constexprs.emplace("BLOCK", 32);
  // A tuned key names its config; a new key the first config, before any
  // tuning.
  EXPECT_EQ(errorText(k.launch(cdivGrid(), args(1024), user)),
            "kernel `scale`: `BLOCK` is set by the launch and by the autotune "
            "config (BLOCK: 128, num_warps: 4, num_stages: 3); auto-tuned "
            "meta-parameters must not be passed");
  int records = fake().calls("cuEventRecord");
  EXPECT_EQ(errorText(k.launch(cdivGrid(), args(4096), user)),
            "kernel `scale`: `BLOCK` is set by the launch and by the autotune "
            "config (BLOCK: 64, num_warps: 2, num_stages: 3); auto-tuned "
            "meta-parameters must not be passed");
  EXPECT_EQ(fake().calls("cuEventRecord"), records);
}

TEST_F(FakeAutotune, EarlyConfigPruneChoosesWhatIsTuned) {
  // The launch's arguments reach the prune; the 1 ms config (128 threads) is
  // pruned for n >= 2048, so the tuner picks among the other two.
  std::vector<int64_t> seen;
  KernelLayers layers = tuned();
  layers.prune = [&seen](const LaunchArgs &a) -> llvm::Expected<std::vector<size_t>> {
    seen.push_back(a.at("n").i);
    if (a.at("n").i >= 2048)
      return std::vector<size_t>{2, 0};
    return std::vector<size_t>{0, 1, 2};
  };
  Kernel k = llvm::cantFail(module(std::move(layers)).kernel("scale"));
  EXPECT_EQ(launchOnce(k, 1000).block[0], 128u);
  fake().reset();
  fake().setKernelTime(nullptr, 64, 3.0f);
  fake().setKernelTime(nullptr, 128, 1.0f);
  fake().setKernelTime(nullptr, 256, 2.0f);
  Launch l = launchOnce(k, 4096);
  EXPECT_EQ(l.block[0], 256u); // 2 ms beats 3 ms; 1 ms was pruned
  EXPECT_EQ(launchesByThreads(launches()).count(128), 0u);
  // A known key: no pruning again.
  EXPECT_EQ(launchOnce(k, 4096).block[0], 256u);
  EXPECT_EQ(seen, (std::vector<int64_t>{1000, 4096}));

  KernelLayers failing = tuned();
  failing.prune = [](const LaunchArgs &) -> llvm::Expected<std::vector<size_t>> {
    return llvm::createStringError("t.py:3:1: error: early_config_prune returned no config");
  };
  Kernel f = llvm::cantFail(module(std::move(failing)).kernel("scale"));
  EXPECT_EQ(errorText(f.launch(cdivGrid(), args(512))),
            "t.py:3:1: error: early_config_prune returned no config");
}

// The same through the source's own decorator: the prune reads a launch
// argument by name and the configs' kwargs (tutorial 09's shape).
TEST_F(FakeAutotune, EarlyConfigPruneFromTheSource) {
  std::string src = kScale;
  src.replace(src.find("@triton.jit"), 11,
              "def drop_128(configs, named_args, **kwargs):\n"
              "    if named_args['n'] < 2048:\n"
              "        return configs\n"
              "    return [c for c in configs if c.kwargs['BLOCK'] != 128]\n\n\n"
              "@triton.autotune(configs=[triton.Config({'BLOCK': 64}, num_warps=2),\n"
              "                          triton.Config({'BLOCK': 128}, num_warps=4),\n"
              "                          triton.Config({'BLOCK': 256}, num_warps=8)],\n"
              "                 key=['n'], warmup=5, rep=10,\n"
              "                 prune_configs_by={'early_config_prune': drop_128})\n"
              "@triton.jit");
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), false};
  mo.autotune = AutotuneSettings{true, false};
  auto k = Module::fromSource(src, "scale.py", std::move(mo)).kernel("scale");
  ASSERT_TRUE(bool(k)) << llvm::toString(k.takeError());
  EXPECT_EQ(launchOnce(*k, 1000).block[0], 128u);
  fake().reset();
  fake().setKernelTime(nullptr, 64, 3.0f);
  fake().setKernelTime(nullptr, 128, 1.0f);
  fake().setKernelTime(nullptr, 256, 2.0f);
  EXPECT_EQ(launchOnce(*k, 4096).block[0], 256u);
  EXPECT_EQ(launchesByThreads(launches()).count(128), 0u);
}

TEST_F(FakeAutotune, HeuristicsAloneAndGridFunctions) {
  KernelLayers layers;
  layers.heuristics = [](LaunchArgs &a) -> llvm::Error {
    a["BLOCK"] = LaunchValue::integer(a.at("n").i >= 4096 ? 256 : 64);
    return llvm::Error::success();
  };
  Kernel k = llvm::cantFail(module(std::move(layers)).kernel("scale"));
  EXPECT_EQ(k.autotuner(), nullptr);
  Launch l = launchOnce(k, 5000);
  EXPECT_EQ(l.grid[0], 20u); // cdiv(5000, 256)
  l = launchOnce(k, 100);
  EXPECT_EQ(l.grid[0], 2u);
  EXPECT_EQ(launches().size(), 2u);

  // An undecorated kernel takes a grid function, too.
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), false};
  mo.decorators = [](llvm::StringRef, llvm::StringRef, llvm::StringRef) {
    return llvm::Expected<std::shared_ptr<const KernelLayers>>(nullptr);
  };
  Kernel plain = llvm::cantFail(
      Module::fromSource(kScale, "scale.py", std::move(mo)).kernel("scale"));
  EXPECT_EQ(plain.layers(), nullptr);
  LaunchOptions o;
  o.constexprs.emplace("BLOCK", 512);
  o.numWarps = 8;
  l = launchOnce(plain, 3000, o);
  EXPECT_EQ(l.grid[0], 6u);
  EXPECT_EQ(l.block[0], 256u);
}

TEST_F(FakeAutotune, NoneArgumentsSpecializeAway) {
  const char *src = R"(import triton
import triton.language as tl


@triton.jit
def add(X, B, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m)
    if B is not None:
        x += tl.load(B + offs, mask=m)
    tl.store(Y + offs, x, mask=m)
)";
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), false};
  Kernel k = llvm::cantFail(
      Module::fromSource(src, "add.py", std::move(mo)).kernel("add"));
  LaunchOptions o;
  o.constexprs.emplace("BLOCK", 128);
  ASSERT_EQ(errorText(k.launch(Grid(2),
                               {Arg::ptr(x.ptr(), DType::F32), Arg::none(),
                                Arg::ptr(y.ptr(), DType::F32),
                                Arg::integer(200)},
                               o)),
            "");
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].params, (std::vector<uint64_t>{x.ptr(), y.ptr(), 200}));
}

TEST_F(FakeAutotune, DecoratorsReadFromTheSource) {
  const char *src = R"(import triton
import triton.language as tl


def even(args):
    return args["n"] % args["BLOCK"] == 0


@triton.autotune(
    configs=[
        triton.Config(dict(BLOCK=64), num_warps=2),
        triton.Config(dict(BLOCK=128), num_warps=4),
        triton.Config(dict(BLOCK=256), num_warps=8),
    ],
    key=["n"],
    reset_to_zero=["Y"],
    warmup=5,
    rep=10,
)
@triton.heuristics(dict(EVEN=even))
@triton.jit
def scale(X, Y, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(Y + offs, tl.load(X + offs) * 2.0)
    else:
        m = offs < n
        tl.store(Y + offs, tl.load(X + offs, mask=m) * 2.0, mask=m)
)";
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), false};
  mo.autotune = AutotuneSettings{true, false};
  auto k = Module::fromSource(src, "scale.py", std::move(mo)).kernel("scale");
  ASSERT_TRUE(bool(k)) << llvm::toString(k.takeError());
  ASSERT_NE(k->autotuner(), nullptr);
  EXPECT_EQ(k->autotuner()->configs().size(), 3u);
  EXPECT_EQ(k->autotuner()->spec().resetToZero,
            std::vector<std::string>{"Y"});
  Launch l = launchOnce(*k, 1024);
  EXPECT_EQ(l.block[0], 128u);
  EXPECT_EQ(l.grid[0], 8u);
  std::vector<MemsetRec> m = memsets();
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m.back().ptr, y.ptr());
  LaunchArgs meta;
  auto o = k->resolveOptions(args(1024), {}, cdivGrid(), &meta);
  ASSERT_TRUE(bool(o)) << llvm::toString(o.takeError());
  EXPECT_EQ(o->constexprs.at("BLOCK").text(), "128");
  EXPECT_EQ(o->constexprs.at("EVEN").text(), "True");
}

TEST_F(FakeAutotune, HeuristicsReadTupleArguments) {
  // A namedtuple and a plain tuple argument, as Triton's heuristics see
  // them: `args["src"].n`, `args["scales"][1]`, `len(...)`, pointers' dtypes.
  const char *src = R"(import triton
import triton.language as tl


@triton.heuristics(dict(
    EVEN=lambda args: args["src"].n % args["BLOCK"] == 0,
    FACTOR=lambda args: len(args["scales"]) * 10 + args["scales"][1],
    HALF=lambda args: args["src"].ptr.dtype == tl.float16,
))
@triton.jit
def copy(src, dst, scales, BLOCK: tl.constexpr, EVEN: tl.constexpr,
         FACTOR: tl.constexpr, HALF: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.static_assert(FACTOR == 23)
    tl.static_assert(not HALF)
    if EVEN:
        tl.store(dst + offs, tl.load(src.ptr + offs) * scales[0])
    else:
        m = offs < src.n
        tl.store(dst + offs, tl.load(src.ptr + offs, mask=m) * scales[0], mask=m)
)";
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), false};
  auto k = Module::fromSource(src, "copy.py", std::move(mo)).kernel("copy");
  ASSERT_TRUE(bool(k)) << llvm::toString(k.takeError());
  LaunchOptions o;
  o.constexprs.emplace("BLOCK", 128);
  auto argsFor = [&](int64_t n) {
    return std::vector<Arg>{Arg::tupleHeader(2, "ptr,n"),
                            Arg::ptr(x.ptr(), DType::F32),
                            Arg::integer(n),
                            Arg::ptr(y.ptr(), DType::F32),
                            Arg::tupleHeader(2),
                            Arg::f32(0.5f),
                            Arg::integer(3)};
  };
  LaunchArgs meta;
  auto r = k->resolveOptions(argsFor(1024), o, cdivGrid(), &meta);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->constexprs.at("EVEN").text(), "True");
  EXPECT_EQ(r->constexprs.at("FACTOR").text(), "23");
  EXPECT_EQ(r->constexprs.at("HALF").text(), "False");
  ASSERT_EQ(meta.at("src").kind, LaunchValue::Kind::Tuple);
  EXPECT_EQ(meta.at("src").fields, (std::vector<std::string>{"ptr", "n"}));
  r = k->resolveOptions(argsFor(1000), o, cdivGrid(), &meta);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->constexprs.at("EVEN").text(), "False");
  // The launch compiles with those values (the static_asserts hold).
  ASSERT_EQ(errorText(k->launch(Grid(8), argsFor(1000), o)), "");

  // A field the namedtuple does not have is an error naming its fields.
  std::string bad = src;
  bad.replace(bad.find("args[\"src\"].n %"), 17, "args[\"src\"].count %");
  ModuleOptions mo2;
  mo2.cache = CacheConfig{true, dir.str(), false};
  auto k2 = Module::fromSource(bad, "copy.py", std::move(mo2)).kernel("copy");
  ASSERT_TRUE(bool(k2)) << llvm::toString(k2.takeError());
  std::string err = errorText(k2->launch(Grid(8), argsFor(1000), o));
  EXPECT_NE(err.find("copy.py:6:23"), std::string::npos) << err;
  EXPECT_NE(err.find("the namedtuple has no field `count` (its fields: ptr, n)"),
            std::string::npos)
      << err;
}

// FlashAttention's unmodified layer_norm.py (fetched into .ext/, never
// committed): its forward kernel tuned over the six warp counts its host
// function triton_autotune_configs() returns, the absent tensors passed as
// None.
TEST_F(FakeAutotune, FlashAttentionLayerNormForward) {
  // Where lit looks too: $KILN_EXT_DIR, else .ext/ in the source tree.
  const char *ext = std::getenv("KILN_EXT_DIR");
  std::string path = (ext ? std::string(ext)
                          : std::string(KILN_SOURCE_ROOT) + "/.ext") +
                     "/flash-attention/layer_norm.py";
  if (!llvm::sys::fs::exists(path))
    GTEST_SKIP() << path << " is not fetched";
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), false};
  mo.autotune = AutotuneSettings{true, false};
  auto m = Module::fromFile(path, std::move(mo));
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  auto k = m->kernel("_layer_norm_fwd_1pass_kernel");
  ASSERT_TRUE(bool(k)) << llvm::toString(k.takeError());
  ASSERT_NE(k->autotuner(), nullptr);
  ASSERT_EQ(k->autotuner()->configs().size(), 6u);

  const int64_t M = 64, N = 1000;
  auto mean = llvm::cantFail(DeviceBuffer::alloc(*dev, M * 4));
  auto rstd = llvm::cantFail(DeviceBuffer::alloc(*dev, M * 4));
  auto w = llvm::cantFail(DeviceBuffer::alloc(*dev, N * 2));
  std::vector<Arg> a = {Arg::ptr(x.ptr(), DType::F16),
                        Arg::ptr(y.ptr(), DType::F16),
                        Arg::ptr(w.ptr(), DType::F16)};
  for (int i = 0; i < 11; ++i)
    a.push_back(Arg::none()); // B, RESIDUAL, X1, W1, B1, Y1, ... DROPOUT_MASK1
  a.push_back(Arg::ptr(mean.ptr(), DType::F32));
  a.push_back(Arg::ptr(rstd.ptr(), DType::F32));
  for (int64_t v : {N, N, int64_t(0), int64_t(0), int64_t(0), int64_t(0), M,
                    N})
    a.push_back(Arg::integer(v)); // strides, M, N
  a.push_back(Arg::f32(1e-6f));   // eps
  a.push_back(Arg::f32(0.0f));    // dropout_p
  a.push_back(Arg::integer(0));   // zero_centered_weight
  LaunchOptions o;
  for (const char *flag :
       {"IS_RMS_NORM", "HAS_RESIDUAL", "STORE_RESIDUAL_OUT", "HAS_BIAS",
        "HAS_DROPOUT", "STORE_DROPOUT_MASK", "HAS_ROWSCALE", "HAS_X1",
        "HAS_W1", "HAS_B1"})
    o.constexprs.emplace(flag, false);
  o.constexprs.emplace("BLOCK_N", 1024);
  fake().reset();
  fake().setKernelTime(nullptr, 256, 0.25f); // 8 warps wins.
  ASSERT_EQ(errorText(k->launch(Grid(M), a, o)), "");
  std::vector<Launch> l = launches();
  ASSERT_FALSE(l.empty());
  EXPECT_EQ(l.back().kernel, "_layer_norm_fwd_1pass_kernel");
  EXPECT_EQ(l.back().block[0], 256u);
  EXPECT_EQ(l.back().grid[0], unsigned(M));
  // The None parameters are not passed: X, Y, W, Mean, Rstd, 8 integers, 2
  // floats, zero_centered_weight.
  EXPECT_EQ(l.back().params.size(), 16u);
  EXPECT_EQ(l.back().params[3], mean.ptr());
  // Six configs were timed.
  std::set<unsigned> blocks;
  for (const Launch &r : l)
    blocks.insert(r.block[0]);
  EXPECT_EQ(blocks, (std::set<unsigned>{32, 64, 128, 256, 512, 1024}));
}

// What the compiled code depends on besides the arguments (num_stages,
// enable_fp_fusion) selects its own variant: never another's from memory.
TEST_F(FakeAutotune, CodeOptionsSelectTheirOwnVariant) {
  const char *src = R"(import triton
import triton.language as tl


@triton.jit
def axpy(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    y = tl.load(Y + offs, mask=m)
    tl.store(Y + offs, tl.load(X + offs, mask=m) * 3.0 + y, mask=m)
)";
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), false};
  Kernel k = llvm::cantFail(
      Module::fromSource(src, "axpy.py", std::move(mo)).kernel("axpy"));
  LaunchOptions o;
  o.constexprs.emplace("BLOCK", 256);
  PrepareStats st;
  auto fused = k.prepare(args(1000), o, &st);
  if (!fused)
    FAIL() << llvm::toString(fused.takeError());
  std::string fusedKey = st.key;
  EXPECT_NE(fused->ptx.find("fma.rn.f32"), std::string::npos);

  o.numStages = 2;
  auto twoStages = k.prepare(args(1000), o, &st);
  if (!twoStages)
    FAIL() << llvm::toString(twoStages.takeError());
  EXPECT_NE(st.key, fusedKey);
  EXPECT_NE(st.ptxFrom, PrepareStats::From::Memory);

  o.numStages = 3;
  o.fpFusion = false;
  auto unfused = k.prepare(args(1000), o, &st);
  if (!unfused)
    FAIL() << llvm::toString(unfused.takeError());
  EXPECT_NE(st.key, fusedKey);
  EXPECT_EQ(unfused->ptx.find("fma.rn.f32"), std::string::npos);
  EXPECT_NE(unfused->ptx.find("mul.rn.f32"), std::string::npos);
  EXPECT_NE(unfused->ptx.find("add.rn.f32"), std::string::npos);
  // And the first variant is still served as it was.
  o.fpFusion = true;
  auto again = k.prepare(args(1000), o, &st);
  if (!again)
    FAIL() << llvm::toString(again.takeError());
  EXPECT_EQ(st.ptxFrom, PrepareStats::From::Memory);
  EXPECT_NE(again->ptx.find("fma.rn.f32"), std::string::npos);
}
