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
//   exp2(x)          __nv_exp2f (libdevice; without it   ex2.approx.ftz.f32
//                    llvm.nvvm.ex2.approx.ftz)
//   log(x)           __nv_logf (libdevice)             libdevice's code
//   log2(x)          __nv_log2f (libdevice)            libdevice's code
//   sin(x), cos(x)   __nv_sinf, __nv_cosf (libdevice)  libdevice's code
//   umulhi (i32/i64) llvm.nvvm.mulhi.{ui,ull}          mul.hi.u32 / u64
//
//   erf(x)           __nv_erff (libdevice)             libdevice's code
//   truncf rtz       cvt.rz.{f16,bf16}.f32, cvt.rz.f32.f64 (fp_downcast_rounding)
//
// log, sin and cos call libdevice, as Triton does, when the pipeline found
// libdevice.10.bc (module attribute `tile.libdevice`; see findLibdevice in
// lib/Target/LLVMToPTX.cpp). Without it, log is lg2.approx scaled (about 2
// ulp more error near 1) and sin/cos are the hardware approximations
// (absolute error below 2^-20.5 for |x| <= 100 pi, per the PTX ISA); erf
// has no approximation and needs libdevice. f16/bf16 operands are computed
// in f32 and rounded back (as Triton's frontend promotes them). f64 division
// and sqrt are IEEE (div.rn.f64, sqrt.rn.f64); f64 exp/exp2/log/log2/sin/
// cos/erf/rsqrt call libdevice's double functions (__nv_exp, ...), as
// Triton's libdevice patterns do, and are an error without libdevice.
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

bool hasLibdevice(OpBuilder &b) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  return module && module->hasAttr("tile.libdevice");
}

/// `fn(x)` from libdevice (e.g. `__nv_logf`): the bitcode is linked after
/// translation (lib/Target/LLVMToPTX.cpp). Only when hasLibdevice().
Value callLibdevice(OpBuilder &b, Location loc, StringRef fn, Value x) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  Type t = x.getType();
  auto func = getOrInsertFunction(module, b, loc, fn, LLVM::LLVMFunctionType::get(t, {t}));
  return LLVM::CallOp::create(b, loc, func, ValueRange{x}).getResult();
}

/// libdevice's `fn` when the pipeline found libdevice (this is how Triton
/// lowers log, sin and cos, so results match it bit for bit), else
/// `fallback` (the hardware approximation; null: none).
Value libdeviceOr(OpBuilder &b, Location loc, StringRef fn, Value x,
                  llvm::function_ref<Value()> fallback) {
  if (!hasLibdevice(b))
    return fallback ? fallback() : Value();
  return callLibdevice(b, loc, fn, x);
}

/// Computes `f32Body` on f32 operands; f16/bf16 go through f32. f64 calls
/// libdevice's `f64Function` (none: the default IEEE lowering).
template <typename OpT>
struct F32MathPattern : ConvertOpToLLVMPattern<OpT> {
  using Body = std::function<Value(OpBuilder &, Location, ValueRange)>;
  F32MathPattern(LLVMTypeConverter &tc, Body body, StringRef f64Function)
      : ConvertOpToLLVMPattern<OpT>(tc, /*benefit=*/10), body(std::move(body)),
        f64Function(f64Function) {}

  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!isa<FloatType>(type))
      return failure();
    Location loc = op.getLoc();
    if (type.isF64()) {
      if (f64Function.empty())
        return failure(); // The default IEEE lowering.
      if (!hasLibdevice(rewriter))
        return op.emitOpError()
               << "on fp64 calls libdevice's `" << f64Function
               << "`, but libdevice.10.bc was not found (set KILN_LIBDEVICE "
                  "to its path, or CUDA_HOME to a CUDA toolkit)";
      rewriter.replaceOp(op, callLibdevice(rewriter, loc, f64Function,
                                           adaptor.getOperands()[0]));
      return success();
    }
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> args;
    for (Value v : adaptor.getOperands())
      args.push_back(type.isF32() ? v : LLVM::FPExtOp::create(rewriter, loc, f32, v));
    Value result = body(rewriter, loc, args);
    if (!result)
      return op.emitOpError()
             << "calls libdevice, but libdevice.10.bc was not found (set "
                "KILN_LIBDEVICE to its path, or CUDA_HOME to a CUDA toolkit)";
    if (!type.isF32())
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  Body body;
  std::string f64Function;
};

/// arith.truncf with roundingmode = toward_zero (fp_downcast_rounding="rtz"):
/// `cvt.rz`, as Triton's FpToFp lowering.
struct TruncFTowardZero : ConvertOpToLLVMPattern<arith::TruncFOp> {
  TruncFTowardZero(LLVMTypeConverter &tc)
      : ConvertOpToLLVMPattern(tc, /*benefit=*/10) {}

