//===- CompileLog.h - Compiles written down as ln-compile commands -------===//
//
// KILN_DUMP_COMPILES=FILE: every compile the runtime starts (a miss of the
// memory and disk caches) appends one line to FILE, the `ln-compile` command
// that repeats it: the file, kernel, signature, constexprs, warps, stages,
// arch, import roots, decorator mode and host bindings. A library run under
// the drop-in can so be recompiled offline (another compiler build, a PTX
// diff, a crash reproduced) without its Python host code.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_COMPILELOG_H
#define KILN_RUNTIME_COMPILELOG_H

#include "kiln/Frontend/Imports.h"
#include "kiln/Frontend/Spec.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace kiln::rt {

/// The ln-compile command line (shell-quoted, no newline) that compiles
/// `spec` from `file` under the frontend options `fo`.
std::string lnCompileCommand(const FrontendOptions &fo, llvm::StringRef file,
                             const KernelSpec &spec);

/// Appends the command of this compile to $KILN_DUMP_COMPILES (nothing when
/// unset). `source` is what is compiled; a module made from a string (no
/// readable main file) gets it written beside the log as
/// `FILE.src/<sha256 prefix>.py`, which the command names. The calling
/// thread's frontend options (ScopedFrontendOptions) are the module's.
/// Failures to write are reported once on stderr and never fail the compile.
void recordCompileCommand(llvm::StringRef source, llvm::StringRef filename,
                          const KernelSpec &spec);

} // namespace kiln::rt

#endif // KILN_RUNTIME_COMPILELOG_H
