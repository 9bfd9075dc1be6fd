//===- BuiltinKernels.h - Kernel sources embedded in Kiln's binaries ------===//
#ifndef KILN_TARGET_BUILTINKERNELS_H
#define KILN_TARGET_BUILTINKERNELS_H

#include "llvm/ADT/StringRef.h"

namespace kiln {
/// examples/layernorm/layer_norm.py as it was at build time.
llvm::StringRef builtinLayerNormSource();
/// The name diagnostics use for it.
inline constexpr const char *kBuiltinLayerNormName =
    "examples/layernorm/layer_norm.py";
} // namespace kiln

#endif
