//===- Passes.h - Tile to LLVM/NVVM conversion ----------------------------===//
#ifndef KILN_CONVERSION_TILETOLLVM_PASSES_H
#define KILN_CONVERSION_TILETOLLVM_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Conversion/TileToLLVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Conversion/TileToLLVM/Passes.h.inc"

} // namespace kiln

#endif // KILN_CONVERSION_TILETOLLVM_PASSES_H
