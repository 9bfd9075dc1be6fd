//===- LowerToPTX.cpp - PLACEHOLDER until the backend lands ---------------===//
// The backend engineer replaces this file (lowerTileToPTX, KernelInfo JSON).
#include "kiln/Target/Pipeline.h"
#include "mlir/IR/BuiltinOps.h"

namespace kiln {
llvm::Expected<CompiledKernel> lowerTileToPTX(mlir::ModuleOp, const KernelSpec &,
                                              const CompileOptions &) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the tile-to-PTX backend is not built yet");
}
llvm::json::Value KernelInfo::toJSON() const { return llvm::json::Object{}; }
llvm::Expected<KernelInfo> KernelInfo::fromJSON(llvm::StringRef) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "KernelInfo JSON is not implemented yet");
}
} // namespace kiln
