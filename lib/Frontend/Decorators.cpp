//===- Decorators.cpp - @triton.autotune / @triton.heuristics -------------===//
#include "kiln/Frontend/Decorators.h"
#include "DecoratorsImpl.h"
#include "HostEval.h"
#include "kiln/Frontend/Syntax/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace kiln;
using namespace kiln::ast;
using host::Value;
using K = host::Value::Kind;

char MissingLaunchArgError::ID = 0;

//===----------------------------------------------------------------------===//
// Contract helpers
//===----------------------------------------------------------------------===//

std::string AutotuneConfig::toString() const {
  // Triton's Config.__str__: kwargs (str() of each value), then num_warps,
  // num_ctas, num_stages, maxnreg.
  std::string s;
  for (const auto &[name, text] : constexprs) {
    llvm::StringRef v = text;
    std::string shown = v.str();
    if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') &&
        v.back() == v.front())
      shown = v.drop_front().drop_back().str();
    else if (v.starts_with("tl."))
      if (auto dt = host::dtypeAttr("triton.language", v.drop_front(3)))
        shown = dtypeName(*dt);
    s += name + ": " + shown + ", ";
  }
  s += "num_warps: " + std::to_string(numWarps) +
       ", num_ctas: " + std::to_string(numCtas) +
       ", num_stages: " + std::to_string(numStages) + ", maxnreg: " +
       (maxnreg ? std::to_string(*maxnreg) : std::string("None"));
  return s;
}

std::optional<std::string> LaunchValue::literal() const {
  if (kind == Kind::Pointer)
    return std::nullopt;
  return host::constexprLiteral(host::fromLaunchValue(*this));
}

//===----------------------------------------------------------------------===//
// Reading the decorators
//===----------------------------------------------------------------------===//

