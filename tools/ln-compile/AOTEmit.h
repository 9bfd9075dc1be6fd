//===- AOTEmit.h - ln-compile: C++ sources for ahead-of-time kernels ------===//
//
// --emit=aot-header / aot-source / aot: the kernel compiled for one or more
// architectures becomes NAME.h (a typed launch function in kiln::aot) and
// NAME.cpp (the PTX and cubins embedded, argument checks, the call into
// the AOT runtime, include/kiln/Runtime/AOTRuntime.h).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TOOLS_LNCOMPILE_AOTEMIT_H
#define KILN_TOOLS_LNCOMPILE_AOTEMIT_H

#include "kiln/Target/Pipeline.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace kiln::cli {

/// One architecture's code: the PTX (and its KernelInfo) and, when ptxas
/// ran, the cubin.
struct AOTImage {
  std::string arch; ///< "sm_90"
  CompiledKernel compiled;
  std::optional<std::string> cubin;
};

struct AOTKernel {
  std::string name;          ///< C++ function name in kiln::aot.
  std::string headerInclude; ///< What the source #includes ("name.h").
  std::string sourceFile;    ///< The .py (or .mlir) file, for comments.
  std::string signature;     ///< The --signature text, for comments.
  std::string cubinNote;     ///< Why there is no cubin, when there is none.
  std::vector<AOTImage> images;
};

/// Checks that `name` can be a C++ function name and that every image has
/// the same parameters and num_warps.
llvm::Error checkAOTKernel(const AOTKernel &k);
std::string emitAOTHeader(const AOTKernel &k);
std::string emitAOTSource(const AOTKernel &k);

/// Runs `ptxas` on `ptx` for `arch`; the cubin, or an error with ptxas's
/// output.
llvm::Expected<std::string> runPtxas(llvm::StringRef ptxas,
                                     llvm::StringRef ptx,
                                     llvm::StringRef arch);

/// --ptxas: an explicit path, or the first ptxas on $PATH, in
/// $CUDA_HOME/bin or /usr/local/cuda/bin; nullopt when none is found.
std::optional<std::string> findPtxas();

} // namespace kiln::cli

#endif // KILN_TOOLS_LNCOMPILE_AOTEMIT_H
