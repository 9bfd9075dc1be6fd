//===- RuntimeError.h - Error construction shared by the runtime sources --===//
#ifndef KILN_LIB_RUNTIME_RUNTIMEERROR_H
#define KILN_LIB_RUNTIME_RUNTIMEERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace kiln::rt {
inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}
} // namespace kiln::rt

#endif
