//===- DecoratorsTest.cpp - @triton.autotune / @triton.heuristics ---------===//
#include "kiln/Frontend/Decorators.h"

#include "gtest/gtest.h"
#include <atomic>
#include <thread>

using namespace kiln;

namespace {

const char *kStacked = R"(import triton
import triton.language as tl

BLOCKS = [64, 128]

def make():
    out = []
    for b in BLOCKS:
        out.append(triton.Config(dict(BLOCK=b), num_warps=b // 32, num_stages=2))
    return out

def even_n(args):
    return args["N"] % args["BLOCK"] == 0

def has_y(args):
    return args["Y"] is not None

def unroll(args):
    return 2 if args["EVEN_N"] else 1

@triton.autotune(configs=make(), key=["N"], reset_to_zero=["Y"], restore_value=("X",),
                 warmup=5, rep=20, prune_configs_by=dict(top_k=1))
@triton.heuristics(dict(EVEN_N=even_n, HAS_Y=has_y))
@triton.heuristics(values=dict(UNROLL=unroll))
@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr, EVEN_N: tl.constexpr, HAS_Y: tl.constexpr,
      UNROLL: tl.constexpr):
    pass

@triton.heuristics(dict(EVEN_N=even_n))
@triton.autotune(configs=[triton.Config(dict(BLOCK=32))], key=[])
@triton.jit
def inner(X, N, BLOCK: tl.constexpr, EVEN_N: tl.constexpr):
    pass

@triton.jit
def plain(X):
    pass
)";

std::string errorOf(const std::string &src, const char *kernel = "k") {
  auto d = KernelDecorators::parse(src, "t.py", kernel);
  if (d)
    return "ok";
  return llvm::toString(d.takeError());
}

TEST(Decorators, AutotuneSpec) {
  auto d = KernelDecorators::parse(kStacked, "t.py", "k");
  ASSERT_TRUE(static_cast<bool>(d)) << llvm::toString(d.takeError());
  const AutotuneSpec *at = d->autotune();
  ASSERT_TRUE(at);
  ASSERT_EQ(at->configs.size(), 2u);
  EXPECT_EQ(at->configs[0].constexprs.at("BLOCK"), "64");
  EXPECT_EQ(at->configs[0].numWarps, 2u);
  EXPECT_EQ(at->configs[1].numWarps, 4u);
  EXPECT_EQ(at->configs[1].numStages, 2u);
  EXPECT_EQ(at->configs[1].toString(),
            "BLOCK: 128, num_warps: 4, num_ctas: 1, num_stages: 2, maxnreg: "
            "None");
  EXPECT_EQ(at->key, std::vector<std::string>{"N"});
  EXPECT_EQ(at->resetToZero, std::vector<std::string>{"Y"});
  EXPECT_EQ(at->restoreValue, std::vector<std::string>{"X"});
  EXPECT_EQ(at->warmupMs, std::optional<unsigned>(5));
  EXPECT_EQ(at->repMs, std::optional<unsigned>(20));
  EXPECT_EQ(at->pruneTopK, 1u);
  EXPECT_EQ(at->where, "t.py:21:2");
  EXPECT_TRUE(d->hasHeuristics());
  EXPECT_TRUE(d->autotuneIsOutermost());
  EXPECT_EQ(d->heuristicNames(),
            (std::vector<std::string>{"EVEN_N", "HAS_Y", "UNROLL"}));
}

TEST(Decorators, HeuristicsSeeEarlierResults) {
  auto d = KernelDecorators::parse(kStacked, "t.py", "k");
  ASSERT_TRUE(static_cast<bool>(d)) << llvm::toString(d.takeError());
  LaunchArgs args{{"X", LaunchValue::pointer(DType::F16, 0x100)},
                  {"Y", LaunchValue::none()},
                  {"N", LaunchValue::integer(4096)},
                  {"BLOCK", LaunchValue::integer(128)}};
  ASSERT_FALSE(static_cast<bool>(d->applyHeuristics(args)));
  EXPECT_EQ(*args["EVEN_N"].literal(), "True");
  EXPECT_EQ(*args["HAS_Y"].literal(), "False");
  EXPECT_EQ(*args["UNROLL"].literal(), "2"); // computed from EVEN_N
  args["N"] = LaunchValue::integer(100);
  args["Y"] = LaunchValue::pointer(DType::F32, 0x200);
  ASSERT_FALSE(static_cast<bool>(d->applyHeuristics(args)));
  EXPECT_EQ(*args["EVEN_N"].literal(), "False");
  EXPECT_EQ(*args["HAS_Y"].literal(), "True");
  EXPECT_EQ(*args["UNROLL"].literal(), "1");
  // A fixed value is left alone and later layers see it.
  args["EVEN_N"] = LaunchValue::boolean(true);
  ASSERT_FALSE(static_cast<bool>(d->applyHeuristics(args, {"EVEN_N"})));
  EXPECT_EQ(*args["UNROLL"].literal(), "2");
}

TEST(Decorators, MissingArgumentIsNamed) {
  auto d = KernelDecorators::parse(kStacked, "t.py", "k");
  ASSERT_TRUE(static_cast<bool>(d));
  LaunchArgs args{{"X", LaunchValue::pointer(DType::F16, 0)},
                  {"Y", LaunchValue::none()},
                  {"BLOCK", LaunchValue::integer(128)}};
  std::string heuristic, argument, message;
  llvm::handleAllErrors(d->applyHeuristics(args),
                        [&](const MissingLaunchArgError &e) {
                          heuristic = e.heuristic;
                          argument = e.argument;
                          message = e.message;
                        });
  EXPECT_EQ(heuristic, "EVEN_N");
  EXPECT_EQ(argument, "N");
  EXPECT_EQ(message, "t.py:13:12: error: heuristic `EVEN_N`: `args[\"N\"]`: "
                     "no value for launch argument `N`\n"
                     "    return args[\"N\"] % args[\"BLOCK\"] == 0\n"
                     "           ^");
}

TEST(Decorators, OrderOfStackedDecorators) {
  auto d = KernelDecorators::parse(kStacked, "t.py", "inner");
  ASSERT_TRUE(static_cast<bool>(d)) << llvm::toString(d.takeError());
  EXPECT_FALSE(d->autotuneIsOutermost());
  ASSERT_TRUE(d->autotune());
  EXPECT_EQ(d->autotune()->configs[0].numWarps, 4u); // Triton's defaults
  EXPECT_EQ(d->autotune()->configs[0].numStages, 3u);
  auto p = KernelDecorators::parse(kStacked, "t.py", "plain");
  ASSERT_TRUE(static_cast<bool>(p));
  EXPECT_FALSE(p->autotune());
  EXPECT_FALSE(p->hasHeuristics());
}

// FlashAttention's decorator shapes (layer_norm.py at the commit in
// .ext/flash-attention/COMMIT), with heuristics as its comments have them.
const char *kFlash = R"(import torch
import triton
import triton.language as tl


def triton_autotune_configs():
    # Return configs with a valid warp count for the current device
    configs = []
    # Maximum threads per block is architecture-dependent in theory, but in reality all are 1024
    max_threads_per_block = 1024
    # Default to warp size 32 if not defined by device
    warp_size = getattr(torch.cuda.get_device_properties(torch.cuda.current_device()), "warp_size", 32)
    # Autotune for warp counts which are powers of 2 and do not exceed thread per block limit
    return [triton.Config({}, num_warps=warp_count) for warp_count in [1, 2, 4, 8, 16, 32]
            if warp_count * warp_size <= max_threads_per_block]
    # return [triton.Config({}, num_warps=8)]


@triton.autotune(
    configs=triton_autotune_configs(),
    key=["N", "HAS_RESIDUAL", "HAS_BIAS"],
)
@triton.heuristics({"HAS_BIAS": lambda args: args["B"] is not None})
@triton.heuristics({"HAS_RESIDUAL": lambda args: args["RESIDUAL"] is not None,
                    "FP16": lambda args: args["X"].dtype == torch.float16,
                    "BLOCK_N": lambda args: min(65536 // args["X"].element_size(),
                                                triton.next_power_of_2(args["N"]))})
@triton.jit
def _layer_norm_fwd_1pass_kernel(X, B, RESIDUAL, N, HAS_RESIDUAL: tl.constexpr,
                                 HAS_BIAS: tl.constexpr, FP16: tl.constexpr,
                                 BLOCK_N: tl.constexpr):
    pass


@triton.heuristics({"BAD": lambda args: torch.cuda.get_device_name(0)})
@triton.jit
def bad(X):
    pass
)";

