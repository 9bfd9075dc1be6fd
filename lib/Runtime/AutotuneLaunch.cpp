//===- AutotuneLaunch.cpp - Decorator layers in Kernel::launch ------------===//
//
// The slow path of a launch: arguments by name (LaunchArgs), then autotune
// and heuristics in decorator order, then the usual resolve and launch.
// Undecorated kernels launched with a fixed Grid never come here.
//
//===----------------------------------------------------------------------===//
#include "KernelState.h"
#include "RuntimeError.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace kiln;
using namespace kiln::rt;

namespace {
const KernelParameter *findParam(llvm::ArrayRef<KernelParameter> params,
                                 llvm::StringRef name) {
  for (const KernelParameter &p : params)
    if (p.name == name)
      return &p;
  return nullptr;
}

/// The launch's arguments by parameter name, its constexprs and num_warps.
llvm::Error buildMeta(const Kernel::State &s, llvm::ArrayRef<Arg> args,
                      const LaunchOptions &options, LaunchArgs &meta) {
  std::vector<std::string> runtimeNames;
  if (s.precompiled) {
    for (const KernelInfo::Param &p : s.precompiled->info.params)
      runtimeNames.push_back(p.name);
  } else {
    for (const KernelParameter &p : s.params)
      if (!p.isConstexpr)
        runtimeNames.push_back(p.name);
  }
  // Precompiled kernels take one argument per compiled parameter; the
  // others one per parameter (a descriptor's parts and a tuple's elements
  // follow their header).
  llvm::SmallVector<size_t> starts;
  for (size_t i = 0; i < args.size();
       i += s.precompiled ? 1 : std::max<size_t>(1, argSpan(args, i)))
    starts.push_back(i);
  if (starts.size() != runtimeNames.size()) {
    std::string msg = llvm::formatv("kernel `{0}` takes {1} argument(s) ({2}) "
                                    "but {3} were given",
                                    s.name, runtimeNames.size(),
                                    runtimeNames.empty()
                                        ? std::string("none")
                                        : llvm::join(runtimeNames, ", "),
                                    starts.size())
                          .str();
    if (starts.size() < runtimeNames.size())
      msg += llvm::formatv(": missing `{0}` (argument #{1})",
                           runtimeNames[starts.size()], starts.size() + 1)
                 .str();
    return makeError(msg);
  }
  for (size_t i = 0; i < starts.size(); ++i)
    meta[runtimeNames[i]] = s.precompiled ? launchValueOf(args[starts[i]])
                                          : launchValueAt(args, starts[i]);
  for (const KernelParameter &p : s.params)
    if (p.isConstexpr && p.defaultValue)
      meta[p.name] = launchValueFromLiteral(*p.defaultValue);
  for (const auto &[name, value] : options.constexprs)
    meta[name] = launchValueFromLiteral(value.text());
  meta["num_warps"] = LaunchValue::integer(options.numWarps);
  return llvm::Error::success();
}

/// Adds config `c` to the launch: its kwargs as constexprs, num_warps.
llvm::Error applyConfig(const Kernel::State &s, const AutotuneConfig &c,
                        const LaunchOptions &user, LaunchOptions &opts,
                        LaunchArgs &meta) {
  for (const auto &[name, literal] : c.constexprs) {
    const KernelParameter *p = findParam(s.params, name);
    if (user.constexprs.count(name) || (p && !p->isConstexpr))
      return makeError(llvm::formatv(
          "kernel `{0}`: `{1}` is set by the launch and by the autotune "
          "config ({2}); auto-tuned meta-parameters must not be passed",
          s.name, name, configText(c)));
    opts.constexprs.insert_or_assign(name, ConstexprValue(literal));
    meta[name] = launchValueFromLiteral(literal);
  }
  opts.numWarps = c.numWarps;
  opts.numStages = c.numStages;
  meta["num_warps"] = LaunchValue::integer(c.numWarps);
  meta["num_stages"] = LaunchValue::integer(c.numStages);
  return llvm::Error::success();
}

/// Runs the heuristics layers and turns every value they add or change
/// into a constexpr (or num_warps) of the launch.
llvm::Error applyHeuristics(const Kernel::State &s, LaunchOptions &opts,
                            LaunchArgs &meta) {
  LaunchArgs before = meta;
  if (auto err = s.layers->heuristics(meta))
    return err;
  for (const auto &[name, value] : meta) {
    auto old = before.find(name);
    if (old != before.end() && sameLaunchValue(old->second, value))
      continue;
    if (name == "num_warps" || name == "num_stages") {
      if (value.kind != LaunchValue::Kind::Int || value.i <= 0)
        return makeError(llvm::formatv(
            "kernel `{0}`: heuristics set `{1}` to {2}, not a positive "
            "integer",
            s.name, name, literalOf(value).value_or("a pointer")));
      (name == "num_warps" ? opts.numWarps : opts.numStages) = unsigned(value.i);
      continue;
    }
    const KernelParameter *p = findParam(s.params, name);
    if (p && !p->isConstexpr)
      return makeError(llvm::formatv(
          "kernel `{0}`: heuristics set `{1}`, which is a launch argument, "
          "not a tl.constexpr parameter",
          s.name, name));
    std::optional<std::string> literal = literalOf(value);
    if (!literal)
      return makeError(llvm::formatv(
          "kernel `{0}`: heuristics set constexpr `{1}` to a pointer", s.name,
          name));
    opts.constexprs.insert_or_assign(name, ConstexprValue(*literal));
  }
  return llvm::Error::success();
}
} // namespace

