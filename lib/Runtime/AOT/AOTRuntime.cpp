//===- AOTRuntime.cpp - Load and launch ahead-of-time compiled kernels ----===//
//
// Standard library only: this is what applications of AOT kernels link
// (with DriverAPI.cpp), so no LLVM or MLIR may be used here.
//
//===----------------------------------------------------------------------===//
#include "kiln/Runtime/AOTRuntime.h"
#include "kiln/Runtime/DriverAPI.h"
#include "kiln/Runtime/HalfFloat.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>

using namespace kiln::aot;
using kiln::rt::CUcontext;
using kiln::rt::CUdevice;
using kiln::rt::CUfunction;
using kiln::rt::CUmodule;
using kiln::rt::CUresult;
using kiln::rt::DriverAPI;
namespace cu = kiln::rt::cu;

namespace {
std::string smName(int sm) { return "sm_" + std::to_string(sm); }

/// "kernel `k` (kiln::aot::f)": how every message names the kernel.
std::string kernelText(const KernelDescriptor &k) {
  return "kernel `" + std::string(k.kernelName) + "` (" + k.launcherName + ")";
}

Status driverError(const DriverAPI &drv, const KernelDescriptor &k,
                   const std::string &what, CUresult r,
                   const std::string &log = "") {
  return Status::error(kernelText(k) + ": " + what + ": " + drv.describe(r) +
                       log);
}

/// A kernel loaded in one context.
struct Loaded {
  CUfunction function = nullptr;
  unsigned maxGrid[3] = {0, 0, 0};
  LoadInfo info;
};

std::mutex loadedMutex;
// Loaded modules stay for the life of the process, and so does this map:
// destroyed at exit (a global), it would drop the only references to them
// before LeakSanitizer looks, and a launch from another static destructor
// would find it gone.
auto &loadedKernels =
    *new std::map<std::pair<const KernelDescriptor *, CUcontext>, Loaded>();

/// The context a launch on `stream` runs in, made current; `dev` is set
/// when it is device 0's primary context, made here.
Status enterContext(const DriverAPI &drv, const KernelDescriptor &k,
                    Stream stream, CUcontext &ctx, CUdevice &dev) {
  ctx = nullptr;
  dev = 0;
  CUcontext current = nullptr;
  if (CUresult r = drv.cuCtxGetCurrent(&current); r != cu::SUCCESS)
    return driverError(drv, k, "cuCtxGetCurrent", r);
  if (stream && drv.cuStreamGetCtx) {
    if (CUresult r = drv.cuStreamGetCtx(stream, &ctx); r != cu::SUCCESS)
      return driverError(drv, k, "stream: not a usable stream", r);
  } else {
    ctx = current;
  }
  if (!ctx) {
    // No context yet: device 0's primary context, as the CUDA runtime does.
    int count = 0;
    if (CUresult r = drv.cuDeviceGetCount(&count); r != cu::SUCCESS)
      return driverError(drv, k, "cuDeviceGetCount", r);
    if (count == 0)
      return Status::error(kernelText(k) + ": no CUDA device found");
    if (CUresult r = drv.cuDeviceGet(&dev, 0); r != cu::SUCCESS)
      return driverError(drv, k, "cuDeviceGet(0)", r);
    if (CUresult r = drv.cuDevicePrimaryCtxRetain(&ctx, dev); r != cu::SUCCESS)
      return driverError(drv, k, "cuDevicePrimaryCtxRetain", r);
  }
  if (ctx != current)
    if (CUresult r = drv.cuCtxSetCurrent(ctx); r != cu::SUCCESS)
      return driverError(drv, k, "cuCtxSetCurrent", r);
  return Status();
}

std::string listImages(const KernelDescriptor &k) {
  std::string s;
  for (size_t i = 0; i < k.numImages; ++i)
    s += (i ? ", " : "") + smName(k.images[i].sm) +
         (k.images[i].isCubin ? " cubin" : " PTX");
  return s.empty() ? "none" : s;
}

/// Loads `k` in the current context (device `dev`).
Status loadKernel(const DriverAPI &drv, const KernelDescriptor &k, CUdevice dev,
                  Loaded &out) {
  int major = 0, minor = 0;
  if (CUresult r = drv.cuDeviceGetAttribute(&major, cu::DEV_CC_MAJOR, dev);
      r != cu::SUCCESS)
    return driverError(drv, k, "cuDeviceGetAttribute", r);
  if (CUresult r = drv.cuDeviceGetAttribute(&minor, cu::DEV_CC_MINOR, dev);
      r != cu::SUCCESS)
    return driverError(drv, k, "cuDeviceGetAttribute", r);
  int sm = major * 10 + minor;
  out.info.deviceSm = sm;

  CUmodule mod = nullptr;
  const Image *chosen = selectImage(k, sm);
  if (chosen && chosen->isCubin) {
    kiln::rt::DriverJitResult r =
        kiln::rt::loadModuleImage(drv, chosen->data, chosen->size, mod);
    if (!r.ok()) {
      // A cubin this driver refuses (too old for the toolkit that built
      // it) falls back to the PTX below.
      out.info.cubinError = "cuModuleLoadDataEx of the " + smName(sm) +
                            " cubin: " + drv.describe(r.result) + r.logText();
      mod = nullptr;
    }
  }
  if (!mod) {
    const Image *ptx = nullptr;
    for (size_t i = 0; i < k.numImages; ++i) {
      const Image &im = k.images[i];
      if (!im.isCubin && im.sm <= sm && (!ptx || im.sm > ptx->sm))
        ptx = &im;
    }
    if (!ptx)
      return Status::error(
          kernelText(k) + ": no image for this device (" + smName(sm) +
          "); embedded: " + listImages(k) +
          (out.info.cubinError.empty() ? "" : "; " + out.info.cubinError) +
          " (compile it for this architecture: ARCHS / --arch)");
    std::string cubin;
    std::string text(static_cast<const char *>(ptx->data), ptx->size);
    kiln::rt::JitMode mode;
    std::string modeError;
    if (!kiln::rt::chooseJitMode(text, mode, modeError))
      return Status::error(kernelText(k) + ": " + modeError);
    if (mode == kiln::rt::JitMode::WholeProgram) {
      kiln::rt::DriverJitResult r =
          kiln::rt::loadModuleImage(drv, text.data(), text.size(), mod);
      if (!r.ok())
        return driverError(drv, k,
                           "driver JIT (whole program) of the " + smName(ptx->sm) +
                               " PTX failed in " + r.failedCall,
                           r.result, r.logText());
    } else {
      kiln::rt::DriverJitResult r =
          kiln::rt::jitLinkPTX(drv, text, k.kernelName, cubin);
      if (!r.ok())
        return driverError(drv, k,
                           "driver JIT of the " + smName(ptx->sm) +
                               " PTX failed in " + r.failedCall,
                           r.result, r.logText());
      r = kiln::rt::loadModuleImage(drv, cubin.data(), cubin.size(), mod);
      if (!r.ok())
        return driverError(drv, k, "cuModuleLoadDataEx", r.result, r.logText());
    }
    chosen = ptx;
    out.info.jitFromPTX = true;
  }
  out.info.image = chosen;

  if (CUresult r = drv.cuModuleGetFunction(&out.function, mod, k.kernelName);
      r != cu::SUCCESS)
    return driverError(drv, k, "cuModuleGetFunction", r);
  int maxThreads = 0, staticSmem = 0, smem = 0, smemOptin = 0;
  for (auto [attr, value] :
       {std::pair<int, int *>{cu::FUNC_MAX_THREADS_PER_BLOCK, &maxThreads},
        {cu::FUNC_SHARED_SIZE_BYTES, &staticSmem}})
    if (CUresult r = drv.cuFuncGetAttribute(value, attr, out.function);
        r != cu::SUCCESS)
      return driverError(drv, k, "cuFuncGetAttribute", r);
  int grid[3] = {0, 0, 0};
  for (auto [attr, value] :
       {std::pair<int, int *>{cu::DEV_MAX_GRID_DIM_X, &grid[0]},
        {cu::DEV_MAX_GRID_DIM_Y, &grid[1]},
        {cu::DEV_MAX_GRID_DIM_Z, &grid[2]},
        {cu::DEV_MAX_SHARED_PER_BLOCK, &smem},
        {cu::DEV_MAX_SHARED_PER_BLOCK_OPTIN, &smemOptin}})
    if (CUresult r = drv.cuDeviceGetAttribute(value, attr, dev);
        r != cu::SUCCESS)
      return driverError(drv, k, "cuDeviceGetAttribute", r);
  for (int d = 0; d < 3; ++d)
    out.maxGrid[d] = unsigned(grid[d]);
  unsigned threads = k.numWarps * 32;
  if (threads > unsigned(maxThreads))
    return Status::error(kernelText(k) +
                         ": num_warps = " + std::to_string(k.numWarps) +
                         " needs " + std::to_string(threads) +
                         " threads per block; the compiled code allows at "
                         "most " +
                         std::to_string(maxThreads));
  unsigned long long total = (unsigned long long)staticSmem + k.sharedBytes;
  if (total > (unsigned long long)std::max(smem, smemOptin))
    return Status::error(kernelText(k) + " needs " + std::to_string(total) +
                         " bytes of shared memory; the device allows at most " +
                         std::to_string(std::max(smem, smemOptin)) +
                         " per block");
  if (total > (unsigned long long)smem) {
    if (CUresult r = drv.cuFuncSetAttribute(
            out.function, cu::FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            int(k.sharedBytes));
        r != cu::SUCCESS)
      return driverError(drv, k,
                         "raising the dynamic shared memory limit to " +
                             std::to_string(k.sharedBytes) +
                             " bytes (cuFuncSetAttribute)",
                         r);
    // As the JIT runtime (Module.cpp): otherwise the driver configures room
    // for one such program per SM.
    if (CUresult r = drv.cuFuncSetAttribute(out.function,
                                            cu::FUNC_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                            cu::SHAREDMEM_CARVEOUT_MAX_SHARED);
        r != cu::SUCCESS)
      return driverError(drv, k, "preferring shared memory over L1 (cuFuncSetAttribute)", r);
  }
  return Status();
}

/// The kernel loaded for `stream`'s context, loading it on first use.
Status resolve(const KernelDescriptor &k, Stream stream, const DriverAPI *&drv,
               const Loaded *&loaded) {
  std::string error;
  drv = kiln::rt::processDriver(&error);
  if (!drv)
    return Status::error(kernelText(k) + ": " + error);
  CUcontext ctx = nullptr;
  CUdevice dev = 0;
  if (Status s = enterContext(*drv, k, stream, ctx, dev); !s)
    return s;
  std::lock_guard<std::mutex> lock(loadedMutex);
  auto key = std::make_pair(&k, ctx);
  auto it = loadedKernels.find(key);
  if (it == loadedKernels.end()) {
    // Only a first launch in this context needs its device.
    if (drv->cuCtxGetDevice)
      if (CUresult r = drv->cuCtxGetDevice(&dev); r != cu::SUCCESS)
        return driverError(*drv, k, "cuCtxGetDevice", r);
    Loaded l;
    if (Status s = loadKernel(*drv, k, dev, l); !s)
      return s;
    it = loadedKernels.emplace(key, std::move(l)).first;
  }
  loaded = &it->second; // std::map nodes are stable.
  return Status();
}
} // namespace

