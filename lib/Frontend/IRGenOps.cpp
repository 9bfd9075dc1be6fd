//===- IRGenOps.cpp - Values, conversions and operators with Triton's rules
//===//
//
// Constants, casts, broadcasting and the arithmetic, comparison and unary
// operators, following Triton's semantics for runtime values and Python's
// for two constexprs.
//
//===----------------------------------------------------------------------===//
#include "BuiltinArgs.h"
#include "Builtins/Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;
namespace arith = mlir::arith;

//===----------------------------------------------------------------------===//
// Constants and casts
//===----------------------------------------------------------------------===//

/// Triton's to_tensor type for a Python number.
static std::optional<DType> defaultDType(const Val &v) {
  switch (v.kind) {
  case Val::Kind::Bool:
    return DType::I1;
  case Val::Kind::Int:
    if (v.wide)
      return DType::U64;
    if (v.i >= INT32_MIN && v.i <= INT32_MAX)
      return DType::I32;
    if (v.i > INT32_MAX && v.i <= int64_t(UINT32_MAX))
      return DType::U32;
    return DType::I64;
  case Val::Kind::Float: {
    double a = std::fabs(v.f);
    if (std::isinf(a) || a == 0.0 || std::isnan(v.f) ||
        (a >= 0x1p-126 && a <= double(std::numeric_limits<float>::max())))
      return DType::F32;
    return DType::F64;
  }
  default:
    return std::nullopt;
  }
}

Val IRGen::constantInt(int64_t v, DType d) {
  mlir::Type ty = toMLIR(&ctx, d);
  unsigned w = ty.getIntOrFloatBitWidth();
  auto attr = b.getIntegerAttr(ty, llvm::APInt(w, static_cast<uint64_t>(v),
                                               /*isSigned=*/true,
                                               /*implicitTrunc=*/true));
  auto op = arith::ConstantOp::create(b, b.getUnknownLoc(), attr);
  return Val::runtime(op, TType{d, false, {}});
}

FailureOr<Val> IRGen::constant(const Val &v, DType d, const Node *where) {
  if (!v.isNumber())
    return fail(where, "expected a number, got " + typeName(v));
  mlir::Type ty = toMLIR(&ctx, d);
  mlir::TypedAttr attr;
  if (isFloat(d)) {
    attr = b.getFloatAttr(ty, v.asDouble());
  } else {
    int64_t iv = v.kind == Val::Kind::Float ? static_cast<int64_t>(v.f) : v.i;
    unsigned w = bitWidth(d);
    attr = b.getIntegerAttr(ty, llvm::APInt(w, static_cast<uint64_t>(iv),
                                            /*isSigned=*/true,
                                            /*implicitTrunc=*/true));
  }
  auto op = arith::ConstantOp::create(b, loc(where), attr);
  return Val::runtime(op, TType{d, false, {}});
}

FailureOr<Val> IRGen::toRuntime(const Val &v, const Node *where) {
  if (v.isRuntime())
    return v;
  std::optional<DType> d = defaultDType(v);
  if (!d)
    return fail(where, "expected a tensor or a number, got " + typeName(v));
  return constant(v, *d, where);
}

/// Result type of `v` with element `d`.
static mlir::Type withElement(mlir::MLIRContext *ctx, const TType &t, DType d) {
  return toMLIR(ctx, t.withDType(d));
}