const KernelLayers *Kernel::layers() const { return state_->layers.get(); }
Autotuner *Kernel::autotuner() const { return state_->tuner.get(); }

llvm::Error Kernel::launch(const GridFunction &grid, llvm::ArrayRef<Arg> args,
                           const LaunchOptions &options) {
  return launchWithLayers(nullptr, &grid, args, options);
}

llvm::Expected<LaunchOptions>
Kernel::resolveOptions(llvm::ArrayRef<Arg> args, const LaunchOptions &options,
                       const GridFunction &grid, LaunchArgs *metaOut) {
  LaunchOptions opts;
  LaunchArgs meta;
  if (auto err = applyLayers(nullptr, &grid, args, options, opts, meta))
    return err;
  if (metaOut)
    *metaOut = std::move(meta);
  return opts;
}

llvm::Error Kernel::applyLayers(const Grid *grid, const GridFunction *gridFn,
                                llvm::ArrayRef<Arg> args,
                                const LaunchOptions &options,
                                LaunchOptions &opts, LaunchArgs &meta) {
  State &s = *state_;
  opts = options;
  if (auto err = buildMeta(s, args, options, meta))
    return err;
  if (!s.layers)
    return llvm::Error::success();
  bool tuneFirst = s.tuner && s.layers->autotuneIsOutermost;
  if (tuneFirst)
    if (auto err = autotune(grid, gridFn, args, options, opts, meta))
      return err;
  if (s.layers->heuristics)
    if (auto err = applyHeuristics(s, opts, meta))
      return err;
  if (s.tuner && !tuneFirst)
    if (auto err = autotune(grid, gridFn, args, options, opts, meta))
      return err;
  return llvm::Error::success();
}

llvm::Error Kernel::launchWithLayers(const Grid *grid,
                                     const GridFunction *gridFn,
                                     llvm::ArrayRef<Arg> args,
                                     const LaunchOptions &options) {
  LaunchOptions opts;
  LaunchArgs meta;
  if (auto err = applyLayers(grid, gridFn, args, options, opts, meta))
    return err;
  auto resolved = resolve(args, opts, nullptr);
  if (!resolved)
    return resolved.takeError();
  return launchLoaded(**resolved, gridFn ? (*gridFn)(meta) : *grid, args,
                      opts);
}