const Image *kiln::aot::selectImage(const KernelDescriptor &k, int sm) {
  const Image *best = nullptr;
  for (size_t i = 0; i < k.numImages; ++i) {
    const Image &im = k.images[i];
    if (im.isCubin && im.sm == sm)
      return &im;
    if (!im.isCubin && im.sm <= sm && (!best || im.sm > best->sm))
      best = &im;
  }
  return best;
}

Status kiln::aot::prepare(const KernelDescriptor &k, Stream stream,
                          LoadInfo *info) {
  const DriverAPI *drv = nullptr;
  const Loaded *loaded = nullptr;
  Status s = resolve(k, stream, drv, loaded);
  if (s && info)
    *info = loaded->info;
  return s;
}

Status kiln::aot::launch(const KernelDescriptor &k, Stream stream, Grid grid,
                         void **params) {
  const DriverAPI *drv = nullptr;
  const Loaded *loaded = nullptr;
  if (Status s = resolve(k, stream, drv, loaded); !s)
    return s;
  const unsigned dims[3] = {grid.x, grid.y, grid.z};
  for (int d = 0; d < 3; ++d)
    if (dims[d] > loaded->maxGrid[d])
      return Status::error(kernelText(k) + ": grid dimension " + "xyz"[d] +
                           std::string(" is ") + std::to_string(dims[d]) +
                           ", above the device limit " +
                           std::to_string(loaded->maxGrid[d]));
  if (!grid.x || !grid.y || !grid.z)
    return Status(); // Nothing to run, as in Triton.
  CUresult r = drv->cuLaunchKernel(loaded->function, grid.x, grid.y, grid.z,
                                   k.numWarps * 32, 1, 1, k.sharedBytes, stream,
                                   params, nullptr);
  if (r != cu::SUCCESS)
    return driverError(
        *drv, k,
        "cuLaunchKernel (grid " + std::to_string(grid.x) + "x" +
            std::to_string(grid.y) + "x" + std::to_string(grid.z) + ", " +
            std::to_string(k.numWarps * 32) + " threads, " +
            std::to_string(k.sharedBytes) + " bytes of shared memory)",
        r);
  return Status();
}

