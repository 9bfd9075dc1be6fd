//===- Random.cpp - Philox random numbers, bit-exact with Triton 3.6 ------===//
//
// Triton's generator (python/triton/language/random.py) is counter-based
// Philox4x32 (or 4x64 when tl.philox gets 64-bit counters):
//
//   * the seed is converted to uint64; 32-bit counters take its low half as
//     key k0 and its high half as k1; 64-bit counters take the whole seed as
//     k0 and a zero tensor of shape [1] as k1;
//   * one round: c0' = umulhi(B, c2) ^ c1 ^ k0, c2' = umulhi(A, c0) ^ c3 ^ k1,
//     c1' = B * c2, c3' = A * c0, then the key grows by the Weyl constants;
//   * randint4x's counters are (offset as uint32, the offset's bits 32..63
//     for 64-bit offsets and 0 otherwise, 0, 0) -- Triton >= 3.4 (PR 6832);
//     older versions ran Philox4x64 on 64-bit offsets;
//   * a uniform float is |x| of the bits read as a signed integer (negative
//     values map to -x - 1) times (2**23 - 1) / 2**23 / 2**(N-1);
//   * normals use Box-Muller on the first two (or each pair of) uniforms.
//
// The IR is generated with the same operations (and Triton's typing rules)
// as the Python code, so integers and uniform floats are bit-identical.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