TEST(Decorators, FlashAttentionShapes) {
  auto d = KernelDecorators::parse(kFlash, "layer_norm.py",
                                   "_layer_norm_fwd_1pass_kernel");
  ASSERT_TRUE(static_cast<bool>(d)) << llvm::toString(d.takeError());
  const AutotuneSpec *at = d->autotune();
  ASSERT_TRUE(at);
  ASSERT_EQ(at->configs.size(), 6u);
  for (unsigned k = 0; k < 6; ++k) {
    EXPECT_EQ(at->configs[k].numWarps, 1u << k);
    EXPECT_TRUE(at->configs[k].constexprs.empty());
  }
  EXPECT_EQ(at->configs[2].toString(),
            "num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None");
  EXPECT_EQ(at->key,
            (std::vector<std::string>{"N", "HAS_RESIDUAL", "HAS_BIAS"}));
  LaunchArgs args{{"X", LaunchValue::pointer(DType::F16, 0x1000)},
                  {"B", LaunchValue::none()},
                  {"RESIDUAL", LaunchValue::pointer(DType::F32, 0x2000)},
                  {"N", LaunchValue::integer(5000)}};
  ASSERT_FALSE(static_cast<bool>(d->applyHeuristics(args)));
  EXPECT_EQ(*args["HAS_BIAS"].literal(), "False");
  EXPECT_EQ(*args["HAS_RESIDUAL"].literal(), "True");
  EXPECT_EQ(*args["FP16"].literal(), "True");
  EXPECT_EQ(*args["BLOCK_N"].literal(), "8192");
  args["X"] = LaunchValue::pointer(DType::F32, 0x1000);
  args["N"] = LaunchValue::integer(70000);
  ASSERT_FALSE(static_cast<bool>(d->applyHeuristics(args)));
  EXPECT_EQ(*args["FP16"].literal(), "False");
  EXPECT_EQ(*args["BLOCK_N"].literal(), "16384");

  auto b = KernelDecorators::parse(kFlash, "layer_norm.py", "bad");
  ASSERT_TRUE(static_cast<bool>(b)) << llvm::toString(b.takeError());
  LaunchArgs none{{"X", LaunchValue::pointer(DType::F16, 0)}};
  EXPECT_EQ(llvm::toString(b->applyHeuristics(none)),
            "layer_norm.py:35:41: error: heuristic `BAD`: "
            "`torch.cuda.get_device_name` is a host call Kiln cannot "
            "evaluate\n"
            "@triton.heuristics({\"BAD\": lambda args: "
            "torch.cuda.get_device_name(0)})\n"
            "                                        ^");
}

