//===- Imports.h - How the frontend finds other Python files ---------------===//
//
// Settings of a compile that are not part of the specialization: the
// package roots searched for `import` statements and whether the host
// applies the decorators. They are per thread and scoped, so that a caller
// (ln-compile -I, the C API's module config) sets them around
// compileKernel / compileToTile without changing KernelSpec. Callers that
// cache compiled kernels must put them (and the imported files) in their
// cache key themselves.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_IMPORTS_H
#define KILN_FRONTEND_IMPORTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace kiln {

/// The value a host that ran the module (Python's drop-in triton) knows a
/// module-level name has: `NAME=EXPR`, or `PATH::NAME=EXPR` for the module
/// file PATH (an imported file; without PATH the main file). EXPR is Python
/// source evaluated with `triton` bound to the Triton module
/// (`triton.language.extra.libdevice.rsqrt`, `triton.language.float32`,
/// `128`, `'mean'`, `None`). The frontend uses it only for a name it cannot
/// resolve itself: one whose last binding in the file is inside a compound
/// statement (`if`/`try`/`with`/loops/`match`).
struct HostBinding {
  std::string path, name, expr;
  bool operator==(const HostBinding &) const = default;
};

/// Parses `NAME=EXPR` / `PATH::NAME=EXPR` (split at the first `=`, PATH at
/// the last `::` before it); EXPR itself is parsed where it is used.
llvm::Expected<HostBinding> parseHostBinding(llvm::StringRef text);

/// Parses every binding; a second binding of one PATH and NAME is an error.
llvm::Expected<std::vector<HostBinding>>
parseHostBindings(const std::vector<std::string> &texts);

struct FrontendOptions {
  /// Package roots for absolute imports (`from mylib.ops import helper`);
  /// relative imports resolve beside the importing file.
  std::vector<std::string> includeDirs;
  /// The host applies @triton.autotune / @triton.heuristics itself (Python's
  /// drop-in triton): the compiler neither evaluates nor checks them.
  bool hostDecorators = false;
  /// The main file's path, when the compile names it by its base name only
  /// (the runtime does, for path-independent cache entries): relative
  /// imports of the main file resolve beside it.
  std::string mainFile;
  /// Values of module-level names the frontend finds ambiguous, from the
  /// host (ln-compile --bind, the C API's host_bindings).
  std::vector<HostBinding> hostBindings;
};

/// The calling thread's options (defaults when none are set).
const FrontendOptions &currentFrontendOptions();

/// Sets the calling thread's options for its lifetime.
class ScopedFrontendOptions {
public:
  explicit ScopedFrontendOptions(FrontendOptions options);
  ~ScopedFrontendOptions();
  ScopedFrontendOptions(const ScopedFrontendOptions &) = delete;
  ScopedFrontendOptions &operator=(const ScopedFrontendOptions &) = delete;

private:
  FrontendOptions saved;
};

/// The Python files `source` (named `filename`) imports, directly or through
/// other imported files, that the frontend would resolve with
/// `includeDirs`: a digest of their paths and contents, for cache keys
/// ("" when it imports none).
std::string importedFilesDigest(llvm::StringRef source,
                                llvm::StringRef filename,
                                const std::vector<std::string> &includeDirs);

} // namespace kiln

#endif // KILN_FRONTEND_IMPORTS_H
