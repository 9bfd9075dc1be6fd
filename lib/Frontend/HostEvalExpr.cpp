//===- HostEvalExpr.cpp - Host Python expressions: operators, displays ----===//
#include "HostEval.h"

#include "llvm/ADT/STLExtras.h"
#include <cmath>

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::host;
using K = Value::Kind;

namespace kiln::host {
/// Counts one level of nesting for the duration of an evaluation.
struct Frame {
  Frame(Interp &in, const Node *n) : in(in) {
    ok = ++in.depth <= Interp::kMaxDepth && in.step(n);
    if (in.depth > Interp::kMaxDepth)
      in.fail(n, "expression nesting exceeds Kiln's limit of " +
                     std::to_string(Interp::kMaxDepth) + " levels");
  }
  ~Frame() { --in.depth; }
  Interp &in;
  bool ok;
};
} // namespace kiln::host

std::optional<Value> Interp::eval(const Expr *e,
                                  const std::shared_ptr<Env> &env) {
  Frame frame(*this, e);
  if (!frame.ok)
    return std::nullopt;
  std::optional<Value> r = evalExpr(e, env);
  if (r && !checkNest(*r, e))
    return std::nullopt;
  return r;
}

static bool isIntLike(const Value &v) {
  return v.kind == K::Int || v.kind == K::Bool;
}
static bool isNum(const Value &v) { return isIntLike(v) || v.kind == K::Float; }
static double toD(const Value &v) {
  return v.kind == K::Float ? v.f : double(v.i);
}

std::optional<Value> Interp::binary(BinOpKind op, const Value &l,
                                    const Value &r, const Node *where) {
  auto unsupported = [&] {
    return fail(where, std::string("unsupported operand types for `") +
                           spelling(op) + "`: " + typeName(l) + " and " +
                           typeName(r));
  };
  auto overflow = [&] {
    return fail(where, "integer overflow in `" + text(where).str() +
                           "` (Kiln evaluates host integers in 64 bits)");
  };
  if (isOpaque(l) || isOpaque(r))
    return opaque(isOpaque(l) ? l : r, where, "compute with it");
  // Sequences: concatenation and repetition.
  if (op == BinOpKind::Add && l.kind == r.kind &&
      (l.kind == K::Str || l.kind == K::List || l.kind == K::Tuple)) {
    Value out = l;
    out.s += r.s;
    out.elems.insert(out.elems.end(), r.elems.begin(), r.elems.end());
    out.nest = std::max(l.nest, r.nest);
    if (!charge(where, out.elems.size() + out.s.size()))
      return std::nullopt;
    if (out.elems.size() > kMaxElements || out.s.size() > kMaxElements)
      return fail(where, "result exceeds Kiln's limit of " +
                             std::to_string(kMaxElements) + " elements");
    return out;
  }
  if (op == BinOpKind::Mul && (isIntLike(l) || isIntLike(r)) &&
      (l.kind == K::Str || l.kind == K::List || l.kind == K::Tuple ||
       r.kind == K::Str || r.kind == K::List || r.kind == K::Tuple)) {
    const Value &seq = isIntLike(l) ? r : l;
    int64_t n = std::max<int64_t>(isIntLike(l) ? l.i : r.i, 0);
    size_t unit = seq.kind == K::Str ? seq.s.size() : seq.elems.size();
    if (unit && uint64_t(n) > kMaxElements / unit)
      return fail(where, "result exceeds Kiln's limit of " +
                             std::to_string(kMaxElements) + " elements");
    if (!charge(where, uint64_t(n) * unit))
      return std::nullopt;
    Value out = seq;
    out.s.clear();
    out.elems.clear();
    for (int64_t k = 0; k < n; ++k) {
      out.s += seq.s;
      out.elems.insert(out.elems.end(), seq.elems.begin(), seq.elems.end());
    }
    return out;
  }
  if (!isNum(l) || !isNum(r))
    return unsupported();
  bool ints = isIntLike(l) && isIntLike(r);
  int64_t a = l.i, b = r.i, out = 0;
  switch (op) {
  case BinOpKind::Add:
    if (!ints)
      return Value::flt(toD(l) + toD(r));
    if (__builtin_add_overflow(a, b, &out))
      return overflow();
    return Value::integer(out);
  case BinOpKind::Sub:
    if (!ints)
      return Value::flt(toD(l) - toD(r));
    if (__builtin_sub_overflow(a, b, &out))
      return overflow();
    return Value::integer(out);
  case BinOpKind::Mul:
    if (!ints)
      return Value::flt(toD(l) * toD(r));
    if (__builtin_mul_overflow(a, b, &out))
      return overflow();
    return Value::integer(out);
  case BinOpKind::Div:
    if (toD(r) == 0)
      return fail(where, "division by zero in `" + text(where).str() + "`");
    return Value::flt(toD(l) / toD(r));
  case BinOpKind::FloorDiv:
  case BinOpKind::Mod: {
    if (toD(r) == 0)
      return fail(where, std::string(op == BinOpKind::Mod ? "modulo" : "division") +
                             " by zero in `" + text(where).str() + "`");
    if (!ints) {
      double x = toD(l), y = toD(r);
      double m = std::fmod(x, y);
      if (m != 0 && ((m < 0) != (y < 0)))
        m += y;
      if (op == BinOpKind::Mod)
        return Value::flt(m);
      return Value::flt(std::floor((x - m) / y + 0.5));
    }
    if (a == INT64_MIN && b == -1)
      return overflow();
    int64_t q = a / b, m = a % b;
    if (m != 0 && ((m < 0) != (b < 0))) {
      m += b;
      q -= 1;
    }
    return Value::integer(op == BinOpKind::Mod ? m : q);
  }
  case BinOpKind::Pow: {
    if (!ints || b < 0)
      return Value::flt(std::pow(toD(l), toD(r)));
    int64_t result = 1, base = a;
    for (int64_t e = b; e > 0; e >>= 1) {
      if ((e & 1) && __builtin_mul_overflow(result, base, &result))
        return overflow();
      if (e > 1 && __builtin_mul_overflow(base, base, &base))
        return overflow();
    }
    return Value::integer(result);
  }
  case BinOpKind::LShift:
  case BinOpKind::RShift:
    if (!ints)
      return unsupported();
    if (b < 0)
      return fail(where, "negative shift count in `" + text(where).str() + "`");
    if (op == BinOpKind::RShift)
      return Value::integer(b >= 64 ? (a < 0 ? -1 : 0) : a >> b);
    if (b >= 63 || (a != 0 && (a > (INT64_MAX >> b) || a < (INT64_MIN >> b))))
      return overflow();
    return Value::integer(int64_t(uint64_t(a) << b));
  case BinOpKind::BitAnd:
  case BinOpKind::BitOr:
  case BinOpKind::BitXor: {
    if (!ints)
      return unsupported();
    int64_t v = op == BinOpKind::BitAnd  ? (a & b)
                : op == BinOpKind::BitOr ? (a | b)
                                         : (a ^ b);
    if (l.kind == K::Bool && r.kind == K::Bool)
      return Value::boolean(v);
    return Value::integer(v);
  }
  case BinOpKind::MatMul:
    return unsupported();
  }
  return unsupported();
}

