//===- Math.cpp - Elementwise math, selection and conversions -------------===//
//
// sqrt/exp/log/sin/cos/floor/ceil/erf (fp32 and fp64 only, as in Triton),
// sqrt_rn / div_rn (fp32 only), fdiv, sigmoid, clamp, abs, maximum /
// minimum, fma, where, umulhi and tl.cast / x.to(...).
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;
namespace arith = mlir::arith;
namespace math = mlir::math;

namespace {
static FailureOr<Val> whereBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;

  FailureOr<Val> c = rd.value(a[0], "condition");
  if (failed(c))
    return failure();
  FailureOr<Val> cb = g.toBool(*c, a[0].node);
  if (failed(cb))
    return failure();
  Val x = a[1].v, y = a[2].v;
  if (failed(g.binaryTypeCheck(x, y, true, true, true, false, e, name)))
    return failure();
  if (x.type != y.type)
    return g.fail(e, "`tl.where` operands have different types: " +
                         g.typeName(x) + " and " + g.typeName(y));
  Val cond = *cb;
  // A scalar condition selects whole values; a tensor one selects
  // elementwise after broadcasting all three, in Triton's order.
  if (cond.type.isTensor()) {
    if (failed(g.broadcastPair(cond, x, e, name)) ||
        failed(g.broadcastPair(x, y, e, name)) ||
        failed(g.broadcastPair(cond, x, e, name)))
      return failure();
  }
  return Val::runtime(tile::WhereOp::create(g.b, l, toMLIR(&g.ctx, x.type),
                                            cond.value, x.value, y.value),
                      x.type);
}

static FailureOr<Val> unaryMathBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;
  FailureOr<Val> x = rd.value(a[0], "x");
  if (failed(x))
    return failure();
  DType d = x->type.dtype;
  if (x->type.isPtr || (d != DType::F32 && d != DType::F64))
    return g.fail(a[0].node, "`" + name +
                                 "` expects fp32 or fp64 values, "
                                 "got " +
                                 g.typeName(*x) +
                                 " (convert with .to(tl.float32))");
  mlir::Value v;
  if (name == "tl.sqrt")
    v = math::SqrtOp::create(g.b, l, x->value);
  else if (name == "tl.rsqrt")
    v = math::RsqrtOp::create(g.b, l, x->value);
  else if (name == "tl.exp")
    v = math::ExpOp::create(g.b, l, x->value);
  else if (name == "tl.exp2")
    v = math::Exp2Op::create(g.b, l, x->value);
  else if (name == "tl.log2")
    v = math::Log2Op::create(g.b, l, x->value);
  else if (name == "tl.floor")
    v = math::FloorOp::create(g.b, l, x->value);
  else if (name == "tl.ceil")
    v = math::CeilOp::create(g.b, l, x->value);
  else if (name == "tl.erf")
    v = math::ErfOp::create(g.b, l, x->value);
  else
    v = math::LogOp::create(g.b, l, x->value);
  return Val::runtime(v, x->type);
}

static FailureOr<Val> absBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  FailureOr<Val> x = rd.value(a[0], "x");
  if (failed(x))
    return failure();
  if (x->type.isPtr)
    return g.fail(a[0].node, "`tl.abs` expects numbers, got " + g.typeName(*x));
  DType d = x->type.dtype;
  if (isFloat(d))
    return Val::runtime(math::AbsFOp::create(g.b, l, x->value), x->type);
  if (isUnsigned(d) || d == DType::I1)
    return *x;
  return Val::runtime(math::AbsIOp::create(g.b, l, x->value), x->type);
}