#define KILN_TRY(var, expr)                                                    \
  FailureOr<Val> var##OrErr = (expr);                                          \
  if (failed(var##OrErr))                                                      \
    return failure();                                                          \
  Val var = *var##OrErr

namespace {

constexpr int64_t kDefaultRounds = 10;

struct PhiloxConstants {
  uint64_t keyA, keyB, roundA, roundB;
};
constexpr PhiloxConstants kPhilox32 = {0x9E3779B9, 0xBB67AE85, 0xD2511F53,
                                       0xCD9E8D57};
constexpr PhiloxConstants kPhilox64 = {0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B,
                                       0xD2E7470EE14C6C93, 0xCA5A826395121157};

using Quad = std::array<Val, 4>;

/// Generates the random builtins' IR for one call.
struct RandomGen {
  BuiltinCall &c;
  IRGen &g;
  const CallExpr *e;

  explicit RandomGen(BuiltinCall &c) : c(c), g(c.g), e(c.e) {}

  FailureOr<Val> bin(BinOpKind op, const Val &l, const Val &r) {
    return g.binary(op, l, r, e);
  }
  FailureOr<Val> bitcast(const Val &v, DType d) {
    return bitcastValue(g, v, d, e);
  }

  FailureOr<int64_t> rounds(const Arg &a) {
    if (!a.given)
      return kDefaultRounds;
    FailureOr<int64_t> n = c.rd.constInt(a, "n_rounds");
    if (failed(n))
      return failure();
    if (*n < 0)
      return g.fail(a.node, "`n_rounds` of `" + c.rd.fn +
                                "` must not be negative, got " +
                                std::to_string(*n));
    return n;
  }

  /// An integer scalar or tensor argument (constexprs become scalars).
  FailureOr<Val> integer(const Arg &a, llvm::StringRef what,
                         llvm::StringRef expected) {
    auto bad = [&](const Val &v) {
      return g.fail(a.node, "`" + what + "` of `" + c.rd.fn + "` must be " +
                                expected + ", got " + g.typeName(v));
    };
    if (a.v.kind == Val::Kind::Float)
      return bad(a.v);
    FailureOr<Val> v = c.rd.value(a, what);
    if (failed(v))
      return failure();
    if (v->type.isPtr || isFloat(v->type.dtype))
      return bad(*v);
    return v;
  }

  FailureOr<Quad> rounds(Quad ctr, Val k0, Val k1, int64_t n, bool wide) {
    const PhiloxConstants &k = wide ? kPhilox64 : kPhilox32;
    DType d = wide ? DType::U64 : DType::U32;
    auto cst = [&](uint64_t v) { return g.constantInt(int64_t(v), d); };
    for (int64_t r = 0; r < n; ++r) {
      Val a = cst(k.roundA), b = cst(k.roundB);
      KILN_TRY(hiB, umulhi(g, b, ctr[2], e, c.rd.fn));
      KILN_TRY(hiA, umulhi(g, a, ctr[0], e, c.rd.fn));
      KILN_TRY(x0, bin(BinOpKind::BitXor, hiB, ctr[1]));
      KILN_TRY(n0, bin(BinOpKind::BitXor, x0, k0));
      KILN_TRY(x2, bin(BinOpKind::BitXor, hiA, ctr[3]));
      KILN_TRY(n2, bin(BinOpKind::BitXor, x2, k1));
      KILN_TRY(n1, bin(BinOpKind::Mul, b, ctr[2]));
      KILN_TRY(n3, bin(BinOpKind::Mul, a, ctr[0]));
      ctr = {n0, n1, n2, n3};
      KILN_TRY(nk0, bin(BinOpKind::Add, k0, cst(k.keyA)));
      KILN_TRY(nk1, bin(BinOpKind::Add, k1, cst(k.keyB)));
      k0 = nk0;
      k1 = nk1;
    }
    return ctr;
  }

  /// Triton's philox: key from the seed, counters bitcast to uint32/uint64.
  FailureOr<Quad> philox(const Arg &seedArg, Quad ctr, int64_t n) {
    KILN_TRY(seed, integer(seedArg, "seed", "an integer"));
    KILN_TRY(seed64, g.cast(seed, DType::U64, e));
    unsigned w = bitWidth(ctr[0].type.dtype);
    if (w != 32 && w != 64)
      return g.fail(e, "`" + c.rd.fn +
                           "` needs 32- or 64-bit integer counters, got " +
                           g.typeName(ctr[0]));
    for (const Val &x : ctr)
      if (bitWidth(x.type.dtype) != w)
        return g.fail(e, "`" + c.rd.fn +
                             "` counters must have the same width, got " +
                             g.typeName(ctr[0]) + " and " + g.typeName(x));
    bool wide = w == 64;
    DType d = wide ? DType::U64 : DType::U32;
    Val k0 = seed64, k1;
    if (wide) {
      KILN_TRY(zero1,
               g.broadcastTo(g.constantInt(0, DType::U64), {1}, e, "key"));
      k1 = zero1;
    } else {
      Val mask = Val::integer(0xffffffff);
      KILN_TRY(shifted, bin(BinOpKind::RShift, seed64, Val::integer(32)));
      KILN_TRY(hi, bin(BinOpKind::BitAnd, shifted, mask));
      KILN_TRY(lo, bin(BinOpKind::BitAnd, seed64, mask));
      KILN_TRY(hi32, g.cast(hi, DType::U32, e));
      KILN_TRY(lo32, g.cast(lo, DType::U32, e));
      k0 = lo32;
      k1 = hi32;
    }
    for (Val &x : ctr) {
      KILN_TRY(b, bitcast(x, d));
      x = b;
    }
    return rounds(ctr, k0, k1, n, wide);
  }

  /// randint4x: counters (offset_lo, offset_hi, 0, 0).
  FailureOr<Quad> randint4x(const Arg &seed, const Arg &offsetArg, int64_t n) {
    KILN_TRY(offset,
             integer(offsetArg, "offset", "an integer scalar or tensor"));
    KILN_TRY(lo, g.cast(offset, DType::U32, e));
    KILN_TRY(zero, bin(BinOpKind::Mul, lo, Val::integer(0)));
    Val hi = zero;
    if (bitWidth(offset.type.dtype) > 32) {
      KILN_TRY(shifted, bin(BinOpKind::RShift, offset, Val::integer(32)));
      KILN_TRY(h, g.cast(shifted, DType::U32, e));
      hi = h;
    }
    return philox(seed, {lo, hi, zero, zero}, n);
  }

  FailureOr<Val> uniform(const Val &in) {
    DType d = in.type.dtype;
    bool narrow = d == DType::U32 || d == DType::I32;
    if (!narrow && d != DType::U64 && d != DType::I64)
      return g.fail(e, "`" + c.rd.fn +
                           "` expects int32, uint32, int64 or uint64 "
                           "values, got " +
                           g.typeName(in));
    // The largest scale with MAX_INT * scale < 1.0 after float rounding.
    double scale = narrow ? 4.6566127342e-10 : 1.0842020432385337e-19;
    KILN_TRY(x, bitcast(in, narrow ? DType::I32 : DType::I64));
    KILN_TRY(isNeg, g.compare(CmpOpKind::Lt, x, Val::integer(0), e));
    KILN_TRY(neg, g.unary(UnaryOpKind::Minus, x, e));
    KILN_TRY(negm1, bin(BinOpKind::Sub, neg, Val::integer(1)));
    KILN_TRY(folded, callWith(g, "tl.where", {isNeg, negm1, x}, e));
    return bin(BinOpKind::Mul, folded, Val::flt(scale));
  }

  /// Box-Muller: (r cos(2 pi u2), r sin(2 pi u2)), r = sqrt(-2 log(u1)).
  FailureOr<std::pair<Val, Val>> normalPair(const Val &u1In, const Val &u2) {
    KILN_TRY(u1, callWith(g, "tl.maximum", {Val::flt(1.0e-7), u1In}, e));
    KILN_TRY(th, bin(BinOpKind::Mul, Val::flt(6.283185307179586), u2));
    KILN_TRY(lg, callWith(g, "tl.log", {u1}, e));
    KILN_TRY(m, bin(BinOpKind::Mul, Val::flt(-2.0), lg));
    KILN_TRY(r, callWith(g, "tl.sqrt", {m}, e));
    KILN_TRY(cs, callWith(g, "tl.cos", {th}, e));
    KILN_TRY(sn, callWith(g, "tl.sin", {th}, e));
    KILN_TRY(n1, bin(BinOpKind::Mul, r, cs));
    KILN_TRY(n2, bin(BinOpKind::Mul, r, sn));
    return std::make_pair(n1, n2);
  }

  FailureOr<Quad> uniform4(const Quad &q) {
    Quad out;
    for (int k = 0; k < 4; ++k) {
      KILN_TRY(u, uniform(q[k]));
      out[k] = u;
    }
    return out;
  }
};

Val tuple(llvm::ArrayRef<Val> vals) {
  return Val::tuple(std::vector<Val>(vals.begin(), vals.end()));
}

FailureOr<Val> philoxBuiltin(BuiltinCall &c) {
  RandomGen r(c);
  FailureOr<int64_t> n = r.rounds(c.a[5]);
  if (failed(n))
    return failure();
  Quad ctr;
  for (int k = 0; k < 4; ++k) {
    std::string what = "c" + std::to_string(k);
    KILN_TRY(v, r.integer(c.a[k + 1], what, "an integer scalar or tensor"));
    ctr[k] = v;
  }
  FailureOr<Quad> q = r.philox(c.a[0], ctr, *n);
  if (failed(q))
    return failure();
  return tuple(*q);
}

/// Triton's philox_impl(c0, c1, c2, c3, k0, k1, n_rounds): the rounds alone,
/// with the key given; uint32 counters run Philox4x32, uint64 Philox4x64.
FailureOr<Val> philoxImplBuiltin(BuiltinCall &c) {
  RandomGen r(c);
  FailureOr<int64_t> n = r.rounds(c.a[6]);
  if (failed(n))
    return failure();
  Quad ctr;
  for (int k = 0; k < 4; ++k) {
    std::string what = "c" + std::to_string(k);
    KILN_TRY(v, r.integer(c.a[k], what, "an integer scalar or tensor"));
    ctr[k] = v;
  }
  KILN_TRY(k0, r.integer(c.a[4], "k0", "an integer scalar or tensor"));
  KILN_TRY(k1, r.integer(c.a[5], "k1", "an integer scalar or tensor"));
  DType d = ctr[0].type.dtype;
  if (d != DType::U32 && d != DType::U64)
    return c.g.fail(c.a[0].node, "dtype not supported in philox_impl: `c0` must "
                                 "be uint32 or uint64, got " +
                                     c.g.typeName(ctr[0]));
  FailureOr<Quad> q = r.rounds(ctr, k0, k1, *n, d == DType::U64);
  if (failed(q))
    return failure();
  return tuple(*q);
}

/// The four Philox words of (seed, offset, n_rounds) = c.a[0..2], which
/// randint4x returns and rand/randn/rand4x convert.
FailureOr<Quad> philoxBits(RandomGen &r, BuiltinCall &c) {
  FailureOr<int64_t> n = r.rounds(c.a[2]);
  if (failed(n))
    return failure();
  return r.randint4x(c.a[0], c.a[1], *n);
}

FailureOr<Val> randint4xBuiltin(BuiltinCall &c) {
  RandomGen r(c);
  FailureOr<Quad> q = philoxBits(r, c);
  if (failed(q))
    return failure();
  return tuple(*q);
}

FailureOr<Val> randintBuiltin(BuiltinCall &c) {
  FailureOr<Val> q = randint4xBuiltin(c);
  if (failed(q))
    return failure();
  return q->elems[0];
}

FailureOr<Val> rand4xBuiltin(BuiltinCall &c) {
  RandomGen r(c);
  FailureOr<Quad> q = philoxBits(r, c);
  if (failed(q))
    return failure();
  FailureOr<Quad> u = r.uniform4(*q);
  if (failed(u))
    return failure();
  return tuple(*u);
}

FailureOr<Val> randBuiltin(BuiltinCall &c) {
  RandomGen r(c);
  FailureOr<Quad> q = philoxBits(r, c);
  if (failed(q))
    return failure();
  return r.uniform((*q)[0]);
}

FailureOr<Val> randnBuiltin(BuiltinCall &c) {
  RandomGen r(c);
  FailureOr<Quad> q = philoxBits(r, c);
  if (failed(q))
    return failure();
  KILN_TRY(u1, r.uniform((*q)[0]));
  KILN_TRY(u2, r.uniform((*q)[1]));
  FailureOr<std::pair<Val, Val>> p = r.normalPair(u1, u2);
  if (failed(p))
    return failure();
  return p->first;
}

FailureOr<Val> randn4xBuiltin(BuiltinCall &c) {
  FailureOr<Val> u = rand4xBuiltin(c);
  if (failed(u))
    return failure();
  RandomGen r(c);
  const std::vector<Val> &v = u->elems;
  FailureOr<std::pair<Val, Val>> p = r.normalPair(v[0], v[1]);
  if (failed(p))
    return failure();
  FailureOr<std::pair<Val, Val>> q = r.normalPair(v[2], v[3]);
  if (failed(q))
    return failure();
  return tuple({p->first, p->second, q->first, q->second});
}

FailureOr<Val> uniformBuiltin(BuiltinCall &c) {
  RandomGen r(c);
  KILN_TRY(x, r.integer(c.a[0], "x", "an integer scalar or tensor"));
  return r.uniform(x);
}

FailureOr<Val> normalPairBuiltin(BuiltinCall &c) {
  RandomGen r(c);
  KILN_TRY(u1, c.rd.value(c.a[0], "u1"));
  KILN_TRY(u2, c.rd.value(c.a[1], "u2"));
  FailureOr<std::pair<Val, Val>> p = r.normalPair(u1, u2);
  if (failed(p))
    return failure();
  return tuple({p->first, p->second});
}

} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::randomBuiltins() {
  static const BuiltinDef defs[] = {
      {"philox",
       {"seed", "c0", "c1", "c2", "c3", "n_rounds=10"},
       false,
       false,
       philoxBuiltin},
      {"philox_impl",
       {"c0", "c1", "c2", "c3", "k0", "k1", "n_rounds=10"},
       false,
       false,
       philoxImplBuiltin},
      {"randint",
       {"seed", "offset", "n_rounds=10"},
       false,
       false,
       randintBuiltin},
      {"randint4x",
       {"seed", "offset", "n_rounds=10"},
       false,
       false,
       randint4xBuiltin},
      {"rand", {"seed", "offset", "n_rounds=10"}, false, false, randBuiltin},
      {"rand4x",
       {"seed", "offsets", "n_rounds=10"},
       false,
       false,
       rand4xBuiltin},
      {"randn", {"seed", "offset", "n_rounds=10"}, false, false, randnBuiltin},
      {"randn4x",
       {"seed", "offset", "n_rounds=10"},
       false,
       false,
       randn4xBuiltin},
      {"uint_to_uniform_float", {"x"}, false, false, uniformBuiltin},
      {"pair_uniform_to_normal", {"u1", "u2"}, false, false, normalPairBuiltin},
  };
  return defs;
}
