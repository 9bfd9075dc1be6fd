//===- MathOpToLLVM.cpp - IEEE div/sqrt, libdevice calls, inline asm ------===//
//
// Per-register lowering of the tile math ops (the tensor has already been
// split into the values each thread owns):
//
//   tile.precise_divf    f32: llvm.nvvm.div.rn.f (div.rn.f32); f64: fdiv
//   tile.precise_sqrt    f32: llvm.nvvm.sqrt.rn.f (sqrt.rn.f32); f64: sqrt
//   tile.extern_elementwise   one call of the libdevice function per
//                        element; the bitcode is linked after translation
//                        (lib/Target/LLVMToPTX.cpp) when the pipeline found
//                        it (module attribute `tile.libdevice`), else an
//                        error naming the function and the kernel line
//   tile.inline_asm_elementwise   one llvm.inline_asm per `packed_element`
//                        registers, narrow operands packed into 32-bit
//                        vectors as Triton does
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {
namespace {

/// The i-th thread-owned value of an operand (scalars are shared).
Value nthValue(ValueRange values, unsigned i) {
  return values.size() == 1 ? values[0] : values[i];
}

unsigned registerCount(const TypeConverter *tc, Type t) {
  SmallVector<Type> types;
  if (failed(tc->convertType(t, types)))
    return 0;
  return types.size();
}

Value callIntrinsic(OpBuilder &b, Location loc, StringRef name, Type result,
                    ValueRange args) {
  return LLVM::CallIntrinsicOp::create(b, loc, result, b.getStringAttr(name),
                                       args)
      .getResult(0);
}

/// Replaces a one-result elementwise op by `scalar(i, operands)` per owned
/// element.
LogicalResult
perElement(Operation *op, ArrayRef<ValueRange> operands,
           const TypeConverter *tc, ConversionPatternRewriter &rewriter,
           llvm::function_ref<Value(SmallVectorImpl<Value> &)> scalar) {
  unsigned n = registerCount(tc, op->getResult(0).getType());
  if (!n)
    return rewriter.notifyMatchFailure(op, "result without a layout");
  SmallVector<Value> results;
  for (unsigned i = 0; i < n; ++i) {
    SmallVector<Value> args;
    for (ValueRange v : operands)
      args.push_back(nthValue(v, i));
    Value r = scalar(args);
    if (!r)
      return failure();
    results.push_back(r);
  }
  rewriter.replaceOpWithMultiple(op, {results});
  return success();
}

struct PreciseDivFLowering : OpConversionPattern<PreciseDivFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PreciseDivFOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    return perElement(op, adaptor.getOperands(), getTypeConverter(), rewriter,
                      [&](SmallVectorImpl<Value> &a) -> Value {
                        if (a[0].getType().isF32())
                          return callIntrinsic(rewriter, loc, "llvm.nvvm.div.rn.f",
                                               a[0].getType(), a);
                        return LLVM::FDivOp::create(rewriter, loc, a[0], a[1]);
                      });
  }
};

struct PreciseSqrtLowering : OpConversionPattern<PreciseSqrtOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PreciseSqrtOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    return perElement(op, adaptor.getOperands(), getTypeConverter(), rewriter,
                      [&](SmallVectorImpl<Value> &a) -> Value {
                        if (a[0].getType().isF32())
                          return callIntrinsic(rewriter, loc, "llvm.nvvm.sqrt.rn.f",
                                               a[0].getType(), a);
                        return LLVM::SqrtOp::create(rewriter, loc, a[0]);
                      });
  }
};

struct ExternElementwiseLowering : OpConversionPattern<ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ExternElementwiseOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<ModuleOp>();
    StringRef symbol = op.getSymbol();
    if (!module->hasAttr("tile.libdevice"))
      return op.emitOpError()
             << "calls `" << symbol
             << "` from libdevice, but libdevice.10.bc was not found (set "
                "KILN_LIBDEVICE to its path, or CUDA_HOME to a CUDA toolkit)";
    Type result = mlir::getElementTypeOrSelf(op.getType());
    SmallVector<Type> params;
    for (Value v : op.getSrcs())
      params.push_back(mlir::getElementTypeOrSelf(v.getType()));
    auto fnType = LLVM::LLVMFunctionType::get(result, params);
    auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(symbol);
    if (!func) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      func = LLVM::LLVMFuncOp::create(rewriter, op.getLoc(), symbol, fnType);
    } else if (func.getFunctionType() != fnType) {
      return op.emitOpError() << "calls `" << symbol << "` as " << fnType
                              << ", but it was declared as "
                              << func.getFunctionType();
    }
    Location loc = op.getLoc();
    return perElement(op, adaptor.getOperands(), getTypeConverter(), rewriter,
                      [&](SmallVectorImpl<Value> &a) -> Value {
                        return LLVM::CallOp::create(rewriter, loc, func, a)
                            .getResult();
                      });
  }
};

/// An LLVM-compatible type for a register element (fp8 goes as i8).
Type asmElementType(Type t) {
  if (isa<FloatType>(t) && !LLVM::isCompatibleType(t))
    return IntegerType::get(t.getContext(), t.getIntOrFloatBitWidth());
  return t;
}