static FailureOr<Val> maximumBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;

  bool nanAll = false;
  if (!rd.isNone(a[2])) {
    if (a[2].v.kind != Val::Kind::Str)
      return g.fail(a[2].node, "`propagate_nan` must be "
                               "tl.PropagateNan.ALL or NONE");
    nanAll = a[2].v.s == "ALL";
  }
  Val x = a[0].v, y = a[1].v;
  if (x.isNumber() && y.isNumber()) {
    bool takeY = name == "tl.maximum" ? y.asDouble() > x.asDouble()
                                      : y.asDouble() < x.asDouble();
    return takeY ? y : x;
  }
  if (failed(g.binaryTypeCheck(x, y, false, false, true, false, e, name)))
    return failure();
  DType d = x.type.dtype;
  bool mx = name == "tl.maximum";
  mlir::Value v;
  if (isFloat(d)) {
    if (nanAll)
      v = mx ? mlir::Value(arith::MaximumFOp::create(g.b, l, x.value, y.value))
             : arith::MinimumFOp::create(g.b, l, x.value, y.value);
    else
      v = mx ? mlir::Value(arith::MaxNumFOp::create(g.b, l, x.value, y.value))
             : arith::MinNumFOp::create(g.b, l, x.value, y.value);
  } else if (isUnsigned(d)) {
    v = mx ? mlir::Value(arith::MaxUIOp::create(g.b, l, x.value, y.value))
           : arith::MinUIOp::create(g.b, l, x.value, y.value);
  } else {
    v = mx ? mlir::Value(arith::MaxSIOp::create(g.b, l, x.value, y.value))
           : arith::MinSIOp::create(g.b, l, x.value, y.value);
  }
  return Val::runtime(v, x.type);
}

/// tl.add / tl.sub / tl.mul(x, y, sanitize_overflow=True): the `+`, `-`
/// and `*` operators (Triton's overflow sanitizer, which the flag controls,
/// runs only in its debug mode; Kiln has none, so the flag is only checked).
static FailureOr<Val> arithmeticBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  if (!a[2].v.isConstexpr())
    return g.fail(a[2].node, "`sanitize_overflow` of `" + rd.fn +
                                 "` must be a constexpr bool, got " +
                                 g.typeName(a[2].v));
  BinOpKind op = rd.fn == "tl.add"   ? BinOpKind::Add
                 : rd.fn == "tl.sub" ? BinOpKind::Sub
                                     : BinOpKind::Mul;
  return g.binary(op, a[0].v, a[1].v, e);
}

static FailureOr<Val> fmaBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;

  Val x = a[0].v, y = a[1].v, z = a[2].v;
  if (failed(g.binaryTypeCheck(x, y, false, false, true, false, e, name)) ||
      failed(g.binaryTypeCheck(z, x, false, false, true, false, e, name)) ||
      failed(g.binaryTypeCheck(z, y, false, false, true, false, e, name)))
    return failure();
  if (!isFloat(x.type.dtype))
    return g.fail(e, "`tl.fma` expects floating-point values, got " +
                         g.typeName(x));
  return Val::runtime(math::FmaOp::create(g.b, l, x.value, y.value, z.value),
                      x.type);
}

/// fp32/fp64 -> narrower float rounded toward zero: arith.truncf with
/// roundingmode = toward_zero (MathToNVVM.cpp emits `cvt.rz`).
static FailureOr<Val> truncateTowardZero(IRGen &g, const Val &v, DType d,
                                         const ast::Node *where) {
  DType s = v.type.dtype;
  if (s != DType::F32 && s != DType::F64)
    return g.fail(where, std::string("fp_downcast_rounding=\"rtz\" converts "
                                     "fp32 or fp64, got ") +
                             tritonName(s));
  auto mode = arith::RoundingModeAttr::get(&g.ctx,
                                           arith::RoundingMode::toward_zero);
  mlir::Value r = arith::TruncFOp::create(
      g.b, g.loc(where), toMLIR(&g.ctx, v.type.withDType(d)), v.value, mode,
      arith::FastMathFlagsAttr());
  return Val::runtime(r, v.type.withDType(d));
}

/// Triton's casts that involve a pointer (tile.ptr_cast): an integer made a
/// pointer (widened to i64 first), a pointer as another pointer type, and a
/// pointer made int64 (or int1: whether it is not null).
static FailureOr<Val> pointerCast(IRGen &g, const Val &x, const Val &to,
                                  const ast::Node *where) {
  mlir::Location l = g.loc(where);
  TType t = x.type;
  auto ptrCast = [&](const Val &v, TType result) {
    return Val::runtime(tile::PtrCastOp::create(g.b, l, toMLIR(&g.ctx, result),
                                                v.value),
                        result);
  };
  if (to.dtPtr) {
    TType result{to.dt, true, t.shape};
    if (t.isPtr) {
      if (t.dtype != to.dt)
        return ptrCast(x, result);
      // The same element type: only a pointer to const changes (to a plain
      // pointer, as Triton's `pointer_type(T)` is not const).
      Val same = x;
      same.type.isConst = false;
      return same;
    }
    if (!isIntDType(t.dtype) || t.dtype == DType::I1)
      return g.fail(where, "cannot convert " + g.typeName(x) +
                               " to a pointer; only integer addresses can be");
    Val addr = x;
    if (t.dtype != DType::I64 && t.dtype != DType::U64) {
      FailureOr<Val> wide = g.cast(x, DType::I64, where);
      if (failed(wide))
        return failure();
      addr = *wide;
    }
    return ptrCast(addr, result);
  }
  if (to.dt == DType::I64 || to.dt == DType::U64 || to.dt == DType::I1) {
    Val addr = ptrCast(x, t.withDType(DType::I64));
    if (to.dt != DType::I1)
      return addr;
    return g.compare(ast::CmpOpKind::NotEq, addr, Val::integer(0), where);
  }
  return g.fail(where, "a pointer converts only to int64, int1 or another "
                       "pointer type, not " +
                           std::string(tritonName(to.dt)));
}

