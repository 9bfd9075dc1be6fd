//===- FrontendFuzzer.cpp - Whole files through lex/parse/specialize/IRGen ===//
//
// Input: a Triton-language file. The first @triton.jit kernel is compiled to
// tile IR for a signature derived from its parameters (FuzzSpec.h). Findings:
// crashes, sanitizer reports, hangs, leaks, and a failure that emitted no
// error diagnostic.
//
//===----------------------------------------------------------------------===//
#include "FuzzContext.h"
#include "FuzzSpec.h"
#include "kiln/Frontend/Frontend.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include <cstddef>
#include <cstdint>

using namespace kiln;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static fuzz::SharedContext shared(
      [](mlir::MLIRContext &ctx) { loadFrontendDialects(ctx); });
  llvm::StringRef source(reinterpret_cast<const char *>(data), size);
  std::optional<KernelSpec> spec = fuzz::deriveSpec(source, "fuzz.py");
  if (!spec)
    return 0;
  mlir::MLIRContext &ctx = shared.get();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "fuzz.py"), llvm::SMLoc());
  fuzz::ErrorCounter errors(ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      compileToTile(ctx, sourceMgr, *spec);
  if (!module && errors.errors == 0)
    fuzz::silentFailure("compileToTile");
  return 0;
}
