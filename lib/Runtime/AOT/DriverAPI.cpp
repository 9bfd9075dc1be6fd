//===- DriverAPI.cpp - dlopen the CUDA driver and resolve its entry points ===//
//
// Standard library only (no LLVM): shared by the JIT runtime and the AOT
// runtime.
//
//===----------------------------------------------------------------------===//
#include "kiln/Runtime/DriverAPI.h"
#include "kiln/Target/JitMarker.h"
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <initializer_list>
#include <mutex>
#include <vector>

using namespace kiln::rt;

namespace {
/// Resolves the first of `symbols` the library has (the versioned symbol a
/// newer cuda.h maps to, then older spellings) into `slot`.
template <typename Fn>
bool resolve(void *lib, const std::string &library,
             std::initializer_list<const char *> symbols, Fn &slot,
             std::string &error) {
  for (const char *s : symbols)
    if (void *p = dlsym(lib, s)) {
      slot = reinterpret_cast<Fn>(p);
      return true;
    }
  error = "CUDA driver " + library + " lacks " + *symbols.begin() +
          " (driver too old for Kiln?)";
  return false;
}

template <typename Fn>
void resolveOptional(void *lib, const char *symbol, Fn &slot) {
  slot = reinterpret_cast<Fn>(dlsym(lib, symbol));
}
} // namespace

bool DriverAPI::load(const char *library, DriverAPI &d, std::string &error) {
  std::string name = library;
  // RTLD_LOCAL: the driver's symbols must not leak into the global namespace
  // of a host program that may load its own libcuda later.
  void *lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    error = "no CUDA driver found: cannot load " + name + " (" +
            (why ? why : "unknown reason") +
            "); Kiln needs an NVIDIA GPU with its driver to launch kernels";
    return false;
  }
  d = DriverAPI();
  d.libraryPath = name;
#define KILN_RESOLVE(field, ...)                                               \
  if (!resolve(lib, name, {__VA_ARGS__}, d.field, error))                      \
    return false;
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
  KILN_RESOLVE(cuEventElapsedTime, "cuEventElapsedTime_v2",
               "cuEventElapsedTime")
#undef KILN_RESOLVE
  resolveOptional(lib, "cuStreamGetCtx", d.cuStreamGetCtx);
  resolveOptional(lib, "cuLaunchCooperativeKernel", d.cuLaunchCooperativeKernel);
  resolveOptional(lib, "cuLaunchKernelEx", d.cuLaunchKernelEx);
  resolveOptional(lib, "cuCtxGetDevice", d.cuCtxGetDevice);
  resolveOptional(lib, "cuEventQuery", d.cuEventQuery);
  resolveOptional(lib, "cuStreamIsCapturing", d.cuStreamIsCapturing);
  resolveOptional(lib, "cuTensorMapEncodeTiled", d.cuTensorMapEncodeTiled);
  resolveOptional(lib, "cuMemAllocAsync", d.cuMemAllocAsync);
  resolveOptional(lib, "cuMemFreeAsync", d.cuMemFreeAsync);
  resolveOptional(lib, "cuMemPoolCreate", d.cuMemPoolCreate);
  resolveOptional(lib, "cuMemPoolSetAttribute", d.cuMemPoolSetAttribute);
  resolveOptional(lib, "cuMemAllocFromPoolAsync", d.cuMemAllocFromPoolAsync);

  if (CUresult r = d.cuInit(0); r != cu::SUCCESS) {
    error = "no usable CUDA device: cuInit: " + d.describe(r);
    return false;
  }
  if (CUresult r = d.cuDriverGetVersion(&d.version); r != cu::SUCCESS) {
    error = "cuDriverGetVersion: " + d.describe(r);
    return false;
  }
  return true;
}

std::string DriverAPI::describe(CUresult r) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName(r, &name) != cu::SUCCESS || !name)
    name = nullptr;
  if (cuGetErrorString(r, &text) != cu::SUCCESS || !text)
    text = nullptr;
  if (!name)
    return "unknown CUDA error " + std::to_string(r);
  return std::string(name) + " (" + (text ? text : "no description") + ")";
}

