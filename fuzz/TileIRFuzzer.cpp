//===- TileIRFuzzer.cpp - Tile-IR parser and verifier, as kiln-opt runs ---===//
//
// Input: MLIR text. Parsed with the dialects kiln-opt registers, then
// verified. Findings: crashes, sanitizer reports, hangs, leaks, and a
// rejected input that emitted no error diagnostic.
//
//===----------------------------------------------------------------------===//
#include "FuzzContext.h"
#include "kiln/Dialect/Tile/IR/TextLimits.h"
#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static kiln::fuzz::SharedContext shared([](mlir::MLIRContext &ctx) {
    mlir::DialectRegistry registry;
    registry.insert<kiln::tile::TileDialect, mlir::arith::ArithDialect,
                    mlir::math::MathDialect, mlir::scf::SCFDialect,
                    mlir::func::FuncDialect, mlir::cf::ControlFlowDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  });
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // Refused before parsing, as ln-compile refuses it (TextLimits.h).
  if (kiln::tile::bracketBeyondDepth(text, kiln::tile::kMaxTileIRNesting) ||
      kiln::tile::indexDenseArray(text))
    return 0;
  mlir::MLIRContext &ctx = shared.get();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          text,
          "fuzz.mlir"),
      llvm::SMLoc());
  kiln::fuzz::ErrorCounter errors(ctx);
  mlir::ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (!module) {
    if (errors.errors == 0)
      kiln::fuzz::silentFailure("parse");
    return 0;
  }
  if (mlir::failed(mlir::verify(*module)) && errors.errors == 0)
    kiln::fuzz::silentFailure("verify");
  return 0;
}