static FailureOr<Val> castBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  // A number becomes a scalar of its default type first, as Triton's
  // to_tensor makes it (`tl.cast(0, tl.int64)`: an i32 0 cast to i64).
  Val in = a[0].v;
  if (in.isNumber()) {
    FailureOr<Val> v = g.toRuntime(in, a[0].node);
    if (failed(v))
      return failure();
    in = *v;
  }
  if (!in.isRuntime())
    return g.fail(a[0].node, "cannot convert " + g.typeName(in) +
                                 " with .to(); only tensors, runtime scalars "
                                 "and numbers have a dtype");
  if (a[1].v.kind == Val::Kind::DType &&
      (a[1].v.dtPtr || in.type.isPtr) && rd.isNone(a[3]) &&
      rd.isNone(a[2]))
    return pointerCast(g, in, a[1].v, e);
  FailureOr<DType> d = rd.dtype(a[1], "dtype");
  if (failed(d))
    return failure();
  if (!rd.isNone(a[3])) {
    FailureOr<bool> bc = rd.constBool(a[3], "bitcast");
    if (failed(bc))
      return failure();
    if (*bc)
      return bitcastValue(g, in, *d, e);
  }
  if (!rd.isNone(a[2])) {
    FailureOr<std::string> r = rd.constStr(a[2], "fp_downcast_rounding");
    if (failed(r))
      return failure();
    if (*r != "rtne" && *r != "rtz")
      return g.fail(a[2].node, "invalid rounding mode `" + *r +
                                   "`; supported rounding modes are "
                                   "'rtne' and 'rtz'");
    DType s = in.type.dtype;
    if (s == *d)
      return in;
    if (!isFloat(s) || !isFloat(*d) || bitWidth(*d) >= bitWidth(s))
      return g.fail(a[2].node,
                    std::string("fp_downcast_rounding should be set only for "
                                "truncating fp conversions; this converts ") +
                        tritonName(s) + " to " + tritonName(*d));
    if (*r == "rtz" && (*d == DType::F8E4M3 || *d == DType::F8E5M2))
      return g.fail(a[2].node, std::string("fp_downcast_rounding=\"rtz\" to ") +
                                   tritonName(*d) +
                                   " is not supported (fp8 conversions round "
                                   "to nearest even)");
    if (*r == "rtz")
      return truncateTowardZero(g, in, *d, e);
  }
  return g.cast(in, *d, e);
}
} // namespace

/// An fp32/fp64 operand of a transcendental function.
static FailureOr<Val> floatOperand(BuiltinCall &c, const Arg &a) {
  FailureOr<Val> x = c.rd.value(a, "x");
  if (failed(x))
    return failure();
  DType d = x->type.dtype;
  if (x->type.isPtr || (d != DType::F32 && d != DType::F64))
    return c.g.fail(a.node,
                    "`" + c.rd.fn + "` expects fp32 or fp64 values, got " +
                        c.g.typeName(*x) + " (convert with .to(tl.float32))");
  return x;
}

static FailureOr<Val> sinBuiltin(BuiltinCall &c) {
  FailureOr<Val> x = floatOperand(c, c.a[0]);
  if (failed(x))
    return failure();
  return Val::runtime(math::SinOp::create(c.g.b, c.loc, x->value), x->type);
}

static FailureOr<Val> cosBuiltin(BuiltinCall &c) {
  FailureOr<Val> x = floatOperand(c, c.a[0]);
  if (failed(x))
    return failure();
  return Val::runtime(math::CosOp::create(c.g.b, c.loc, x->value), x->type);
}

