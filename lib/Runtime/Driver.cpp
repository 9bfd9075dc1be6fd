//===- Driver.cpp - llvm::Error helpers over the CUDA driver table --------===//
#include "kiln/Runtime/Driver.h"
#include "RuntimeError.h"
#include <mutex>
#include <optional>

using namespace kiln::rt;

llvm::Expected<Driver> Driver::load(llvm::StringRef library) {
  Driver d;
  std::string error;
  if (!DriverAPI::load(library.str().c_str(), d, error))
    return makeError(error);
  return d;
}

llvm::Error Driver::check(CUresult r, llvm::StringRef what) const {
  if (r == cu::SUCCESS)
    return llvm::Error::success();
  return makeError(what + ": " + describe(r));
}

llvm::Expected<const Driver &> kiln::rt::driver() {
  // One dlopen and cuInit per process, shared with the AOT runtime.
  static std::once_flag once;
  static std::optional<Driver> loaded;
  static std::string failure;
  std::call_once(once, [] {
    if (const DriverAPI *api = processDriver(&failure))
      loaded.emplace(*api);
  });
  if (!loaded)
    return makeError(failure);
  return *loaded;
}
