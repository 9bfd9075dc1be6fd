//===- IRGenComprehension.cpp - List comprehensions in kernels -----------===//
//
// `[f(v) for v in values if cond]` and the generator form inside a call
// (`tl.tuple(v + 1 for v in t)`), as Triton 3.6 compiles them: unrolled at
// compile time over a tuple or a range of constexpr integers, each `if` a
// compile-time condition; the result is a tuple. The loop variables live in
// the comprehension's own scope, as in Python.
//
//===----------------------------------------------------------------------===//
#include "IRGen.h"
#include "llvm/ADT/ScopeExit.h"

#include <functional>
#include <map>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

namespace {
/// Names a comprehension target binds (`v`, `(i, v)`).
void targetNames(const Expr *t, std::vector<std::string> &out) {
  if (auto *n = llvm::dyn_cast<NameExpr>(t))
    out.push_back(n->id);
  else if (auto *tu = llvm::dyn_cast<TupleExpr>(t))
    for (const Expr *e : tu->elts)
      targetNames(e, out);
}
} // namespace

FailureOr<std::vector<Val>> IRGen::comprehensionItems(const Expr *iter) {
  // range(...) / tl.static_range(...) of constexpr integers.
  if (auto *call = llvm::dyn_cast<CallExpr>(iter)) {
    FailureOr<Val> callee = eval(call->func);
    if (failed(callee))
      return failure();
    if (callee->kind == Val::Kind::Builtin &&
        (callee->s == "range" || callee->s == "tl.static_range" ||
         callee->s == "tl.range")) {
      CallArgs args;
      if (failed(evalArgs(call, args)))
        return failure();
      if (!args.kw.empty() || args.pos.empty() || args.pos.size() > 3)
        return fail(iter, "a comprehension's range takes 1 to 3 positional "
                          "constexpr integers");
      int64_t b[3] = {0, 0, 1};
      for (size_t k = 0; k < args.pos.size(); ++k) {
        if (args.pos[k].kind != Val::Kind::Int)
          return fail(iter, "a comprehension in a kernel is unrolled at "
                            "compile time: its range needs constexpr "
                            "integers, got " + typeName(args.pos[k]));
      }
      if (args.pos.size() == 1)
        b[1] = args.pos[0].i;
      else
        for (size_t k = 0; k < args.pos.size(); ++k)
          b[k] = args.pos[k].i;
      if (b[2] == 0)
        return fail(iter, "range() step must not be zero");
      std::vector<Val> items;
      for (int64_t i = b[0]; b[2] > 0 ? i < b[1] : i > b[1]; i += b[2]) {
        if (int64_t(items.size()) >= kMaxStaticUnroll)
          return fail(iter, "a comprehension of more than " +
                                std::to_string(kMaxStaticUnroll) +
                                " elements (the unrolling limit)");
        items.push_back(Val::integer(i));
      }
      return items;
    }
  }
  FailureOr<Val> it = eval(iter);
  if (failed(it))
    return failure();
  if (it->kind != Val::Kind::Tuple)
    return fail(iter, "a comprehension in a kernel is unrolled at compile "
                      "time: it iterates over a tuple or a range of constexpr "
                      "integers, not " + typeName(*it));
  return it->elems;
}

FailureOr<Val> IRGen::evalComprehension(const ComprehensionExpr *c) {
  if (c->getKind() != Node::Kind::ListComp &&
      c->getKind() != Node::Kind::GeneratorExp)
    return fail(c, hostConstructError(c->getKind()));
  // The targets' bindings before the comprehension, restored after it.
  std::vector<std::string> names;
  for (const Comprehension &g : c->generators)
    targetNames(g.target, names);
  std::map<std::string, std::optional<Binding>> saved;
  for (const std::string &n : names) {
    auto it = fs->scope.find(n);
    saved[n] = it == fs->scope.end() ? std::nullopt
                                     : std::optional<Binding>(it->second);
  }
  llvm::scope_exit restore([&] {
    for (auto &[n, b] : saved) {
      if (b)
        fs->scope[n] = *b;
      else
        fs->scope.erase(n);
    }
  });
  std::vector<Val> out;
  std::function<LogicalResult(size_t)> gen = [&](size_t k) -> LogicalResult {
    if (k == c->generators.size()) {
      FailureOr<Val> v = eval(c->elt);
      if (failed(v))
        return failure();
      out.push_back(*v);
      return success();
    }
    const Comprehension &g = c->generators[k];
    if (g.isAsync)
      return fail(g.range.begin, "`async for` is not supported in kernels");
    FailureOr<std::vector<Val>> items = comprehensionItems(g.iter);
    if (failed(items))
      return failure();
    for (const Val &item : *items) {
      if (failed(assign(g.target, item, g.target)))
        return failure();
      bool keep = true;
      for (const Expr *cond : g.ifs) {
        FailureOr<Val> b = eval(cond);
        if (failed(b))
          return failure();
        if (b->isRuntime() || !b->isConstexpr())
          return fail(cond, "a comprehension's `if` in a kernel must be a "
                            "compile-time condition, got " + typeName(*b));
        if (!b->truthy()) {
          keep = false;
          break;
        }
      }
      if (keep && failed(gen(k + 1)))
        return failure();
      if (int64_t(out.size()) > kMaxStaticUnroll)
        return fail(c, "a comprehension of more than " +
                           std::to_string(kMaxStaticUnroll) +
                           " elements (the unrolling limit)");
    }
    return success();
  };
  if (failed(gen(0)))
    return failure();
  return Val::tuple(std::move(out));
}
