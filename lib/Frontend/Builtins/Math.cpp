//===- Math.cpp - Elementwise math, selection and conversions -------------===//
//
// sqrt/exp/log/sin/cos (fp32 and fp64 only, as in Triton), abs, maximum /
// minimum, fma, where, umulhi and tl.cast / x.to(...).
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

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

static FailureOr<Val> castBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  if (!a[0].v.isRuntime())
    return g.fail(a[0].node, "cannot convert " + g.typeName(a[0].v) +
                                 " with .to(); only tensors and runtime "
                                 "scalars have a dtype");
  if (a[1].v.kind == Val::Kind::DType && a[1].v.dtPtr)
    return g.fail(a[1].node, "casting to pointer types is not supported");
  FailureOr<DType> d = rd.dtype(a[1], "dtype");
  if (failed(d))
    return failure();
  if (!rd.isNone(a[3])) {
    FailureOr<bool> bc = rd.constBool(a[3], "bitcast");
    if (failed(bc))
      return failure();
    if (*bc)
      return bitcastValue(g, a[0].v, *d, e);
  }
  if (!rd.isNone(a[2])) {
    FailureOr<std::string> r = rd.constStr(a[2], "fp_downcast_rounding");
    if (failed(r))
      return failure();
    if (*r != "rtne")
      return g.fail(a[2].node, "`fp_downcast_rounding=\"" + *r +
                                   "\"` is not supported (only \"rtne\")");
  }
  return g.cast(a[0].v, *d, e);
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

llvm::ArrayRef<BuiltinDef> kiln::fe::mathBuiltins() {
  static const BuiltinDef defs[] = {
      {"where", {"condition", "x", "y"}, false, false, whereBuiltin},
      {"sqrt", {"x"}, /*tensorMethod=*/true, /*inMath=*/true, unaryMathBuiltin},
      {"rsqrt", {"x"}, true, true, unaryMathBuiltin},
      {"exp", {"x"}, true, true, unaryMathBuiltin},
      {"exp2", {"x"}, true, true, unaryMathBuiltin},
      {"log", {"x"}, true, true, unaryMathBuiltin},
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
      {"cast",
       {"input", "dtype", "fp_downcast_rounding=None", "bitcast=False"},
       true,
       false,
       castBuiltin},
      {"sin", {"x"}, true, true, sinBuiltin},
      {"cos", {"x"}, true, true, cosBuiltin},
      {"umulhi", {"x", "y"}, true, true, umulhiBuiltin},
  };
  return defs;
}
