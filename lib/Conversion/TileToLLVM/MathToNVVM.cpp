//===- MathToNVVM.cpp - Floating-point precision choices ------------------===//
//
// Kiln follows what Triton emits on NVIDIA GPUs (third_party/nvidia
// ElementwiseOpToLLVM.cpp), so results match Triton's:
//
//   op               f32 lowering                      PTX
//   x / y            llvm.nvvm.div.full                div.full.f32 (2 ulp)
//   sqrt(x)          llvm.nvvm.sqrt.approx.ftz.f       sqrt.approx.ftz.f32
//   rsqrt(x)         llvm.nvvm.rsqrt.approx.f          rsqrt.approx.f32
//   exp(x)           ex2.approx(x * log2(e))           ex2.approx.f32
//   exp2(x)          llvm.nvvm.ex2.approx              ex2.approx.f32
//   log(x)           __nv_logf (libdevice)             libdevice's code
//   log2(x)          llvm.nvvm.lg2.approx.f            lg2.approx.f32
//   sin(x), cos(x)   __nv_sinf, __nv_cosf (libdevice)  libdevice's code
//   umulhi (i32/i64) llvm.nvvm.mulhi.{ui,ull}          mul.hi.u32 / u64
//
// log, sin and cos call libdevice, as Triton does, when the pipeline found
// libdevice.10.bc (module attribute `tile.libdevice`; see findLibdevice in
// lib/Target/LLVMToPTX.cpp). Without it, log is lg2.approx scaled (about 2
// ulp more error near 1) and sin/cos are the hardware approximations
// (absolute error below 2^-20.5 for |x| <= 100 pi, per the PTX ISA).
// f16/bf16 operands are computed in f32 and rounded back (as Triton's
// frontend promotes them). f64 division and sqrt are IEEE (div.rn.f64,
// sqrt.rn.f64); f64 transcendentals need libdevice and are rejected.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

Value callIntrinsic(OpBuilder &b, Location loc, StringRef name, Type result,
                    ValueRange args) {
  return LLVM::CallIntrinsicOp::create(b, loc, result, b.getStringAttr(name), args)
      .getResult(0);
}

/// `fn(x)` from libdevice (e.g. `__nv_logf`) when the pipeline found
/// libdevice and recorded it as the module attribute `tile.libdevice`: this is
/// how Triton lowers log, sin and cos, so results match it bit for bit (the
/// bitcode is linked after translation, lib/Target/LLVMToPTX.cpp). Without
/// it, `fallback` (the hardware approximation).
Value libdeviceOr(OpBuilder &b, Location loc, StringRef fn, Value x,
                  llvm::function_ref<Value()> fallback) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  if (!module || !module->hasAttr("tile.libdevice"))
    return fallback();
  Type f32 = b.getF32Type();
  auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(fn);
  if (!func) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    func = LLVM::LLVMFuncOp::create(b, loc, fn,
                                    LLVM::LLVMFunctionType::get(f32, {f32}));
  }
  return LLVM::CallOp::create(b, loc, func, ValueRange{x}).getResult();
}

/// Computes `f32Body` on f32 operands; f16/bf16 go through f32.
template <typename OpT>
struct F32MathPattern : ConvertOpToLLVMPattern<OpT> {
  using Body = std::function<Value(OpBuilder &, Location, ValueRange)>;
  F32MathPattern(LLVMTypeConverter &tc, Body body, bool rejectF64)
      : ConvertOpToLLVMPattern<OpT>(tc, /*benefit=*/10), body(std::move(body)),
        rejectF64(rejectF64) {}

  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!isa<FloatType>(type))
      return failure();
    if (type.isF64()) {
      if (rejectF64)
        return op.emitOpError("f64 transcendental functions are not supported "
                              "(Kiln links no libdevice)");
      return failure(); // The default IEEE lowering.
    }
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> args;
    for (Value v : adaptor.getOperands())
      args.push_back(type.isF32() ? v : LLVM::FPExtOp::create(rewriter, loc, f32, v));
    Value result = body(rewriter, loc, args);
    if (!type.isF32())
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  Body body;
  bool rejectF64;
};

