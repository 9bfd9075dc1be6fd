//===- IRGenConstFold.cpp - Operators on two compile-time values ------===//
//
// Binary operators and comparisons of two constexprs folded with Python's
// semantics (ints over [-2^63, 2^64) in 128 bits, floor division and
// modulo, true division, string and tuple ordering); IRGenOps.cpp applies
// Triton's rules when a runtime value takes part.
//
//===----------------------------------------------------------------------===//
#include "IRGen.h"

#include <cmath>
#include <limits>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

FailureOr<Val> IRGen::foldConstBinary(BinOpKind op, const Val &l, const Val &r,
                                      const Node *where) {
  const char *sp = spelling(op);
  if (l.kind == Val::Kind::Str && r.kind == Val::Kind::Str &&
      op == BinOpKind::Add)
    return Val::str(l.s + r.s);
  if (l.kind == Val::Kind::Tuple && r.kind == Val::Kind::Tuple &&
      op == BinOpKind::Add) {
    std::vector<Val> e = l.elems;
    e.insert(e.end(), r.elems.begin(), r.elems.end());
    return Val::tuple(std::move(e));
  }
  // `[0] * ndim`, `(BLOCK,) * 2`: repetition by a constexpr integer.
  if (op == BinOpKind::Mul && ((l.kind == Val::Kind::Tuple && r.kind == Val::Kind::Int) ||
                               (l.kind == Val::Kind::Int && r.kind == Val::Kind::Tuple))) {
    const Val &t = l.kind == Val::Kind::Tuple ? l : r;
    int64_t n = std::max<int64_t>(0, (l.kind == Val::Kind::Int ? l : r).i);
    if (n * int64_t(t.elems.size()) > kMaxStaticUnroll)
      return fail(where, "tuple repetition of more than " +
                             std::to_string(kMaxStaticUnroll) + " elements");
    std::vector<Val> e;
    for (int64_t k = 0; k < n; ++k)
      e.insert(e.end(), t.elems.begin(), t.elems.end());
    return Val::tuple(std::move(e));
  }
  if (!l.isNumber() || !r.isNumber())
    return fail(where, std::string("unsupported operand types for `") + sp +
                           "`: " + typeName(l) + " and " + typeName(r));
  bool isFloatOp = l.kind == Val::Kind::Float || r.kind == Val::Kind::Float;
  auto overflow = [&]() -> FailureOr<Val> {
    return fail(where, "integer overflow in constant expression");
  };
  if (op == BinOpKind::Div) {
    if (r.asDouble() == 0)
      return fail(where, "division by zero in constant expression");
    return Val::flt(l.asDouble() / r.asDouble());
  }
  if (isFloatOp) {
    double a = l.asDouble(), c = r.asDouble();
    switch (op) {
    case BinOpKind::Add:
      return Val::flt(a + c);
    case BinOpKind::Sub:
      return Val::flt(a - c);
    case BinOpKind::Mul:
      return Val::flt(a * c);
    case BinOpKind::FloorDiv:
      if (c == 0)
        return fail(where, "division by zero in constant expression");
      return Val::flt(std::floor(a / c));
    case BinOpKind::Mod: {
      if (c == 0)
        return fail(where, "division by zero in constant expression");
      double m = std::fmod(a, c);
      if (m != 0 && ((m < 0) != (c < 0)))
        m += c;
      return Val::flt(m);
    }
    case BinOpKind::Pow:
      return Val::flt(std::pow(a, c));
    default:
      return fail(where, std::string("unsupported operand types for `") + sp +
                             "`: " + typeName(l) + " and " + typeName(r));
    }
  }
  // Integers as Python's: computed in 128 bits, kept when the result is in
  // [-2^63, 2^64) (values from 2^63 on are `wide`).
  __int128 a = l.asWide(), c = r.asWide(), res = 0;
  auto result = [&](__int128 v) -> FailureOr<Val> {
    std::optional<Val> out = Val::fromWide(v);
    if (!out)
      return overflow();
    return *out;
  };
  const __int128 kLimit = __int128(1) << 64;
  switch (op) {
  case BinOpKind::Add:
    return result(a + c);
  case BinOpKind::Sub:
    return result(a - c);
  case BinOpKind::Mul:
    if (__builtin_mul_overflow(a, c, &res))
      return overflow();
    return result(res);
  case BinOpKind::FloorDiv:
  case BinOpKind::Mod: {
    if (c == 0)
      return fail(where, "division by zero in constant expression");
    __int128 q = a / c, m = a % c;
    if (m != 0 && ((m < 0) != (c < 0))) {
      q -= 1;
      m += c;
    }
    return result(op == BinOpKind::FloorDiv ? q : m);
  }
  case BinOpKind::Pow: {
    if (c < 0)
      return Val::flt(std::pow(l.asDouble(), r.asDouble()));
    __int128 acc = 1, base = a;
    for (__int128 e = c; e > 0; e >>= 1) {
      if ((e & 1) && (__builtin_mul_overflow(acc, base, &acc) ||
                      acc >= kLimit || acc < -kLimit))
        return overflow();
      if (e > 1 && (__builtin_mul_overflow(base, base, &base) ||
                    base >= kLimit || base < -kLimit))
        return overflow();
    }
    return result(acc);
  }
  case BinOpKind::LShift:
    if (c < 0)
      return fail(where, "negative shift count");
    if (a == 0)
      return Val::integer(0);
    if (c >= 65)
      return overflow();
    return result(a * (__int128(1) << int(c)));
  case BinOpKind::RShift:
    if (c < 0)
      return fail(where, "negative shift count");
    return result(c >= 127 ? (a < 0 ? -1 : 0) : (a >> int(c)));
  case BinOpKind::BitAnd:
  case BinOpKind::BitOr:
  case BinOpKind::BitXor: {
    __int128 v = op == BinOpKind::BitAnd  ? (a & c)
                 : op == BinOpKind::BitOr ? (a | c)
                                          : (a ^ c);
    if (l.kind == Val::Kind::Bool && r.kind == Val::Kind::Bool)
      return Val::boolean(v != 0);
    return result(v);
  }
  default:
    return fail(where,
                std::string("unsupported operand types for `") + sp + "`");
  }
}

