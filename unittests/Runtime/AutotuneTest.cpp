//===- AutotuneTest.cpp - The autotuner core, launch values, Arg::none ----===//
//
// The Autotuner is driven with specs built here and callbacks that stand in
// for compiling and timing, so choice, failures, persistence and
// KILN_AUTOTUNE=off are checked without a device or a frontend evaluator.
//
//===----------------------------------------------------------------------===//
#include "kiln/Runtime/Autotune.h"
#include "kiln/Runtime/Launch.h"
#include "kiln/Runtime/Occupancy.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <atomic>
#include <fstream>

using namespace kiln;
using namespace kiln::rt;

namespace {
std::string errorText(llvm::Error e) {
  return e ? llvm::toString(std::move(e)) : std::string();
}

AutotuneConfig config(unsigned block, unsigned warps) {
  AutotuneConfig c;
  c.constexprs["BLOCK"] = std::to_string(block);
  c.numWarps = warps;
  return c;
}

AutotuneSpec threeConfigs() {
  AutotuneSpec s;
  s.configs = {config(64, 2), config(128, 4), config(256, 8)};
  s.key = {"n"};
  s.where = "k.py:3:1";
  return s;
}

struct TempDir {
  llvm::SmallString<128> path;
  TempDir() { llvm::sys::fs::createUniqueDirectory("kiln-tune", path); }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string str() const { return std::string(path); }
};

/// Callbacks with a time per config (nullopt: fails to run) and a set of
/// configs that fail to compile; counts the calls.
struct FakeBench {
  std::vector<std::optional<double>> ms;
  std::vector<bool> compileFails;
  std::atomic<int> compiles{0};
  int timings = 0, begins = 0, ends = 0;
  TuneCallbacks callbacks() {
    TuneCallbacks cb;
    cb.compile = [this](size_t i) -> llvm::Error {
      ++compiles;
      if (i < compileFails.size() && compileFails[i])
        return llvm::createStringError("k.py:9:5: error: BLOCK too large");
      return llvm::Error::success();
    };
    cb.time = [this](size_t i) -> llvm::Expected<double> {
      ++timings;
      if (!ms[i])
        return llvm::createStringError(
            "cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES");
      return *ms[i];
    };
    cb.begin = [this] {
      ++begins;
      return llvm::Error::success();
    };
    cb.end = [this] {
      ++ends;
      return llvm::Error::success();
    };
    return cb;
  }
};

AutotuneSettings timed() { return AutotuneSettings{true, false}; }
} // namespace

TEST(Autotune, ChoosesTheFastestConfigAndRemembersIt) {
  Autotuner t(threeConfigs(), "k", "hash", nullptr, timed());
  FakeBench b;
  b.ms = {3.0, 1.5, 2.0};
  auto r = t.select("n=1024 @ GPU", b.callbacks());
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->index, 1u);
  EXPECT_EQ(r->from, TuneResult::From::Tuned);
  EXPECT_EQ(r->ms, (std::vector<std::optional<double>>{3.0, 1.5, 2.0}));
  EXPECT_EQ(b.compiles, 3);
  EXPECT_EQ(b.timings, 3);
  EXPECT_EQ(b.begins, 1);
  EXPECT_EQ(b.ends, 1);
  // Same key: from memory, nothing compiled or timed.
  auto again = t.select("n=1024 @ GPU", b.callbacks());
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(again->index, 1u);
  EXPECT_EQ(again->from, TuneResult::From::Memory);
  EXPECT_EQ(b.timings, 3);
  // A new key tunes again.
  b.ms = {0.5, 1.5, 2.0};
  auto other = t.select("n=4096 @ GPU", b.callbacks());
  ASSERT_TRUE(bool(other));
  EXPECT_EQ(other->index, 0u);
  EXPECT_EQ(other->from, TuneResult::From::Tuned);
  EXPECT_EQ(b.timings, 6);
}

TEST(Autotune, ConfigsAreTimedWithTheOccupancyMeasurementPaused) {
  // Each config's timed launches run its own build (Occupancy.h); the
  // caller's setting comes back after the tuning.
  Autotuner t(threeConfigs(), "k", "hash", nullptr, timed());
  FakeBench b;
  b.ms = {3.0, 1.5, 2.0};
  TuneCallbacks cb = b.callbacks();
  std::vector<bool> paused;
  auto time = cb.time;
  cb.time = [&](size_t i) {
    paused.push_back(occupancyPaused());
    return time(i);
  };
  ASSERT_FALSE(occupancyPaused());
  auto r = t.select("n=1024 @ GPU", cb);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(paused, (std::vector<bool>{true, true, true}));
  EXPECT_FALSE(occupancyPaused());
  setOccupancyPaused(true);
  auto other = t.select("n=4096 @ GPU", cb);
  ASSERT_TRUE(bool(other));
  EXPECT_TRUE(occupancyPaused());
  setOccupancyPaused(false);
}