struct InlineAsmLowering : OpConversionPattern<InlineAsmElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(InlineAsmElementwiseOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned pack = op.getPackedElement();
    unsigned n = op.getNumResults()
                     ? registerCount(getTypeConverter(), op.getResult(0).getType())
                     : 1;
    if (!n)
      return rewriter.notifyMatchFailure(op, "result without a layout");
    // A thread may own fewer (or not a multiple of) `pack` elements: the
    // last instance gets zeros in the missing slots, their results dropped.
    // Register types of one asm instance: results first, then operands.
    auto regType = [&](Type elem) -> std::pair<Type, unsigned> {
      Type e = asmElementType(getTypeConverter()->convertType(elem));
      unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 64;
      unsigned perReg = std::min(std::max(32 / bits, 1u), pack);
      return {perReg > 1 ? Type(VectorType::get(perReg, e)) : e, perReg};
    };
    SmallVector<Type> outTypes;
    for (Type t : op.getResultTypes()) {
      auto [reg, perReg] = regType(mlir::getElementTypeOrSelf(t));
      outTypes.append(pack / perReg, reg);
    }
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (unsigned base = 0; base < n; base += pack) {
      SmallVector<Value> inputs;
      for (auto [operand, values] : llvm::zip(op.getArgs(), adaptor.getArgs())) {
        auto [reg, perReg] = regType(mlir::getElementTypeOrSelf(operand.getType()));
        for (unsigned j = 0; j < pack; j += perReg) {
          auto cast = [&](Value v) -> Value {
            Type t = asmElementType(v.getType());
            return t == v.getType() ? v
                                    : arith::BitcastOp::create(rewriter, loc, t, v)
                                          .getResult();
          };
          auto element = [&](unsigned i) -> Value {
            if (values.size() == 1 || i < values.size())
              return cast(nthValue(values, i));
            Type t = asmElementType(values[0].getType());
            return LLVM::ZeroOp::create(rewriter, loc, t);
          };
          if (perReg == 1) {
            inputs.push_back(element(base + j));
            continue;
          }
          Value vec = LLVM::UndefOp::create(rewriter, loc, reg);
          for (unsigned k = 0; k < perReg; ++k) {
            Value index = i32Const(rewriter, loc, k); // a fixed op order
            vec = LLVM::InsertElementOp::create(rewriter, loc, vec,
                                                element(base + j + k), index);
          }
          inputs.push_back(vec);
        }
      }
      SmallVector<Value> outs =
          inlinePtx(rewriter, loc, outTypes, inputs, op.getAsmString(),
                    op.getConstraints(), !op.getPure());
      unsigned next = 0;
      for (auto [r, t] : llvm::enumerate(op.getResultTypes())) {
        Type elem = getTypeConverter()->convertType(mlir::getElementTypeOrSelf(t));
        auto [reg, perReg] = regType(mlir::getElementTypeOrSelf(t));
        for (unsigned j = 0; j < pack; j += perReg) {
          Value v = outs[next++];
          for (unsigned k = 0; k < perReg; ++k) {
            Value e = perReg == 1 ? v
                                  : LLVM::ExtractElementOp::create(
                                        rewriter, loc, v, i32Const(rewriter, loc, k))
                                        .getResult();
            if (e.getType() != elem)
              e = arith::BitcastOp::create(rewriter, loc, elem, e);
            if (base + j + k < n)
              results[r].push_back(e);
          }
        }
      }
    }
    if (op.getNumResults() == 0) {
      rewriter.eraseOp(op);
      return success();
    }
    SmallVector<SmallVector<Value>> replacements(results.begin(), results.end());
    rewriter.replaceOpWithMultiple(op, replacements);
    return success();
  }
};

/// tile.map_elementwise: the body inlined once per group of `pack` elements
/// a thread owns. When a thread owns fewer than `pack` (or not a multiple),
/// the missing slots repeat the group's first element (a valid input, unlike
/// zero for an integer division) and their results are dropped.
struct MapElementwiseLowering : OpConversionPattern<MapElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MapElementwiseOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    unsigned pack = op.getPack();
    unsigned n = registerCount(getTypeConverter(), op.getSrcs()[0].getType());
    if (!n)
      return rewriter.notifyMatchFailure(op, "operand without a layout");
    Block &body = op.getBody().front();
    Operation *yield = body.getTerminator();
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (unsigned base = 0; base < n; base += pack) {
      IRMapping mapping;
      for (auto [i, values] : llvm::enumerate(adaptor.getSrcs()))
        for (unsigned j = 0; j < pack; ++j) {
          unsigned element = base + j < n ? base + j : base;
          mapping.map(body.getArgument(i * pack + j), nthValue(values, element));
        }
      for (Operation &inner : body.without_terminator())
        rewriter.clone(inner, mapping);
      for (unsigned r = 0; r < op.getNumResults(); ++r)
        for (unsigned j = 0; j < pack && base + j < n; ++j)
          results[r].push_back(mapping.lookupOrDefault(yield->getOperand(r * pack + j)));
    }
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

} // namespace

void populateMathOpPatterns(TileTypeConverter &converter,
                            RewritePatternSet &patterns) {
  patterns.add<PreciseDivFLowering, PreciseSqrtLowering, ExternElementwiseLowering,
               InlineAsmLowering, MapElementwiseLowering>(converter, patterns.getContext());
}

} // namespace kiln::lowering