namespace {
using KwArgs = std::vector<std::pair<std::string, Value>>;

/// A list of parameter names (`key=`, `reset_to_zero=`), each checked
/// against the kernel's parameters.
std::optional<std::vector<std::string>>
nameList(host::Interp &in, const Value &v, const char *what,
         const FunctionDef *fn, const Node *where, bool dropUnknown = false) {
  std::vector<std::string> out;
  if (v.kind == K::None)
    return out;
  if (v.kind != K::List && v.kind != K::Tuple)
    return in.fail(where, std::string("@triton.autotune: ") + what +
                              " must be a list of parameter names, got a " +
                              host::typeName(v));
  for (const Value &e : v.elems) {
    if (e.kind != K::Str)
      return in.fail(where, std::string("@triton.autotune: ") + what +
                                " must be a list of parameter names, got " +
                                host::repr(e));
    bool known = llvm::any_of(fn->params, [&](const Param &p) { return p.name == e.s; });
    // Triton's autotuner keys on the names that are arguments and skips the
    // rest (the grouped GEMM tutorial's key has a typo, `gropup_c_ptrs`).
    if (!known && dropUnknown)
      continue;
    if (!known)
      return in.fail(where, std::string("@triton.autotune: ") + what +
                                " names `" + e.s + "`, which is not a "
                                "parameter of `" + fn->name + "`");
    out.push_back(e.s);
  }
  return out;
}

std::optional<AutotuneSpec> readAutotune(host::Interp &in,
                                         const CallExpr *call,
                                         const FunctionDef *fn,
                                         fe::DecoratorInfo &info) {
  // autotune(configs, key, prune_configs_by=None, reset_to_zero=None,
  //          restore_value=None, pre_hook=None, post_hook=None, warmup=None,
  //          rep=None, use_cuda_graph=False, do_bench=None)
  static const char *kParams[] = {
      "configs",   "key",       "prune_configs_by", "reset_to_zero",
      "restore_value", "pre_hook", "post_hook",     "warmup",
      "rep",       "use_cuda_graph", "do_bench"};
  std::map<std::string, std::pair<Value, const Node *>> bound;
  if (call->args.size() > 2)
    return in.fail(call->args[2], "@triton.autotune: pass arguments after "
                                  "`configs` and `key` by keyword");
  for (size_t k = 0; k < call->args.size(); ++k) {
    std::optional<Value> v = in.eval(call->args[k]);
    if (!v)
      return std::nullopt;
    bound[kParams[k]] = {*v, call->args[k]};
  }
  for (const Keyword &kw : call->keywords) {
    if (!llvm::is_contained(kParams, kw.name))
      return in.fail(kw.range.begin,
                     "@triton.autotune: unknown argument `" + kw.name + "`");
    if (bound.count(kw.name))
      return in.fail(kw.range.begin,
                     "@triton.autotune: `" + kw.name + "` given twice");
    std::optional<Value> v = in.eval(kw.value);
    if (!v)
      return std::nullopt;
    bound[kw.name] = {*v, kw.value};
  }
  AutotuneSpec spec;
  auto configs = bound.find("configs");
  if (configs == bound.end())
    return in.fail(call, "@triton.autotune: `configs` is required");
  const auto &[cv, cnode] = configs->second;
  if (host::isOpaque(cv))
    return in.opaque(cv, cnode, "use it as the autotune configs");
  if (cv.kind != K::List && cv.kind != K::Tuple)
    return in.fail(cnode, "@triton.autotune: configs must be a list of "
                          "triton.Config, got " + host::aTypeName(cv));
  for (const Value &c : cv.elems) {
    if (c.kind != K::Config)
      return in.fail(cnode, "@triton.autotune: configs must be a list of "
                            "triton.Config, got " + host::repr(c));
    for (const auto &[name, text] : c.config->constexprs)
      if (!llvm::any_of(fn->params,
                        [&](const Param &p) { return p.name == name; }))
        return in.fail(cnode, "@triton.autotune: a config sets `" + name +
                                  "`, which is not a parameter of `" +
                                  fn->name + "`");
    spec.configs.push_back(*c.config);
  }
  info.configsList = cv;
  auto key = bound.find("key");
  if (key == bound.end())
    return in.fail(call, "@triton.autotune: `key` is required");
  auto names = [&](const char *n, std::vector<std::string> &dst) {
    auto it = bound.find(n);
    if (it == bound.end())
      return true;
    auto l = nameList(in, it->second.first, n, fn, it->second.second,
                      /*dropUnknown=*/llvm::StringRef(n) == "key");
    if (l)
      dst = std::move(*l);
    return l.has_value();
  };
  if (!names("key", spec.key) || !names("reset_to_zero", spec.resetToZero) ||
      !names("restore_value", spec.restoreValue))
    return std::nullopt;
  auto millis = [&](const char *n, std::optional<unsigned> &dst) {
    auto it = bound.find(n);
    if (it == bound.end() || it->second.first.kind == K::None)
      return true;
    const Value &v = it->second.first;
    if (v.kind != K::Int || v.i < 0 || v.i > 100000) {
      in.fail(it->second.second, std::string("@triton.autotune: ") + n +
                                     " must be a number of milliseconds, "
                                     "got " + host::repr(v));
      return false;
    }
    dst = unsigned(v.i);
    return true;
  };
  if (!millis("warmup", spec.warmupMs) || !millis("rep", spec.repMs))
    return std::nullopt;
  // Host callables cannot run without Python.
  for (const char *n : {"pre_hook", "post_hook", "do_bench"})
    if (auto it = bound.find(n);
        it != bound.end() && it->second.first.kind != K::None)
      return in.fail(it->second.second,
                     std::string("@triton.autotune: ") + n +
                         " must be None (Kiln cannot run host functions "
                         "while tuning)");
  // use_cuda_graph only changes how Triton times a config: Kiln times with
  // CUDA events either way, so the flag is accepted and ignored.
  if (auto it = bound.find("use_cuda_graph");
      it != bound.end() && it->second.first.kind != K::Bool)
    return in.fail(it->second.second,
                   "@triton.autotune: use_cuda_graph must be True or False");
  if (auto it = bound.find("prune_configs_by");
      it != bound.end() && it->second.first.kind != K::None) {
    const Value &p = it->second.first;
    const Node *pn = it->second.second;
    if (host::isOpaque(p))
      return in.opaque(p, pn, "use it as prune_configs_by");
    if (p.kind != K::Dict)
      return in.fail(pn, "@triton.autotune: prune_configs_by must be a dict");
    for (size_t k = 0; k < p.elems.size(); ++k) {
      const Value &name = p.elems[k], &v = p.vals[k];
      if (name.kind == K::Str && name.s == "top_k") {
        if (v.kind == K::Int && v.i >= 1) {
          spec.pruneTopK = unsigned(std::min<int64_t>(v.i, 1 << 30));
        } else if (v.kind == K::Float && v.f > 0 && v.f <= 1.0) {
          // Triton: a float top_k is a fraction of the configs.
          spec.pruneTopK = std::max<unsigned>(
              1, unsigned(double(spec.configs.size()) * v.f));
        } else {
          return in.fail(pn, "@triton.autotune: top_k must be a positive "
                             "int or a fraction in (0, 1], got " +
                             host::repr(v));
        }
      } else if (name.kind == K::Str && name.s == "early_config_prune") {
        // Run at launch, before tuning a new key (pruneConfigs).
        if (host::isOpaque(v))
          return in.opaque(v, pn, "run it as early_config_prune",
                           llvm::StringRef(v.s).rsplit('.').second.str());
        if (v.kind != K::None && v.kind != K::Function)
          return in.fail(pn, "@triton.autotune: early_config_prune must be a "
                             "function of (configs, named_args, **kwargs), "
                             "got " + host::aTypeName(v));
        if (v.kind == K::Function) {
          info.earlyConfigPrune = v;
          // Another module's function is reported where this file names it.
          info.pruneOffset = v.mod ? pn->range.begin : v.fn->range.begin;
          spec.earlyConfigPrune = true;
        }
      } else if (name.kind == K::Str && name.s == "perf_model") {
        if (v.kind != K::None)
          return in.fail(pn, "@triton.autotune: prune_configs_by `perf_model` "
                             "is not supported (it ranks configs by a model "
                             "of their run time; `early_config_prune` and "
                             "`top_k` are)");
      } else {
        return in.fail(pn, "@triton.autotune: unknown prune_configs_by key " +
                               host::repr(name));
      }
    }
  }
  return spec;
}

std::optional<fe::DecoratorLayer> readHeuristics(host::Interp &in,
                                                 const CallExpr *call) {
  const Expr *arg = nullptr;
  if (call->args.size() == 1 && call->keywords.empty())
    arg = call->args[0];
  else if (call->args.empty() && call->keywords.size() == 1 &&
           call->keywords[0].name == "values")
    arg = call->keywords[0].value;
  if (!arg)
    return in.fail(call, "@triton.heuristics takes one dict of "
                         "`\"NAME\": lambda args: ...`");
  std::optional<Value> v = in.eval(arg);
  if (!v)
    return std::nullopt;
  if (host::isOpaque(*v))
    return in.opaque(*v, arg, "use it as the heuristics");
  if (v->kind != K::Dict)
    return in.fail(arg, "@triton.heuristics: expected a dict of "
                        "`\"NAME\": lambda args: ...`, got a " +
                        host::typeName(*v));
  fe::DecoratorLayer layer;
  for (size_t k = 0; k < v->elems.size(); ++k) {
    if (v->elems[k].kind != K::Str)
      return in.fail(arg, "@triton.heuristics: keys must be names (str), "
                          "got " + host::repr(v->elems[k]));
    const Value &f = v->vals[k];
    if (host::isOpaque(f))
      return in.opaque(f, arg, "run it as the heuristic for `" + v->elems[k].s + "`",
                       llvm::StringRef(f.s).rsplit('.').second.str());
    if (f.kind != K::Function)
      return in.fail(arg, "@triton.heuristics: the value for \"" +
                              v->elems[k].s + "\" must be a function of "
                              "`args`, got " + host::aTypeName(f));
    layer.heuristics.emplace_back(v->elems[k].s, f);
    layer.heuristicOffsets.push_back(f.mod ? arg->range.begin : f.fn->range.begin);
  }
  return layer;
}
} // namespace