TEST(Decorators, HeuristicsFromSeveralThreads) {
  auto d = KernelDecorators::parse(kFlash, "layer_norm.py",
                                   "_layer_norm_fwd_1pass_kernel");
  ASSERT_TRUE(static_cast<bool>(d)) << llvm::toString(d.takeError());
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int64_t n = 1; n <= 300; ++n) {
        LaunchArgs args{{"X", LaunchValue::pointer(DType::F32, 0)},
                        {"B", LaunchValue::none()},
                        {"RESIDUAL", LaunchValue::none()},
                        {"N", LaunchValue::integer(n * (t + 1))}};
        int64_t p2 = 1;
        while (p2 < n * (t + 1))
          p2 *= 2;
        if (llvm::Error e = d->applyHeuristics(args)) {
          llvm::consumeError(std::move(e));
          ++wrong;
        } else if (args["BLOCK_N"].i != std::min<int64_t>(p2, 16384)) {
          ++wrong;
        }
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(wrong.load(), 0);
}

// Tutorial 09's shape: early_config_prune(configs, named_args, **kwargs)
// reads the configs' kwargs, a launch argument by name and a meta-parameter
// as a keyword; Kiln keeps the indices of the configs it returns.
const char *kPruned = R"(import triton
import triton.language as tl


def prune(configs, named_args, **kwargs):
    flat = kwargs["FLATTEN"]
    keep = [c for c in configs if not (c.kwargs.get("SUB", True) and flat is False)]
    if named_args["N"] < 100:
        keep = [c for c in keep if c.num_warps == 4 and c.maxnreg is None]
    return keep[::-1]


