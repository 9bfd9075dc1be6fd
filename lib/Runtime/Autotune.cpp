//===- Autotune.cpp - Launch values, tuning keys, the autotuner core ------===//
#include "kiln/Runtime/Autotune.h"
#include "kiln/Runtime/Occupancy.h"
#include "RuntimeError.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <thread>

using namespace kiln;
using namespace kiln::rt;

//===----------------------------------------------------------------------===//
// Launch values
//===----------------------------------------------------------------------===//

namespace {
/// Triton-language spelling of a dtype constexpr.
const char *tlDTypeName(DType t) {
  switch (t) {
  case DType::I1: return "tl.int1";
  case DType::I8: return "tl.int8";
  case DType::I16: return "tl.int16";
  case DType::I32: return "tl.int32";
  case DType::I64: return "tl.int64";
  case DType::U8: return "tl.uint8";
  case DType::U16: return "tl.uint16";
  case DType::U32: return "tl.uint32";
  case DType::U64: return "tl.uint64";
  case DType::F8E4M3: return "tl.float8e4nv";
  case DType::F8E5M2: return "tl.float8e5";
  case DType::F16: return "tl.float16";
  case DType::BF16: return "tl.bfloat16";
  case DType::F32: return "tl.float32";
  case DType::F64: return "tl.float64";
  }
  return "tl.float32";
}

std::optional<DType> dtypeFromTL(llvm::StringRef name) {
  for (DType t : {DType::I1, DType::I8, DType::I16, DType::I32, DType::I64,
                  DType::U8, DType::U16, DType::U32, DType::U64, DType::F16,
                  DType::BF16, DType::F32, DType::F64, DType::F8E4M3,
                  DType::F8E5M2})
    if (name == tlDTypeName(t))
      return t;
  return std::nullopt;
}
} // namespace

LaunchValue kiln::rt::launchValueOf(const Arg &arg) {
  switch (arg.kind()) {
  case Arg::Kind::Pointer:
  case Arg::Kind::TensorDesc: // its base, as far as decorators look
    return LaunchValue::pointer(arg.dtype(), arg.pointer());
  case Arg::Kind::Int:
    return LaunchValue::integer(arg.intValue());
  case Arg::Kind::Float:
    return LaunchValue::flt(arg.floatValue());
  case Arg::Kind::None:
  case Arg::Kind::Tuple: // launchValueAt reads the elements
    return LaunchValue::none();
  }
  return LaunchValue::none();
}

LaunchValue kiln::rt::launchValueAt(llvm::ArrayRef<Arg> args, size_t i) {
  const Arg &a = args[i];
  if (a.kind() != Arg::Kind::Tuple)
    return launchValueOf(a);
  std::vector<LaunchValue> elems;
  size_t at = i + 1;
  for (unsigned k = 0; k < a.tupleSize() && at < args.size(); ++k) {
    elems.push_back(launchValueAt(args, at));
    at += std::max<size_t>(1, argSpan(args, at));
  }
  std::vector<std::string> fields;
  if (!a.tupleFields().empty()) {
    llvm::SmallVector<llvm::StringRef> parts;
    a.tupleFields().split(parts, ',');
    for (llvm::StringRef f : parts)
      fields.push_back(f.trim().str());
  }
  return LaunchValue::tuple(std::move(elems), std::move(fields));
}

LaunchValue kiln::rt::launchValueFromLiteral(llvm::StringRef literal) {
  llvm::StringRef t = literal.trim();
  if (t == "None")
    return LaunchValue::none();
  if (t == "True" || t == "False")
    return LaunchValue::boolean(t == "True");
  int64_t i = 0;
  auto [end, ec] = std::from_chars(t.begin(), t.end(), i);
  if (ec == std::errc() && end == t.end() && !t.empty())
    return LaunchValue::integer(i);
  if (!t.empty() && (t.front() == '-' || t.front() == '.' ||
                     llvm::isDigit(t.front()))) {
    std::string text = t.str();
    char *stop = nullptr;
    double f = std::strtod(text.c_str(), &stop);
    if (stop && *stop == 0)
      return LaunchValue::flt(f);
  }
  if (std::optional<DType> d = dtypeFromTL(t)) {
    LaunchValue v;
    v.kind = LaunchValue::Kind::DType;
    v.dtype = *d;
    v.s = dtypeName(*d);
    return v;
  }
  LaunchValue v;
  v.kind = LaunchValue::Kind::Str;
  if (t.size() >= 2 && (t.front() == '\'' || t.front() == '"') &&
      t.back() == t.front())
    v.s = t.drop_front().drop_back().str();
  else
    v.s = t.str();
  return v;
}