std::optional<fe::DecoratorInfo>
fe::readDecorators(host::Interp &in, const FunctionDef *fn,
                   llvm::function_ref<std::string(uint32_t)> where) {
  DecoratorInfo info;
  bool sawJit = false;
  // Decorators run while Python imports the module: they see the names
  // bound above the function, not later rebindings.
  uint32_t start = fn->range.begin;
  for (const Expr *d : fn->decorators)
    start = std::min(start, d->range.begin);
  uint32_t outerVisible = in.visibleBefore;
  in.visibleBefore = start;
  in.opaqueHint = kLeaveDecoratorsToHost;
  llvm::scope_exit restore([&] { in.visibleBefore = outerVisible; });
  for (const Expr *d : fn->decorators) {
    const auto *call = llvm::dyn_cast<CallExpr>(d);
    // What the decorator names; anything Kiln does not know is unsupported.
    std::string name;
    {
      host::Interp probe = in.fork();
      std::optional<Value> f = probe.eval(call ? call->func : d);
      if (f && f->kind == K::Builtin)
        name = f->s;
    }
    // A @triton.jit static method of a class (trident's kernels and helpers):
    // staticmethod only changes how Python binds it.
    if (!call && llvm::isa<NameExpr>(d) && llvm::cast<NameExpr>(d)->id == "staticmethod" &&
        !sawJit)
      continue;
    if (name == "triton.jit") {
      sawJit = true;
      continue;
    }
    if (sawJit && (name == "triton.autotune" || name == "triton.heuristics"))
      return in.fail(d, "`@" + name + "` must be above `@triton.jit`");
    if (name == "triton.autotune") {
      if (!call)
        return in.fail(d, "@triton.autotune needs arguments "
                          "(`configs=[...], key=[...]`)");
      if (info.autotune)
        return in.fail(d, "more than one @triton.autotune on `" + fn->name +
                              "`");
      std::optional<AutotuneSpec> spec = readAutotune(in, call, fn, info);
      if (!spec)
        return std::nullopt;
      spec->where = where(d->range.begin);
      info.autotune = std::move(*spec);
      DecoratorLayer layer;
      layer.isAutotune = true;
      info.layers.push_back(std::move(layer));
      continue;
    }
    if (name == "triton.heuristics") {
      if (!call)
        return in.fail(d, "@triton.heuristics needs a dict argument");
      std::optional<DecoratorLayer> layer = readHeuristics(in, call);
      if (!layer)
        return std::nullopt;
      info.layers.push_back(std::move(*layer));
      continue;
    }
    return in.fail(d, "unsupported decorator `@" + in.text(d).str() + "`");
  }
  return info;
}