  LogicalResult matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<arith::RoundingMode> mode = op.getRoundingmode();
    if (!mode || *mode == arith::RoundingMode::to_nearest_even)
      return failure();
    Type src = op.getIn().getType(), dst = op.getType();
    if (*mode != arith::RoundingMode::toward_zero ||
        !(src.isF32() || src.isF64()) ||
        !(dst.isF16() || dst.isBF16() || dst.isF32()))
      return op.emitOpError("unsupported rounding mode for this conversion");
    auto name = [](Type t) {
      return t.isF16() ? "f16" : t.isBF16() ? "bf16" : t.isF32() ? "f32" : "f64";
    };
    auto reg = [](Type t) {
      return t.isF64() ? "d" : t.isF32() ? "f" : "h";
    };
    std::string text = std::string("cvt.rz.") + name(dst) + "." + name(src) + " $0, $1;";
    std::string constraints = std::string("=") + reg(dst) + "," + reg(src);
    Type out = dst.isF32() ? dst : rewriter.getI16Type();
    Value r = inlinePtx(rewriter, op.getLoc(), {out}, {adaptor.getIn()}, text,
                        constraints, /*hasSideEffects=*/false)[0];
    if (out != dst)
      r = LLVM::BitcastOp::create(rewriter, op.getLoc(), dst, r);
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// The SM number of the module's target (`tile.arch` = "sm_90" -> 90).
unsigned targetSM(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  unsigned sm = 90;
  if (auto arch = module ? module->getAttrOfType<StringAttr>("tile.arch")
                         : StringAttr())
    StringRef(arch.getValue()).drop_front(3).consumeInteger(10, sm);
  return sm;
}

bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }
const char *fp8Name(Type t) {
  return isa<Float8E4M3FNType>(t) ? "fp8e4nv" : "fp8e5";
}

/// fp32 -> fp8 (`cvt.rn.satfinite.e4m3x2.f32` / `e5m2x2`, two lanes of the
/// same value, low byte kept) and fp8 -> fp16 (`cvt.rn.f16x2.e4m3x2`, low
/// lane), as Triton converts on sm_89+ (the frontend routes other float
/// types through these two). Below sm_89 an error names the kernel line.
struct TruncFToFp8 : ConvertOpToLLVMPattern<arith::TruncFOp> {
  TruncFToFp8(LLVMTypeConverter &tc) : ConvertOpToLLVMPattern(tc, /*benefit=*/20) {}
  LogicalResult matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type dst = op.getType();
    if (!isFp8(dst))
      return failure();
    Type srcType = op.getIn().getType();
    if (!isa<FloatType>(srcType) || isFp8(srcType))
      return op.emitOpError("converts to fp8 from fp16, bf16, fp32 or fp64 only");
    if (unsigned sm = targetSM(op); sm < 89)
      return op.emitOpError() << "converting fp32 to " << fp8Name(dst)
                              << " needs sm_89 or newer (cvt.rn.satfinite."
                              << (isa<Float8E4M3FNType>(dst) ? "e4m3x2" : "e5m2x2")
                              << ".f32); the target is sm_" << sm;
    Location loc = op.getLoc();
    // Folding may leave fp16/bf16 (exact in fp32) or fp64 sources here.
    Value x = adaptor.getIn();
    Type f32 = rewriter.getF32Type();
    if (srcType.getIntOrFloatBitWidth() < 32)
      x = LLVM::FPExtOp::create(rewriter, loc, f32, x);
    else if (srcType.isF64())
      x = LLVM::FPTruncOp::create(rewriter, loc, f32, x);
    Value pair = callIntrinsic(rewriter, loc,
                               fp8PairFromF32Intrinsic(dst),
                               rewriter.getI16Type(), {x, x});
    rewriter.replaceOp(op, LLVM::TruncOp::create(rewriter, loc, rewriter.getI8Type(), pair));
    return success();
  }
};

