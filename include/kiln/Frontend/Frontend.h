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
//  * module attribute `tile.constexprs = {NAME = "<literal>", ...}` (absent
//    when the kernel has no constexpr parameter): each constexpr parameter
//    with the value it was specialized for, as literal text: the text given
//    in the signature or with -D (trimmed), else the Python repr of its
//    evaluated default (`True`, `4`, `tl.float16`). A parameter given a
//    `none` signature entry is the constexpr None and is listed too
//    (`B = "None"`). The backend copies it into KernelInfo::constexprs (the
//    JSON ln-compile writes).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_FRONTEND_H
#define KILN_FRONTEND_FRONTEND_H

#include "kiln/Frontend/Spec.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

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

/// One parameter of a @triton.jit kernel, as its `def` declares it.
struct KernelParameter {
  std::string name;
  /// Annotated `tl.constexpr` (also `constexpr`, `triton.language.constexpr`
  /// or the string "tl.constexpr"): a compile-time value given by name, not
  /// a positional launch argument.
  bool isConstexpr = false;
  /// Source text of the `= default` expression, if any (e.g. `True`, `4`).
  std::optional<std::string> defaultValue;

  friend bool operator==(const KernelParameter &,
                         const KernelParameter &) = default;
};

/// Parses `source` (named `filename` in messages) with the frontend's lexer
/// and parser, resolves its imports and lists the parameters of the
/// @triton.jit function `kernelName` in declaration order. Only the module
/// level and the `def` are examined; the kernel body is checked when it is
/// compiled. Errors are rendered as the compiler renders them
/// (`FILE:LINE:COL: error: ...` with the source line and a caret), e.g.
/// "k.py:1:1: error: kernel `foo` not found in k.py; kernels here: a, b".
llvm::Expected<std::vector<KernelParameter>>
listKernelParameters(llvm::StringRef source, llvm::StringRef filename,
                     llvm::StringRef kernelName);

/// Names of the @triton.jit functions of `source`, in file order; errors as
/// for listKernelParameters.
llvm::Expected<std::vector<std::string>> listKernels(llvm::StringRef source,
                                                     llvm::StringRef filename);

} // namespace kiln

#endif // KILN_FRONTEND_FRONTEND_H
