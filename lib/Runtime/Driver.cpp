//===- Driver.cpp - dlopen the CUDA driver and resolve its entry points ---===//
#include "kiln/Runtime/Driver.h"
#include "RuntimeError.h"
#include "llvm/Support/FormatVariadic.h"
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <optional>

using namespace kiln::rt;

namespace {
template <typename Fn>
llvm::Error resolve(void *lib, llvm::StringRef library, const char *symbol,
                    Fn &slot) {
  void *p = dlsym(lib, symbol);
  if (!p)
    return makeError(llvm::formatv(
        "CUDA driver {0} lacks {1} (driver too old for Kiln?)", library,
        symbol));
  slot = reinterpret_cast<Fn>(p);
  return llvm::Error::success();
}

// Tries each name in order: the versioned symbol a newer cuda.h maps to, then
// older spellings.
template <typename Fn>
llvm::Error resolveAny(void *lib, llvm::StringRef library,
                       std::initializer_list<const char *> symbols, Fn &slot) {
  for (const char *s : symbols)
    if (void *p = dlsym(lib, s)) {
      slot = reinterpret_cast<Fn>(p);
      return llvm::Error::success();
    }
  return resolve(lib, library, *symbols.begin(), slot);
}
} // namespace

llvm::Expected<Driver> Driver::load(llvm::StringRef library) {
  std::string name = library.str();
  // RTLD_LOCAL: the driver's symbols must not leak into the global namespace
  // of a host program that may load its own libcuda later.
  void *lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    return makeError(llvm::formatv(
        "no CUDA driver found: cannot load {0} ({1}); Kiln needs an NVIDIA "
        "GPU with its driver to launch kernels",
        name, why ? why : "unknown reason"));
  }
  Driver d;
  d.libraryPath = name;
#define KILN_RESOLVE(field, symbol)                                            \
  if (auto err = resolve(lib, name, symbol, d.field))                          \
    return err;
  KILN_RESOLVE(cuInit, "cuInit")
  KILN_RESOLVE(cuDriverGetVersion, "cuDriverGetVersion")
  KILN_RESOLVE(cuGetErrorName, "cuGetErrorName")
  KILN_RESOLVE(cuGetErrorString, "cuGetErrorString")
  KILN_RESOLVE(cuDeviceGetCount, "cuDeviceGetCount")
  KILN_RESOLVE(cuDeviceGet, "cuDeviceGet")
  KILN_RESOLVE(cuDeviceGetName, "cuDeviceGetName")
  KILN_RESOLVE(cuDeviceGetAttribute, "cuDeviceGetAttribute")
  KILN_RESOLVE(cuDeviceTotalMem, "cuDeviceTotalMem_v2")
  KILN_RESOLVE(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
  KILN_RESOLVE(cuCtxSetCurrent, "cuCtxSetCurrent")
  KILN_RESOLVE(cuCtxGetCurrent, "cuCtxGetCurrent")
  KILN_RESOLVE(cuCtxSynchronize, "cuCtxSynchronize")
  KILN_RESOLVE(cuStreamCreate, "cuStreamCreate")
  KILN_RESOLVE(cuStreamDestroy, "cuStreamDestroy_v2")
  KILN_RESOLVE(cuStreamSynchronize, "cuStreamSynchronize")
  KILN_RESOLVE(cuMemAlloc, "cuMemAlloc_v2")
  KILN_RESOLVE(cuMemFree, "cuMemFree_v2")
  KILN_RESOLVE(cuMemGetInfo, "cuMemGetInfo_v2")
  KILN_RESOLVE(cuMemcpyHtoD, "cuMemcpyHtoD_v2")
  KILN_RESOLVE(cuMemcpyDtoH, "cuMemcpyDtoH_v2")
  KILN_RESOLVE(cuMemcpyDtoD, "cuMemcpyDtoD_v2")
  KILN_RESOLVE(cuMemsetD8Async, "cuMemsetD8Async")
  KILN_RESOLVE(cuMemsetD32Async, "cuMemsetD32Async")
  KILN_RESOLVE(cuLinkCreate, "cuLinkCreate_v2")
  KILN_RESOLVE(cuLinkAddData, "cuLinkAddData_v2")
  KILN_RESOLVE(cuLinkComplete, "cuLinkComplete")
  KILN_RESOLVE(cuLinkDestroy, "cuLinkDestroy")
  KILN_RESOLVE(cuModuleLoadDataEx, "cuModuleLoadDataEx")
  KILN_RESOLVE(cuModuleGetFunction, "cuModuleGetFunction")
  KILN_RESOLVE(cuModuleUnload, "cuModuleUnload")
  KILN_RESOLVE(cuFuncGetAttribute, "cuFuncGetAttribute")
  KILN_RESOLVE(cuFuncSetAttribute, "cuFuncSetAttribute")
  KILN_RESOLVE(cuLaunchKernel, "cuLaunchKernel")
  KILN_RESOLVE(cuEventCreate, "cuEventCreate")
  KILN_RESOLVE(cuEventDestroy, "cuEventDestroy_v2")
  KILN_RESOLVE(cuEventRecord, "cuEventRecord")
  KILN_RESOLVE(cuEventSynchronize, "cuEventSynchronize")
#undef KILN_RESOLVE
  d.cuStreamGetCtx = reinterpret_cast<decltype(d.cuStreamGetCtx)>(
      dlsym(lib, "cuStreamGetCtx"));
  if (auto err = resolveAny(lib, name,
                            {"cuEventElapsedTime_v2", "cuEventElapsedTime"},
                            d.cuEventElapsedTime))
    return err;

  if (auto err = d.check(d.cuInit(0), "cuInit"))
    return makeError("no usable CUDA device: " + llvm::toString(std::move(err)));
  if (auto err = d.check(d.cuDriverGetVersion(&d.version),
                         "cuDriverGetVersion"))
    return err;
  return d;
}

std::string Driver::describe(CUresult r) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName(r, &name) != cu::SUCCESS || !name)
    name = nullptr;
  if (cuGetErrorString(r, &text) != cu::SUCCESS || !text)
    text = nullptr;
  if (!name)
    return llvm::formatv("unknown CUDA error {0}", r).str();
  return llvm::formatv("{0} ({1})", name, text ? text : "no description")
      .str();
}

llvm::Error Driver::check(CUresult r, llvm::StringRef what) const {
  if (r == cu::SUCCESS)
    return llvm::Error::success();
  return makeError(what + ": " + describe(r));
}

llvm::Expected<const Driver &> kiln::rt::driver() {
  static std::once_flag once;
  static std::optional<Driver> loaded;
  static std::string failure;
  std::call_once(once, [] {
    const char *env = std::getenv("KILN_CUDA_DRIVER");
    auto d = Driver::load(env && *env ? env : "libcuda.so.1");
    if (d)
      loaded = std::move(*d);
    else
      failure = llvm::toString(d.takeError());
  });
  if (!loaded)
    return makeError(failure);
  return *loaded;
}