TEST(Autotune, FailedConfigsAreSkipped) {
  Autotuner t(threeConfigs(), "k", "hash", nullptr, timed());
  FakeBench b;
  b.ms = {1.0, std::nullopt, 2.0};
  b.compileFails = {true, false, false};
  auto r = t.select("n=1 @ GPU", b.callbacks());
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->index, 2u);
  EXPECT_EQ(r->ms, (std::vector<std::optional<double>>{std::nullopt,
                                                       std::nullopt, 2.0}));
  EXPECT_EQ(b.timings, 2); // The config that did not compile is not timed.

  Autotuner none(threeConfigs(), "k", "hash", nullptr, timed());
  b.ms = {std::nullopt, std::nullopt, std::nullopt};
  b.compileFails = {};
  EXPECT_EQ(errorText(none.select("n=1 @ GPU", b.callbacks()).takeError()),
            "k.py:3:1: error: kernel `k`: every autotune config failed for "
            "key (n=1 @ GPU):\n"
            "  BLOCK: 64, num_warps: 2, num_stages: 3: failed to run: "
            "cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES\n"
            "  BLOCK: 128, num_warps: 4, num_stages: 3: failed to run: "
            "cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES\n"
            "  BLOCK: 256, num_warps: 8, num_stages: 3: failed to run: "
            "cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES");
}

TEST(Autotune, OffTakesTheFirstConfigWithoutTiming) {
  Autotuner t(threeConfigs(), "k", "hash", nullptr,
              AutotuneSettings{false, false});
  FakeBench b;
  b.ms = {3.0, 1.0, 2.0};
  auto r = t.select("n=1 @ GPU", b.callbacks());
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(r->index, 0u);
  EXPECT_EQ(r->from, TuneResult::From::Untimed);
  EXPECT_EQ(b.compiles, 0);
  EXPECT_EQ(b.timings, 0);
}

TEST(Autotune, SettingsFromEnvironment) {
  setenv("KILN_AUTOTUNE", "off", 1);
  setenv("KILN_LOG", "cache, autotune", 1);
  AutotuneSettings s = AutotuneSettings::fromEnv();
  EXPECT_FALSE(s.timing);
  EXPECT_TRUE(s.log);
  setenv("KILN_AUTOTUNE", "on", 1);
  setenv("KILN_LOG", "cache", 1);
  s = AutotuneSettings::fromEnv();
  EXPECT_TRUE(s.timing);
  EXPECT_FALSE(s.log);
  unsetenv("KILN_AUTOTUNE");
  unsetenv("KILN_LOG");
}

TEST(Autotune, BudgetFromDecoratorEnvironmentOrDefault) {
  unsetenv("KILN_AUTOTUNE_MS");
  AutotuneSpec s = threeConfigs();
  auto budget = [&](const AutotuneSpec &spec) {
    Autotuner t(spec, "k", "hash", nullptr, AutotuneSettings::fromEnv());
    auto b = t.budgetMs();
    return b ? std::to_string(b->first) + "," + std::to_string(b->second)
             : llvm::toString(b.takeError());
  };
  EXPECT_EQ(budget(s), "2,10"); // Kiln's default
  setenv("KILN_AUTOTUNE_MS", " 25, 100 ", 1);
  EXPECT_EQ(budget(s), "25,100");
  AutotuneSpec given = s;
  given.repMs = 40;
  EXPECT_EQ(budget(given), "25,40"); // the decorator's rep wins
  setenv("KILN_AUTOTUNE_MS", "fast", 1);
  EXPECT_EQ(budget(s), "KILN_AUTOTUNE_MS=\"fast\": expected WARMUP,REP in "
                       "milliseconds (e.g. 25,100, Triton's budget)");
  given.warmupMs = 3; // a full budget on the decorator needs no environment
  EXPECT_EQ(budget(given), "3,40");
  setenv("KILN_AUTOTUNE_MS", "5,-1", 1);
  EXPECT_FALSE(AutotuneSettings::fromEnv().budgetError.empty());
  setenv("KILN_AUTOTUNE_MS", "", 1);
  EXPECT_EQ(budget(s), "2,10");
  unsetenv("KILN_AUTOTUNE_MS");
}