std::optional<std::string> kiln::rt::literalOf(const LaunchValue &v) {
  switch (v.kind) {
  case LaunchValue::Kind::None:
    return std::string("None");
  case LaunchValue::Kind::Bool:
    return std::string(v.i ? "True" : "False");
  case LaunchValue::Kind::Int:
    return std::to_string(v.i);
  case LaunchValue::Kind::Float:
    return ConstexprValue(v.f).text();
  case LaunchValue::Kind::Str: {
    std::string out = "'";
    for (char c : v.s) {
      if (c == '\'' || c == '\\')
        out += '\\';
      out += c;
    }
    return out + "'";
  }
  case LaunchValue::Kind::DType:
    return std::string(tlDTypeName(v.dtype));
  case LaunchValue::Kind::Pointer:
    return std::nullopt;
  case LaunchValue::Kind::Tuple: {
    // A tuple of constants reads back as a Python tuple; one holding a
    // pointer has no literal.
    std::string out = "(";
    for (const LaunchValue &e : v.elems) {
      std::optional<std::string> t = literalOf(e);
      if (!t)
        return std::nullopt;
      out += *t + ", ";
    }
    if (v.elems.size() > 1)
      out.resize(out.size() - 2);
    else if (v.elems.size() == 1)
      out.pop_back(); // "(x,)"
    return out + ")";
  }
  }
  return std::nullopt;
}

bool kiln::rt::sameLaunchValue(const LaunchValue &a, const LaunchValue &b) {
  if (a.kind != b.kind || a.i != b.i || a.f != b.f || a.s != b.s ||
      a.dtype != b.dtype || a.address != b.address ||
      a.elems.size() != b.elems.size() || a.fields != b.fields)
    return false;
  for (size_t k = 0; k < a.elems.size(); ++k)
    if (!sameLaunchValue(a.elems[k], b.elems[k]))
      return false;
  return true;
}

namespace {
/// An autotune key's text for one value: pointers by dtype, tuples element
/// by element.
std::string keyText(const LaunchValue &v) {
  if (v.kind == LaunchValue::Kind::Pointer)
    return std::string("*") + dtypeName(v.dtype);
  if (v.kind == LaunchValue::Kind::Tuple) {
    std::string out = "(";
    for (const LaunchValue &e : v.elems)
      out += keyText(e) + ",";
    return out + ")";
  }
  return literalOf(v).value_or("?");
}
} // namespace

std::string kiln::rt::configText(const AutotuneConfig &c) {
  std::string s;
  for (const auto &[name, value] : c.constexprs)
    s += name + ": " + value + ", ";
  s += llvm::formatv("num_warps: {0}, num_stages: {1}", c.numWarps,
                     c.numStages)
           .str();
  if (c.numCtas != 1)
    s += ", num_ctas: " + std::to_string(c.numCtas);
  if (c.maxnreg)
    s += ", maxnreg: " + std::to_string(*c.maxnreg);
  return s;
}

llvm::Expected<std::string>
kiln::rt::autotuneKeyValues(const AutotuneSpec &spec,
                            llvm::StringRef kernelName, const LaunchArgs &args,
                            llvm::StringRef deviceName) {
  std::string out;
  for (const std::string &name : spec.key) {
    // As in Triton, a key the launch has no value for (e.g. one a
    // heuristics layer below autotune computes) does not take part.
    auto it = args.find(name);
    if (it == args.end())
      continue;
    out += name + '=' + keyText(it->second) + ',';
  }
  // As Triton does: every pointer argument's dtype selects the result too.
  out += "dtypes=";
  for (const auto &[name, v] : args)
    if (v.kind == LaunchValue::Kind::Pointer)
      out += name + ":" + dtypeName(v.dtype) + ";";
  return out + " @ " + deviceName.str();
}

//===----------------------------------------------------------------------===//
// Settings
//===----------------------------------------------------------------------===//

