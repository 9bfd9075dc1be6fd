//===- HostEvalStmt.cpp - Calls of module-level host `def`s ---------------===//
//
// A host function such as FlashAttention's `triton_autotune_configs()` is
// run statement by statement: assignments (names, tuple unpacking, `d[k] =`),
// augmented assignments, if/elif/else, for and while loops, return,
// `xs.append(...)` / `xs.extend(...)`, assert and pass.
//
//===----------------------------------------------------------------------===//
#include "HostEval.h"

#include "llvm/ADT/STLExtras.h"

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::host;
using K = Value::Kind;

using KwArgs = std::vector<std::pair<std::string, Value>>;

/// Whether `fn` (of module `m`) is decorated as kernel code (`@triton.jit`,
/// `@jit`).
static bool isKernelCode(const FunctionDef *fn, const HostModule *m,
                         const Interp &in) {
  return llvm::any_of(fn->decorators, [&](const Expr *d) {
    return in.textIn(m, d).contains("jit");
  });
}

std::optional<Value> Interp::callFunction(const Value &f,
                                          std::vector<Value> &args,
                                          KwArgs &kwargs, const Node *where) {
  auto env = std::make_shared<Env>();
  env->parent = std::const_pointer_cast<Env>(f.closure);
  const FunctionDef *def = llvm::dyn_cast<FunctionDef>(f.fn);
  const LambdaExpr *lambda = llvm::dyn_cast<LambdaExpr>(f.fn);
  if (!def && !lambda)
    return fail(where, "Kiln cannot call `" + text(where).str() + "`");
  if (def && isKernelCode(def, f.mod, *this))
    return fail(where, "`" + def->name +
                           "` is a @triton.jit function: host code cannot "
                           "call it");
  const std::vector<Param> &params = def ? def->params : lambda->params;
  std::string name = def ? def->name : "<lambda>";
  // Positional parameters, then *args; keywords, then **kwargs.
  const Param *varArgs = nullptr, *varKw = nullptr;
  std::vector<const Param *> positional;
  for (const Param &p : params) {
    if (p.kind == ParamKind::VarArgs)
      varArgs = &p;
    else if (p.kind == ParamKind::KwArgs)
      varKw = &p;
    else if (p.kind != ParamKind::KeywordOnly && !varArgs)
      positional.push_back(&p);
  }
  if (args.size() > positional.size() && !varArgs)
    return fail(where, "`" + name + "()` takes " +
                           std::to_string(positional.size()) +
                           " positional arguments, got " +
                           std::to_string(args.size()));
  for (size_t k = 0; k < args.size() && k < positional.size(); ++k)
    env->vars[positional[k]->name] = args[k];
  if (varArgs)
    env->vars[varArgs->name] = Value::seq(
        K::Tuple, args.size() > positional.size()
                      ? std::vector<Value>(args.begin() + positional.size(),
                                           args.end())
                      : std::vector<Value>());
  Value extraKw;
  extraKw.kind = K::Dict;
  for (auto &[n, v] : kwargs) {
    auto p = llvm::find_if(params, [&](const Param &q) {
      return q.name == n && q.kind != ParamKind::VarArgs &&
             q.kind != ParamKind::KwArgs &&
             q.kind != ParamKind::PositionalOnly;
    });
    if (p == params.end()) {
      if (varKw) {
        extraKw.elems.push_back(Value::str(n));
        extraKw.vals.push_back(v);
        extraKw.adopt(v);
        continue;
      }
      return fail(where, "`" + name + "()` has no parameter `" + n + "`");
    }
    if (env->vars.count(n))
      return fail(where, "`" + name + "()` got `" + n + "` twice");
    env->vars[n] = v;
  }
  if (varKw)
    env->vars[varKw->name] = extraKw;
  for (const Param &p : params)
    if (!env->vars.count(p.name) && !p.defaultValue)
      return fail(where, "`" + name + "()` is missing argument `" +
                             p.name + "`");
  // Each call is one nesting level, so recursion stops at kMaxDepth.
  if (++depth > kMaxDepth) {
    --depth;
    return fail(where, "host calls nest deeper than Kiln's limit of " +
                           std::to_string(kMaxDepth) + " levels");
  }
  // Another module's function runs in its module (its names, its defaults).
  std::optional<Value> r =
      f.mod != cur ? callIn(f, env, where) : runFunction(f, env);
  --depth;
  return r;
}