def nothing(configs, named_args, **kwargs):
    return []


def stranger(configs, named_args, **kwargs):
    return [triton.Config({"BLOCK": 8, "SUB": False})]


def broken(configs, named_args, **kwargs):
    return kwargs["MISSING"]


def configs():
    return [triton.Config({"BLOCK": b, "SUB": s}, num_warps=w)
            for b in (64, 128) for s in (True, False) for w in (4, 8)]


@triton.autotune(configs=configs(), key=["N"], prune_configs_by={"early_config_prune": prune})
@triton.jit
def k(X, N, BLOCK: tl.constexpr, SUB: tl.constexpr, FLATTEN: tl.constexpr):
    pass


@triton.autotune(configs=configs(), key=["N"], prune_configs_by={"early_config_prune": nothing})
@triton.jit
def empty(X, N, BLOCK: tl.constexpr, SUB: tl.constexpr, FLATTEN: tl.constexpr):
    pass


@triton.autotune(configs=configs(), key=["N"], prune_configs_by={"early_config_prune": stranger})
@triton.jit
def foreign(X, N, BLOCK: tl.constexpr, SUB: tl.constexpr, FLATTEN: tl.constexpr):
    pass


@triton.autotune(configs=configs(), key=["N"], prune_configs_by={"early_config_prune": broken})
@triton.jit
def failing(X, N, BLOCK: tl.constexpr, SUB: tl.constexpr, FLATTEN: tl.constexpr):
    pass


@triton.autotune(configs=configs(), key=["N"], prune_configs_by={
    "early_config_prune": lambda cs, nargs, **kw: [c for c in cs if c.kwargs["BLOCK"] <= kw["N"]][:1]})
@triton.jit
def small(X, N, BLOCK: tl.constexpr, SUB: tl.constexpr, FLATTEN: tl.constexpr):
    pass
)";