FailureOr<Val> kiln::fe::umulhi(IRGen &g, Val x, Val y, const ast::Node *where,
                                llvm::StringRef fn) {
  if (failed(g.binaryTypeCheck(x, y, false, false, /*arith=*/true, false, where,
                               fn)))
    return failure();
  DType d = x.type.dtype;
  if (d != DType::I32 && d != DType::I64 && d != DType::U32 && d != DType::U64)
    return g.fail(where, "`" + fn +
                             "` expects int32, int64, uint32 or uint64 "
                             "values, got " +
                             g.typeName(x));
  // Triton's umulhi is the unsigned high half whatever the signedness.
  auto mul =
      mlir::arith::MulUIExtendedOp::create(g.b, g.loc(where), x.value, y.value);
  return Val::runtime(mul.getHigh(), x.type);
}

static FailureOr<Val> umulhiBuiltin(BuiltinCall &c) {
  return umulhi(c.g, c.a[0].v, c.a[1].v, c.e, c.rd.fn);
}

/// Triton's _check_dtype: every tensor argument (Python numbers are not
/// checked) has one of the listed dtypes.
static LogicalResult checkFloatArgs(BuiltinCall &c, bool allowF64) {
  for (const Arg &a : c.a) {
    if (!a.given || !a.v.isRuntime())
      continue;
    DType d = a.v.type.dtype;
    if (!a.v.type.isPtr && (d == DType::F32 || (allowF64 && d == DType::F64)))
      continue;
    return c.g.fail(a.node, "`" + c.rd.fn + "` expects " +
                                (allowF64 ? "fp32 or fp64" : "fp32") +
                                " values, got " + c.g.typeName(a.v) +
                                " (convert with .to(tl.float32))");
  }
  return success();
}

/// tl.div_rn: IEEE division of fp32 values.
static FailureOr<Val> divRnBuiltin(BuiltinCall &c) {
  if (failed(checkFloatArgs(c, /*allowF64=*/false)))
    return failure();
  Val x = c.a[0].v, y = c.a[1].v;
  if (failed(c.g.binaryTypeCheck(x, y, false, false, true, false, c.e,
                                 c.rd.fn)))
    return failure();
  if (x.type.dtype != DType::F32)
    return c.g.fail(c.e, "`" + c.rd.fn + "` expects fp32 values, got " +
                             c.g.typeName(x));
  return Val::runtime(
      tile::PreciseDivFOp::create(c.g.b, c.loc, x.value, y.value), x.type);
}

/// tl.sqrt_rn: IEEE square root of fp32 values.
static FailureOr<Val> sqrtRnBuiltin(BuiltinCall &c) {
  if (failed(checkFloatArgs(c, /*allowF64=*/false)))
    return failure();
  FailureOr<Val> x = c.rd.value(c.a[0], "x");
  if (failed(x))
    return failure();
  if (x->type.dtype != DType::F32)
    return c.g.fail(c.a[0].node, "`" + c.rd.fn + "` expects fp32 values, got " +
                                     c.g.typeName(*x));
  return Val::runtime(tile::PreciseSqrtOp::create(c.g.b, c.loc, x->value),
                      x->type);
}

/// tl.fdiv(x, y, ieee_rounding=False): `x / y` of two floats. Triton 3.6
/// reads ieee_rounding but emits the same division either way.
static FailureOr<Val> fdivBuiltin(BuiltinCall &c) {
  if (!c.rd.isNone(c.a[2]) && failed(c.rd.constBool(c.a[2], "ieee_rounding")))
    return failure();
  std::vector<Val> xy;
  for (unsigned k = 0; k < 2; ++k) {
    FailureOr<Val> v = c.rd.value(c.a[k], k ? "y" : "x");
    if (failed(v))
      return failure();
    if (v->type.isPtr || !isFloat(v->type.dtype))
      return c.g.fail(c.a[k].node, "both operands of `" + c.rd.fn +
                                       "` must have floating scalar type, "
                                       "got " +
                                       c.g.typeName(*v));
    xy.push_back(*v);
  }
  if (failed(c.g.binaryTypeCheck(xy[0], xy[1], false, false, true,
                                 /*divOrMod=*/true, c.e, c.rd.fn)))
    return failure();
  return Val::runtime(
      arith::DivFOp::create(c.g.b, c.loc, xy[0].value, xy[1].value),
      xy[0].type);
}