FailureOr<Val> IRGen::cast(const Val &in, DType d, const Node *where) {
  if (in.isNumber())
    return constant(in, d, where);
  FailureOr<Val> rv = toRuntime(in, where);
  if (failed(rv))
    return failure();
  Val v = *rv;
  if (v.type.isPtr)
    return fail(where, "cannot convert a pointer (" + typeName(v) + ") to " +
                           tritonName(d));
  DType s = v.type.dtype;
  if (s == d)
    return v;
  mlir::Location l = loc(where);
  TType outT = v.type.withDType(d);
  mlir::Type out = withElement(&ctx, v.type, d);
  auto make = [&](mlir::Value x) { return Val::runtime(x, outT); };
  // fp8 converts only to and from fp32 (then onwards), fp8 -> fp16/bf16 directly:
  // the lowering has cvt forms for exactly these (sm_89+).
  auto isFp8 = [](DType t) { return t == DType::F8E4M3 || t == DType::F8E5M2; };
  // fp8 -> bf16 directly: the lowering converts as Triton does (through
  // fp16 with cvt.bf16.f16 on sm_90+).
  if (isFp8(s) && d == DType::BF16)
    return make(arith::ExtFOp::create(b, l, out, v.value));
  if (isFp8(s) && d != DType::F16 && d != DType::F32) {
    FailureOr<Val> mid = cast(v, DType::F32, where);
    if (failed(mid))
      return failure();
    return cast(*mid, d, where);
  }
  if (isFp8(d) && s != DType::F32) {
    FailureOr<Val> mid = cast(v, DType::F32, where);
    if (failed(mid))
      return failure();
    return cast(*mid, d, where);
  }
  if (isFp8(s) && d == DType::F32) {
    FailureOr<Val> mid = cast(v, DType::F16, where);
    if (failed(mid))
      return failure();
    return cast(*mid, d, where);
  }
  // fp16/bf16 to anything but fp32 goes through fp32, as in Triton.
  if ((s == DType::F16 || s == DType::BF16) && d != DType::F32) {
    FailureOr<Val> mid = cast(v, DType::F32, where);
    if (failed(mid))
      return failure();
    return cast(*mid, d, where);
  }
  if (isFloat(s) && isFloat(d)) {
    if (bitWidth(d) < bitWidth(s))
      return make(arith::TruncFOp::create(b, l, out, v.value));
    return make(arith::ExtFOp::create(b, l, out, v.value));
  }
  if (d == DType::I1) { // x != 0
    return compare(CmpOpKind::NotEq, v, Val::integer(0), where);
  }
  if (isIntDType(s) && isIntDType(d)) {
    unsigned ws = bitWidth(s), wd = bitWidth(d);
    if (ws == wd)
      return make(v.value); // int32 <-> uint32: same bits
    if (wd < ws)
      return make(arith::TruncIOp::create(b, l, out, v.value));
    if (s != DType::I1 && !isUnsigned(s))
      return make(arith::ExtSIOp::create(b, l, out, v.value));
    return make(arith::ExtUIOp::create(b, l, out, v.value));
  }
  if (isFloat(s)) { // float -> int
    if (isUnsigned(d))
      return make(arith::FPToUIOp::create(b, l, out, v.value));
    return make(arith::FPToSIOp::create(b, l, out, v.value));
  }
  // int -> float
  if (s == DType::I1 || isUnsigned(s))
    return make(arith::UIToFPOp::create(b, l, out, v.value));
  return make(arith::SIToFPOp::create(b, l, out, v.value));
}

FailureOr<Val> kiln::fe::bitcastValue(IRGen &g, const Val &in, DType d,
                                      const Node *where) {
  FailureOr<Val> rv = g.toRuntime(in, where);
  if (failed(rv))
    return failure();
  Val v = *rv;
  if (v.type.isPtr)
    return g.fail(where, "cannot bitcast a pointer (" + g.typeName(v) +
                             ") to " + tritonName(d));
  DType s = v.type.dtype;
  if (bitWidth(s) != bitWidth(d))
    return g.fail(where, std::string("cannot bitcast ") + tritonName(s) +
                             " to " + tritonName(d) + ": the widths differ (" +
                             std::to_string(bitWidth(s)) + " and " +
                             std::to_string(bitWidth(d)) + " bits)");
  TType outT = v.type.withDType(d);
  mlir::Type out = withElement(&g.ctx, v.type, d);
  if (v.value.getType() == out) // int32 <-> uint32: same MLIR type
    return Val::runtime(v.value, outT);
  return Val::runtime(
      arith::BitcastOp::create(g.b, g.loc(where), out, v.value), outT);
}

