//===- ModuleFiles.h - Where an imported Python module's file is -*- C++ -*-===//
//
// One resolution of `import` statements to files, shared by the code
// generator (kernels' @triton.jit helpers and constants, IRGenImport.cpp),
// the host evaluator (decorator arguments, HostEvalModules.cpp) and the
// digest of imported files: relative imports beside the importing file,
// absolute ones in the package roots (`ln-compile -I DIR`, the C API's
// include_dirs).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_MODULEFILES_H
#define KILN_LIB_FRONTEND_MODULEFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace kiln {
struct FrontendOptions;
} // namespace kiln

namespace kiln::fe {

/// DIR/a/b.py or DIR/a/b/__init__.py for parts {a, b} (DIR/__init__.py
/// for no parts: `from . import x`).
std::optional<std::string> moduleFileIn(llvm::StringRef dir,
                                        llvm::ArrayRef<llvm::StringRef> parts);
/// Where module `dotted` with `level` leading dots, imported by the file
/// `importer`, is looked for: the package roots for an absolute import,
/// else the importer's directory (`level - 1` levels up).
std::vector<std::string> moduleSearchDirs(llvm::StringRef importer,
                                          unsigned level,
                                          const std::vector<std::string> &includeDirs);
/// The file of that module, if it exists.
std::optional<std::string>
findModuleFileFrom(llvm::StringRef importer, llvm::StringRef dotted,
                   unsigned level, const std::vector<std::string> &includeDirs);
/// `cannot find module '..x' (searched: ...)`; `why` alone is the
/// parenthesized part (`searched: ...` or how to give package roots).
std::string cannotFindModuleFrom(llvm::StringRef importer,
                                 llvm::StringRef dotted, unsigned level,
                                 const std::vector<std::string> &includeDirs,
                                 bool why = false);
/// `path` resolved (symlinks, `..`), or as given when it does not exist:
/// how files are compared and keyed however a host spells them.
std::string realPathOf(const std::string &path);
/// The path relative imports of the file named `filename` resolve against:
/// `options.mainFile` when the compile names that file by its base name only
/// (the runtime does, for path-independent cache entries), else `filename`.
std::string importerPath(llvm::StringRef filename,
                         const FrontendOptions &options);

} // namespace kiln::fe

#endif // KILN_LIB_FRONTEND_MODULEFILES_H