/// tl.sigmoid(x) = 1 / (1 + exp(-x)), as Triton's standard library writes it
/// (so fp32 / fp64 only, through tl.exp's check).
static FailureOr<Val> sigmoidBuiltin(BuiltinCall &c) {
  FailureOr<Val> x = c.rd.value(c.a[0], "x");
  if (failed(x))
    return failure();
  DType d = x->type.dtype;
  if (x->type.isPtr || (d != DType::F32 && d != DType::F64))
    return c.g.fail(c.a[0].node, "`" + c.rd.fn +
                                     "` expects fp32 or fp64 values, got " +
                                     c.g.typeName(*x) +
                                     " (convert with .to(tl.float32))");
  FailureOr<Val> neg = c.g.unary(ast::UnaryOpKind::Minus, *x, c.e);
  if (failed(neg))
    return failure();
  FailureOr<Val> ex = callWith(c.g, "tl.exp", {*neg}, c.e);
  if (failed(ex))
    return failure();
  FailureOr<Val> den = c.g.binary(ast::BinOpKind::Add, Val::integer(1), *ex, c.e);
  if (failed(den))
    return failure();
  return c.g.binary(ast::BinOpKind::Div, Val::integer(1), *den, c.e);
}

/// Triton 3.6 on sm_90+ lowers clamp(x, -limit, limit) of fp32/fp16 as
/// `min{.NaN}.xorsign.abs(x, limit)`: |result| = min(|x|, |limit|) with the
/// sign of x XOR limit's. That differs from min(max(x, lo), hi) for a
/// negative limit and for NaN/signed-zero inputs, so Kiln emits the same
/// instruction for the same two patterns: `lo` is the negation of the very
/// value `hi` is (`-z`, Triton's `0 - z`), or both are constants with
/// lo == -hi.
static std::optional<mlir::Value> symmetricClip(IRGen &g, BuiltinCall &c,
                                                const Val &x, const Val &lo,
                                                const Val &hi,
                                                const Val &loArg,
                                                const Val &hiArg,
                                                bool nanAll) {
  llvm::StringRef arch = g.spec.arch;
  unsigned sm = 0;
  if (!arch.consume_front("sm_") || arch.take_while(llvm::isDigit)
                                        .getAsInteger(10, sm) ||
      sm < 90)
    return std::nullopt;
  DType d = x.type.dtype;
  if (d != DType::F32 && d != DType::F16)
    return std::nullopt;
  bool pattern = false;
  if (auto neg = lo.value.getDefiningOp<arith::NegFOp>())
    pattern = neg.getOperand() == hi.value;
  else if (auto sub = lo.value.getDefiningOp<arith::SubFOp>()) {
    mlir::FloatAttr zero;
    pattern = sub.getRhs() == hi.value &&
              mlir::matchPattern(sub.getLhs(), mlir::m_Constant(&zero)) &&
              zero.getValueAsDouble() == 0.0;
  } else if (loArg.isNumber() && hiArg.isNumber()) {
    auto num = [](const Val &v) {
      return v.kind == Val::Kind::Float ? v.f : double(v.i);
    };
    pattern = num(loArg) == -num(hiArg);
  }
  if (!pattern)
    return std::nullopt;
  std::string asmText = std::string("min") + (nanAll ? ".NaN" : "") +
                        ".xorsign.abs." + (d == DType::F32 ? "f32" : "f16") +
                        " $0, $1, $2;";
  const char *constraints = d == DType::F32 ? "=f,f,f" : "=h,h,h";
  auto op = tile::InlineAsmElementwiseOp::create(
      g.b, c.loc, mlir::TypeRange{x.value.getType()},
      mlir::ValueRange{x.value, hi.value}, g.b.getStringAttr(asmText),
      g.b.getStringAttr(constraints), g.b.getBoolAttr(true),
      g.b.getI32IntegerAttr(1));
  return op.getResult(0);
}