TEST(Decorators, EarlyConfigPrune) {
  auto d = KernelDecorators::parse(kPruned, "t.py", "k");
  ASSERT_TRUE(static_cast<bool>(d)) << llvm::toString(d.takeError());
  ASSERT_TRUE(d->autotune());
  EXPECT_TRUE(d->autotune()->earlyConfigPrune);
  LaunchArgs args;
  args["X"] = LaunchValue::pointer(DType::F32, 0x1000);
  args["N"] = LaunchValue::integer(4096);
  args["FLATTEN"] = LaunchValue::boolean(false);
  // Configs 0..7: BLOCK 64 / 128 x SUB True / False x 4 / 8 warps.
  auto kept = d->pruneConfigs(args);
  ASSERT_TRUE(static_cast<bool>(kept)) << llvm::toString(kept.takeError());
  EXPECT_EQ(*kept, (std::vector<size_t>{7, 6, 3, 2}));
  args["FLATTEN"] = LaunchValue::boolean(true);
  args["N"] = LaunchValue::integer(10);
  kept = d->pruneConfigs(args);
  ASSERT_TRUE(static_cast<bool>(kept)) << llvm::toString(kept.takeError());
  EXPECT_EQ(*kept, (std::vector<size_t>{6, 4, 2, 0}));

  auto pruneError = [&](const char *kernel) {
    auto dk = KernelDecorators::parse(kPruned, "t.py", kernel);
    if (!dk)
      return llvm::toString(dk.takeError());
    auto r = dk->pruneConfigs(args);
    return r ? std::string("ok") : llvm::toString(r.takeError());
  };
  EXPECT_EQ(pruneError("empty"),
            "t.py:13:1: error: early_config_prune returned no config: it should "
            "return at least one (as Triton requires)\n"
            "def nothing(configs, named_args, **kwargs):\n"
            "^");
  EXPECT_EQ(pruneError("foreign"),
            "t.py:17:1: error: early_config_prune returned a config that is not "
            "one of the decorator's (BLOCK: 8, SUB: False, num_warps: 4, "
            "num_ctas: 1, num_stages: 3, maxnreg: None); Kiln tunes only among "
            "those\n"
            "def stranger(configs, named_args, **kwargs):\n"
            "^");
  std::string broken = pruneError("failing");
  EXPECT_NE(broken.find("t.py:22:12: error: early_config_prune: key 'MISSING' is not in the dict (keys: 'FLATTEN', 'N', 'X')"), std::string::npos)
      << broken;
  EXPECT_NE(broken.find("MISSING"), std::string::npos) << broken;

  // A lambda; a runtime argument seen as a keyword too (tutorial 06 reads
  // `kwargs["N_CTX"]`, which its host code passes by keyword).
  auto lambda = KernelDecorators::parse(kPruned, "t.py", "small");
  ASSERT_TRUE(static_cast<bool>(lambda)) << llvm::toString(lambda.takeError());
  args["N"] = LaunchValue::integer(100);
  kept = lambda->pruneConfigs(args);
  ASSERT_TRUE(static_cast<bool>(kept)) << llvm::toString(kept.takeError());
  EXPECT_EQ(*kept, (std::vector<size_t>{0}));

  // Not a function: an error where the decorator is read.
  std::string head = "import triton\nimport triton.language as tl\n";
  EXPECT_EQ(errorOf(head + "@triton.autotune(configs=[], key=[], "
                           "prune_configs_by={'early_config_prune': 3})\n"
                           "@triton.jit\ndef k(N):\n    pass\n"),
            "t.py:3:55: error: @triton.autotune: early_config_prune must be a "
            "function of (configs, named_args, **kwargs), got an int\n"
            "@triton.autotune(configs=[], key=[], "
            "prune_configs_by={'early_config_prune': 3})\n"
            "                                                      ^");
}

// Decorators run while Python imports the file: tutorial 06 binds `configs`
// again, to [], below its kernels, and its autotune still sees its 24.
TEST(Decorators, SeeTheModuleAsBoundAboveThem) {
  const char *src = R"(import triton
import triton.language as tl

BLOCKS = [32, 64]
configs = [triton.Config({"BLOCK": b}) for b in BLOCKS]


@triton.autotune(configs=configs, key=["N"],
                 prune_configs_by={"early_config_prune": lambda cs, nargs, **kw: cs[-LAST:]})
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    pass


configs = []
BLOCKS = [1]
LAST = 1
)";
  auto d = KernelDecorators::parse(src, "t.py", "k");
  ASSERT_TRUE(static_cast<bool>(d)) << llvm::toString(d.takeError());
  ASSERT_EQ(d->autotune()->configs.size(), 2u);
  EXPECT_EQ(d->autotune()->configs[1].constexprs.at("BLOCK"), "64");
  // At launch the module has run to its end: the prune sees LAST.
  LaunchArgs args;
  args["N"] = LaunchValue::integer(8);
  auto kept = d->pruneConfigs(args);
  ASSERT_TRUE(static_cast<bool>(kept)) << llvm::toString(kept.takeError());
  EXPECT_EQ(*kept, (std::vector<size_t>{1}));
}