/// arith.mului_extended on scalars: `mul.lo` and `mul.hi` (tl.umulhi and the
/// Philox rounds), instead of a widened multiply and shift.
struct MulUIExtendedToNVVM : ConvertOpToLLVMPattern<arith::MulUIExtendedOp> {
  MulUIExtendedToNVVM(LLVMTypeConverter &tc)
      : ConvertOpToLLVMPattern(tc, /*benefit=*/10) {}

  LogicalResult matchAndRewrite(arith::MulUIExtendedOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = op.getLhs().getType();
    if (!type.isInteger(32) && !type.isInteger(64))
      return failure();
    Location loc = op.getLoc();
    Value low = LLVM::MulOp::create(rewriter, loc, adaptor.getLhs(), adaptor.getRhs());
    Value high = callIntrinsic(rewriter, loc,
                               type.isInteger(32) ? "llvm.nvvm.mulhi.ui" : "llvm.nvvm.mulhi.ull",
                               type, {adaptor.getLhs(), adaptor.getRhs()});
    rewriter.replaceOp(op, {low, high});
    return success();
  }
};

} // namespace

void populateMathToNVVMPatterns(LLVMTypeConverter &converter,
                                RewritePatternSet &patterns) {
  using B = OpBuilder;
  using L = Location;
  auto f32 = [](B &b) { return b.getF32Type(); };
  patterns.add<MulUIExtendedToNVVM>(converter);
  auto constant = [](B &b, L loc, double v) -> Value {
    return LLVM::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(v));
  };
  patterns.add<F32MathPattern<arith::DivFOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return callIntrinsic(b, loc, "llvm.nvvm.div.full", f32(b), a);
      },
      /*rejectF64=*/false);
  patterns.add<F32MathPattern<math::RsqrtOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return callIntrinsic(b, loc, "llvm.nvvm.rsqrt.approx.f", f32(b), a);
      },
      false);
  patterns.add<F32MathPattern<math::ExpOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        Value x = LLVM::FMulOp::create(b, loc, a[0], constant(b, loc, 1.4426950408889634));
        return callIntrinsic(b, loc, "llvm.nvvm.ex2.approx.f32", f32(b), x);
      },
      true);
  patterns.add<F32MathPattern<math::Exp2Op>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return callIntrinsic(b, loc, "llvm.nvvm.ex2.approx.f32", f32(b), a);
      },
      true);
  patterns.add<F32MathPattern<math::LogOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return libdeviceOr(b, loc, "__nv_logf", a[0], [&]() -> Value {
          Value l = callIntrinsic(b, loc, "llvm.nvvm.lg2.approx.f", f32(b), a);
          return LLVM::FMulOp::create(b, loc, l,
                                      constant(b, loc, 0.6931471805599453))
              .getResult();
        });
      },
      true);
  patterns.add<F32MathPattern<math::Log2Op>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return callIntrinsic(b, loc, "llvm.nvvm.lg2.approx.f", f32(b), a);
      },
      true);
  patterns.add<F32MathPattern<math::SinOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return libdeviceOr(b, loc, "__nv_sinf", a[0], [&] {
          return callIntrinsic(b, loc, "llvm.nvvm.sin.approx.f", f32(b), a);
        });
      },
      true);
  patterns.add<F32MathPattern<math::CosOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return libdeviceOr(b, loc, "__nv_cosf", a[0], [&] {
          return callIntrinsic(b, loc, "llvm.nvvm.cos.approx.f", f32(b), a);
        });
      },
      true);
  patterns.add<F32MathPattern<math::SqrtOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        // tl.sqrt is Triton's fast square root (tl.sqrt_rn the IEEE one).
        return callIntrinsic(b, loc, "llvm.nvvm.sqrt.approx.ftz.f", f32(b), a);
      },
      false);
}

} // namespace kiln::lowering
