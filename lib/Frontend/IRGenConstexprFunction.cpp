//===- IRGenConstexprFunction.cpp - @triton.constexpr_function calls -----===//
//
// Triton 3.5+ lets a kernel call a plain Python function decorated
// `@triton.constexpr_function` with compile-time arguments: it runs at
// compile time and its result is a constexpr (shapes, flags, layouts that
// host code computes, `math.log` of a constant). Kiln has no Python
// interpreter; it runs the function with its host-Python evaluator
// (HostEval.h: the subset decorators' arguments use, with module-level
// names of the function's own file), converting the arguments and the
// result between the kernel's compile-time values and host values.
//
//===----------------------------------------------------------------------===//
#include "Builtins/Registry.h"
#include "HostEval.h"
#include "IRGen.h"
#include "IRGenImport.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;
using mlir::failure;
using mlir::FailureOr;
using HK = host::Value::Kind;

/// `@triton.constexpr_function`, or `@tl.constexpr` on a def (the older
/// spelling: a constexpr holding a Python function, which Triton calls at
/// compile time too).
bool IRGen::isConstexprFunction(const FunctionDef *fn) const {
  for (const Expr *d : fn->decorators) {
    std::optional<Val> v = resolveDecorator(d);
    if (v && v->kind == Val::Kind::Builtin &&
        (v->s == "triton.constexpr_function" || v->s == "tl.constexpr"))
      return true;
  }
  return false;
}

/// A kernel's compile-time value as host Python, if it has one.
static std::optional<host::Value> toHost(const Val &v) {
  switch (v.kind) {
  case Val::Kind::Int:
    return host::Value::integer(v.i);
  case Val::Kind::Bool:
    return host::Value::boolean(v.i != 0);
  case Val::Kind::Float:
    return host::Value::flt(v.f);
  case Val::Kind::None:
    return host::Value::none();
  case Val::Kind::Str:
    return host::Value::str(v.s);
  case Val::Kind::DType:
    if (v.dtPtr)
      return std::nullopt;
    return host::Value::dtypeOf(v.dt);
  case Val::Kind::Tuple: {
    std::vector<host::Value> elems;
    for (const Val &e : v.elems) {
      std::optional<host::Value> h = toHost(e);
      if (!h)
        return std::nullopt;
      elems.push_back(std::move(*h));
    }
    return host::Value::seq(HK::Tuple, std::move(elems));
  }
  default:
    return std::nullopt;
  }
}

/// A host value as a kernel's compile-time value, if it is one.
static std::optional<Val> fromHost(const host::Value &v) {
  switch (v.kind) {
  case HK::Int:
    return Val::integer(v.i);
  case HK::Bool:
    return Val::boolean(v.i != 0);
  case HK::Float:
    return Val::flt(v.f);
  case HK::None:
    return Val::none();
  case HK::Str:
    return Val::str(v.s);
  case HK::DType:
    return Val::dtype(v.dtype);
  case HK::Tuple:
  case HK::List: { // lists are tuples in kernels (shapes)
    std::vector<Val> elems;
    for (const host::Value &e : v.elems) {
      std::optional<Val> k = fromHost(e);
      if (!k)
        return std::nullopt;
      elems.push_back(std::move(*k));
    }
    return Val::tuple(std::move(elems));
  }
  default:
    return std::nullopt;
  }
}

FailureOr<Val> IRGen::callConstexprFunction(const FunctionDef *fn,
                                            const CallArgs &args,
                                            const Node *call) {
  auto notConst = [&](const Node *at, const std::string &which,
                      const Val &v) {
    return fail(at, "`" + fn->name + "` is a @triton.constexpr_function: " +
                        which + " must be a compile-time value, not " +
                        typeName(v));
  };
  std::vector<host::Value> pos;
  for (size_t k = 0; k < args.pos.size(); ++k) {
    std::optional<host::Value> h = toHost(args.pos[k]);
    if (!h)
      return notConst(args.posNodes[k],
                      "argument " + std::to_string(k + 1), args.pos[k]);
    pos.push_back(std::move(*h));
  }
  std::vector<std::pair<std::string, host::Value>> kw;
  for (size_t k = 0; k < args.kw.size(); ++k) {
    std::optional<host::Value> h = toHost(args.kw[k].second);
    if (!h)
      return notConst(args.kwNodes[k], "`" + args.kw[k].first + "`",
                      args.kw[k].second);
    kw.emplace_back(args.kw[k].first, std::move(*h));
  }
  host::ModuleScope scope(module);
  host::Interp in(scope, source, hostModules(*this));
  in.targetArch = archNumber(spec.arch);
  host::Value f;
  f.kind = HK::Function;
  f.fn = fn;
  f.s = fn->name;
  std::optional<host::Value> r = in.call(f, std::move(pos), std::move(kw), call);
  if (!r)
    return fail(in.error().offset, in.error().message +
                                       " (in @triton.constexpr_function `" +
                                       fn->name + "`)");
  std::optional<Val> out = fromHost(*r);
  if (!out)
    return fail(call, "@triton.constexpr_function `" + fn->name +
                          "` returned " + host::typeName(*r) +
                          ", which kernels cannot use (they take ints, "
                          "floats, bools, strings, None, dtypes and tuples "
                          "of them)");
  return *out;
}
