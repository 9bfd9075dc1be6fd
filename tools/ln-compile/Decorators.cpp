//===- Decorators.cpp - ln-compile: --list-configs, --config, heuristics --===//
#include "Decorators.h"

#include "kiln/Frontend/Decorators.h"
#include "kiln/Frontend/Frontend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;

namespace {
bool cliFail(const llvm::Twine &msg) {
  llvm::errs() << "ln-compile: error: " << msg << "\n";
  return false;
}

/// A constexpr literal as the signature / -D give it, as a launch value.
std::optional<LaunchValue> parseLiteral(llvm::StringRef text) {
  text = text.trim();
  if (text == "True" || text == "False")
    return LaunchValue::boolean(text == "True");
  if (text == "None")
    return LaunchValue::none();
  int64_t i;
  if (!text.getAsInteger(0, i))
    return LaunchValue::integer(i);
  double d;
  if (!text.getAsDouble(d))
    return LaunchValue::flt(d);
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') &&
      text.back() == text.front()) {
    LaunchValue s;
    s.kind = LaunchValue::Kind::Str;
    s.s = text.drop_front().drop_back().str();
    return s;
  }
  llvm::StringRef name = text;
  if (name.consume_front("tl.") || name.consume_front("triton.language.")) {
    // `tl.<name>` -> the AOT spelling parseDTypeName knows.
    static const std::pair<const char *, const char *> kNames[] = {
        {"int1", "i1"},      {"int8", "i8"},       {"int16", "i16"},
        {"int32", "i32"},    {"int64", "i64"},     {"uint8", "u8"},
        {"uint16", "u16"},   {"uint32", "u32"},    {"uint64", "u64"},
        {"float16", "fp16"}, {"bfloat16", "bf16"}, {"float32", "fp32"},
        {"float64", "fp64"}};
    for (const auto &[n, aot] : kNames)
      if (name == n)
        if (std::optional<DType> t = parseDTypeName(aot)) {
          LaunchValue v;
          v.kind = LaunchValue::Kind::DType;
          v.dtype = *t;
          v.s = dtypeName(*t);
          return v;
        }
  }
  return std::nullopt;
}
} // namespace

int cli::listConfigs(llvm::StringRef source, llvm::StringRef filename,
                     llvm::StringRef kernel, llvm::raw_ostream &os) {
  llvm::Expected<KernelDecorators> decos =
      KernelDecorators::parse(source, filename, kernel);
  if (!decos) {
    llvm::errs() << llvm::toString(decos.takeError()) << "\n";
    return 1;
  }
  const AutotuneSpec *at = decos->autotune();
  if (!at) {
    cliFail("--list-configs: kernel `" + kernel +
            "` has no @triton.autotune");
    return 1;
  }
  for (auto [n, c] : llvm::enumerate(at->configs))
    os << n << ": " << c.toString() << "\n";
  os.flush(); // the note after the list
  if (at->earlyConfigPrune)
    llvm::errs() << at->where
                 << ": note: its early_config_prune chooses among these at "
                    "launch, from the launch's arguments\n";
  return 0;
}

