//===- Math.cpp - Math builtins in the registry: sin, cos, umulhi ---------===//
//
// The older math builtins (sqrt, exp, log, ...) are still dispatched from
// BuiltinsTL.cpp; new ones are table entries here.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace kiln;
using namespace kiln::fe;
namespace math = mlir::math;

/// An fp32/fp64 operand of a transcendental function.
static FailureOr<Val> floatOperand(BuiltinCall &c, const Arg &a) {
  FailureOr<Val> x = c.rd.value(a, "x");
  if (failed(x))
    return failure();
  DType d = x->type.dtype;
  if (x->type.isPtr || (d != DType::F32 && d != DType::F64))
    return c.g.fail(a.node, "`" + c.rd.fn +
                                "` expects fp32 or fp64 values, got " +
                                c.g.typeName(*x) +
                                " (convert with .to(tl.float32))");
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

FailureOr<Val> kiln::fe::umulhi(IRGen &g, Val x, Val y,
                                const ast::Node *where, llvm::StringRef fn) {
  if (failed(g.binaryTypeCheck(x, y, false, false, /*arith=*/true, false,
                               where, fn)))
    return failure();
  DType d = x.type.dtype;
  if (d != DType::I32 && d != DType::I64 && d != DType::U32 &&
      d != DType::U64)
    return g.fail(where, "`" + fn +
                             "` expects int32, int64, uint32 or uint64 "
                             "values, got " +
                             g.typeName(x));
  // Triton's umulhi is the unsigned high half whatever the signedness.
  auto mul = mlir::arith::MulUIExtendedOp::create(g.b, g.loc(where), x.value,
                                                  y.value);
  return Val::runtime(mul.getHigh(), x.type);
}

static FailureOr<Val> umulhiBuiltin(BuiltinCall &c) {
  return umulhi(c.g, c.a[0].v, c.a[1].v, c.e, c.rd.fn);
}

llvm::ArrayRef<BuiltinDef> kiln::fe::mathBuiltins() {
  static const BuiltinDef defs[] = {
      {"sin", {"x"}, /*tensorMethod=*/true, /*inMath=*/true, sinBuiltin},
      {"cos", {"x"}, true, true, cosBuiltin},
      {"umulhi", {"x", "y"}, true, true, umulhiBuiltin},
  };
  return defs;
}