struct ExtFFromFp8 : ConvertOpToLLVMPattern<arith::ExtFOp> {
  ExtFFromFp8(LLVMTypeConverter &tc) : ConvertOpToLLVMPattern(tc, /*benefit=*/20) {}
  LogicalResult matchAndRewrite(arith::ExtFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type src = op.getIn().getType();
    if (!isFp8(src))
      return failure();
    Type dstType = op.getType();
    if (!isa<FloatType>(dstType) || isFp8(dstType))
      return op.emitOpError("converts from fp8 to fp16, bf16, fp32 or fp64 only");
    if (unsigned sm = targetSM(op); sm < 89)
      return op.emitOpError() << "converting " << fp8Name(src)
                              << " to fp16 needs sm_89 or newer (cvt.rn.f16x2."
                              << (isa<Float8E4M3FNType>(src) ? "e4m3x2" : "e5m2x2")
                              << "); the target is sm_" << sm;
    Location loc = op.getLoc();
    Value bits = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI16Type(), adaptor.getIn());
    Type v2h = VectorType::get(2, rewriter.getF16Type());
    Value pair = callIntrinsic(rewriter, loc,
                               isa<Float8E4M3FNType>(src) ? "llvm.nvvm.e4m3x2.to.f16x2.rn"
                                                          : "llvm.nvvm.e5m2x2.to.f16x2.rn",
                               v2h, {bits});
    Value half = LLVM::ExtractElementOp::create(
        rewriter, loc, pair,
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                 rewriter.getI32IntegerAttr(0)));
    // fp8 values are exact in fp16 and in every wider float. To bf16 on
    // sm_90+ with `cvt.bf16.f16`, as Triton 3.6 does: NaN payloads come out
    // as its do (through fp32 they differed for one fp8e5 NaN).
    if (dstType.isBF16() && targetSM(op) >= 90) {
      Type i16 = rewriter.getI16Type();
      Value in = LLVM::BitcastOp::create(rewriter, loc, i16, half);
      Value out = inlinePtx(rewriter, loc, {i16}, {in},
                                  "cvt.bf16.f16 $0, $1;", "=h,h",
                                  /*hasSideEffects=*/false)[0];
      half = LLVM::BitcastOp::create(rewriter, loc, dstType, out);
    } else if (dstType.isBF16()) {
      half = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), half);
      half = LLVM::FPTruncOp::create(rewriter, loc, dstType, half);
    } else if (!dstType.isF16()) {
      half = LLVM::FPExtOp::create(rewriter, loc, dstType, half);
    }
    rewriter.replaceOp(op, half);
    return success();
  }
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
  patterns.add<MulUIExtendedToNVVM, TruncFTowardZero, TruncFToFp8, ExtFFromFp8>(converter);
  auto constant = [](B &b, L loc, double v) -> Value {
    return LLVM::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(v));
  };
  patterns.add<F32MathPattern<arith::DivFOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return callIntrinsic(b, loc, "llvm.nvvm.div.full", f32(b), a);
      },
      "");
  // rsqrt, floor and ceil through libdevice as Triton 3.6 lowers them: with
  // the ftz reflection its code is rsqrt.approx.ftz / cvt.rmi.ftz /
  // cvt.rpi.ftz, which flush subnormal inputs (the non-ftz instructions gave
  // different results on them). fp64 rsqrt is __nv_rsqrt, not 1/sqrt.rn.
  patterns.add<F32MathPattern<math::RsqrtOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return libdeviceOr(b, loc, "__nv_rsqrtf", a[0], [&] {
          return callIntrinsic(b, loc, "llvm.nvvm.rsqrt.approx.f", f32(b), a);
        });
      },
      "__nv_rsqrt");
  patterns.add<F32MathPattern<math::FloorOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return libdeviceOr(b, loc, "__nv_floorf", a[0], [&]() -> Value {
          return LLVM::FFloorOp::create(b, loc, a[0]).getResult();
        });
      },
      "");
  patterns.add<F32MathPattern<math::CeilOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return libdeviceOr(b, loc, "__nv_ceilf", a[0], [&]() -> Value {
          return LLVM::FCeilOp::create(b, loc, a[0]).getResult();
        });
      },
      "");
  patterns.add<F32MathPattern<math::ExpOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        Value x = LLVM::FMulOp::create(b, loc, a[0], constant(b, loc, 1.4426950408889634));
        return callIntrinsic(b, loc, "llvm.nvvm.ex2.approx.f32", f32(b), x);
      },
      "__nv_exp");
  // Triton 3.6 calls libdevice's __nv_exp2f, which its flush-to-zero
  // build makes one ex2.approx.ftz.f32: one MUFU.EX2, where the subnormal-
  // preserving ex2.approx.f32 needs range fix-ups around it (attention's
  // softmax issues one per score).
  patterns.add<F32MathPattern<math::Exp2Op>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return libdeviceOr(b, loc, "__nv_exp2f", a[0], [&]() -> Value {
          return callIntrinsic(b, loc, "llvm.nvvm.ex2.approx.ftz.f32", f32(b), a);
        });
      },
      "__nv_exp2");
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
      "__nv_log");
  patterns.add<F32MathPattern<math::Log2Op>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return libdeviceOr(b, loc, "__nv_log2f", a[0], [&] {
          return callIntrinsic(b, loc, "llvm.nvvm.lg2.approx.f", f32(b), a);
        });
      },
      "__nv_log2");
  patterns.add<F32MathPattern<math::SinOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return libdeviceOr(b, loc, "__nv_sinf", a[0], [&] {
          return callIntrinsic(b, loc, "llvm.nvvm.sin.approx.f", f32(b), a);
        });
      },
      "__nv_sin");
  patterns.add<F32MathPattern<math::CosOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return libdeviceOr(b, loc, "__nv_cosf", a[0], [&] {
          return callIntrinsic(b, loc, "llvm.nvvm.cos.approx.f", f32(b), a);
        });
      },
      "__nv_cos");
  patterns.add<F32MathPattern<math::ErfOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        return libdeviceOr(b, loc, "__nv_erff", a[0], nullptr);
      },
      "__nv_erf");
  patterns.add<F32MathPattern<math::SqrtOp>>(
      converter,
      [=](B &b, L loc, ValueRange a) {
        // tl.sqrt is Triton's fast square root (tl.sqrt_rn the IEEE one).
        return callIntrinsic(b, loc, "llvm.nvvm.sqrt.approx.ftz.f", f32(b), a);
      },
      "");
}

} // namespace kiln::lowering
