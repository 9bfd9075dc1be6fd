//===- Decorators.h - ln-compile: --list-configs, --config, heuristics ----===//
#ifndef KILN_TOOLS_LNCOMPILE_DECORATORS_H
#define KILN_TOOLS_LNCOMPILE_DECORATORS_H

#include "kiln/Frontend/Spec.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <set>

namespace kiln::cli {

/// --list-configs: prints the autotune configs of `spec.kernelName`, one
/// `N: <Triton's Config text>` line each. Returns the exit code.
int listConfigs(llvm::StringRef source, llvm::StringRef filename,
                llvm::StringRef kernel, llvm::raw_ostream &os);

/// Completes `spec` from the kernel's decorators: with `config`, that
/// autotune config's kwargs become constexprs and its num_warps and
/// num_stages the spec's (`explicitWarps` / `explicitStages`: --num-warps /
/// --num-stages was given; a conflict is an error);
/// heuristics are evaluated over what the signature and -D values know and
/// their results become constexprs (a -D for a heuristic's name wins).
/// -D values of non-constexpr parameters only feed heuristics and are
/// removed. Prints errors (`ln-compile: error: ...` or rendered
/// FILE:LINE:COL) and returns false on failure. `mustParse`: fail when the
/// decorators cannot be read (else leave that to the compiler's diagnostics).
/// Heuristics may also set num_warps / num_stages (an explicit --num-warps /
/// --num-stages wins). `hostHeuristics` (--host-decorators): heuristics that
/// Kiln cannot evaluate (a host call) are the host's: their values come from
/// -D and the options, no error.
bool applyDecorators(llvm::StringRef source, llvm::StringRef filename,
                     KernelSpec &spec, std::optional<unsigned> config,
                     bool explicitWarps, bool explicitStages, bool mustParse,
                     bool hostHeuristics = false);

} // namespace kiln::cli

#endif // KILN_TOOLS_LNCOMPILE_DECORATORS_H
