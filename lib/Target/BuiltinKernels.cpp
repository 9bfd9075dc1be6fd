//===- BuiltinKernels.cpp - Access to embedded kernel sources -------------===//
#include "kiln/Target/BuiltinKernels.h"

extern const char kilnLayerNormSourceBytes[];

llvm::StringRef kiln::builtinLayerNormSource() {
  return llvm::StringRef(kilnLayerNormSourceBytes);
}