//===----------------------------------------------------------------------===//
// KernelDecorators
//===----------------------------------------------------------------------===//

struct KernelDecorators::State {
  std::string source, filename;
  std::unique_ptr<ast::Module> module;
  std::unique_ptr<host::ModuleScope> scope;
  /// The modules its host code imports from (values point into them).
  std::shared_ptr<host::ModuleSet> modules;
  const FunctionDef *kernel = nullptr;
  fe::DecoratorInfo info;

  /// `FILE:LINE:COL: error: MSG` with the source line and a caret.
  std::string render(uint32_t offset, const std::string &msg) const {
    llvm::SourceMgr sm;
    sm.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(source, filename, false),
        llvm::SMLoc());
    std::string out;
    llvm::raw_string_ostream os(out);
    const char *base = sm.getMemoryBuffer(1)->getBufferStart();
    sm.PrintMessage(os, llvm::SMLoc::getFromPointer(
                            base + std::min<size_t>(offset, source.size())),
                    llvm::SourceMgr::DK_Error, msg);
    return llvm::StringRef(out).rtrim('\n').str();
  }
  std::string where(uint32_t offset) const {
    auto [line, col] = ast::LineTable(source).lineCol(offset);
    return filename + ":" + std::to_string(line) + ":" + std::to_string(col);
  }
};

static llvm::Error makeError(const std::string &text) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), text);
}

/// What a host function called at launch sees as `args` / `named_args`:
/// every launch argument by name (a missing key names the argument).
static Value launchArgsDict(const LaunchArgs &args) {
  Value dict;
  dict.kind = K::Dict;
  dict.s = host::Interp::kLaunchArgs;
  for (const auto &[n, v] : args) {
    dict.elems.push_back(Value::str(n));
    dict.vals.push_back(host::fromLaunchValue(v));
  }
  return dict;
}