FailureOr<Val> IRGen::broadcastTo(const Val &in, llvm::ArrayRef<int64_t> shape,
                                  const Node *where, llvm::StringRef what) {
  FailureOr<Val> rv = toRuntime(in, where);
  if (failed(rv))
    return failure();
  Val v = *rv;
  if (llvm::ArrayRef<int64_t>(v.type.shape) == shape)
    return v;
  TType outT = v.type.withShape(shape);
  mlir::Type out = toMLIR(&ctx, outT);
  mlir::Location l = loc(where);
  if (!v.type.isTensor()) {
    // Splatting a constant gives a dense constant directly.
    if (auto cst = v.value.getDefiningOp<arith::ConstantOp>()) {
      auto dense = mlir::DenseElementsAttr::get(
          llvm::cast<mlir::ShapedType>(out), cst.getValue());
      return Val::runtime(arith::ConstantOp::create(b, l, dense), outT);
    }
    return Val::runtime(tile::SplatOp::create(b, l, out, v.value), outT);
  }
  if (v.type.shape.size() != shape.size())
    return fail(where, what + " has shape " + shapeStr(v.type.shape) +
                           ", which does not broadcast to " + shapeStr(shape) +
                           " (ranks differ)");
  for (size_t k = 0; k < shape.size(); ++k)
    if (v.type.shape[k] != shape[k] && v.type.shape[k] != 1)
      return fail(where, what + " has shape " + shapeStr(v.type.shape) +
                             ", which does not broadcast to " +
                             shapeStr(shape));
  return Val::runtime(tile::BroadcastOp::create(b, l, out, v.value), outT);
}

Val IRGen::withLeadingDims(Val v, size_t rank, const Node *where) {
  while (v.type.isTensor() && v.type.shape.size() < rank) {
    llvm::SmallVector<int64_t, 2> s(v.type.shape);
    s.insert(s.begin(), 1);
    TType t = v.type.withShape(s);
    v.value = tile::ExpandDimsOp::create(b, loc(where), toMLIR(&ctx, t), v.value, 0u);
    v.type = t;
  }
  return v;
}

LogicalResult IRGen::broadcastPair(Val &l, Val &r, const Node *where,
                                   llvm::StringRef opName) {
  if (!l.type.isTensor() && !r.type.isTensor())
    return success();
  auto shape = broadcastShapes(l.type.shape, r.type.shape);
  if (!shape)
    return fail(where, "incompatible shapes " + shapeStr(l.type.shape) +
                           " and " + shapeStr(r.type.shape) + " for `" +
                           opName + "`");
  // Lower-rank tensors get leading size-1 dimensions first, as in Triton.
  for (Val *v : {&l, &r}) {
    *v = withLeadingDims(*v, shape->size(), where);
    FailureOr<Val> bv = broadcastTo(*v, *shape, where, "operand");
    if (failed(bv))
      return failure();
    *v = *bv;
  }
  return success();
}

