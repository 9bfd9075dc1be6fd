//===- ScalarArithToLLVM.cpp - Direct rewrite of plain scalar arith ops ---===//
//
// After distribution a kernel is mostly scalar arith ops on types LLVM
// shares with the builtin dialect (i1..i64, f16, bf16, f32, f64), each with an
// LLVM twin of the same operands and result. Driving them through the
// dialect conversion costs ~16 K host instructions per op (a sixth of the
// forward LayerNorm kernel's whole compile); replacing them in one walk costs
// a small fraction. Only ops without overflow or fast-math flags, rounding
// modes or index types are taken, and not the ones Kiln lowers on its own
// (arith.divf -> div.full, MathToNVVM.cpp): everything else is left to the
// conversion driver, which treats these ops' results like any other.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

bool isPlainScalar(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return i.isSignless();
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(t);
}

bool hasPlainTypes(Operation *op) {
  return llvm::all_of(op->getOperandTypes(), isPlainScalar) &&
         llvm::all_of(op->getResultTypes(), isPlainScalar);
}

template <typename Op>
bool noOverflowFlags(Op op) {
  return op.getOverflowFlags() == arith::IntegerOverflowFlags::none;
}

template <typename Op>
bool noFastMath(Op op) {
  return op.getFastmath() == arith::FastMathFlags::none;
}

/// The LLVM twin of `op`, or null when the conversion driver must take it.
Value rewriteOne(Operation *op, OpBuilder &b) {
  Location loc = op->getLoc();
  auto bin = [&](auto tag) -> Value {
    using LLVMOp = decltype(tag);
    return LLVMOp::create(b, loc, op->getOperand(0), op->getOperand(1));
  };
  auto castOp = [&](auto tag) -> Value {
    using LLVMOp = decltype(tag);
    return LLVMOp::create(b, loc, op->getResult(0).getType(), op->getOperand(0));
  };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](arith::AddIOp o) {
        return noOverflowFlags(o) ? bin(LLVM::AddOp()) : Value();
      })
      .Case([&](arith::SubIOp o) {
        return noOverflowFlags(o) ? bin(LLVM::SubOp()) : Value();
      })
      .Case([&](arith::MulIOp o) {
        return noOverflowFlags(o) ? bin(LLVM::MulOp()) : Value();
      })
      .Case([&](arith::ShLIOp o) {
        return noOverflowFlags(o) ? bin(LLVM::ShlOp()) : Value();
      })
      .Case([&](arith::ShRSIOp) { return bin(LLVM::AShrOp()); })
      .Case([&](arith::ShRUIOp) { return bin(LLVM::LShrOp()); })
      .Case([&](arith::AndIOp) { return bin(LLVM::AndOp()); })
      .Case([&](arith::OrIOp) { return bin(LLVM::OrOp()); })
      .Case([&](arith::XOrIOp) { return bin(LLVM::XOrOp()); })
      .Case([&](arith::AddFOp o) { return noFastMath(o) ? bin(LLVM::FAddOp()) : Value(); })
      .Case([&](arith::SubFOp o) { return noFastMath(o) ? bin(LLVM::FSubOp()) : Value(); })
      .Case([&](arith::MulFOp o) { return noFastMath(o) ? bin(LLVM::FMulOp()) : Value(); })
      .Case([&](arith::CmpIOp o) -> Value {
        // The predicates are declared in the same order (ArithToLLVM casts too).
        return LLVM::ICmpOp::create(
            b, loc, static_cast<LLVM::ICmpPredicate>(o.getPredicate()), o.getLhs(),
            o.getRhs());
      })
      .Case([&](arith::CmpFOp o) -> Value {
        if (!noFastMath(o))
          return {};
        return LLVM::FCmpOp::create(
            b, loc, static_cast<LLVM::FCmpPredicate>(o.getPredicate()), o.getLhs(),
            o.getRhs());
      })
      .Case([&](arith::SelectOp o) -> Value {
        return LLVM::SelectOp::create(b, loc, o.getCondition(), o.getTrueValue(),
                                      o.getFalseValue());
      })
      .Case([&](arith::ExtFOp o) { return noFastMath(o) ? castOp(LLVM::FPExtOp()) : Value(); })
      .Case([&](arith::TruncFOp o) {
        return noFastMath(o) && !o.getRoundingmodeAttr() ? castOp(LLVM::FPTruncOp())
                                                          : Value();
      })
      .Case([&](arith::ExtSIOp) { return castOp(LLVM::SExtOp()); })
      .Case([&](arith::ExtUIOp) { return castOp(LLVM::ZExtOp()); })
      .Case([&](arith::TruncIOp o) {
        return o.getOverflowFlags() == arith::IntegerOverflowFlags::none
                   ? castOp(LLVM::TruncOp())
                   : Value();
      })
      .Case([&](arith::SIToFPOp) { return castOp(LLVM::SIToFPOp()); })
      .Case([&](arith::ConstantOp o) -> Value {
        Attribute value = o.getValue();
        if (!isa<IntegerAttr, FloatAttr>(value))
          return {};
        return LLVM::ConstantOp::create(b, loc, o.getType(), cast<TypedAttr>(value));
      })
      .Default([](Operation *) { return Value(); });
}

} // namespace

void rewritePlainScalarArith(Operation *root) {
  SmallVector<Operation *> candidates;
  root->walk([&](Operation *op) {
    if (isa<arith::ArithDialect>(op->getDialect()) && op->getNumResults() == 1 &&
        hasPlainTypes(op))
      candidates.push_back(op);
  });
  OpBuilder b(root->getContext());
  SmallVector<OpFoldResult> folded;
  for (Operation *op : candidates) {
    b.setInsertionPoint(op);
    // Fold first, as the conversion driver would (`x >> 0`, `x & -1`, ...).
    folded.clear();
    if (succeeded(op->fold(folded)) && folded.size() == 1) {
      Value replacement = dyn_cast<Value>(folded[0]);
      auto attr = dyn_cast_or_null<TypedAttr>(dyn_cast<Attribute>(folded[0]));
      if (!replacement && attr && isa<IntegerAttr, FloatAttr>(attr) &&
          attr.getType() == op->getResult(0).getType())
        replacement = LLVM::ConstantOp::create(b, op->getLoc(), attr.getType(), attr);
      if (replacement) {
        op->getResult(0).replaceAllUsesWith(replacement);
        op->erase();
        continue;
      }
    }
    if (Value replacement = rewriteOne(op, b)) {
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    }
  }
}

} // namespace kiln::lowering
