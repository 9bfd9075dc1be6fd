//===- AssertOpToLLVM.cpp - tile.assert through __assertfail --------------===//
//
// CUDA's device-side assert is a call of the PTX system function
//   void __assertfail(const char *message, const char *file, unsigned line,
//                     const char *function, size_t charSize)
// which prints `file:line: function: block: [..], thread: [..] Assertion
// `message` failed.` and traps. Each thread ORs the negations of the
// condition elements it holds (every copy checks: a replicated element is
// the same value) and calls it when one is false. File and line come from
// the op's location in the .py file, the function is the kernel.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {
namespace {

LLVM::LLVMFuncOp getAssertFail(ModuleOp module, OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto type = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(ctx),
      {ptr, ptr, IntegerType::get(ctx, 32), ptr, IntegerType::get(ctx, 64)});
  return getOrInsertFunction(module, b, module.getLoc(), "__assertfail", type);
}

/// The first file:line position inside `loc` (inlined helpers and fused
/// locations keep one), or ("unknown", 0).
std::pair<std::string, unsigned> sourcePosition(Location loc) {
  std::pair<std::string, unsigned> pos{"unknown", 0};
  loc->walk([&](Location l) {
    if (auto flc = dyn_cast<FileLineColLoc>(l)) {
      pos = {flc.getFilename().str(), flc.getLine()};
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return pos;
}

struct AssertLowering : OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(AssertOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto func = op->getParentOfType<FunctionOpInterface>();
    if (!module || !func)
      return failure();
    Value anyFalse;
    for (Value c : adaptor.getCondition()) {
      Value bit = c;
      if (bit.getType() != rewriter.getI1Type())
        bit = arith::TruncIOp::create(rewriter, loc, rewriter.getI1Type(), bit);
      Value isFalse = arith::XOrIOp::create(
          rewriter, loc, bit,
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 1));
      anyFalse = anyFalse ? arith::OrIOp::create(rewriter, loc, anyFalse, isFalse)
                                .getResult()
                          : isFalse;
    }
    if (!anyFalse)
      return rewriter.notifyMatchFailure(op, "condition without values");
    auto [file, line] = sourcePosition(loc);
    std::string function = func.getName().str();
    LLVM::LLVMFuncOp assertFail = getAssertFail(module, rewriter);
    scf::IfOp::create(rewriter, loc, anyFalse, [&](OpBuilder &b, Location l) {
      Value msg = stringConstant(module, b, l, op.getMessage(), "kiln_assert_");
      Value fileStr = stringConstant(module, b, l, file, "kiln_assert_");
      Value funcStr = stringConstant(module, b, l, function, "kiln_assert_");
      Value lineVal = i32Const(b, l, line);
      Value charSize = LLVM::ConstantOp::create(b, l, b.getI64Type(),
                                                b.getI64IntegerAttr(1));
      LLVM::CallOp::create(b, l, assertFail,
                           ValueRange{msg, fileStr, lineVal, funcStr, charSize});
      scf::YieldOp::create(b, l);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateAssertPatterns(TileTypeConverter &converter, const LoweringState &,
                            RewritePatternSet &patterns) {
  patterns.add<AssertLowering>(converter, patterns.getContext());
}

} // namespace kiln::lowering
