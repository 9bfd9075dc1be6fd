//===- Frontend.h - Triton-language source to the tile dialect ------------===//
//
// The frontend parses a Triton-language file (Python syntax) in C++, finds the
// requested @triton.jit kernel, specializes it (signature, constexprs) and
// generates a verified module in the tile/arith/math/scf/func dialects.
//
// Diagnostics go through the MLIRContext's diagnostic engine with
// FileLineColLoc locations into `filename`, so a SourceMgrDiagnosticHandler
// renders them as FILE:LINE:COL with the source line and a caret, and a
// SourceMgrDiagnosticVerifierHandler checks `# expected-error {{...}}`
// comments in .py files.
//
// Contract with the backend (what the generated module looks like):
//  * one `func.func @<kernel>` (helpers are inlined), constexpr parameters
//    removed; each argument has `tile.name = "<param>"`, and pointer / integer
//    arguments known divisible carry `tile.divisibility = 16 : i32`.
//  * module attributes `tile.num_warps = N : i32`, `tile.arch = "sm_90"`.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_FRONTEND_H
#define KILN_FRONTEND_FRONTEND_H

#include "kiln/Frontend/Spec.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
}

namespace kiln {

/// Loads the dialects the frontend emits into `ctx`.
void loadFrontendDialects(mlir::MLIRContext &ctx);

/// Parses the main buffer of `sourceMgr` and prints its AST (for
/// --emit=ast). Returns std::nullopt after emitting diagnostics on error.
std::optional<std::string> dumpAST(mlir::MLIRContext &ctx,
                                   llvm::SourceMgr &sourceMgr);

/// Compiles `spec.kernelName` from the main buffer of `sourceMgr`. Returns a
/// null module after emitting diagnostics on error; the module is verified.
mlir::OwningOpRef<mlir::ModuleOp> compileToTile(mlir::MLIRContext &ctx,
                                                llvm::SourceMgr &sourceMgr,
                                                const KernelSpec &spec);

} // namespace kiln

#endif // KILN_FRONTEND_FRONTEND_H