/// The error of a host function `what` (a heuristic's name,
/// "early_config_prune") that `in` failed to evaluate: a missing launch
/// argument as MissingLaunchArgError, so callers can name it.
static llvm::Error launchCallError(const KernelDecorators::State &st, const host::Interp &in,
                                   const std::string &what, const std::string &prefix) {
  std::string msg = st.render(in.error().offset, prefix + in.error().message);
  if (!in.missingArg.empty())
    return llvm::make_error<MissingLaunchArgError>(what, in.missingArg, msg);
  return makeError(msg);
}

llvm::Expected<KernelDecorators>
KernelDecorators::parse(llvm::StringRef source, llvm::StringRef filename,
                        llvm::StringRef kernelName) {
  auto st = std::make_shared<State>();
  st->source = source.str();
  st->filename = filename.str();
  fe::ParseResult pr = fe::parse(st->source);
  if (pr.error)
    return makeError(st->render(pr.error->offset, pr.error->message));
  st->module = std::move(pr.module);
  fe::foldWrapperRebindings(*st->module);
  st->scope = std::make_unique<host::ModuleScope>(*st->module);
  st->modules = host::ModuleSet::forFile(filename);
  host::Interp in(*st->scope, st->source, st->modules);
  auto isJitDecorator = [&](const Expr *d) {
    if (auto *c = llvm::dyn_cast<CallExpr>(d))
      d = c->func;
    host::Interp probe(*st->scope, st->source, st->modules);
    std::optional<Value> v = probe.eval(d);
    return v && v->kind == K::Builtin && v->s == "triton.jit";
  };
  std::vector<std::string> kernels;
  const FunctionDef *plain = nullptr;
  for (const Stmt *s : st->module->body) {
    auto *f = llvm::dyn_cast<FunctionDef>(s);
    if (!f)
      continue;
    if (!llvm::any_of(f->decorators, isJitDecorator)) {
      if (f->name == kernelName)
        plain = f;
      continue;
    }
    kernels.push_back(f->name);
    if (f->name == kernelName)
      st->kernel = f;
  }
  if (!st->kernel && plain)
    return makeError(st->render(plain->nameRange.begin,
                                "`" + kernelName.str() +
                                    "` is not a @triton.jit function"));
  if (!st->kernel)
    return makeError(st->render(
        0, "kernel `" + kernelName.str() + "` not found in " + st->filename +
               "; " +
               (kernels.empty() ? "there are no @triton.jit functions in it"
                                : "kernels here: " + llvm::join(kernels, ", "))));
  std::optional<fe::DecoratorInfo> info = fe::readDecorators(
      in, st->kernel, [&](uint32_t o) { return st->where(o); });
  if (!info)
    return makeError(st->render(in.error().offset, in.error().message));
  st->info = std::move(*info);
  return KernelDecorators(std::move(st));
}

const AutotuneSpec *KernelDecorators::autotune() const {
  return state_->info.autotune ? &*state_->info.autotune : nullptr;
}

bool KernelDecorators::hasHeuristics() const {
  return llvm::any_of(state_->info.layers,
                      [](const fe::DecoratorLayer &l) { return !l.isAutotune; });
}

bool KernelDecorators::autotuneIsOutermost() const {
  // Layers are outermost first, and there is at most one autotune layer.
  const std::vector<fe::DecoratorLayer> &layers = state_->info.layers;
  return layers.empty() || layers.front().isAutotune;
}

