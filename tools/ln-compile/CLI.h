//===- CLI.h - ln-compile: exit codes, error output, --color -------------===//
//
// ln-compile follows LLVM tools' conventions: errors go to stderr, `-` as the
// input is stdin (named `<stdin>` in diagnostics), `-o -` is stdout, and the
// exit code says what happened (docs/runtime.md, "Command-line tools").
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TOOLS_LNCOMPILE_CLI_H
#define KILN_TOOLS_LNCOMPILE_CLI_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

namespace kiln::cli {

/// Exit codes of ln-compile.
enum ExitCode : int {
  kExitSuccess = 0,
  kExitFailure = 1, ///< compile error, unreadable input, unwritable output,
                    ///< diagnostics that do not match --verify-diagnostics
  kExitUsage = 2,   ///< bad, missing or conflicting command-line flags
};

enum class ColorMode { Auto, Always, Never };

/// Applies --color to stderr (auto: when stderr is a terminal).
void setColorMode(ColorMode mode);

/// "ln-compile: error: <msg>" on stderr; returns kExitUsage.
int usageError(const llvm::Twine &msg);
/// "ln-compile: error: <msg>" on stderr; returns kExitFailure.
int failure(const llvm::Twine &msg);

/// Prints diagnostics text (`FILE:LINE:COL: error: ...` lines with source
/// lines and carets) to stderr, colored as clang does when colors are on.
void printDiagnostics(llvm::StringRef text);

} // namespace kiln::cli

#endif // KILN_TOOLS_LNCOMPILE_CLI_H