/// Selects the config for the launch's key (tuning it if new) and applies
/// it. `opts`/`meta` hold the launch as the layers outside autotune left it.
llvm::Error Kernel::autotune(const Grid *grid, const GridFunction *gridFn,
                             llvm::ArrayRef<Arg> args,
                             const LaunchOptions &user, LaunchOptions &opts,
                             LaunchArgs &meta) {
  State &s = *state_;
  Autotuner &tuner = *s.tuner;
  unsigned gen = memoryCacheGeneration();
  if (s.tunerGeneration.exchange(gen) != gen)
    tuner.forgetInMemory(); // clearMemoryCaches: back to the disk results.
  auto dev = Device::get(opts.device);
  if (!dev)
    return dev.takeError();
  auto key = autotuneKeyValues(tuner.spec(), s.name, meta, dev->name());
  if (!key)
    return key.takeError();
  llvm::ArrayRef<AutotuneConfig> configs = tuner.configs();
  // A key tuned before: no setup for tuning. (The heuristics below
  // autotune run in applyLayers.)
  if (std::optional<size_t> known = tuner.lookup(*key))
    return applyConfig(s, configs[*known], user, opts, meta);

  // A meta-parameter both passed and tuned is an error before any tuning.
  for (const AutotuneConfig &c : tuner.configs()) {
    LaunchOptions probeOpts;
    LaunchArgs probeMeta;
    if (auto err = applyConfig(s, c, user, probeOpts, probeMeta))
      return err;
  }

  // What each config launches: options and meta-parameters after the config
  // and, when autotune is outermost, the heuristics below it.
  bool heuristicsBelow = s.layers->heuristics && s.layers->autotuneIsOutermost;
  std::vector<LaunchOptions> configOpts(configs.size(), opts);
  std::vector<LaunchArgs> configMeta(configs.size(), meta);
  auto configure = [&](size_t i) -> llvm::Error {
    if (auto err = applyConfig(s, configs[i], user, configOpts[i],
                               configMeta[i]))
      return err;
    if (heuristicsBelow)
      return applyHeuristics(s, configOpts[i], configMeta[i]);
    return llvm::Error::success();
  };

  std::optional<TuningBuffers> buffers;
  TuneCallbacks cb;
  cb.compile = [&](size_t i) -> llvm::Error {
    if (auto err = configure(i))
      return err;
    // Compiled and loaded (the driver's JIT too) on the tuner's threads.
    auto compiled = prepare(args, configOpts[i]);
    return compiled ? llvm::Error::success() : compiled.takeError();
  };
  cb.begin = [&]() -> llvm::Error {
    auto b = TuningBuffers::create(*dev, opts.stream, tuner.spec(), s.name,
                                   s.params, args);
    if (!b)
      return b.takeError();
    buffers.emplace(std::move(*b));
    return buffers->save();
  };
  cb.time = [&](size_t i) -> llvm::Expected<double> {
    auto lk = resolve(args, configOpts[i], nullptr);
    if (!lk)
      return lk.takeError();
    const LaunchOptions &o = configOpts[i];
    Grid g = gridFn ? (*gridFn)(configMeta[i]) : *grid;
    auto budget = tuner.budgetMs();
    if (!budget)
      return budget.takeError();
    auto ms = benchmarkOnStream(
        *dev, o.stream, budget->first, budget->second,
        [&] { return buffers->zero(); },
        [&] { return launchLoaded(**lk, g, args, o); });
    // Every config starts from the user's values.
    if (auto err = buffers->restore()) {
      if (!ms)
        llvm::consumeError(ms.takeError());
      return std::move(err);
    }
    return ms;
  };
  cb.end = [&]() -> llvm::Error {
    if (auto err = buffers->restore())
      return err;
    return buffers->zero(); // The real launch expects them zeroed, too.
  };
  // early_config_prune sees the launch as Triton's does: before tuning a
  // new key, with the arguments outside the autotune layer.
  std::optional<std::vector<size_t>> kept;
  if (s.layers->prune) {
    auto pruned = s.layers->prune(meta);
    if (!pruned)
      return pruned.takeError();
    kept = std::move(*pruned);
  }
  auto chosen = tuner.select(*key, cb, kept ? &*kept : nullptr);
  if (!chosen)
    return chosen.takeError();
  // The heuristics below autotune run again in applyLayers, whether the
  // config was just tuned or remembered.
  return applyConfig(s, configs[chosen->index], user, opts, meta);
}
