//===- EmitPTXPass.cpp - --tile-emit-ptx (tests and debugging) ------------===//
#include "kiln/Target/LLVMToPTX.h"
#include "kiln/Target/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ToolOutputFile.h"
#include <atomic>

namespace kiln {
#define GEN_PASS_DEF_TILEEMITPTX
#include "kiln/Target/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
struct TileEmitPTXPass : kiln::impl::TileEmitPTXBase<TileEmitPTXPass> {
  using TileEmitPTXBase::TileEmitPTXBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    kiln::registerLLVMTranslations(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string target = arch;
    if (target.empty()) {
      target = "sm_90";
      if (auto attr = module->getAttrOfType<StringAttr>("tile.arch"))
        target = attr.str();
    }
    auto fail = [&](llvm::Error err) {
      module.emitError() << llvm::toString(std::move(err));
      signalPassFailure();
    };
    llvm::LLVMContext ctx;
    auto llvmModule = kiln::translateToLLVMIR(module, ctx, target);
    if (!llvmModule)
      return fail(llvmModule.takeError());
    if (llvm::Error err = kiln::optimizeLLVMIR(**llvmModule, target))
      return fail(std::move(err));
    std::string text;
    if (llvmIR) {
      llvm::raw_string_ostream os(text);
      (*llvmModule)->print(os, nullptr);
    } else {
      auto ptx = kiln::emitPTX(**llvmModule, target, nullptr, /*fpFusion=*/true,
                               kiln::requiredPTXVersion(module));
      if (!ptx)
        return fail(ptx.takeError());
      text = std::move(*ptx);
    }
    // "{n}" in the name numbers the modules of one process (for tests that
    // emit every part of a --split-input-file run).
    static std::atomic<unsigned> counter{0};
    std::string path = output;
    if (size_t at = path.find("{n}"); at != std::string::npos)
      path.replace(at, 3, std::to_string(counter++));
    std::string message;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &message);
    if (!file) {
      module.emitError() << "cannot write '" << path << "': " << message;
      return signalPassFailure();
    }
    file->os() << text;
    file->keep();
  }
};
} // namespace