AutotuneSettings AutotuneSettings::fromEnv() {
  AutotuneSettings s;
  if (const char *v = std::getenv("KILN_AUTOTUNE")) {
    std::string t = llvm::StringRef(v).trim().lower();
    s.timing = !(t == "off" || t == "0" || t == "false" || t == "no");
  }
  if (const char *v = std::getenv("KILN_AUTOTUNE_MS");
      v && !llvm::StringRef(v).trim().empty()) {
    llvm::StringRef text = llvm::StringRef(v).trim();
    auto [w, r] = text.split(',');
    unsigned warmup = 0, rep = 0;
    // getAsInteger returns true on failure.
    if (w.trim().getAsInteger(10, warmup) || r.trim().getAsInteger(10, rep) ||
        warmup > 100000 || rep > 100000)
      s.budgetError = "KILN_AUTOTUNE_MS=\"" + text.str() +
                      "\": expected WARMUP,REP in milliseconds (e.g. 25,100, "
                      "Triton's budget)";
    else
      std::tie(s.warmupMs, s.repMs) = std::pair(warmup, rep);
  }
  if (const char *v = std::getenv("KILN_LOG")) {
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(v).split(parts, ',');
    for (llvm::StringRef p : parts)
      s.log |= p.trim() == "autotune" || p.trim() == "all";
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Autotuner
//===----------------------------------------------------------------------===//

Autotuner::Autotuner(AutotuneSpec spec, std::string kernelName,
                     std::string sourceHash, DiskCache *cache,
                     AutotuneSettings settings)
    : spec_(std::move(spec)), kernelName_(std::move(kernelName)),
      sourceHash_(std::move(sourceHash)), cache_(cache),
      settings_(settings) {
  configs_ = spec_.configs;
  if (spec_.pruneTopK && *spec_.pruneTopK > 0 &&
      *spec_.pruneTopK < configs_.size())
    configs_.resize(*spec_.pruneTopK);
}

llvm::Expected<std::pair<unsigned, unsigned>> Autotuner::budgetMs() const {
  if (spec_.warmupMs && spec_.repMs)
    return std::pair(*spec_.warmupMs, *spec_.repMs);
  if (!settings_.budgetError.empty())
    return makeError(settings_.budgetError);
  return std::pair(spec_.warmupMs.value_or(settings_.warmupMs),
                   spec_.repMs.value_or(settings_.repMs));
}

void Autotuner::log(const llvm::Twine &message) const {
  if (settings_.log)
    llvm::errs() << "kiln[autotune]: `" << kernelName_ << "` " << message
                 << "\n";
}

std::string Autotuner::diskKeyText(llvm::StringRef keyValues,
                                   llvm::ArrayRef<size_t> candidates) const {
  std::string s = "kiln-autotune 1\nkiln " + kilnBuildVersion() +
                  "\nsource-sha256 " + sourceHash_ + "\nkernel " +
                  kernelName_ + "\nkey " + keyValues.str() + "\nconfigs\n";
  for (const AutotuneConfig &c : configs_)
    s += "  " + configText(c) + "\n";
  if (!candidates.empty()) {
    s += "pruned to";
    for (size_t i : candidates)
      s += " " + std::to_string(i);
    s += "\n";
  }
  return s;
}

std::optional<size_t> Autotuner::lookup(llvm::StringRef keyValues) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = chosen_.find(keyValues);
  if (it == chosen_.end())
    return std::nullopt;
  return it->second;
}

void Autotuner::forgetInMemory() {
  std::lock_guard<std::mutex> lock(mutex_);
  chosen_.clear();
}

std::optional<size_t> Autotuner::loadFromDisk(const std::string &diskKey,
                                              llvm::ArrayRef<size_t> candidates) {
  if (!cache_ || !cache_->enabled())
    return std::nullopt;
  std::optional<std::string> payload = cache_->loadPayload(diskKey, "tune");
  if (!payload)
    return std::nullopt;
  std::string path = cache_->entryPath(diskKey, "tune");
  auto reject = [&](const llvm::Twine &why) -> std::optional<size_t> {
    log("ignores corrupt tuning entry " + path + ": " + why +
        "; tuning again");
    cache_->log("corrupt entry " + path + ": " + why);
    return std::nullopt;
  };
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(*payload);
  if (!json)
    return reject(llvm::toString(json.takeError()));
  const llvm::json::Object *obj = json->getAsObject();
  std::optional<int64_t> index = obj ? obj->getInteger("config") : std::nullopt;
  std::optional<llvm::StringRef> text =
      obj ? obj->getString("text") : std::nullopt;
  if (!index || !text)
    return reject("expected {\"config\": <index>, \"text\": <config>}");
  if (*index < 0 || size_t(*index) >= configs_.size() ||
      *text != configText(configs_[*index]))
    return reject("config " + std::to_string(*index) + " (" + *text +
                  ") is not one of the kernel's configs");
  if (!llvm::is_contained(candidates, size_t(*index)))
    return reject("config " + std::to_string(*index) + " (" + *text +
                  ") is not one early_config_prune kept");
  return size_t(*index);
}

llvm::Expected<TuneResult> Autotuner::select(llvm::StringRef keyValues,
                                             const TuneCallbacks &callbacks,
                                             const std::vector<size_t> *pruned) {
  // One tuning at a time per kernel: a second thread with the same key
  // waits and then finds the result.
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = chosen_.find(keyValues); it != chosen_.end())
    return TuneResult{it->second, TuneResult::From::Memory, {}};
  if (configs_.empty())
    return makeError("kernel `" + kernelName_ +
                     "`: @triton.autotune has no configs");
  std::vector<size_t> candidates;
  if (pruned) {
    for (size_t i : *pruned)
      if (i >= configs_.size())
        return makeError("kernel `" + kernelName_ + "`: pruned config " +
                         std::to_string(i) + " out of range");
    candidates = *pruned;
  } else {
    for (size_t i = 0; i < configs_.size(); ++i)
      candidates.push_back(i);
  }
  if (candidates.empty())
    return makeError("kernel `" + kernelName_ +
                     "`: no autotune config left after pruning");
  if (!settings_.timing || candidates.size() == 1) {
    size_t only = candidates.front();
    log("key (" + keyValues + "): " +
        (settings_.timing ? "one config" : "KILN_AUTOTUNE=off") + ", using " +
        configText(configs_[only]));
    chosen_.emplace(keyValues.str(), only);
    return TuneResult{only, TuneResult::From::Untimed, {}};
  }
  std::string diskKey =
      sha256Hex(diskKeyText(keyValues, pruned ? llvm::ArrayRef<size_t>(candidates)
                                              : llvm::ArrayRef<size_t>()));
  if (std::optional<size_t> index = loadFromDisk(diskKey, candidates)) {
    log("key (" + keyValues + "): " + configText(configs_[*index]) +
        " from the disk cache");
    chosen_.emplace(keyValues.str(), *index);
    return TuneResult{*index, TuneResult::From::Disk, {}};
  }
  auto result = tune(keyValues, callbacks, candidates);
  if (!result)
    return result.takeError();
  chosen_.emplace(keyValues.str(), result->index);
  if (cache_ && cache_->enabled()) {
    llvm::json::Array ms;
    for (const std::optional<double> &t : result->ms)
      ms.push_back(t ? llvm::json::Value(*t) : llvm::json::Value(nullptr));
    llvm::json::Object obj{{"config", int64_t(result->index)},
                           {"text", configText(configs_[result->index])},
                           {"ms", std::move(ms)}};
    std::string payload;
    llvm::raw_string_ostream(payload)
        << llvm::json::Value(std::move(obj)) << "\n";
    if (auto err = cache_->storePayload(diskKey, "tune", payload))
      log("result not stored: " + llvm::toString(std::move(err)));
  }
  return result;
}