bool cli::applyDecorators(llvm::StringRef source, llvm::StringRef filename,
                          KernelSpec &spec, std::optional<unsigned> config,
                          bool explicitWarps, bool explicitStages, bool mustParse,
                          bool hostHeuristics) {
  // Without --config only heuristics change the specialization: skip the
  // extra parse for files that have none.
  if (!config && !source.contains("heuristics"))
    return true;
  llvm::Expected<KernelDecorators> decos =
      KernelDecorators::parse(source, filename, spec.kernelName);
  if (!decos) {
    if (!mustParse) {
      // The compiler reports the same problem as a diagnostic.
      llvm::consumeError(decos.takeError());
      return true;
    }
    llvm::errs() << llvm::toString(decos.takeError()) << "\n";
    return false;
  }
  const AutotuneSpec *at = decos->autotune();
  const AutotuneConfig *chosen = nullptr;
  if (config) {
    if (!at)
      return cliFail("--config: kernel `" + spec.kernelName +
                     "` has no @triton.autotune");
    if (*config >= at->configs.size())
      return cliFail("--config " + llvm::Twine(*config) + ": `" +
                     spec.kernelName + "` has " +
                     llvm::Twine(at->configs.size()) + " autotune configs (" +
                     (at->configs.empty()
                          ? std::string("none")
                          : "0 to " + std::to_string(at->configs.size() - 1)) +
                     ")");
    chosen = &at->configs[*config];
    if (explicitWarps && spec.numWarps != chosen->numWarps)
      return cliFail("--num-warps " + llvm::Twine(spec.numWarps) +
                     " conflicts with --config " + llvm::Twine(*config) +
                     " (num_warps: " + llvm::Twine(chosen->numWarps) + ")");
    if (explicitStages && spec.numStages != chosen->numStages)
      return cliFail("--num-stages " + llvm::Twine(spec.numStages) +
                     " conflicts with --config " + llvm::Twine(*config) +
                     " (num_stages: " + llvm::Twine(chosen->numStages) + ")");
    spec.numWarps = chosen->numWarps;
    spec.numStages = chosen->numStages;
    for (const auto &[name, text] : chosen->constexprs) {
      auto it = spec.constexprs.find(name);
      if (it != spec.constexprs.end() && it->second != text)
        return cliFail("-D " + name + "=" + it->second +
                       " conflicts with --config " + llvm::Twine(*config) +
                       " (" + name + ": " + text + ")");
    }
  }
  if (!decos->hasHeuristics()) {
    if (chosen)
      for (const auto &[name, text] : chosen->constexprs)
        spec.constexprs[name] = text;
    return true;
  }

  // Heuristics: what the launch would pass, as far as the signature and -D
  // know it.
  llvm::Expected<std::vector<KernelParameter>> params =
      listKernelParameters(source, filename, spec.kernelName);
  if (!params) {
    llvm::errs() << llvm::toString(params.takeError()) << "\n";
    return false;
  }
  size_t nRuntime = llvm::count_if(
      *params, [](const KernelParameter &p) { return !p.isConstexpr; });
  bool full = spec.signature.size() == params->size();
  if (!full && spec.signature.size() != nRuntime)
    return true; // the compiler reports the count mismatch
  LaunchArgs args;
  std::set<std::string> fixed;
  size_t sigIdx = 0;
  for (const KernelParameter &p : *params) {
    const ParamSpec *entry =
        (full || !p.isConstexpr) ? &spec.signature[sigIdx++] : nullptr;
    auto d = spec.constexprs.find(p.name);
    std::optional<LaunchValue> v;
    if (entry && entry->kind == ParamSpec::Kind::Pointer) {
      v = LaunchValue::pointer(entry->dtype, 0);
    } else if (entry && entry->kind == ParamSpec::Kind::Constexpr) {
      v = parseLiteral(entry->constexprValue);
      fixed.insert(p.name);
    } else if (d != spec.constexprs.end()) {
      v = parseLiteral(d->second);
      fixed.insert(p.name);
    } else if (p.isConstexpr && p.defaultValue) {
      v = parseLiteral(*p.defaultValue);
    }
    if (v)
      args[p.name] = *v;
  }
  // Launch options a heuristic may read or set (FlagAttention's paged
  // attention picks num_warps / num_stages): what the command line gives,
  // which wins over the heuristic when explicit.
  args["num_warps"] = LaunchValue::integer(spec.numWarps);
  args["num_stages"] = LaunchValue::integer(spec.numStages);
  if (explicitWarps)
    fixed.insert("num_warps");
  if (explicitStages)
    fixed.insert("num_stages");
  auto addConfig = [&] {
    if (chosen)
      for (const auto &[name, text] : chosen->constexprs)
        if (std::optional<LaunchValue> v = parseLiteral(text)) {
          args[name] = *v;
          fixed.insert(name);
        }
  };
  if (decos->autotuneIsOutermost())
    addConfig();
  // The chosen config's kwargs are constexprs; -D values of runtime
  // parameters only informed the heuristics.
  auto finish = [&] {
    if (chosen)
      for (const auto &[name, text] : chosen->constexprs)
        spec.constexprs[name] = text;
    for (const KernelParameter &p : *params)
      if (!p.isConstexpr)
        spec.constexprs.erase(p.name);
    return true;
  };
  if (llvm::Error e = decos->applyHeuristics(args, fixed)) {
    if (hostHeuristics) {
      // The host evaluates them: their values are the -D ones.
      llvm::consumeError(std::move(e));
      return finish();
    }
    bool ok = true;
    llvm::handleAllErrors(
        std::move(e),
        [&](const MissingLaunchArgError &m) {
          llvm::errs() << m.message << "\n";
          ok = cliFail("heuristic `" + m.heuristic + "` needs the value of `" +
                       m.argument +
                       "`, which the signature does not give: pass -D " +
                       m.argument + "=value");
        },
        [&](const llvm::ErrorInfoBase &other) {
          llvm::errs() << other.message() << "\n";
          ok = false;
        });
    return ok;
  }
  if (!decos->autotuneIsOutermost())
    addConfig();
  for (const std::string &name : decos->heuristicNames()) {
    if (name == "num_warps" || name == "num_stages") {
      const LaunchValue &v = args[name];
      if (v.kind != LaunchValue::Kind::Int || v.i <= 0)
        return cliFail("heuristic `" + name + "` sets `" + name +
                       "` to something other than a positive integer");
      (name == "num_warps" ? spec.numWarps : spec.numStages) = unsigned(v.i);
      continue;
    }
    auto p = llvm::find_if(
        *params, [&](const KernelParameter &q) { return q.name == name; });
    if (p == params->end())
      return cliFail("heuristic `" + name + "` sets `" + name +
                     "`, which is not a parameter of `" + spec.kernelName +
                     "`");
    if (!p->isConstexpr || fixed.count(name))
      continue;
    std::optional<std::string> lit = args[name].literal();
    if (lit)
      spec.constexprs[name] = *lit;
  }
  return finish();
}