FailureOr<Val> IRGen::foldConstCompare(CmpOpKind op, const Val &l, const Val &r,
                                       const Node *where) {
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
    bool same = l.sameAs(r) &&
                (l.kind == Val::Kind::None || l.kind == Val::Kind::Bool ||
                 l.kind == Val::Kind::DType || l.kind == Val::Kind::Runtime);
    return Val::boolean(op == CmpOpKind::Is ? same : !same);
  }
  if (op == CmpOpKind::Eq || op == CmpOpKind::NotEq) {
    bool eq;
    if (l.isNumber() && r.isNumber())
      eq = l.asDouble() == r.asDouble() &&
           (l.kind == Val::Kind::Float || r.kind == Val::Kind::Float ||
            l.asWide() == r.asWide());
    else
      eq = l.sameAs(r);
    return Val::boolean(op == CmpOpKind::Eq ? eq : !eq);
  }
  if (l.isNumber() && r.isNumber()) {
    bool res;
    if (l.kind != Val::Kind::Float && r.kind != Val::Kind::Float) {
      __int128 a = l.asWide(), c = r.asWide();
      res = op == CmpOpKind::Lt    ? a < c
            : op == CmpOpKind::LtE ? a <= c
            : op == CmpOpKind::Gt  ? a > c
                                   : a >= c;
    } else {
      double a = l.asDouble(), c = r.asDouble();
      res = op == CmpOpKind::Lt    ? a < c
            : op == CmpOpKind::LtE ? a <= c
            : op == CmpOpKind::Gt  ? a > c
                                   : a >= c;
    }
    return Val::boolean(res);
  }
  if (l.kind == Val::Kind::Tuple && r.kind == Val::Kind::Tuple) {
    // Python's order: the first unequal elements decide, else the length.
    for (size_t k = 0; k < l.elems.size() && k < r.elems.size(); ++k) {
      FailureOr<Val> eq = foldConstCompare(CmpOpKind::Eq, l.elems[k], r.elems[k], where);
      if (failed(eq))
        return failure();
      if (!eq->truthy())
        return foldConstCompare(op, l.elems[k], r.elems[k], where);
    }
    size_t a = l.elems.size(), c = r.elems.size();
    return Val::boolean(op == CmpOpKind::Lt    ? a < c
                        : op == CmpOpKind::LtE ? a <= c
                        : op == CmpOpKind::Gt  ? a > c
                                               : a >= c);
  }
  if (l.kind == Val::Kind::Str && r.kind == Val::Kind::Str) {
    int c = l.s.compare(r.s);
    bool res = op == CmpOpKind::Lt    ? c < 0
               : op == CmpOpKind::LtE ? c <= 0
               : op == CmpOpKind::Gt  ? c > 0
                                      : c >= 0;
    return Val::boolean(res);
  }
  return fail(where, std::string("cannot compare ") + typeName(l) + " and " +
                         typeName(r) + " with `" + spelling(op) + "`");
}