std::optional<bool> Interp::compare(CmpOpKind op, const Value &l,
                                    const Value &r, const Node *where,
                                    const Node *lWhere, const Node *rWhere,
                                    const std::string &what) {
  auto unsupported = [&]() -> std::optional<bool> {
    fail(where, "Kiln cannot compare " + aTypeName(l) + " `" +
                    spelling(op) + "` " + aTypeName(r));
    return std::nullopt;
  };
  // An opaque value equals only itself; anything else about it is unknown
  // (`flags.MODE == "fast"` may be true, `flags.X is None` too).
  if (isOpaque(l) || isOpaque(r)) {
    bool same = l.kind == r.kind && equal(l, r);
    if (same && (op == CmpOpKind::Eq || op == CmpOpKind::Is))
      return true;
    if (same && (op == CmpOpKind::NotEq || op == CmpOpKind::IsNot))
      return false;
    const Node *at = isOpaque(l) ? lWhere : rWhere;
    opaque(isOpaque(l) ? l : r, at ? at : where, what);
    return std::nullopt;
  }
  switch (op) {
  case CmpOpKind::Eq:
    return equal(l, r);
  case CmpOpKind::NotEq:
    return !equal(l, r);
  case CmpOpKind::Is:
  case CmpOpKind::IsNot: {
    // Identity is decidable for the singletons and dtypes; `args["X"] is
    // None` is the common case.
    bool decidable = l.kind == K::None || r.kind == K::None ||
                     l.kind == K::Bool || r.kind == K::Bool ||
                     (l.kind == K::DType && r.kind == K::DType);
    if (!decidable)
      return unsupported();
    bool same = l.kind == r.kind && equal(l, r);
    return op == CmpOpKind::Is ? same : !same;
  }
  case CmpOpKind::In:
  case CmpOpKind::NotIn: {
    bool found;
    if (r.kind == K::Str) {
      if (l.kind != K::Str)
        return unsupported();
      found = r.s.find(l.s) != std::string::npos;
    } else if (r.kind == K::List || r.kind == K::Tuple || r.kind == K::Set ||
               r.kind == K::Dict) {
      found = llvm::any_of(r.elems, [&](const Value &x) { return equal(l, x); });
    } else {
      return unsupported();
    }
    return op == CmpOpKind::In ? found : !found;
  }
  default:
    break;
  }
  // Orderings.
  int c;
  if (isNum(l) && isNum(r)) {
    if (isIntLike(l) && isIntLike(r))
      c = l.i < r.i ? -1 : l.i > r.i;
    else
      c = toD(l) < toD(r) ? -1 : toD(l) > toD(r);
  } else if (l.kind == K::Str && r.kind == K::Str) {
    c = l.s.compare(r.s);
    c = c < 0 ? -1 : c > 0;
  } else if (l.kind == r.kind && (l.kind == K::List || l.kind == K::Tuple)) {
    c = 0;
    size_t n = std::min(l.elems.size(), r.elems.size());
    for (size_t k = 0; k < n && c == 0; ++k) {
      if (equal(l.elems[k], r.elems[k]))
        continue;
      std::optional<bool> lt = compare(CmpOpKind::Lt, l.elems[k], r.elems[k],
                                       where);
      if (!lt)
        return std::nullopt;
      c = *lt ? -1 : 1;
    }
    if (c == 0)
      c = l.elems.size() < r.elems.size() ? -1 : l.elems.size() > r.elems.size();
  } else {
    return unsupported();
  }
  switch (op) {
  case CmpOpKind::Lt:
    return c < 0;
  case CmpOpKind::LtE:
    return c <= 0;
  case CmpOpKind::Gt:
    return c > 0;
  case CmpOpKind::GtE:
    return c >= 0;
  default:
    return unsupported();
  }
}