LogicalResult IRGen::binaryTypeCheck(Val &l, Val &r, bool allowLPtr,
                                     bool allowRPtr, bool arith, bool divOrMod,
                                     const Node *where,
                                     llvm::StringRef opName) {
  for (Val *v : {&l, &r})
    if (!v->isRuntime() && !v->isNumber())
      return fail(where,
                  "unsupported operand for `" + opName + "`: " + typeName(*v));
  bool lConst = !l.isRuntime(), rConst = !r.isRuntime();
  DType lt = lConst ? *defaultDType(l) : l.type.dtype;
  DType rt = rConst ? *defaultDType(r) : r.type.dtype;
  bool lPtr = l.isRuntime() && l.type.isPtr;
  bool rPtr = r.isRuntime() && r.type.isPtr;
  auto bad = [&]() {
    return fail(where, "invalid operands of types " + typeName(l) + " and " +
                           typeName(r) + " for `" + opName + "`");
  };
  if ((lPtr && !allowLPtr) || (rPtr && !allowRPtr))
    return bad();
  if ((lPtr && !rPtr && isFloat(rt)) || (rPtr && !lPtr && isFloat(lt)))
    return bad();
  if (lPtr && rPtr && lt != rt)
    return bad();
  if (arith && !lPtr && !rPtr) {
    std::string why;
    std::optional<DType> res =
        computationType(lt, lConst, rt, rConst, divOrMod, why);
    if (!res) {
      // Triton's wording (its tests match it): "Cannot use / ... because
      // they have different signedness".
      if (divOrMod && isUnsigned(lt) != isUnsigned(rt) && isIntDType(lt) &&
          isIntDType(rt))
        return fail(where, "Cannot use `" + opName + "` with " +
                               tritonName(lt) + " and " + tritonName(rt) +
                               " because they have different signedness; "
                               "cast them to the same signedness");
      return fail(where, "cannot apply `" + opName + "`: " + why);
    }
    for (Val *v : {&l, &r}) {
      if (v->isRuntime() || !isIntDType(*res))
        continue;
      __int128 c = v->kind == Val::Kind::Float ? __int128(int64_t(v->f))
                                               : v->asWide();
      if (isUnsigned(*res) && c < 0)
        return fail(where, "cannot combine an unsigned value with the "
                           "negative constant " +
                               v->repr() + "; cast one of them");
      unsigned w = bitWidth(*res);
      // 64-bit results take any 64-bit pattern (2**63 next to an int64 is
      // its bits, as in C); narrower ones the type's range.
      __int128 lo = *res == DType::I1  ? 0
                    : isUnsigned(*res) ? 0
                    : w == 64          ? -(__int128(1) << 63)
                                       : -(__int128(1) << (w - 1));
      __int128 hi = *res == DType::I1 ? 1
                    : w == 64         ? (__int128(1) << 64) - 1
                    : isUnsigned(*res) ? (__int128(1) << w) - 1
                                       : (__int128(1) << (w - 1)) - 1;
      if (c < lo || c > hi)
        return fail(where, "constant " + v->repr() + " is out of range for " +
                               tritonName(*res));
    }
    for (Val *v : {&l, &r}) {
      FailureOr<Val> cv =
          v->isRuntime() ? cast(*v, *res, where) : constant(*v, *res, where);
      if (failed(cv))
        return failure();
      *v = *cv;
    }
  } else {
    for (Val *v : {&l, &r}) {
      FailureOr<Val> cv = toRuntime(*v, where);
      if (failed(cv))
        return failure();
      *v = *cv;
    }
  }
  return broadcastPair(l, r, where, opName);
}

FailureOr<Val> IRGen::toBool(const Val &v, const Node *where) {
  if (v.isConstexpr() && v.kind != Val::Kind::Tuple)
    return constant(Val::boolean(v.truthy()), DType::I1, where);
  if (!v.isRuntime())
    return fail(where, "expected a boolean, got " + typeName(v));
  if (v.type.dtype == DType::I1 && !v.type.isPtr)
    return v;
  if (v.type.isPtr) {
    // Whether it is not null (Triton casts the pointer to int1): `if ptr:`
    // on an optional pointer argument that was given.
    TType addrType = v.type.withDType(DType::I64);
    Val addr = Val::runtime(tile::PtrCastOp::create(b, loc(where), toMLIR(&ctx, addrType),
                                                    v.value),
                            addrType);
    return compare(ast::CmpOpKind::NotEq, addr, Val::integer(0), where);
  }
  return cast(v, DType::I1, where);
}