llvm::Expected<std::vector<size_t>>
KernelDecorators::pruneConfigs(const LaunchArgs &args) const {
  const State &st = *state_;
  const fe::DecoratorInfo &info = st.info;
  std::vector<size_t> kept;
  if (!info.autotune)
    return kept;
  if (info.earlyConfigPrune.kind != K::Function) {
    for (size_t i = 0; i < info.autotune->configs.size(); ++i)
      kept.push_back(i);
    return kept;
  }
  // Triton calls early_config_prune(configs, named_args, **kwargs): the
  // positional arguments by name, and what the caller passed by keyword as
  // keywords. A C++ launch names every argument: each is in both (tutorial
  // 06 reads `kwargs["N_CTX"]`, a runtime int its host code passes by
  // keyword), except names the function takes by position itself.
  Value named = launchArgsDict(args);
  const ast::Node *prune = info.earlyConfigPrune.fn;
  llvm::ArrayRef<Param> params;
  if (auto *def = llvm::dyn_cast<FunctionDef>(prune))
    params = def->params;
  else if (auto *lambda = llvm::dyn_cast<ast::LambdaExpr>(prune))
    params = lambda->params;
  std::vector<std::pair<std::string, Value>> keywords;
  for (auto [name, value] : llvm::zip(named.elems, named.vals))
    if (!llvm::any_of(params, [&](const Param &p) {
          return p.name == name.s && p.kind == ParamKind::Normal;
        }))
      keywords.emplace_back(name.s, value);
  host::Interp in(*st.scope, st.source, st.modules);
  in.opaqueHint = fe::kLeaveDecoratorsToHost;
  // Another module's function: its errors are placed where the decorator
  // names it.
  in.callSite = info.pruneOffset;
  const Value &f = info.earlyConfigPrune;
  std::optional<Value> r = in.call(f, {info.configsList, named}, keywords,
                                   f.mod ? nullptr : f.fn);
  if (!r)
    return launchCallError(st, in, "early_config_prune", "early_config_prune: ");
  auto fail = [&](const std::string &why) {
    return makeError(st.render(info.pruneOffset, "early_config_prune " + why));
  };
  if (r->kind != K::List && r->kind != K::Tuple)
    return fail("returned " + host::aTypeName(*r) +
                "; expected a list of the autotune configs");
  // Each returned config is one of the decorator's: the same object, else
  // an equal one (a copy).
  for (const Value &c : r->elems) {
    if (c.kind != K::Config)
      return fail("returned " + host::repr(c) + " (" + host::aTypeName(c) +
                  ") in its list; expected triton.Config objects");
    std::optional<size_t> index;
    for (size_t i = 0; i < info.configsList.elems.size() && !index; ++i)
      if (info.configsList.elems[i].config == c.config)
        index = i;
    for (size_t i = 0; i < info.autotune->configs.size() && !index; ++i)
      if (info.autotune->configs[i] == *c.config)
        index = i;
    if (!index)
      return fail("returned a config that is not one of the decorator's (" +
                  c.config->toString() + "); Kiln tunes only among those");
    if (!llvm::is_contained(kept, *index))
      kept.push_back(*index);
  }
  if (kept.empty())
    return fail("returned no config: it should return at least one (as "
                "Triton requires)");
  return kept;
}

std::vector<std::string> KernelDecorators::heuristicNames() const {
  std::vector<std::string> out;
  for (const fe::DecoratorLayer &l : state_->info.layers)
    for (const auto &[name, fn] : l.heuristics)
      out.push_back(name);
  return out;
}

llvm::Error KernelDecorators::applyHeuristics(LaunchArgs &args) const {
  return applyHeuristics(args, {});
}

llvm::Error
KernelDecorators::applyHeuristics(LaunchArgs &args,
                                  const std::set<std::string> &fixed) const {
  const State &st = *state_;
  for (const fe::DecoratorLayer &layer : st.info.layers) {
    for (size_t k = 0; k < layer.heuristics.size(); ++k) {
      const auto &[name, fn] = layer.heuristics[k];
      if (fixed.count(name))
        continue;
      // Triton passes one dict of every argument, earlier results included.
      host::Interp in(*st.scope, st.source, st.modules);
      in.opaqueHint = fe::kLeaveDecoratorsToHost;
      in.callSite = layer.heuristicOffsets[k];
      std::optional<Value> r =
          in.call(fn, {launchArgsDict(args)}, {}, fn.mod ? nullptr : fn.fn);
      if (!r)
        return launchCallError(st, in, name, "heuristic `" + name + "`: ");
      std::optional<LaunchValue> lv = host::toLaunchValue(*r);
      if (!lv || lv->kind == LaunchValue::Kind::Pointer ||
          lv->kind == LaunchValue::Kind::Tuple)
        return makeError(st.render(
            layer.heuristicOffsets[k],
            "heuristic `" + name + "` returned " + host::repr(*r) + " (a " +
                host::typeName(*r) +
                "); expected None, a bool, an int, a float, a str or a "
                "dtype"));
      args[name] = *lv;
    }
  }
  return llvm::Error::success();
}