std::optional<Value> Interp::evalExpr(const Expr *e,
                                      const std::shared_ptr<Env> &env) {
  switch (e->getKind()) {
  case Node::Kind::Name:
    return lookup(llvm::cast<NameExpr>(e), env);
  case Node::Kind::Int:
    return Value::integer(llvm::cast<IntExpr>(e)->value);
  case Node::Kind::Float:
    return Value::flt(llvm::cast<FloatExpr>(e)->value);
  case Node::Kind::Str:
    return Value::str(llvm::cast<StrExpr>(e)->value);
  case Node::Kind::Const:
    switch (llvm::cast<ConstExpr>(e)->which) {
    case ConstExpr::Which::True:
      return Value::boolean(true);
    case ConstExpr::Which::False:
      return Value::boolean(false);
    case ConstExpr::Which::None:
      return Value::none();
    case ConstExpr::Which::Ellipsis:
      return fail(e, "Kiln cannot evaluate `...` in host code");
    }
    break;
  case Node::Kind::Attribute: {
    auto *a = llvm::cast<AttributeExpr>(e);
    std::optional<Value> base = eval(a->value, env);
    if (!base)
      return std::nullopt;
    return attribute(*base, a->attr, a);
  }
  case Node::Kind::Call:
    return callExpr(llvm::cast<CallExpr>(e), env);
  case Node::Kind::Subscript: {
    auto *s = llvm::cast<SubscriptExpr>(e);
    std::optional<Value> base = eval(s->value, env);
    if (!base)
      return std::nullopt;
    if (s->indices.size() == 1)
      if (auto *sl = llvm::dyn_cast<SliceExpr>(s->indices[0]))
        return sliceOf(*base, sl, env, e);
    if (s->indices.size() != 1)
      return fail(e, "Kiln cannot evaluate multiple indices in host code");
    std::optional<Value> index = eval(s->indices[0], env);
    if (!index)
      return std::nullopt;
    return subscript(*base, *index, e);
  }
  case Node::Kind::BinOp: {
    auto *b = llvm::cast<BinOpExpr>(e);
    std::optional<Value> l = eval(b->lhs, env);
    if (!l)
      return std::nullopt;
    std::optional<Value> r = eval(b->rhs, env);
    if (!r)
      return std::nullopt;
    if (isOpaque(*l) || isOpaque(*r))
      return opaque(isOpaque(*l) ? *l : *r, isOpaque(*l) ? b->lhs : b->rhs,
                    "compute `" + text(e).str() + "`");
    return binary(b->op, *l, *r, e);
  }
  case Node::Kind::UnaryOp: {
    auto *u = llvm::cast<UnaryOpExpr>(e);
    std::optional<Value> v = eval(u->operand, env);
    if (!v)
      return std::nullopt;
    if (u->op == UnaryOpKind::Not) {
      std::optional<bool> t = truth(*v, u->operand);
      if (!t)
        return std::nullopt;
      return Value::boolean(!*t);
    }
    if (isOpaque(*v))
      return opaque(*v, u->operand, "compute `" + text(e).str() + "`");
    if (v->kind == K::Float && u->op != UnaryOpKind::Invert)
      return Value::flt(u->op == UnaryOpKind::Minus ? -v->f : v->f);
    if (!isIntLike(*v))
      return fail(e, std::string("bad operand type for unary `") +
                         spelling(u->op) + "`: " + typeName(*v));
    if (u->op == UnaryOpKind::Plus)
      return Value::integer(v->i);
    if (u->op == UnaryOpKind::Invert)
      return Value::integer(~v->i);
    if (v->i == INT64_MIN)
      return fail(e, "integer overflow in `" + text(e).str() +
                         "` (Kiln evaluates host integers in 64 bits)");
    return Value::integer(-v->i);
  }
  case Node::Kind::BoolOp: {
    auto *b = llvm::cast<BoolOpExpr>(e);
    std::optional<Value> v;
    for (const Expr *x : b->values) {
      v = eval(x, env);
      if (!v)
        return std::nullopt;
      // The last operand is the result whatever its truth (`a and flags.X`
      // passes the host value through).
      if (x == b->values.back())
        break;
      std::optional<bool> t = truth(*v, x);
      if (!t)
        return std::nullopt;
      if (*t != b->isAnd)
        return v; // short-circuit: Python returns the deciding operand
    }
    return v;
  }
  case Node::Kind::Compare: {
    auto *c = llvm::cast<CompareExpr>(e);
    std::optional<Value> l = eval(c->left, env);
    if (!l)
      return std::nullopt;
    for (size_t k = 0; k < c->ops.size(); ++k) {
      std::optional<Value> r = eval(c->comparators[k], env);
      if (!r)
        return std::nullopt;
      const Expr *ln = k ? c->comparators[k - 1] : c->left;
      std::optional<bool> ok = compare(c->ops[k], *l, *r, e, ln, c->comparators[k],
                                       "compare it (`" + text(e).str() + "`)");
      if (!ok)
        return std::nullopt;
      if (!*ok)
        return Value::boolean(false);
      l = r;
    }
    return Value::boolean(true);
  }
  case Node::Kind::IfExp: {
    auto *i = llvm::cast<IfExpExpr>(e);
    std::optional<Value> t = eval(i->test, env);
    if (!t)
      return std::nullopt;
    std::optional<bool> taken = truth(*t, i->test);
    if (!taken)
      return std::nullopt;
    return eval(*taken ? i->body : i->orelse, env);
  }
  case Node::Kind::Tuple:
  case Node::Kind::List: {
    auto *t = llvm::cast<TupleExpr>(e);
    std::vector<Value> elems;
    for (const Expr *x : t->elts) {
      std::optional<Value> v = eval(x, env);
      if (!v)
        return std::nullopt;
      elems.push_back(std::move(*v));
    }
    return Value::seq(t->isList() ? K::List : K::Tuple, std::move(elems));
  }
  default:
    break;
  }
  return evalDisplay(e, env);
}

