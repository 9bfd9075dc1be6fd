//===- Libdevice.h - Triton's libdevice wrappers ---------------*- C++ -*-===//
#ifndef KILN_LIB_FRONTEND_BUILTINS_LIBDEVICE_H
#define KILN_LIB_FRONTEND_BUILTINS_LIBDEVICE_H

#include "kiln/Frontend/Spec.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace kiln::fe {

/// One dtype signature of a libdevice wrapper and the `__nv_*` function it
/// calls.
struct LibdeviceOverload {
  std::vector<DType> args;
  DType result;
  std::string symbol;
};

/// A function of triton.language.extra.cuda.libdevice.
struct LibdeviceFn {
  std::string name;
  unsigned arity = 1;
  std::vector<LibdeviceOverload> overloads;
  bool toBool = false; ///< Triton converts the int32 result to int1.
};

llvm::ArrayRef<LibdeviceFn> libdeviceFunctions();
const LibdeviceFn *findLibdevice(llvm::StringRef name);

} // namespace kiln::fe

#endif