TEST(Autotune, TopKKeepsTheFirstConfigs) {
  AutotuneSpec s = threeConfigs();
  s.pruneTopK = 2;
  Autotuner t(s, "k", "hash", nullptr, timed());
  ASSERT_EQ(t.configs().size(), 2u);
  FakeBench b;
  b.ms = {3.0, 2.0, 0.1};
  auto r = t.select("n=1 @ GPU", b.callbacks());
  ASSERT_TRUE(bool(r));
  EXPECT_EQ(r->index, 1u); // The fastest, config 2, was pruned.
  EXPECT_EQ(b.compiles, 2);
}

// early_config_prune's choice: only the kept configs compile and run, the
// result indexes the full list, and the disk entry belongs to that choice.
TEST(Autotune, PrunedCandidatesAloneAreTuned) {
  TempDir dir;
  DiskCache cache(CacheConfig{true, dir.str(), false});
  Autotuner t(threeConfigs(), "k", "hash", &cache, timed());
  FakeBench b;
  b.ms = {0.1, 2.0, 1.0};
  std::vector<size_t> kept{2, 1};
  auto r = t.select("n=8 @ GPU", b.callbacks(), &kept);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->index, 2u); // config 0 would be fastest, but was pruned
  EXPECT_EQ(r->ms, (std::vector<std::optional<double>>{std::nullopt, 2.0, 1.0}));
  EXPECT_EQ(b.compiles, 2);
  EXPECT_EQ(b.timings, 2);
  EXPECT_NE(t.diskKeyText("n=8 @ GPU", kept), t.diskKeyText("n=8 @ GPU"));
  // Another process with the same pruning reads it; with all configs, tunes.
  {
    Autotuner again(threeConfigs(), "k", "hash", &cache, timed());
    FakeBench c;
    c.ms = {0.1, 2.0, 1.0};
    auto d = again.select("n=8 @ GPU", c.callbacks(), &kept);
    ASSERT_TRUE(bool(d));
    EXPECT_EQ(d->from, TuneResult::From::Disk);
    EXPECT_EQ(d->index, 2u);
    Autotuner all(threeConfigs(), "k", "hash", &cache, timed());
    auto e = all.select("n=8 @ GPU", c.callbacks());
    ASSERT_TRUE(bool(e));
    EXPECT_EQ(e->from, TuneResult::From::Tuned);
    EXPECT_EQ(e->index, 0u);
  }
  // One kept config: taken untimed.
  Autotuner one(threeConfigs(), "k", "hash", nullptr, timed());
  std::vector<size_t> single{1};
  FakeBench d;
  auto u = one.select("n=9 @ GPU", d.callbacks(), &single);
  ASSERT_TRUE(bool(u));
  EXPECT_EQ(u->index, 1u);
  EXPECT_EQ(u->from, TuneResult::From::Untimed);
  EXPECT_EQ(d.compiles + d.timings, 0);
  // Nothing kept, or an index out of range: errors.
  std::vector<size_t> none, bad{3};
  EXPECT_EQ(errorText(one.select("n=10 @ GPU", d.callbacks(), &none).takeError()),
            "kernel `k`: no autotune config left after pruning");
  EXPECT_EQ(errorText(one.select("n=10 @ GPU", d.callbacks(), &bad).takeError()),
            "kernel `k`: pruned config 3 out of range");
}