/// tl.clamp(x, min, max, propagate_nan=NONE): min(max(x, min), max) on
/// floats, with NaN-propagating min/max when propagate_nan=ALL.
static FailureOr<Val> clampBuiltin(BuiltinCall &c) {
  IRGen &g = c.g;
  bool nanAll = false;
  if (!c.rd.isNone(c.a[3])) {
    if (c.a[3].v.kind != Val::Kind::Str)
      return g.fail(c.a[3].node, "`propagate_nan` must be "
                                 "tl.PropagateNan.ALL or NONE");
    nanAll = c.a[3].v.s == "ALL";
  }
  Val x = c.a[0].v, lo = c.a[1].v, hi = c.a[2].v;
  if (failed(g.binaryTypeCheck(lo, hi, false, false, true, false, c.e, c.rd.fn)) ||
      failed(g.binaryTypeCheck(x, lo, false, false, true, false, c.e, c.rd.fn)) ||
      failed(g.binaryTypeCheck(x, hi, false, false, true, false, c.e, c.rd.fn)))
    return failure();
  if (x.type.isPtr || !isFloat(x.type.dtype))
    return g.fail(c.e, "`" + c.rd.fn + "` supports only floating-point "
                                       "values, got " +
                           g.typeName(x));
  // x was broadcast against max last: lo may still need x's shape.
  if (failed(g.broadcastPair(x, lo, c.e, c.rd.fn)))
    return failure();
  if (std::optional<mlir::Value> clip =
          symmetricClip(g, c, x, lo, hi, c.a[1].v, c.a[2].v, nanAll))
    return Val::runtime(*clip, x.type);
  mlir::Value v;
  if (nanAll)
    v = arith::MinimumFOp::create(
        g.b, c.loc, arith::MaximumFOp::create(g.b, c.loc, x.value, lo.value),
        hi.value);
  else
    v = arith::MinNumFOp::create(
        g.b, c.loc, arith::MaxNumFOp::create(g.b, c.loc, x.value, lo.value),
        hi.value);
  return Val::runtime(v, x.type);
}

llvm::ArrayRef<BuiltinDef> kiln::fe::mathBuiltins() {
  static const BuiltinDef defs[] = {
      {"where", {"condition", "x", "y"}, false, false, whereBuiltin},
      {"sqrt", {"x"}, /*tensorMethod=*/true, /*inMath=*/true, unaryMathBuiltin},
      {"rsqrt", {"x"}, true, true, unaryMathBuiltin},
      {"exp", {"x"}, true, true, unaryMathBuiltin},
      {"exp2", {"x"}, true, true, unaryMathBuiltin},
      {"log", {"x"}, true, true, unaryMathBuiltin},
      {"log2", {"x"}, true, true, unaryMathBuiltin},
      {"floor", {"x"}, true, true, unaryMathBuiltin},
      {"ceil", {"x"}, true, true, unaryMathBuiltin},
      {"abs", {"x"}, true, true, absBuiltin},
      {"maximum",
       {"x", "y", "propagate_nan=None"},
       false,
       false,
       maximumBuiltin},
      {"minimum",
       {"x", "y", "propagate_nan=None"},
       false,
       false,
       maximumBuiltin},
      {"fma", {"x", "y", "z"}, false, true, fmaBuiltin},
      {"add", {"x", "y", "sanitize_overflow=True"}, false, false, arithmeticBuiltin},
      {"sub", {"x", "y", "sanitize_overflow=True"}, false, false, arithmeticBuiltin},
      {"mul", {"x", "y", "sanitize_overflow=True"}, false, false, arithmeticBuiltin},
      {"cast",
       {"input", "dtype", "fp_downcast_rounding=None", "bitcast=False"},
       true,
       false,
       castBuiltin},
      {"sin", {"x"}, true, true, sinBuiltin},
      {"cos", {"x"}, true, true, cosBuiltin},
      {"umulhi", {"x", "y"}, false, true, umulhiBuiltin},
      {"erf", {"x"}, true, true, unaryMathBuiltin},
      {"div_rn", {"x", "y"}, false, true, divRnBuiltin},
      {"sqrt_rn", {"x"}, true, true, sqrtRnBuiltin},
      {"fdiv", {"x", "y", "ieee_rounding=False"}, false, true, fdivBuiltin},
      {"sigmoid", {"x"}, true, false, sigmoidBuiltin},
      {"inline_asm_elementwise",
       {"asm", "constraints", "args", "dtype", "is_pure", "pack"},
       false,
       false,
       inlineAsmBuiltin},
      {"map_elementwise", {}, false, false, mapElementwiseBuiltin, true},
      {"clamp",
       {"x", "min", "max", "propagate_nan=None"},
       false,
       false,
       clampBuiltin},
  };
  return defs;
}
