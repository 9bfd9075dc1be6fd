//===- HostEvalConfig.cpp - triton.Config and launch values ---------------===//
#include "HostEval.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <cmath>

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::host;
using K = Value::Kind;

using KwArgs = std::vector<std::pair<std::string, Value>>;

//===----------------------------------------------------------------------===//
// triton.Config
//===----------------------------------------------------------------------===//

std::optional<Value> Interp::makeConfig(std::vector<Value> &args,
                                        KwArgs &kwargs, const Node *where) {
  // triton.Config(kwargs, num_warps=4, num_stages=3, num_ctas=1,
  //               maxnreg=None, pre_hook=None)
  static const char *kParams[] = {"kwargs",  "num_warps", "num_stages",
                                  "num_ctas", "maxnreg",  "pre_hook"};
  if (args.size() > std::size(kParams))
    return fail(where, "`triton.Config` takes at most 6 arguments");
  std::map<std::string, Value> bound;
  for (size_t k = 0; k < args.size(); ++k)
    bound[kParams[k]] = args[k];
  for (auto &[n, v] : kwargs) {
    if (!llvm::is_contained(kParams, n))
      return fail(where, "`triton.Config`: unknown keyword `" + n +
                             "` (Kiln knows kwargs, num_warps, num_stages, "
                             "num_ctas, maxnreg and pre_hook)");
    if (bound.count(n))
      return fail(where, "`triton.Config`: `" + n + "` given twice");
    bound[n] = v;
  }
  auto config = std::make_shared<AutotuneConfig>();
  Value out;
  out.kind = K::Config;
  auto it = bound.find("kwargs");
  if (it == bound.end())
    return fail(where, "`triton.Config` needs its kwargs dict");
  if (it->second.kind != K::Dict)
    return fail(where, "`triton.Config`: kwargs must be a dict, got a " +
                           typeName(it->second));
  const Value &kw = it->second;
  for (size_t k = 0; k < kw.elems.size(); ++k) {
    if (kw.elems[k].kind != K::Str)
      return fail(where, "`triton.Config`: kwargs keys must be str, got " +
                             repr(kw.elems[k]));
    std::optional<std::string> lit = constexprLiteral(kw.vals[k]);
    if (!lit)
      return fail(where, "`triton.Config`: value of `" + kw.elems[k].s +
                             "` is " + aTypeName(kw.vals[k]) +
                             ", not a constexpr value");
    config->constexprs[kw.elems[k].s] = *lit;
  }
  auto uintParam = [&](const char *n, unsigned &dst, bool pow2) {
    auto p = bound.find(n);
    if (p == bound.end())
      return true;
    const Value &v = p->second;
    if (v.kind != K::Int || v.i < 1 || v.i > 1024 ||
        (pow2 && (v.i & (v.i - 1)) != 0)) {
      fail(where, std::string("`triton.Config`: ") + n + " must be " +
                      (pow2 ? "a power of two from 1 to 32" : "a positive int") +
                      ", got " + repr(v));
      return false;
    }
    dst = unsigned(v.i);
    return true;
  };
  unsigned maxnreg = 0;
  if (!uintParam("num_warps", config->numWarps, true) ||
      !uintParam("num_stages", config->numStages, false) ||
      !uintParam("num_ctas", config->numCtas, true))
    return std::nullopt;
  if (config->numWarps > 32)
    return fail(where, "`triton.Config`: num_warps must be a power of two "
                       "from 1 to 32, got " +
                           std::to_string(config->numWarps));
  if (auto m = bound.find("maxnreg");
      m != bound.end() && m->second.kind != K::None) {
    if (!uintParam("maxnreg", maxnreg, false))
      return std::nullopt;
    config->maxnreg = maxnreg;
  }
  if (auto h = bound.find("pre_hook");
      h != bound.end() && h->second.kind != K::None)
    return fail(where, "`triton.Config`: pre_hook must be None (Kiln cannot "
                       "run host hooks)");
  out.config = std::move(config);
  // `config.kwargs` (an early_config_prune reads them).
  out.elems = kw.elems;
  out.vals = kw.vals;
  return out;
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

std::optional<std::string> kiln::host::constexprLiteral(const Value &v) {
  switch (v.kind) {
  case K::None:
  case K::Bool:
  case K::Int:
  case K::Float:
  case K::Str:
  case K::DType:
    return repr(v);
  default:
    return std::nullopt;
  }
}

Value kiln::host::fromLaunchValue(const LaunchValue &v) {
  switch (v.kind) {
  case LaunchValue::Kind::None:
    return Value::none();
  case LaunchValue::Kind::Bool:
    return Value::boolean(v.i);
  case LaunchValue::Kind::Int:
    return Value::integer(v.i);
  case LaunchValue::Kind::Float:
    return Value::flt(v.f);
  case LaunchValue::Kind::Str:
    return Value::str(v.s);
  case LaunchValue::Kind::DType:
    // The contract names the dtype both ways; the Triton name wins.
    if (std::optional<kiln::DType> t = parseDTypeName(v.s))
      return Value::dtypeOf(*t);
    return Value::dtypeOf(v.dtype);
  case LaunchValue::Kind::Pointer: {
    Value p = Value::dtypeOf(v.dtype);
    p.kind = K::Pointer;
    p.i = int64_t(v.address);
    return p;
  }
  case LaunchValue::Kind::Tuple: {
    std::vector<Value> elems;
    for (const LaunchValue &e : v.elems)
      elems.push_back(fromLaunchValue(e));
    Value t = Value::seq(K::Tuple, std::move(elems));
    t.s = llvm::join(v.fields, ","); // a namedtuple's fields (`.name`)
    return t;
  }
  }
  return Value::none();
}

std::optional<LaunchValue> kiln::host::toLaunchValue(const Value &v) {
  switch (v.kind) {
  case K::None:
    return LaunchValue::none();
  case K::Bool:
    return LaunchValue::boolean(v.i);
  case K::Int:
    return LaunchValue::integer(v.i);
  case K::Float:
    return LaunchValue::flt(v.f);
  case K::Str: {
    LaunchValue r;
    r.kind = LaunchValue::Kind::Str;
    r.s = v.s;
    return r;
  }
  case K::DType: {
    LaunchValue r;
    r.kind = LaunchValue::Kind::DType;
    r.dtype = v.dtype;
    r.s = dtypeName(v.dtype);
    return r;
  }
  case K::Pointer:
    return LaunchValue::pointer(v.dtype, uint64_t(v.i));
  case K::Tuple: {
    std::vector<LaunchValue> elems;
    for (const Value &e : v.elems) {
      std::optional<LaunchValue> l = toLaunchValue(e);
      if (!l)
        return std::nullopt;
      elems.push_back(std::move(*l));
    }
    std::vector<std::string> fields;
    if (!v.s.empty())
      for (llvm::StringRef f : llvm::split(v.s, ','))
        fields.push_back(f.str());
    return LaunchValue::tuple(std::move(elems), std::move(fields));
  }
  default:
    return std::nullopt;
  }
}
