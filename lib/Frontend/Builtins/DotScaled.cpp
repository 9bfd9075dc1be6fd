//===- DotScaled.cpp - tl.dot_scaled as Hopper runs it --------------------===//
//
// Microscaled products (OCP MX: fp4 e2m1, fp8 e4m3 / e5m2, with one e8m0
// uint8 scale per 32 elements along K, or bf16 / fp16 operands, whose scale
// is optional). sm_90 has no block-scaled mma, so this is what Triton 3.6 does
// there: each operand is upcast to a 16-bit compute type (fp16 when either
// format is fp16, else bf16), multiplied by its broadcast scale (2^(s-127),
// made by shifting s into the exponent field; NaN where s == 255 unless
// fast_math), and the two meet in an ordinary tl.dot. Everything is built
// from the tl builtins (callTL), so every piece keeps its own checks.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include <cmath>

using namespace kiln;
using namespace kiln::fe;
using ast::BinOpKind;

namespace {
struct Builder {
  IRGen &g;
  const ast::CallExpr *e;

  mlir::FailureOr<Val> tl(llvm::StringRef name, std::vector<Val> pos,
                          std::vector<std::pair<std::string, Val>> kw = {}) {
    CallArgs a;
    a.pos = std::move(pos);
    a.posNodes.assign(a.pos.size(), e);
    a.kw = std::move(kw);
    a.kwNodes.assign(a.kw.size(), e);
    return g.callTL(name, a, e);
  }
  mlir::FailureOr<Val> bin(BinOpKind op, const Val &l, const Val &r) {
    return g.binary(op, l, r, e);
  }
  static Val shape(llvm::ArrayRef<int64_t> s) {
    std::vector<Val> dims;
    for (int64_t d : s)
      dims.push_back(Val::integer(d));
    return Val::tuple(std::move(dims));
  }
  mlir::FailureOr<Val> permute(const Val &v, llvm::ArrayRef<int64_t> order) {
    return tl("permute", {v, shape(order)});
  }
  /// Interleaves `lo` and `hi` along `dim` of a 2-D tensor (element 2i from
  /// lo, 2i + 1 from hi).
  mlir::FailureOr<Val> interleave(const Val &lo, const Val &hi, unsigned dim) {
    if (dim == 1)
      return tl("interleave", {lo, hi});
    mlir::FailureOr<Val> l = permute(lo, {1, 0}), h = permute(hi, {1, 0});
    if (failed(l) || failed(h))
      return mlir::failure();
    mlir::FailureOr<Val> j = tl("interleave", {*l, *h});
    if (failed(j))
      return mlir::failure();
    return permute(*j, {1, 0});
  }
};

bool isByte(DType d) { return d == DType::U8 || d == DType::I8; }

/// One fp4 (e2m1) code per element (0-15, in an int32 tensor) as the bits of
/// the 16-bit compute type: exact, since every e2m1 value is one there.
mlir::FailureOr<Val> fp4Bits(Builder &b, const Val &code, DType compute) {
  bool bf = compute == DType::BF16;
  int64_t mantBits = bf ? 7 : 10, bias = bf ? 127 : 15;
  auto I = [](int64_t v) { return Val::integer(v); };
  mlir::FailureOr<Val> mag = b.bin(BinOpKind::BitAnd, code, I(7));
  if (failed(mag))
    return mlir::failure();
  // |x| >= 1: exponent (mag >> 1) - 1, one mantissa bit (mag & 1);
  // mag 1 is 0.5; mag 0 is zero.
  mlir::FailureOr<Val> e = b.bin(BinOpKind::RShift, *mag, I(1));
  if (failed(e))
    return mlir::failure();
  mlir::FailureOr<Val> ebits = b.bin(BinOpKind::Add, *e, I(bias - 1));
  if (failed(ebits) || failed(ebits = b.bin(BinOpKind::LShift, *ebits, I(mantBits))))
    return mlir::failure();
  mlir::FailureOr<Val> m = b.bin(BinOpKind::BitAnd, *mag, I(1));
  if (failed(m) || failed(m = b.bin(BinOpKind::LShift, *m, I(mantBits - 1))))
    return mlir::failure();
  mlir::FailureOr<Val> normal = b.bin(BinOpKind::BitOr, *ebits, *m);
  if (failed(normal))
    return mlir::failure();
  mlir::FailureOr<Val> isNormal = b.g.compare(ast::CmpOpKind::GtE, *mag, I(2), b.e);
  mlir::FailureOr<Val> isHalf = b.g.compare(ast::CmpOpKind::Eq, *mag, I(1), b.e);
  if (failed(isNormal) || failed(isHalf))
    return mlir::failure();
  mlir::FailureOr<Val> small = b.tl("where", {*isHalf, I((bias - 1) << mantBits), I(0)});
  if (failed(small))
    return mlir::failure();
  mlir::FailureOr<Val> bits = b.tl("where", {*isNormal, *normal, *small});
  if (failed(bits))
    return mlir::failure();
  mlir::FailureOr<Val> sign = b.bin(BinOpKind::BitAnd, code, I(8));
  if (failed(sign) || failed(sign = b.bin(BinOpKind::LShift, *sign, I(12))))
    return mlir::failure();
  if (failed(bits = b.bin(BinOpKind::BitOr, *bits, *sign)))
    return mlir::failure();
  mlir::FailureOr<Val> narrow = b.g.cast(*bits, DType::I16, b.e);
  if (failed(narrow))
    return mlir::failure();
  return bitcastValue(b.g, *narrow, compute, b.e);
}

struct Operand {
  const Arg *value, *scale;
  std::string format;
  bool kPack;
  unsigned opIdx; ///< 0: lhs [M, K], 1: rhs [K, N]
};

/// The operand in the compute type with its scale applied; `k` receives its
/// K extent (after unpacking fp4).
mlir::FailureOr<Val> upcast(Builder &b, const Operand &o, DType compute, bool fastMath,
                            int64_t &k) {
  IRGen &g = b.g;
  const Val &v = o.value->v;
  const char *which = o.opIdx == 0 ? "lhs" : "rhs";
  if (!v.isRuntime() || !v.type.isTensor() || v.type.isPtr || v.type.shape.size() != 2)
    return g.fail(o.value->node, std::string("`tl.dot_scaled`: ") + which +
                                     " must be a 2-D tensor, got " + g.typeName(v));
  unsigned kDim = o.opIdx == 0 ? 1 : 0;
  DType d = v.type.dtype;
  mlir::FailureOr<Val> x = mlir::failure();
  if (o.format == "bf16" || o.format == "fp16") {
    DType want = o.format == "bf16" ? DType::BF16 : DType::F16;
    if (d != want)
      return g.fail(o.value->node, std::string("`tl.dot_scaled`: ") + which + " in format '" +
                                       o.format + "' must be a " + tritonName(want) +
                                       " tensor, got " + g.typeName(v));
    // A scale, if given, applies as to the other formats (Triton's
    // decomposition scales 16-bit operands too: gemlite passes 127s).
    k = v.type.shape[kDim];
    x = g.cast(v, compute, b.e);
    if (failed(x) || o.scale->v.kind == Val::Kind::None)
      return x;
  } else if (o.format == "e4m3" || o.format == "e5m2") {
    DType fp8 = o.format == "e4m3" ? DType::F8E4M3 : DType::F8E5M2;
    if (isByte(d))
      x = bitcastValue(g, v, fp8, b.e);
    else if (d == fp8)
      x = v;
    else
      return g.fail(o.value->node, std::string("`tl.dot_scaled`: ") + which + " in format '" +
                                       o.format + "' must hold uint8 or " + tritonName(fp8) +
                                       " elements, got " + g.typeName(v));
    if (failed(x) || failed(x = g.cast(*x, compute, b.e)))
      return mlir::failure();
    k = v.type.shape[kDim];
  } else { // e2m1: two codes per byte, the first in the low nibble
    if (!isByte(d))
      return g.fail(o.value->node, std::string("`tl.dot_scaled`: ") + which +
                                       " in format 'e2m1' must hold uint8 (two fp4 values "
                                       "per byte), got " + g.typeName(v));
    mlir::FailureOr<Val> bytes = d == DType::U8 ? mlir::FailureOr<Val>(v)
                                                : bitcastValue(g, v, DType::U8, b.e);
    if (failed(bytes) || failed(bytes = g.cast(*bytes, DType::I32, b.e)))
      return mlir::failure();
    mlir::FailureOr<Val> lo = b.bin(BinOpKind::BitAnd, *bytes, Val::integer(15));
    mlir::FailureOr<Val> hi = b.bin(BinOpKind::RShift, *bytes, Val::integer(4));
    if (failed(lo) || failed(hi) || failed(lo = fp4Bits(b, *lo, compute)) ||
        failed(hi = fp4Bits(b, *hi, compute)))
      return mlir::failure();
    // k_pack: packed along K; otherwise along M (lhs) or N (rhs).
    unsigned packed = o.kPack ? kDim : 1 - kDim;
    x = b.interleave(*lo, *hi, packed);
    if (failed(x))
      return mlir::failure();
    k = x->type.shape[kDim];
  }
  if (o.scale->v.kind == Val::Kind::None)
    return x;
  // The scale: [rows, K / group] of e8m0 (uint8) for both operands.
  const Val &s = o.scale->v;
  int64_t rows = x->type.shape[1 - kDim];
  if (!s.isRuntime() || !s.type.isTensor() || s.type.isPtr || !isByte(s.type.dtype) ||
      s.type.shape.size() != 2 || s.type.shape[0] != rows || s.type.shape[1] == 0 ||
      k % s.type.shape[1] != 0)
    return g.fail(o.scale->node, std::string("`tl.dot_scaled`: ") + which +
                                     "_scale must be a uint8 (e8m0) tensor of shape [" +
                                     std::to_string(rows) + ", K / group] with K = " +
                                     std::to_string(k) + ", got " + g.typeName(s));
  int64_t groups = s.type.shape[1], group = k / groups;
  mlir::FailureOr<Val> su = s.type.dtype == DType::U8 ? mlir::FailureOr<Val>(s)
                                                      : bitcastValue(g, s, DType::U8, b.e);
  if (failed(su))
    return mlir::failure();
  // [rows, groups] -> [rows, groups, group] -> [rows, K] (-> [K, rows] for rhs).
  auto spread = [&](const Val &t) -> mlir::FailureOr<Val> {
    mlir::FailureOr<Val> r = b.tl("expand_dims", {t, Val::integer(2)});
    if (failed(r) || failed(r = b.tl("broadcast_to", {*r, Builder::shape({rows, groups, group})})) ||
        failed(r = b.tl("reshape", {*r, Builder::shape({rows, k})})))
      return mlir::failure();
    return o.opIdx == 1 ? b.permute(*r, {1, 0}) : r;
  };
  mlir::FailureOr<Val> wide = g.cast(*su, DType::I32, b.e);
  if (failed(wide))
    return mlir::failure();
  mlir::FailureOr<Val> factor = mlir::failure();
  if (compute == DType::BF16) {
    factor = b.bin(BinOpKind::LShift, *wide, Val::integer(7));
    if (failed(factor) || failed(factor = g.cast(*factor, DType::I16, b.e)) ||
        failed(factor = bitcastValue(g, *factor, DType::BF16, b.e)))
      return mlir::failure();
  } else { // through fp32: scales beyond fp16's range become inf / 0
    factor = b.bin(BinOpKind::LShift, *wide, Val::integer(23));
    if (failed(factor) || failed(factor = bitcastValue(g, *factor, DType::F32, b.e)) ||
        failed(factor = g.cast(*factor, DType::F16, b.e)))
      return mlir::failure();
  }
  if (failed(factor = spread(*factor)))
    return mlir::failure();
  mlir::FailureOr<Val> scaled = b.bin(BinOpKind::Mul, *x, *factor);
  if (failed(scaled) || fastMath)
    return scaled;
  mlir::FailureOr<Val> isNan = g.compare(ast::CmpOpKind::Eq, *su, Val::integer(255), b.e);
  if (failed(isNan) || failed(isNan = spread(*isNan)))
    return mlir::failure();
  return b.tl("where", {*isNan, Val::flt(std::nan("")), *scaled});
}

mlir::FailureOr<Val> dotScaledBuiltin(BuiltinCall &c) {
  IRGen &g = c.g;
  Builder b{g, c.e};
  auto format = [&](const Arg &a, const char *what) -> mlir::FailureOr<std::string> {
    mlir::FailureOr<std::string> f = c.rd.constStr(a, what);
    if (failed(f))
      return mlir::failure();
    static const char *kFormats[] = {"e2m1", "e4m3", "e5m2", "bf16", "fp16"};
    if (!llvm::is_contained(kFormats, *f))
      return g.fail(a.node, std::string("`tl.dot_scaled`: ") + what + " '" + *f +
                                "' is not supported (expected 'e2m1', 'e4m3', 'e5m2', "
                                "'bf16' or 'fp16')");
    return f;
  };
  mlir::FailureOr<std::string> lf = format(c.a[2], "lhs_format");
  mlir::FailureOr<std::string> rf = format(c.a[5], "rhs_format");
  mlir::FailureOr<bool> fast = c.rd.constBoolOr(c.a[7], "fast_math", false);
  mlir::FailureOr<bool> lpack = c.rd.constBoolOr(c.a[8], "lhs_k_pack", true);
  mlir::FailureOr<bool> rpack = c.rd.constBoolOr(c.a[9], "rhs_k_pack", true);
  mlir::FailureOr<DType> out = c.rd.dtypeOr(c.a[10], "out_dtype", DType::F32);
  if (failed(lf) || failed(rf) || failed(fast) || failed(lpack) || failed(rpack) ||
      failed(out))
    return mlir::failure();
  DType compute = (*lf == "fp16" || *rf == "fp16") ? DType::F16 : DType::BF16;
  int64_t kl = 0, kr = 0;
  mlir::FailureOr<Val> a = upcast(b, {&c.a[0], &c.a[1], *lf, *lpack, 0}, compute, *fast, kl);
  if (failed(a))
    return mlir::failure();
  mlir::FailureOr<Val> bb = upcast(b, {&c.a[3], &c.a[4], *rf, *rpack, 1}, compute, *fast, kr);
  if (failed(bb))
    return mlir::failure();
  if (kl != kr)
    return g.fail(c.e, "`tl.dot_scaled`: the operands' K differ (lhs " + std::to_string(kl) +
                           ", rhs " + std::to_string(kr) + ", counting two fp4 values per byte)");
  std::vector<std::pair<std::string, Val>> kw = {{"out_dtype", Val::dtype(*out)}};
  if (!c.rd.isNone(c.a[6]))
    kw.push_back({"acc", c.a[6].v});
  return b.tl("dot", {*a, *bb}, std::move(kw));
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::dotScaledBuiltins() {
  static const BuiltinDef defs[] = {
      {"dot_scaled",
       {"lhs", "lhs_scale", "lhs_format", "rhs", "rhs_scale", "rhs_format", "acc=None",
        "fast_math=False", "lhs_k_pack=True", "rhs_k_pack=True", "out_dtype=float32"},
       false, false, dotScaledBuiltin, false},
  };
  return defs;
}