/// `base[lower:upper:step]` of a list, tuple or str, as Python's
/// slice.indices() bounds it.
std::optional<Value> Interp::sliceOf(const Value &base, const SliceExpr *sl,
                                     const std::shared_ptr<Env> &env, const Expr *where) {
  if (base.kind != K::List && base.kind != K::Tuple && base.kind != K::Str)
    return fail(where, "Kiln slices lists, tuples and strs in host code, not " +
                           aTypeName(base));
  auto bound = [&](const Expr *x, std::optional<int64_t> &out) -> bool {
    if (!x)
      return true;
    std::optional<Value> v = eval(x, env);
    if (!v)
      return false;
    if (v->kind == K::None)
      return true;
    if (!isIntLike(*v)) {
      fail(x, "slice indices must be integers or None, got " + aTypeName(*v));
      return false;
    }
    out = v->i;
    return true;
  };
  std::optional<int64_t> lower, upper, stepValue;
  if (!bound(sl->lower, lower) || !bound(sl->upper, upper) || !bound(sl->step, stepValue))
    return std::nullopt;
  int64_t step = stepValue.value_or(1);
  if (step == 0)
    return fail(where, "slice step cannot be zero");
  int64_t n = base.kind == K::Str ? int64_t(base.s.size()) : int64_t(base.elems.size());
  auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v)
      return dflt;
    int64_t x = *v < 0 ? *v + n : *v;
    return step > 0 ? std::clamp<int64_t>(x, 0, n) : std::clamp<int64_t>(x, -1, n - 1);
  };
  int64_t from = clamp(lower, step > 0 ? 0 : n - 1);
  int64_t to = clamp(upper, step > 0 ? n : -1);
  std::vector<Value> picked;
  std::string text;
  for (int64_t i = from; step > 0 ? i < to : i > to; i += step) {
    if (base.kind == K::Str)
      text += base.s[i];
    else
      picked.push_back(base.elems[i]);
  }
  if (base.kind == K::Str)
    return Value::str(std::move(text));
  return Value::seq(base.kind, std::move(picked));
}
