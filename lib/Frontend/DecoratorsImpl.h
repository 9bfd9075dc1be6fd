//===- DecoratorsImpl.h - Reading a kernel's decorators -------*- C++ -*-===//
//
// Shared by KernelDecorators::parse and the code generator, which checks the
// decorators of the kernel it compiles (so bad decorators are reported as
// FILE:LINE:COL diagnostics, --verify-diagnostics included).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_DECORATORSIMPL_H
#define KILN_LIB_FRONTEND_DECORATORSIMPL_H

#include "HostEval.h"
#include "kiln/Frontend/Decorators.h"

namespace kiln::fe {

/// One @triton.autotune or @triton.heuristics decorator, evaluated.
struct DecoratorLayer {
  bool isAutotune = false;
  /// Heuristics: value name -> the callable computing it, in dict order.
  std::vector<std::pair<std::string, host::Value>> heuristics;
  std::vector<uint32_t> heuristicOffsets; ///< where each callable is written
};

struct DecoratorInfo {
  std::vector<DecoratorLayer> layers; ///< outermost first
  std::optional<AutotuneSpec> autotune;
  /// prune_configs_by={"early_config_prune": f}: f, and the configs list it
  /// is given (the decorator's own Config values); None without one.
  host::Value earlyConfigPrune, configsList;
  uint32_t pruneOffset = 0; ///< where f is written
};

/// Folds each module-level `f = W(f)` that follows `def f` into the def as
/// its outermost decorator `@W` (and drops the statement), when `f` already
/// has decorators or W is a `jit` (`f = triton.jit(f)`): Python's meaning of
/// a decorator, in the form some libraries write it. Run on every module
/// parsed for kernels (WrapperRebindings.cpp).
void foldWrapperRebindings(ast::Module &module);

/// What to do about a decorator value Kiln cannot evaluate
/// (Interp::opaqueHint).
inline constexpr const char *kLeaveDecoratorsToHost =
    "Kiln evaluates decorators without Python: leave them to the host "
    "(ln-compile --host-decorators; the Python drop-in runs them as Python)";

/// Evaluates the decorators of the @triton.jit function `fn` with `in`.
/// `where` is the "FILE:LINE:COL" text of an offset (for AutotuneSpec).
std::optional<DecoratorInfo>
readDecorators(host::Interp &in, const ast::FunctionDef *fn,
               llvm::function_ref<std::string(uint32_t)> where);

} // namespace kiln::fe

#endif // KILN_LIB_FRONTEND_DECORATORSIMPL_H