std::optional<Value> Interp::runFunction(const Value &f,
                                         const std::shared_ptr<Env> &env) {
  const FunctionDef *def = llvm::dyn_cast<FunctionDef>(f.fn);
  const LambdaExpr *lambda = llvm::dyn_cast<LambdaExpr>(f.fn);
  for (const Param &p : def ? def->params : lambda->params) {
    if (env->vars.count(p.name))
      continue;
    std::optional<Value> d = eval(p.defaultValue);
    if (!d)
      return std::nullopt;
    env->vars[p.name] = *d;
  }
  if (lambda)
    return eval(lambda->body, env);
  Value ret;
  Flow flow = execBlock(def->body, env, ret);
  if (flow == Flow::Error)
    return std::nullopt;
  return flow == Flow::Return ? ret : Value::none();
}

Interp::Flow Interp::execBlock(const Block &body,
                               const std::shared_ptr<Env> &env, Value &ret) {
  for (const Stmt *s : body) {
    Flow f = exec(s, env, ret);
    if (f != Flow::Next)
      return f;
  }
  return Flow::Next;
}

bool Interp::assign(const Expr *target, const Value &v,
                    const std::shared_ptr<Env> &env) {
  if (auto *n = llvm::dyn_cast<NameExpr>(target)) {
    env->vars[n->id] = v;
    return true;
  }
  if (auto *t = llvm::dyn_cast<TupleExpr>(target)) {
    std::optional<std::vector<Value>> items = iterate(v, target);
    if (!items)
      return false;
    if (items->size() != t->elts.size()) {
      fail(target, "cannot unpack " + std::to_string(items->size()) +
                       " values into " + std::to_string(t->elts.size()) +
                       " targets");
      return false;
    }
    for (size_t k = 0; k < items->size(); ++k)
      if (!assign(t->elts[k], (*items)[k], env))
        return false;
    return true;
  }
  if (auto *s = llvm::dyn_cast<SubscriptExpr>(target)) {
    auto *base = llvm::dyn_cast<NameExpr>(s->value);
    auto it = base ? env->vars.find(base->id) : env->vars.end();
    if (it == env->vars.end() || s->indices.size() != 1) {
      fail(target, "Kiln assigns to subscripts only of local variables");
      return false;
    }
    std::optional<Value> key = eval(s->indices[0], env);
    if (!key)
      return false;
    Value &container = it->second;
    if (container.kind == K::Dict) {
      for (size_t k = 0; k < container.elems.size(); ++k)
        if (equal(container.elems[k], *key)) {
          container.vals[k] = v;
          container.adopt(v);
          return checkNest(container, target);
        }
      container.elems.push_back(*key);
      container.vals.push_back(v);
      container.adopt(*key);
      container.adopt(v);
      return checkNest(container, target);
    }
    if (container.kind == K::List && key->kind == K::Int) {
      int64_t n = container.elems.size();
      int64_t i = key->i < 0 ? key->i + n : key->i;
      if (i >= 0 && i < n) {
        container.elems[i] = v;
        container.adopt(v);
        return checkNest(container, target);
      }
    }
    fail(target, "Kiln cannot assign to `" + text(target).str() + "`");
    return false;
  }
  fail(target, "Kiln cannot assign to `" + text(target).str() + "`");
  return false;
}

