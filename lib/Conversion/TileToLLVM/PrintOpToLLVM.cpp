//===- PrintOpToLLVM.cpp - tile.print through vprintf ---------------------===//
//
// Each owned element (first copy only) prints one line through CUDA's
// device-side `vprintf(format, args)`:
//   pid (X, Y, Z) idx (i, j) <prefix><value>
// Scalars print once per program (thread 0) and have no idx. Values are
// promoted as C varargs are: floats to double, small integers to int.
// tile.assert lowers in AssertOpToLLVM.cpp (populated from here).
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {
namespace {

LLVM::LLVMFuncOp getVprintf(ModuleOp module, OpBuilder &b) {
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto type = LLVM::LLVMFunctionType::get(IntegerType::get(ctx, 32), {ptr, ptr});
  return getOrInsertFunction(module, b, module.getLoc(), "vprintf", type);
}

/// Value promoted for varargs and its printf conversion. `hex` prints the
/// value's bits zero-padded to its width, as Triton's `hex=True`
/// (`0x%04x` for 16 bits, `0x%08x` for 32, `0x%016llx` for 64).
std::pair<Value, std::string> promote(OpBuilder &b, Location loc, Value v,
                                      bool hex) {
  Type t = v.getType();
  if (isa<LLVM::LLVMPointerType>(t))
    return {LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), v), "0x%llx"};
  if (hex) {
    unsigned bits = t.getIntOrFloatBitWidth();
    if (isa<FloatType>(t))
      v = LLVM::BitcastOp::create(b, loc, b.getIntegerType(bits), v);
    if (bits < 32)
      v = LLVM::ZExtOp::create(b, loc, b.getI32Type(), v);
    std::string conv = "0x%0" + std::to_string(std::max(1u, bits / 4)) +
                       (bits > 32 ? "llx" : "x");
    return {v, conv};
  }
  if (isa<FloatType>(t)) {
    if (!t.isF64())
      v = LLVM::FPExtOp::create(b, loc, b.getF64Type(), v);
    return {v, "%f"};
  }
  unsigned bits = t.getIntOrFloatBitWidth();
  if (bits == 64)
    return {v, "%lld"};
  if (bits < 32)
    v = bits == 1 ? LLVM::ZExtOp::create(b, loc, b.getI32Type(), v).getResult()
                  : LLVM::SExtOp::create(b, loc, b.getI32Type(), v).getResult();
  return {v, "%d"};
}

struct PrintLowering : OpConversionPattern<PrintOp> {
  PrintLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(PrintOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto func = op->getParentOfType<FunctionOpInterface>();
    if (!module || !func)
      return failure();
    MLIRContext *ctx = getContext();
    LLVM::LLVMFuncOp vprintf = getVprintf(module, rewriter);
    Type i32 = rewriter.getI32Type();
    SmallVector<Value> pid{NVVM::BlockIdXOp::create(rewriter, loc, i32),
                           NVVM::BlockIdYOp::create(rewriter, loc, i32),
                           NVVM::BlockIdZOp::create(rewriter, loc, i32)};
    const LoweringState::ThreadIds &ids = state.idsFor(op);
    Value lane = ids.lane, warp = ids.warp;

    // One line per (operand, owned element).
    auto emitLine = [&](OpBuilder &b, ArrayRef<Value> indices, Value value,
                        unsigned operand) {
      auto [promoted, conversion] = promote(b, loc, value, op.getHex());
      std::string format = "pid (%d, %d, %d) ";
      if (!indices.empty()) {
        format += "idx (";
        for (unsigned i = 0; i < indices.size(); ++i)
          format += i ? ", %d" : "%d";
        format += ") ";
      }
      format += op.getPrefix().str();
      if (op.getArgs().size() > 1)
        format += " (operand " + std::to_string(operand) + ")";
      format += " " + conversion + "\n";
      SmallVector<Value> fields(pid);
      fields.append(indices.begin(), indices.end());
      fields.push_back(promoted);
      SmallVector<Type> fieldTypes;
      for (Value f : fields)
        fieldTypes.push_back(f.getType());
      auto structType = LLVM::LLVMStructType::getLiteral(ctx, fieldTypes);
      auto ptrType = LLVM::LLVMPointerType::get(ctx);
      // The argument buffer lives in the entry block (one stack slot).
      Value buffer;
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&func.getFunctionBody().front());
        Value one = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1));
        buffer = LLVM::AllocaOp::create(b, loc, ptrType, structType, one);
      }
      for (auto [i, f] : llvm::enumerate(fields)) {
        Value slot = LLVM::GEPOp::create(b, loc, ptrType, structType, buffer,
                                         ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
        LLVM::StoreOp::create(b, loc, f, slot);
      }
      Value fmt = stringConstant(module, b, loc, format, "kiln_fmt_");
      LLVM::CallOp::create(b, loc, vprintf, ValueRange{fmt, buffer});
    };

    for (auto [k, arg] : llvm::enumerate(op.getArgs())) {
      ValueRange values = adaptor.getArgs()[k];
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      if (!tensor) {
        Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                            ids.tid,
                                            i32Const(rewriter, loc, 0));
        scf::IfOp::create(rewriter, loc, first, [&](OpBuilder &b, Location l) {
          emitLine(b, {}, values[0], k);
          scf::YieldOp::create(b, l);
        });
        continue;
      }
      std::optional<DistributedLayout> layout = getDistributedLayout(tensor);
      if (!layout)
        return rewriter.notifyMatchFailure(op, "tensor without a layout");
      SmallVector<Value> coords = threadCoords(rewriter, loc, *layout, lane, warp);
      Value owner = isFirstCopy(rewriter, loc, *layout, lane, warp);
      auto body = [&](OpBuilder &b) {
        for (unsigned r = 0; r < layout->numRegs(); ++r) {
          DistributedLayout::Coord off = layout->regOffset(r);
          SmallVector<Value> indices;
          for (unsigned d = 0; d < layout->rank(); ++d)
            indices.push_back(off[d] ? arith::AddIOp::create(b, loc, coords[d],
                                                             i32Const(b, loc, off[d]))
                                           .getResult()
                                     : coords[d]);
          emitLine(b, indices, values[r], k);
        }
      };
      if (owner)
        scf::IfOp::create(rewriter, loc, owner, [&](OpBuilder &b, Location l) {
          body(b);
          scf::YieldOp::create(b, l);
        });
      else
        body(rewriter);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populatePrintPatterns(TileTypeConverter &converter, const LoweringState &state,
                           RewritePatternSet &patterns) {
  patterns.add<PrintLowering>(converter, patterns.getContext(), state);
  populateAssertPatterns(converter, state, patterns);
}

} // namespace kiln::lowering