FailureOr<mlir::Value> IRGen::scalarCondition(const Val &v, const Node *where,
                                              llvm::StringRef stmt) {
  // A one-element tensor is its element, as Triton unsplats it
  // (`if tl.load(p + tl.arange(0, 1)) > 42:`).
  if (v.isRuntime() && v.type.isTensor() && v.type.numel() == 1) {
    FailureOr<Val> x = unsplat(*this, v, where);
    if (failed(x))
      return failure();
    return scalarCondition(*x, where, stmt);
  }
  if (v.isRuntime() && v.type.isTensor())
    return fail(where, "`" + stmt + "` condition must be a scalar, got " +
                           typeName(v) +
                           " (use tl.where for elementwise selection)");
  FailureOr<Val> c = toBool(v, where);
  if (failed(c))
    return failure();
  return c->value;
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

FailureOr<Val> IRGen::binary(BinOpKind op, const Val &lIn, const Val &rIn,
                             const Node *where) {
  const char *sp = spelling(op);
  if (lIn.kind == Val::Kind::Undef || rIn.kind == Val::Kind::Undef)
    return failure();
  if (!lIn.isRuntime() && !rIn.isRuntime())
    return foldConstBinary(op, lIn, rIn, where);
  if (op == BinOpKind::MatMul)
    return matmulOperator(*this, lIn, rIn, where);
  if (op == BinOpKind::Pow)
    return fail(where, "`**` is only supported on constexprs");
  Val l = lIn, r = rIn;
  mlir::Location lc = loc(where);

  bool lPtr = l.isRuntime() && l.type.isPtr;
  bool rPtr = r.isRuntime() && r.type.isPtr;
  if ((lPtr || rPtr) && (op == BinOpKind::Add || op == BinOpKind::Sub)) {
    if (lPtr && rPtr)
      return fail(where, op == BinOpKind::Add ? "cannot add two pointers"
                                              : "cannot subtract pointers");
    if (rPtr && op == BinOpKind::Sub)
      return fail(where, "cannot subtract a pointer from " + typeName(l));
    Val &p = lPtr ? l : r;
    Val off = lPtr ? r : l;
    if (off.kind == Val::Kind::Float ||
        (off.isRuntime() && (off.type.isPtr || isFloat(off.type.dtype))))
      return fail(where,
                  "pointer offsets must be integers, got " + typeName(off));
    if (failed(binaryTypeCheck(p, off, true, true, /*arith=*/false, false,
                               where, sp)))
      return failure();
    if (isFloat(off.type.dtype) || off.type.isPtr)
      return fail(where,
                  "pointer offsets must be integers, got " + typeName(off));
    if (op == BinOpKind::Sub) {
      FailureOr<Val> neg = unary(UnaryOpKind::Minus, off, where);
      if (failed(neg))
        return failure();
      off = *neg;
    }
    // addptr offsets are signed: widen unsigned ones first, as Triton does.
    // A uint64 offset is already 64 bits wide: only its type changes.
    if (off.type.dtype == DType::U64) {
      off.type = off.type.withDType(DType::I64);
    } else if (isUnsigned(off.type.dtype)) {
      TType t = off.type.withDType(DType::I64);
      off = Val::runtime(
          arith::ExtUIOp::create(b, lc, toMLIR(&ctx, t), off.value), t);
    }
    return Val::runtime(
        tile::AddPtrOp::create(b, lc, toMLIR(&ctx, p.type), p.value, off.value),
        p.type);
  }

  bool divOrMod =
      op == BinOpKind::Div || op == BinOpKind::FloorDiv || op == BinOpKind::Mod;
  if (failed(binaryTypeCheck(l, r, false, false, true, divOrMod, where, sp)))
    return failure();
  DType d = l.type.dtype;
  TType t = l.type;
  bool fl = isFloat(d);
  bool uns = isUnsigned(d);
  auto ret = [&](mlir::Value v) { return Val::runtime(v, t); };
  switch (op) {
  case BinOpKind::Add:
    return ret(fl ? mlir::Value(arith::AddFOp::create(b, lc, l.value, r.value))
                  : arith::AddIOp::create(b, lc, l.value, r.value));
  case BinOpKind::Sub:
    return ret(fl ? mlir::Value(arith::SubFOp::create(b, lc, l.value, r.value))
                  : arith::SubIOp::create(b, lc, l.value, r.value));
  case BinOpKind::Mul:
    return ret(fl ? mlir::Value(arith::MulFOp::create(b, lc, l.value, r.value))
                  : arith::MulIOp::create(b, lc, l.value, r.value));
  case BinOpKind::Div: {
    if (!fl) { // int / int is fp32 division
      FailureOr<Val> lf = cast(l, DType::F32, where);
      FailureOr<Val> rf = cast(r, DType::F32, where);
      if (failed(lf) || failed(rf))
        return failure();
      l = *lf;
      r = *rf;
      t = l.type;
    }
    return ret(arith::DivFOp::create(b, lc, l.value, r.value));
  }
  case BinOpKind::FloorDiv:
    if (fl)
      return fail(where, "`//` is not supported on floating-point values (" +
                             typeName(l) + "); use `/`");
    return ret(
        uns ? mlir::Value(arith::DivUIOp::create(b, lc, l.value, r.value))
            : arith::DivSIOp::create(b, lc, l.value, r.value));
  case BinOpKind::Mod:
    if (fl)
      return ret(arith::RemFOp::create(b, lc, l.value, r.value));
    return ret(
        uns ? mlir::Value(arith::RemUIOp::create(b, lc, l.value, r.value))
            : arith::RemSIOp::create(b, lc, l.value, r.value));
  case BinOpKind::BitAnd:
  case BinOpKind::BitOr:
  case BinOpKind::BitXor:
  case BinOpKind::LShift:
  case BinOpKind::RShift: {
    if (fl)
      return fail(where, "invalid operands of type " + typeName(lIn) +
                             " and " + typeName(rIn) + " for `" + sp +
                             "`: it expects integer or boolean operands");
    mlir::Value v;
    if (op == BinOpKind::BitAnd)
      v = arith::AndIOp::create(b, lc, l.value, r.value);
    else if (op == BinOpKind::BitOr)
      v = arith::OrIOp::create(b, lc, l.value, r.value);
    else if (op == BinOpKind::BitXor)
      v = arith::XOrIOp::create(b, lc, l.value, r.value);
    else if (op == BinOpKind::LShift)
      v = arith::ShLIOp::create(b, lc, l.value, r.value);
    else if (isUnsigned((lIn.isRuntime() ? lIn : rIn).type.dtype))
      // Triton shifts by the tensor operand's own signedness (the left one
      // when both are), not the promoted type's: int32 >> uint32 is
      // arithmetic on the uint32 bits.
      v = arith::ShRUIOp::create(b, lc, l.value, r.value);
    else
      v = arith::ShRSIOp::create(b, lc, l.value, r.value);
    return ret(v);
  }
  default:
    break;
  }
  return fail(where, std::string("unsupported operator `") + sp + "`");
}

FailureOr<Val> IRGen::compare(CmpOpKind op, const Val &lIn, const Val &rIn,
                              const Node *where) {
  if (op == CmpOpKind::In || op == CmpOpKind::NotIn)
    return fail(where, std::string("`") + spelling(op) + "` is not supported");
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
    // Identity only makes sense at compile time (`x is None`).
    return foldConstCompare(op, lIn, rIn, where);
  }
  if (!lIn.isRuntime() && !rIn.isRuntime())
    return foldConstCompare(op, lIn, rIn, where);
  Val l = lIn, r = rIn;
  if (failed(binaryTypeCheck(l, r, false, false, true, false, where,
                             spelling(op))))
    return failure();
  mlir::Location lc = loc(where);
  TType t = l.type.withDType(DType::I1);
  DType d = l.type.dtype;
  if (isFloat(d)) {
    arith::CmpFPredicate p;
    switch (op) {
    case CmpOpKind::Eq:
      p = arith::CmpFPredicate::OEQ;
      break;
    case CmpOpKind::NotEq:
      p = arith::CmpFPredicate::UNE;
      break;
    case CmpOpKind::Lt:
      p = arith::CmpFPredicate::OLT;
      break;
    case CmpOpKind::LtE:
      p = arith::CmpFPredicate::OLE;
      break;
    case CmpOpKind::Gt:
      p = arith::CmpFPredicate::OGT;
      break;
    default:
      p = arith::CmpFPredicate::OGE;
      break;
    }
    return Val::runtime(arith::CmpFOp::create(b, lc, p, l.value, r.value), t);
  }
  bool u = isUnsigned(d);
  arith::CmpIPredicate p;
  switch (op) {
  case CmpOpKind::Eq:
    p = arith::CmpIPredicate::eq;
    break;
  case CmpOpKind::NotEq:
    p = arith::CmpIPredicate::ne;
    break;
  case CmpOpKind::Lt:
    p = u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case CmpOpKind::LtE:
    p = u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case CmpOpKind::Gt:
    p = u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  default:
    p = u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return Val::runtime(arith::CmpIOp::create(b, lc, p, l.value, r.value), t);
}

FailureOr<Val> IRGen::unary(UnaryOpKind op, const Val &v, const Node *where) {
  if (v.kind == Val::Kind::Undef)
    return failure();
  if (!v.isRuntime()) {
    if (op == UnaryOpKind::Not) {
      if (!v.isConstexpr())
        return fail(where, "`not` cannot be applied to " + typeName(v));
      return Val::boolean(!v.truthy());
    }
    if (!v.isNumber())
      return fail(where, std::string("bad operand type for unary `") +
                             spelling(op) + "`: " + typeName(v));
    switch (op) {
    case UnaryOpKind::Plus:
      return v.kind == Val::Kind::Float ? v : *Val::fromWide(v.asWide());
    case UnaryOpKind::Minus: {
      if (v.kind == Val::Kind::Float)
        return Val::flt(-v.f);
      std::optional<Val> r = Val::fromWide(-v.asWide());
      if (!r)
        return fail(where, "integer overflow in constant expression");
      return *r;
    }
    case UnaryOpKind::Invert: {
      if (v.kind == Val::Kind::Float)
        return fail(where, "bad operand type for unary `~`: " + typeName(v));
      std::optional<Val> r = Val::fromWide(~v.asWide());
      if (!r)
        return fail(where, "integer overflow in constant expression");
      return *r;
    }
    default:
      break;
    }
  }
  mlir::Location lc = loc(where);
  switch (op) {
  case UnaryOpKind::Plus:
    return v;
  case UnaryOpKind::Minus: {
    if (v.type.isPtr)
      return fail(where,
                  "wrong type argument to unary minus (" + typeName(v) + ")");
    if (isFloat(v.type.dtype))
      return Val::runtime(arith::NegFOp::create(b, lc, v.value), v.type);
    Val zero = constantInt(0, v.type.dtype);
    FailureOr<Val> z = broadcastTo(zero, v.type.shape, where, "operand");
    if (failed(z))
      return failure();
    return Val::runtime(arith::SubIOp::create(b, lc, z->value, v.value),
                        v.type);
  }
  case UnaryOpKind::Invert:
  case UnaryOpKind::Not: {
    Val x = v;
    if (op == UnaryOpKind::Not) {
      FailureOr<Val> bv = toBool(v, where);
      if (failed(bv))
        return failure();
      x = *bv;
    } else if (v.type.isPtr || isFloat(v.type.dtype)) {
      return fail(where, "`~` expects an integer or boolean value, got " +
                             typeName(v));
    }
    FailureOr<Val> ones = broadcastTo(constantInt(-1, x.type.dtype),
                                      x.type.shape, where, "operand");
    if (failed(ones))
      return failure();
    return Val::runtime(arith::XOrIOp::create(b, lc, x.value, ones->value),
                        x.type);
  }
  }
  return failure();
}