llvm::Expected<TuneResult> Autotuner::tune(llvm::StringRef keyValues,
                                           const TuneCallbacks &callbacks,
                                           llvm::ArrayRef<size_t> candidates) {
  // failures / result.ms by config; only the candidates are compiled and
  // timed, the others stay "pruned".
  size_t n = configs_.size();
  std::vector<std::string> failures(n, "pruned by early_config_prune");
  for (size_t i : candidates)
    failures[i].clear();
  // Compile every config at once: compiles are independent and go through
  // the shared caches (a config already compiled is a memory hit).
  {
    std::atomic<size_t> next{0};
    auto worker = [&] {
      for (size_t k; (k = next.fetch_add(1)) < candidates.size();) {
        size_t i = candidates[k];
        if (llvm::Error err = callbacks.compile(i))
          failures[i] = "does not compile: " + llvm::toString(std::move(err));
      }
    };
    size_t threads = std::min<size_t>(candidates.size(),
                                      std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t)
      pool.emplace_back(worker);
    worker();
    for (std::thread &t : pool)
      t.join();
  }

  TuneResult result;
  result.from = TuneResult::From::Tuned;
  result.ms.assign(n, std::nullopt);
  // Each config timed with its own build (Occupancy.h).
  OccupancyPause pause;
  if (callbacks.begin)
    if (llvm::Error err = callbacks.begin())
      return err;
  for (size_t i : candidates) {
    if (!failures[i].empty())
      continue;
    llvm::Expected<double> ms = callbacks.time(i);
    if (!ms)
      failures[i] = "failed to run: " + llvm::toString(ms.takeError());
    else
      result.ms[i] = *ms;
  }
  llvm::Error ended =
      callbacks.end ? callbacks.end() : llvm::Error::success();
  if (ended)
    return ended;

  std::optional<size_t> best;
  for (size_t i : candidates) {
    if (result.ms[i]) {
      log(llvm::formatv("key ({0}): {1}: {2:f4} ms", keyValues,
                        configText(configs_[i]), *result.ms[i])
              .str());
      if (!best || *result.ms[i] < *result.ms[*best])
        best = i;
    } else {
      log("key (" + keyValues + "): skipped " + configText(configs_[i]) +
          ": " + failures[i]);
    }
  }
  if (!best) {
    std::string msg = "kernel `" + kernelName_ +
                      "`: every autotune config failed for key (" +
                      keyValues.str() + "):";
    for (size_t i : candidates)
      msg += "\n  " + configText(configs_[i]) + ": " + failures[i];
    return makeError(spec_.where.empty() ? msg
                                         : spec_.where + ": error: " + msg);
  }
  result.index = *best;
  log(llvm::formatv("key ({0}): chose {1} ({2:f4} ms, {3} configs)", keyValues,
                    configText(configs_[*best]), *result.ms[*best], candidates.size())
          .str());
  return result;
}