TEST(Autotune, ResultsPersistOnDiskAndCorruptOnesAreRetuned) {
  TempDir dir;
  DiskCache cache(CacheConfig{true, dir.str(), false});
  {
    Autotuner t(threeConfigs(), "k", "hash", &cache, timed());
    FakeBench b;
    b.ms = {3.0, 1.0, 2.0};
    ASSERT_TRUE(bool(t.select("n=8 @ GPU", b.callbacks())));
  }
  std::string key =
      sha256Hex(Autotuner(threeConfigs(), "k", "hash", &cache, timed())
                    .diskKeyText("n=8 @ GPU"));
  std::string path = cache.entryPath(key, "tune");
  ASSERT_TRUE(llvm::sys::fs::exists(path));
  EXPECT_EQ(path, dir.str() + "/v1/" + key.substr(0, 2) + "/" + key + ".tune");

  // A second autotuner (another process, say) reads it: no timing.
  {
    Autotuner t(threeConfigs(), "k", "hash", &cache, timed());
    FakeBench b;
    b.ms = {0.1, 0.1, 0.1};
    auto r = t.select("n=8 @ GPU", b.callbacks());
    ASSERT_TRUE(bool(r));
    EXPECT_EQ(r->index, 1u);
    EXPECT_EQ(r->from, TuneResult::From::Disk);
    EXPECT_EQ(b.compiles + b.timings, 0);
  }
  // Other configs or another kernel source: another key.
  AutotuneSpec changed = threeConfigs();
  changed.configs[2].numWarps = 4;
  EXPECT_NE(Autotuner(changed, "k", "hash", &cache, timed())
                .diskKeyText("n=8 @ GPU"),
            Autotuner(threeConfigs(), "k", "hash", &cache, timed())
                .diskKeyText("n=8 @ GPU"));
  EXPECT_NE(Autotuner(threeConfigs(), "k", "hash2", &cache, timed())
                .diskKeyText("n=8 @ GPU"),
            Autotuner(threeConfigs(), "k", "hash", &cache, timed())
                .diskKeyText("n=8 @ GPU"));

  // A well-formed entry naming a config that does not exist, then a
  // truncated file: each is ignored, tuned again and rewritten.
  for (int round = 0; round < 2; ++round) {
    if (round == 0) {
      std::ofstream(path, std::ios::trunc | std::ios::binary)
          << encodeCacheEntry("tune", key,
                              "{\"config\": 7, \"text\": \"BLOCK: 1\"}");
    } else {
      auto good = llvm::MemoryBuffer::getFile(path);
      ASSERT_TRUE(bool(good));
      std::string bytes = (*good)->getBuffer().str();
      std::ofstream(path, std::ios::trunc | std::ios::binary)
          << bytes.substr(0, bytes.size() - 5);
    }
    Autotuner t(threeConfigs(), "k", "hash", &cache, timed());
    FakeBench b;
    b.ms = {3.0, 2.0, 1.0};
    auto r = t.select("n=8 @ GPU", b.callbacks());
    ASSERT_TRUE(bool(r));
    EXPECT_EQ(r->from, TuneResult::From::Tuned) << "round " << round;
    EXPECT_EQ(r->index, 2u);
    EXPECT_EQ(b.timings, 3);
    Autotuner reread(threeConfigs(), "k", "hash", &cache, timed());
    auto again = reread.select("n=8 @ GPU", b.callbacks());
    ASSERT_TRUE(bool(again));
    EXPECT_EQ(again->from, TuneResult::From::Disk);
    EXPECT_EQ(again->index, 2u);
  }
}

TEST(Autotune, KeyValues) {
  AutotuneSpec s;
  s.key = {"n", "X", "flag", "eps"};
  LaunchArgs args;
  args["X"] = LaunchValue::pointer(DType::F16, 0x1000);
  args["Y"] = LaunchValue::pointer(DType::F32, 0x2000);
  args["n"] = LaunchValue::integer(1024);
  args["flag"] = LaunchValue::boolean(true);
  args["eps"] = LaunchValue::flt(0.5);
  auto k = autotuneKeyValues(s, "k", args, "NVIDIA H100");
  ASSERT_TRUE(bool(k));
  EXPECT_EQ(*k, "n=1024,X=*fp16,flag=True,eps=0.5,dtypes=X:fp16;Y:fp32; @ "
                "NVIDIA H100");
  // Another address, same dtype: same key.
  args["X"] = LaunchValue::pointer(DType::F16, 0x9000);
  EXPECT_EQ(*autotuneKeyValues(s, "k", args, "NVIDIA H100"), *k);
  // A key without a value (computed by heuristics below autotune) is left
  // out, as Triton does.
  s.key = {"n", "HAS_B"};
  EXPECT_EQ(*autotuneKeyValues(s, "k", args, "GPU"),
            "n=1024,dtypes=X:fp16;Y:fp32; @ GPU");
}

TEST(Autotune, LiteralsRoundTrip) {
  for (const char *text : {"128", "-3", "True", "False", "None", "0.5",
                           "1e-05", "'row'", "tl.float16", "tl.bfloat16"}) {
    std::optional<std::string> back = literalOf(launchValueFromLiteral(text));
    ASSERT_TRUE(back.has_value()) << text;
    EXPECT_EQ(*back, text);
  }
  EXPECT_EQ(launchValueFromLiteral("64").kind, LaunchValue::Kind::Int);
  EXPECT_EQ(launchValueFromLiteral("tl.float16").dtype, DType::F16);
  EXPECT_EQ(launchValueFromLiteral("\"s\"").s, "s");
  EXPECT_FALSE(literalOf(LaunchValue::pointer(DType::F32, 16)).has_value());
  EXPECT_EQ(launchValueOf(Arg::none()).kind, LaunchValue::Kind::None);
  EXPECT_EQ(launchValueOf(Arg::ptr(0x100, DType::BF16)).dtype, DType::BF16);
  EXPECT_EQ(configText(config(128, 4)),
            "BLOCK: 128, num_warps: 4, num_stages: 3");
}