const DriverAPI *kiln::rt::processDriver(std::string *error) {
  static std::once_flag once;
  static DriverAPI loaded;
  static bool ok = false;
  static std::string failure;
  std::call_once(once, [] {
    const char *env = std::getenv("KILN_CUDA_DRIVER");
    ok = DriverAPI::load(env && *env ? env : "libcuda.so.1", loaded, failure);
  });
  if (!ok) {
    if (error)
      *error = failure;
    return nullptr;
  }
  return &loaded;
}

namespace {
/// Driver JIT options that route the logs into our buffers.
struct JitLogs {
  char error[16384] = {0};
  char info[8192] = {0};
  int keys[4] = {cu::JIT_ERROR_LOG_BUFFER, cu::JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                 cu::JIT_INFO_LOG_BUFFER, cu::JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[4];
  JitLogs() {
    values[0] = error;
    values[1] = reinterpret_cast<void *>(uintptr_t(sizeof(error) - 1));
    values[2] = info;
    values[3] = reinterpret_cast<void *>(uintptr_t(sizeof(info) - 1));
  }
  static std::string trim(const char *s) {
    std::string t(s);
    size_t b = t.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
      return "";
    return t.substr(b, t.find_last_not_of(" \t\r\n") - b + 1);
  }
  std::string text() const {
    std::string t = trim(error);
    return t.empty() ? trim(info) : t;
  }
};
} // namespace

std::string DriverJitResult::logText() const {
  return log.empty() ? "" : "\nJIT log:\n" + log;
}

DriverJitResult kiln::rt::jitLinkPTX(const DriverAPI &drv,
                                     const std::string &ptx, const char *name,
                                     std::string &cubin) {
  DriverJitResult res;
  JitLogs logs;
  CUlinkState link = nullptr;
  res.result = drv.cuLinkCreate(4, logs.keys, logs.values, &link);
  if (!res.ok()) {
    res.failedCall = "cuLinkCreate";
    return res;
  }
  std::string text = ptx; // NUL-terminated copy; the driver wants one.
  res.result = drv.cuLinkAddData(link, cu::JIT_INPUT_PTX, text.data(),
                                 text.size() + 1, name, 0, nullptr, nullptr);
  res.failedCall = "cuLinkAddData";
  void *image = nullptr;
  size_t size = 0;
  if (res.ok()) {
    res.result = drv.cuLinkComplete(link, &image, &size);
    res.failedCall = "cuLinkComplete";
  }
  if (res.ok()) {
    cubin.assign(static_cast<const char *>(image), size);
    res.failedCall = nullptr;
  }
  res.log = logs.text();
  drv.cuLinkDestroy(link);
  return res;
}

bool kiln::rt::chooseJitMode(const std::string &ptx, JitMode &mode, std::string &error) {
  std::string choice = "auto";
  if (const char *v = std::getenv("KILN_JIT"); v && *v) {
    std::string text(v);
    size_t b = text.find_first_not_of(" \t"), e = text.find_last_not_of(" \t");
    choice = b == std::string::npos ? "" : text.substr(b, e - b + 1);
    std::transform(choice.begin(), choice.end(), choice.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
  }
  if (choice == "link" || choice == "whole") {
    mode = choice == "link" ? JitMode::Link : JitMode::WholeProgram;
    return true;
  }
  if (choice != "auto") {
    error = "KILN_JIT=\"" + choice +
            "\": expected link (the driver's linker, relocatable code), whole "
            "(whole-program compile) or auto";
    return false;
  }
  std::string marker = kWholeProgramMarker;
  bool marked = ptx.size() >= marker.size() &&
                ptx.compare(ptx.size() - marker.size(), marker.size(), marker) == 0;
  mode = marked ? JitMode::WholeProgram : JitMode::Link;
  return true;
}

DriverJitResult kiln::rt::loadModuleImage(const DriverAPI &drv,
                                          const void *image, size_t size,
                                          CUmodule &module) {
  // The driver reads the ELF image in place: give it 8-byte alignment.
  // One zero byte past the end keeps PTX images NUL-terminated.
  std::vector<uint64_t> words(size / 8 + 1, 0);
  std::memcpy(words.data(), image, size);
  JitLogs logs;
  DriverJitResult res;
  module = nullptr;
  res.result =
      drv.cuModuleLoadDataEx(&module, words.data(), 4, logs.keys, logs.values);
  if (!res.ok()) {
    res.failedCall = "cuModuleLoadDataEx";
    res.log = logs.text();
  }
  return res;
}