Interp::Flow Interp::exec(const Stmt *s, const std::shared_ptr<Env> &env,
                          Value &ret) {
  if (!step(s))
    return Flow::Error;
  auto ok = [](bool b) { return b ? Flow::Next : Flow::Error; };
  switch (s->getKind()) {
  case Node::Kind::Pass:
    return Flow::Next;
  case Node::Kind::Import: // unsloth's prune helpers import inside
  case Node::Kind::ImportFrom:
    return ok(importLocally(s, env));
  case Node::Kind::Break:
    return Flow::Break;
  case Node::Kind::Continue:
    return Flow::Continue;
  case Node::Kind::Assign: {
    auto *a = llvm::cast<AssignStmt>(s);
    std::optional<Value> v = eval(a->value, env);
    if (!v)
      return Flow::Error;
    for (const Expr *t : a->targets)
      if (!assign(t, *v, env))
        return Flow::Error;
    return Flow::Next;
  }
  case Node::Kind::AnnAssign: {
    auto *a = llvm::cast<AnnAssignStmt>(s);
    if (!a->value)
      return Flow::Next;
    std::optional<Value> v = eval(a->value, env);
    return ok(v && assign(a->target, *v, env));
  }
  case Node::Kind::AugAssign: {
    auto *a = llvm::cast<AugAssignStmt>(s);
    std::optional<Value> cur = eval(a->target, env);
    if (!cur)
      return Flow::Error;
    std::optional<Value> rhs = eval(a->value, env);
    if (!rhs)
      return Flow::Error;
    std::optional<Value> v = binary(a->op, *cur, *rhs, s);
    return ok(v && assign(a->target, *v, env));
  }
  case Node::Kind::Return: {
    auto *r = llvm::cast<ReturnStmt>(s);
    if (!r->value) {
      ret = Value::none();
      return Flow::Return;
    }
    std::optional<Value> v = eval(r->value, env);
    if (!v)
      return Flow::Error;
    ret = *v;
    return Flow::Return;
  }
  case Node::Kind::If: {
    auto *i = llvm::cast<IfStmt>(s);
    std::optional<Value> t = eval(i->test, env);
    if (!t)
      return Flow::Error;
    std::optional<bool> taken = truth(*t, i->test);
    if (!taken)
      return Flow::Error;
    return execBlock(*taken ? i->body : i->orelse, env, ret);
  }
  case Node::Kind::For: {
    auto *f = llvm::cast<ForStmt>(s);
    std::optional<Value> iter = eval(f->iter, env);
    if (!iter)
      return Flow::Error;
    std::optional<std::vector<Value>> items = iterate(*iter, f->iter);
    if (!items)
      return Flow::Error;
    for (const Value &v : *items) {
      if (!assign(f->target, v, env))
        return Flow::Error;
      Flow fl = execBlock(f->body, env, ret);
      if (fl == Flow::Break)
        break;
      if (fl == Flow::Return || fl == Flow::Error)
        return fl;
    }
    return Flow::Next;
  }
  case Node::Kind::While: {
    auto *w = llvm::cast<WhileStmt>(s);
    while (true) {
      if (!step(s))
        return Flow::Error;
      std::optional<Value> t = eval(w->test, env);
      std::optional<bool> go = t ? truth(*t, w->test) : std::nullopt;
      if (!go)
        return Flow::Error;
      if (!*go)
        return Flow::Next;
      Flow fl = execBlock(w->body, env, ret);
      if (fl == Flow::Break)
        return Flow::Next;
      if (fl == Flow::Return || fl == Flow::Error)
        return fl;
    }
  }
  case Node::Kind::Assert: {
    auto *a = llvm::cast<AssertStmt>(s);
    std::optional<Value> t = eval(a->test, env);
    std::optional<bool> holds = t ? truth(*t, a->test) : std::nullopt;
    if (!holds)
      return Flow::Error;
    if (!*holds) {
      fail(s, "assertion failed: `" + text(a->test).str() + "`");
      return Flow::Error;
    }
    return Flow::Next;
  }
  case Node::Kind::ExprStmt: {
    const Expr *e = llvm::cast<ExprStmt>(s)->expr;
    if (llvm::isa<StrExpr>(e))
      return Flow::Next; // docstring
    // `xs.append(v)` / `xs.extend(vs)` on a local list.
    if (auto *c = llvm::dyn_cast<CallExpr>(e)) {
      auto *at = llvm::dyn_cast<AttributeExpr>(c->func);
      auto *base = at ? llvm::dyn_cast<NameExpr>(at->value) : nullptr;
      if (base && (at->attr == "append" || at->attr == "extend") &&
          env->vars.count(base->id) &&
          env->vars[base->id].kind == K::List) {
        if (c->args.size() != 1 || !c->keywords.empty()) {
          fail(c, "`." + at->attr + "()` takes exactly one argument");
          return Flow::Error;
        }
        std::optional<Value> v = eval(c->args[0], env);
        if (!v)
          return Flow::Error;
        Value &list = env->vars[base->id];
        std::vector<Value> &elems = list.elems;
        if (at->attr == "append") {
          elems.push_back(*v);
          list.adopt(*v);
        } else {
          std::optional<std::vector<Value>> items = iterate(*v, c->args[0]);
          if (!items)
            return Flow::Error;
          elems.insert(elems.end(), items->begin(), items->end());
          for (const Value &x : *items)
            list.adopt(x);
        }
        if (!checkNest(list, c))
          return Flow::Error;
        if (elems.size() > kMaxElements) {
          fail(c, "list exceeds Kiln's limit of " +
                      std::to_string(kMaxElements) + " elements");
          return Flow::Error;
        }
        return Flow::Next;
      }
    }
    return ok(eval(e, env).has_value());
  }
  default:
    break;
  }
  llvm::StringRef line = text(s).split('\n').first;
  fail(s, "Kiln cannot evaluate `" + line.str() + "` in a host function");
  return Flow::Error;
}