//===----------------------------------------------------------------------===//
// Arg::none
//===----------------------------------------------------------------------===//

TEST(ArgNone, SpecializesAsConstexprNone) {
  std::vector<KernelParameter> params = {
      {"X", false, {}}, {"B", false, {}}, {"n", false, {}},
      {"BLOCK", true, {}}};
  LaunchOptions o;
  o.constexprs.emplace("BLOCK", 64);
  auto spec = deriveSpec("k", params,
                         {Arg::ptr(0x1000, DType::F32), Arg::none(),
                          Arg::integer(7)},
                         o, "sm_90");
  ASSERT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  ASSERT_EQ(spec->signature.size(), 4u);
  EXPECT_EQ(spec->signature[1].kind, ParamSpec::Kind::Constexpr);
  EXPECT_EQ(spec->signature[1].constexprValue, "None");
  EXPECT_EQ(spec->signature[2].kind, ParamSpec::Kind::Scalar);
  EXPECT_EQ(Arg::none().describe(), "None");
}

TEST(ArgNone, SkippedByValidationAndPacking) {
  // What the compiler reports for k(X, B=None, n): no parameter B.
  KernelInfo info;
  info.name = "k";
  ParamSpec ptr, i32;
  ptr.kind = ParamSpec::Kind::Pointer;
  ptr.dtype = DType::F32;
  i32.kind = ParamSpec::Kind::Scalar;
  i32.dtype = DType::I32;
  info.params = {{"X", ptr}, {"n", i32}};
  info.numWarps = 4;
  std::vector<Arg> args = {Arg::ptr(0x1000, DType::F32), Arg::none(),
                           Arg::integer(7)};
  ASSERT_EQ(errorText(validateLaunch(info, args, Grid(1), DeviceLimits())),
            "");
  PackedArgs packed(info, args);
  EXPECT_EQ(*static_cast<uint64_t *>(packed.data()[0]), 0x1000u);
  EXPECT_EQ(*static_cast<int32_t *>(packed.data()[1]), 7);
  // The position in errors is the launch argument's.
  args[2] = Arg::f32(1.0f);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), DeviceLimits())),
            "kernel `k`: argument #3 `n`: expected an integer (i32), got "
            "float 1 (fp32)");
  // None where the kernel has a parameter is a missing argument.
  EXPECT_EQ(errorText(validateLaunch(info, {Arg::none(), Arg::integer(7)},
                                     Grid(1), DeviceLimits())),
            "kernel `k` takes 2 argument(s) (X, n) but 1 were given: missing "
            "`n` (argument #2)");
}

TEST(ArgNone, PointerSizeIsKept) {
  Arg a = Arg::ptr(0x2000, DType::F16, 4096);
  EXPECT_EQ(a.bytes(), 4096u);
  EXPECT_EQ(Arg::ptr(0x2000, DType::F16).bytes(), 0u);
}

TEST(Autotune, LogPrintsEachTimeAndTheChoice) {
  Autotuner t(threeConfigs(), "k", "hash", nullptr,
              AutotuneSettings{true, true});
  FakeBench b;
  b.ms = {3.0, std::nullopt, 0.25};
  testing::internal::CaptureStderr();
  ASSERT_TRUE(bool(t.select("n=1 @ GPU", b.callbacks())));
  ASSERT_TRUE(bool(t.select("n=1 @ GPU", b.callbacks()))); // Memory: silent.
  std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(log,
            "kiln[autotune]: `k` key (n=1 @ GPU): BLOCK: 64, num_warps: 2, "
            "num_stages: 3: 3.0000 ms\n"
            "kiln[autotune]: `k` key (n=1 @ GPU): skipped BLOCK: 128, "
            "num_warps: 4, num_stages: 3: failed to run: cuLaunchKernel: "
            "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES\n"
            "kiln[autotune]: `k` key (n=1 @ GPU): BLOCK: 256, num_warps: 8, "
            "num_stages: 3: 0.2500 ms\n"
            "kiln[autotune]: `k` key (n=1 @ GPU): chose BLOCK: 256, "
            "num_warps: 8, num_stages: 3 (0.2500 ms, 3 configs)\n");

  Autotuner off(threeConfigs(), "k", "hash", nullptr,
                AutotuneSettings{false, true});
  testing::internal::CaptureStderr();
  ASSERT_TRUE(bool(off.select("n=1 @ GPU", b.callbacks())));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "kiln[autotune]: `k` key (n=1 @ GPU): KILN_AUTOTUNE=off, using "
            "BLOCK: 64, num_warps: 2, num_stages: 3\n");
}
