//===- Driver.h - The CUDA driver API, loaded at run time ------------------===//
//
// The JIT runtime's view of the driver: the entry points of DriverAPI.h
// (shared with the LLVM-free AOT runtime) plus llvm::Error helpers.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_DRIVER_H
#define KILN_RUNTIME_DRIVER_H

#include "kiln/Runtime/DriverAPI.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace kiln::rt {

struct Driver : DriverAPI {
  Driver() = default;
  explicit Driver(const DriverAPI &api) : DriverAPI(api) {}

  /// DriverAPI::load as an llvm::Expected.
  static llvm::Expected<Driver> load(llvm::StringRef library);

  /// Success, or an error "<what>: CUDA_ERROR_X (description)".
  llvm::Error check(CUresult r, llvm::StringRef what) const;
};

/// The process-wide driver (processDriver()). The outcome (driver or error)
/// is remembered.
llvm::Expected<const Driver &> driver();

} // namespace kiln::rt

#endif // KILN_RUNTIME_DRIVER_H