TEST(Decorators, Errors) {
  std::string head = "import triton\nimport triton.language as tl\n";
  EXPECT_EQ(errorOf(head + "@triton.autotune(configs=[], key=[], reset_to_zero=['M'])\n"
                           "@triton.jit\ndef k(N):\n    pass\n"),
            "t.py:3:52: error: @triton.autotune: reset_to_zero names `M`, which is not "
            "a parameter of `k`\n"
            "@triton.autotune(configs=[], key=[], reset_to_zero=['M'])\n"
            "                                                   ^");
  // A key name that is no parameter is skipped, as Triton's autotuner does.
  auto typo = KernelDecorators::parse(head + "@triton.autotune(configs=[], key=['M', 'N'])\n"
                                              "@triton.jit\ndef k(N):\n    pass\n",
                                       "t.py", "k");
  ASSERT_TRUE(static_cast<bool>(typo)) << llvm::toString(typo.takeError());
  ASSERT_TRUE(typo->autotune());
  EXPECT_EQ(typo->autotune()->key, std::vector<std::string>{"N"});
  EXPECT_EQ(errorOf(head + "@triton.autotune(configs=[], key=[], "
                           "prune_configs_by=dict(perf_model=len))\n"
                           "@triton.jit\ndef k(N):\n    pass\n"),
            "t.py:3:55: error: @triton.autotune: prune_configs_by "
            "`perf_model` is not supported (it ranks configs by a model of "
            "their run time; `early_config_prune` and `top_k` are)\n"
            "@triton.autotune(configs=[], key=[], "
            "prune_configs_by=dict(perf_model=len))\n"
            "                                                      ^");
  EXPECT_EQ(errorOf(head + "@triton.autotune(configs=[], key=[], foo=1)\n"
                           "@triton.jit\ndef k(N):\n    pass\n"),
            "t.py:3:38: error: @triton.autotune: unknown argument `foo`\n"
            "@triton.autotune(configs=[], key=[], foo=1)\n"
            "                                     ^");
  // use_cuda_graph only changes how Triton times: accepted, ignored.
  EXPECT_EQ(errorOf(head + "@triton.autotune(configs=[], key=[], "
                           "use_cuda_graph=True, warmup=None, rep=50)\n"
                           "@triton.jit\ndef k(N):\n    pass\n"),
            "ok");
  EXPECT_EQ(errorOf(head + "def bench(f):\n    return 1\n"
                           "@triton.autotune(configs=[], key=[], "
                           "do_bench=bench)\n"
                           "@triton.jit\ndef k(N):\n    pass\n"),
            "t.py:5:47: error: @triton.autotune: do_bench must be None (Kiln "
            "cannot run host functions while tuning)\n"
            "@triton.autotune(configs=[], key=[], do_bench=bench)\n"
            "                                              ^");
  EXPECT_EQ(errorOf(head + "@triton.jit\n@triton.heuristics(dict(A=len))\n"
                           "def k(N):\n    pass\n"),
            "t.py:4:2: error: `@triton.heuristics` must be above "
            "`@triton.jit`\n"
            "@triton.heuristics(dict(A=len))\n"
            " ^");
  EXPECT_EQ(errorOf(head + "@triton.heuristics(dict(A=1))\n@triton.jit\n"
                           "def k(N):\n    pass\n"),
            "t.py:3:20: error: @triton.heuristics: the value for \"A\" must be "
            "a function of `args`, got an int\n"
            "@triton.heuristics(dict(A=1))\n"
            "                   ^");
  EXPECT_EQ(errorOf(head + "def host(N):\n    pass\n", "host"),
            "t.py:3:5: error: `host` is not a @triton.jit function\n"
            "def host(N):\n"
            "    ^");
  EXPECT_EQ(errorOf(head + "@triton.jit\ndef j(N):\n    pass\n", "nope"),
            "t.py:1:1: error: kernel `nope` not found in t.py; kernels here: "
            "j\nimport triton\n^");
}

} // namespace
