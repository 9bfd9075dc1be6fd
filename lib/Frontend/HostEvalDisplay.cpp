//===- HostEvalDisplay.cpp - Host Python displays, lambdas, comprehensions ===//
#include "HostEval.h"

#include "llvm/ADT/STLExtras.h"

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::host;
using K = Value::Kind;

/// Adds `key: v` to dict `d`, replacing an equal key's value.
static void dictSet(Value &d, const Value &key, const Value &v) {
  for (size_t k = 0; k < d.elems.size(); ++k)
    if (equal(d.elems[k], key)) {
      d.vals[k] = v;
      d.adopt(v);
      return;
    }
  d.elems.push_back(key);
  d.vals.push_back(v);
  d.adopt(key);
  d.adopt(v);
}

static void setAdd(Value &s, const Value &v) {
  if (!llvm::any_of(s.elems, [&](const Value &x) { return equal(x, v); }))
    s.elems.push_back(v);
  s.adopt(v);
}

static bool hashable(const Value &v) {
  if (v.kind == K::List || v.kind == K::Dict || v.kind == K::Set)
    return false;
  if (v.kind == K::Tuple)
    return llvm::all_of(v.elems, hashable);
  return true;
}

std::optional<Value> Interp::evalDisplay(const Expr *e,
                                         const std::shared_ptr<Env> &env) {
  switch (e->getKind()) {
  case Node::Kind::Dict: {
    auto *d = llvm::cast<DictExpr>(e);
    Value out;
    out.kind = K::Dict;
    for (size_t k = 0; k < d->values.size(); ++k) {
      std::optional<Value> v = eval(d->values[k], env);
      if (!v)
        return std::nullopt;
      if (!d->keys[k]) { // `**mapping`
        if (v->kind != K::Dict)
          return fail(d->values[k], "`**` needs a dict, got a " +
                                        typeName(*v));
        for (size_t j = 0; j < v->elems.size(); ++j)
          dictSet(out, v->elems[j], v->vals[j]);
        continue;
      }
      std::optional<Value> key = eval(d->keys[k], env);
      if (!key)
        return std::nullopt;
      if (!hashable(*key))
        return fail(d->keys[k], "unhashable dict key: " + aTypeName(*key));
      dictSet(out, *key, *v);
    }
    return out;
  }
  case Node::Kind::Set: {
    auto *s = llvm::cast<SetExpr>(e);
    Value out = Value::seq(K::Set, {});
    for (const Expr *x : s->elts) {
      if (llvm::isa<StarredExpr>(x))
        return fail(x, "Kiln cannot evaluate `*` unpacking in host code");
      std::optional<Value> v = eval(x, env);
      if (!v)
        return std::nullopt;
      if (!hashable(*v))
        return fail(x, "unhashable set element: " + aTypeName(*v));
      setAdd(out, *v);
    }
    return out;
  }
  case Node::Kind::Lambda: {
    Value f;
    f.kind = K::Function;
    f.fn = e;
    f.s = "<lambda>";
    f.mod = cur; // its names are its module's, wherever it is called
    f.closure = env; // late binding, as Python's closures
    return f;
  }
  case Node::Kind::ListComp:
  case Node::Kind::SetComp:
  case Node::Kind::DictComp:
  case Node::Kind::GeneratorExp: {
    auto *c = llvm::cast<ComprehensionExpr>(e);
    Value out;
    out.kind = e->getKind() == Node::Kind::SetComp    ? K::Set
               : e->getKind() == Node::Kind::DictComp ? K::Dict
                                                      : K::List;
    // The comprehension's variables live in their own scope.
    auto scope = std::make_shared<Env>();
    scope->parent = env;
    if (!comprehend(c, 0, scope, out))
      return std::nullopt;
    return out;
  }
  case Node::Kind::JoinedStr: {
    auto *j = llvm::cast<JoinedStrExpr>(e);
    std::string s;
    for (const Expr *part : j->values) {
      if (auto *lit = llvm::dyn_cast<StrExpr>(part)) {
        s += lit->value;
        continue;
      }
      auto *fv = llvm::cast<FormattedValueExpr>(part);
      if (fv->formatSpec)
        return fail(fv, "Kiln cannot evaluate format specs in f-strings");
      std::optional<Value> v = eval(fv->value, env);
      if (!v)
        return std::nullopt;
      if (isOpaque(*v))
        return opaque(*v, fv->value, "format it");
      s += fv->conversion == 'r' || fv->debug ? repr(*v) : str(*v);
    }
    return Value::str(std::move(s));
  }
  default:
    break;
  }
  return fail(e, "Kiln cannot evaluate `" + text(e).str() + "` in host code");
}

bool Interp::comprehend(const ComprehensionExpr *c, size_t gen,
                        const std::shared_ptr<Env> &scope, Value &out) {
  if (gen == c->generators.size()) {
    if (!step(c))
      return false;
    std::optional<Value> v = eval(c->elt, scope);
    if (!v)
      return false;
    if (out.kind == K::Dict) {
      std::optional<Value> val = eval(c->value, scope);
      if (!val)
        return false;
      if (!hashable(*v)) {
        fail(c->elt, "unhashable dict key: " + aTypeName(*v));
        return false;
      }
      dictSet(out, *v, *val);
    } else if (out.kind == K::Set) {
      if (!hashable(*v)) {
        fail(c->elt, "unhashable set element: " + aTypeName(*v));
        return false;
      }
      setAdd(out, *v);
    } else {
      out.elems.push_back(*v);
      out.adopt(*v);
    }
    if (out.elems.size() > kMaxElements) {
      fail(c, "comprehension exceeds Kiln's limit of " +
                  std::to_string(kMaxElements) + " elements");
      return false;
    }
    return true;
  }
  const Comprehension &g = c->generators[gen];
  if (g.isAsync) {
    fail(g.range.begin, "Kiln cannot evaluate `async for` in host code");
    return false;
  }
  // The first iterable is evaluated in the enclosing scope, as in Python.
  std::optional<Value> iter =
      eval(g.iter, gen == 0 ? std::const_pointer_cast<Env>(scope->parent) : scope);
  if (!iter)
    return false;
  std::optional<std::vector<Value>> items = iterate(*iter, g.iter);
  if (!items)
    return false;
  for (const Value &item : *items) {
    if (!assign(g.target, item, scope))
      return false;
    bool keep = true;
    for (const Expr *cond : g.ifs) {
      std::optional<Value> t = eval(cond, scope);
      std::optional<bool> holds = t ? truth(*t, cond) : std::nullopt;
      if (!holds)
        return false;
      if (!*holds) {
        keep = false;
        break;
      }
    }
    if (keep && !comprehend(c, gen + 1, scope, out))
      return false;
  }
  return true;
}
