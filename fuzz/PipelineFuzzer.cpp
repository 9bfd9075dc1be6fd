//===- PipelineFuzzer.cpp - Source to PTX through compileKernel -----------===//
//
// Input: a Triton-language file. Inputs whose first kernel reaches tile IR
// (checked cheaply first with the frontend alone) are compiled to PTX, so
// the fuzzer's time goes to the backend. Findings: crashes, sanitizer
// reports, hangs, leaks, and a backend failure with an empty message.
//
//===----------------------------------------------------------------------===//
#include "FuzzContext.h"
#include "FuzzSpec.h"
#include "kiln/Frontend/Frontend.h"
#include "kiln/Target/Pipeline.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include <cstdint>

using namespace kiln;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static fuzz::SharedContext shared(
      [](mlir::MLIRContext &ctx) { loadFrontendDialects(ctx); });
  llvm::StringRef source(reinterpret_cast<const char *>(data), size);
  std::optional<KernelSpec> spec = fuzz::deriveSpec(source, "fuzz.py");
  if (!spec)
    return 0;
  {
    mlir::MLIRContext &ctx = shared.get();
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, "fuzz.py"), llvm::SMLoc());
    fuzz::ErrorCounter errors(ctx);
    if (!compileToTile(ctx, sourceMgr, *spec))
      return 0;
  }
  auto compiled = compileKernel(source, "fuzz.py", *spec);
  if (!compiled) {
    std::string message = llvm::toString(compiled.takeError());
    if (message.empty())
      fuzz::silentFailure("compileKernel");
    return 0;
  }
  if (compiled->ptx.empty())
    fuzz::silentFailure("compileKernel (empty PTX)");
  return 0;
}