Status kiln::aot::detail::argumentError(const KernelDescriptor &k,
                                        unsigned index, const char *name,
                                        const std::string &what) {
  return Status::error(kernelText(k) + ": argument #" + std::to_string(index) +
                       " `" + name + "`: " + what);
}

Status kiln::aot::detail::nullPointer(const KernelDescriptor &k, unsigned index,
                                      const char *name) {
  return argumentError(k, index, name, "null device pointer");
}

Status kiln::aot::detail::misaligned(const KernelDescriptor &k, unsigned index,
                                     const char *name, const void *pointer,
                                     unsigned alignment) {
  char hex[32];
  std::snprintf(hex, sizeof(hex), "0x%llx",
                (unsigned long long)reinterpret_cast<uintptr_t>(pointer));
  return argumentError(k, index, name,
                       "the kernel was compiled for a " +
                           std::to_string(alignment) +
                           "-byte aligned pointer but " + hex + " is not");
}

Status kiln::aot::detail::notDivisible(const KernelDescriptor &k,
                                       unsigned index, const char *name,
                                       long long value, unsigned divisor) {
  return argumentError(k, index, name,
                       "the kernel was compiled for a value divisible by " +
                           std::to_string(divisor) + " but got " +
                           std::to_string(value));
}

uint16_t kiln::aot::detail::floatToHalfBits(float f) {
  return kiln::rt::floatToHalf(f);
}
uint16_t kiln::aot::detail::floatToBF16Bits(float f) {
  return kiln::rt::floatToBF16(f);
}
