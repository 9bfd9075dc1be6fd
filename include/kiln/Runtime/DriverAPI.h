//===- DriverAPI.h - The CUDA driver's entry points, without LLVM ---------===//
//
// Kiln never links against libcuda: binaries must build and start on machines
// without a GPU. The few driver entry points Kiln uses are declared here by
// hand (cuda.h is not included) and resolved with dlopen/dlsym. The opaque
// handle structs are declared at global scope with the driver's own names so
// that these handle types are the very types cuda.h declares: code that
// includes both can pass a CUstream from either.
//
// This header and its library (KilnAOTRuntime) use only the C++ standard
// library: ahead-of-time compiled kernels link them without LLVM or MLIR.
// The JIT runtime's Driver (Driver.h) adds llvm::Error helpers on top.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_DRIVERAPI_H
#define KILN_RUNTIME_DRIVERAPI_H

#include <cstddef>
#include <string>

struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
struct CUlinkState_st;
struct CUmemPoolHandle_st;

namespace kiln::rt {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = ::CUctx_st *;
using CUmodule = ::CUmod_st *;
using CUfunction = ::CUfunc_st *;
using CUstream = ::CUstream_st *;
using CUevent = ::CUevent_st *;
using CUlinkState = ::CUlinkState_st *;
using CUmemoryPool = ::CUmemPoolHandle_st *;

/// The enum values of cuda.h that the runtime passes (ABI-stable numbers).
namespace cu {
inline constexpr CUresult SUCCESS = 0;
inline constexpr CUresult ERROR_NOT_READY = 600;
inline constexpr CUresult ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720;
// CUtensorMapDataType, CUtensorMapSwizzle, CUtensorMapL2promotion,
// CUtensorMapFloatOOBfill
inline constexpr int TENSOR_MAP_UINT8 = 0;
inline constexpr int TENSOR_MAP_FLOAT16 = 6;
inline constexpr int TENSOR_MAP_FLOAT32 = 7;
inline constexpr int TENSOR_MAP_BFLOAT16 = 9;
inline constexpr int TENSOR_MAP_SWIZZLE_NONE = 0;
inline constexpr int TENSOR_MAP_SWIZZLE_32B = 1;
inline constexpr int TENSOR_MAP_SWIZZLE_64B = 2;
inline constexpr int TENSOR_MAP_SWIZZLE_128B = 3;
inline constexpr int TENSOR_MAP_L2_PROMOTION_128B = 2;
inline constexpr int TENSOR_MAP_OOB_FILL_NAN = 1;
inline constexpr int MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;
// CUdevice_attribute
inline constexpr int DEV_MAX_THREADS_PER_BLOCK = 1;
inline constexpr int DEV_MAX_GRID_DIM_X = 5;
inline constexpr int DEV_MAX_GRID_DIM_Y = 6;
inline constexpr int DEV_MAX_GRID_DIM_Z = 7;
inline constexpr int DEV_MAX_SHARED_PER_BLOCK = 8;
inline constexpr int DEV_MULTIPROCESSOR_COUNT = 16;
inline constexpr int DEV_L2_CACHE_SIZE = 38;
inline constexpr int DEV_MAX_THREADS_PER_SM = 39;
inline constexpr int DEV_CC_MAJOR = 75;
inline constexpr int DEV_CC_MINOR = 76;
inline constexpr int DEV_MAX_SHARED_PER_SM = 81;
inline constexpr int DEV_MAX_REGISTERS_PER_SM = 82;
inline constexpr int DEV_MAX_SHARED_PER_BLOCK_OPTIN = 97;
inline constexpr int DEV_MAX_BLOCKS_PER_SM = 106;
// CUfunction_attribute
inline constexpr int FUNC_MAX_THREADS_PER_BLOCK = 0;
inline constexpr int FUNC_SHARED_SIZE_BYTES = 1;
inline constexpr int FUNC_LOCAL_SIZE_BYTES = 3;
inline constexpr int FUNC_NUM_REGS = 4;
inline constexpr int FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
inline constexpr int FUNC_PREFERRED_SHARED_MEMORY_CARVEOUT = 9;
// CUshared_carveout: all of the unified L1/shared memory as shared memory.
inline constexpr int SHAREDMEM_CARVEOUT_MAX_SHARED = 100;
// CUjit_option
inline constexpr int JIT_WALL_TIME = 2;
inline constexpr int JIT_INFO_LOG_BUFFER = 3;
inline constexpr int JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
inline constexpr int JIT_ERROR_LOG_BUFFER = 5;
inline constexpr int JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
inline constexpr int JIT_OPTIMIZATION_LEVEL = 7;
// CUjitInputType
inline constexpr int JIT_INPUT_PTX = 1;
// CUlaunchAttributeID: a kernel may start while the previous one on its
// stream still runs, up to its griddepcontrol.wait (Hopper's programmatic
// dependent launch).
inline constexpr int LAUNCH_ATTRIBUTE_COOPERATIVE = 2;
inline constexpr int LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;
// Flags
inline constexpr unsigned STREAM_NON_BLOCKING = 1;
inline constexpr unsigned EVENT_DEFAULT = 0;
} // namespace cu

/// cuda.h's CUlaunchAttribute and CUlaunchConfig (CUDA 12+), the arguments
/// of cuLaunchKernelEx, laid out as the driver reads them.
struct LaunchAttribute {
  int id = 0;
  char pad[4] = {};
  union {
    char bytes[64];
    int value; ///< The int-valued attributes (programmatic serialization).
  } value = {};
};
static_assert(sizeof(LaunchAttribute) == 72, "CUlaunchAttribute is 72 bytes");
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};

/// cuda.h's CUmemPoolProps (v1), as cuMemPoolCreate reads it.
struct MemPoolProps {
  int allocType = 1;   ///< CU_MEM_ALLOCATION_TYPE_PINNED
  int handleTypes = 0; ///< none
  int locationType = 1; ///< CU_MEM_LOCATION_TYPE_DEVICE
  int locationId = 0;   ///< the device ordinal
  void *win32SecurityAttributes = nullptr;
  size_t maxSize = 0;
  unsigned short usage = 0;
  unsigned char reserved[54] = {};
};
static_assert(sizeof(MemPoolProps) == 88, "CUmemPoolProps is 88 bytes");

/// Entry points resolved from the driver library. Names follow the
/// versioned symbols cuda.h maps to (cuMemAlloc -> cuMemAlloc_v2, ...).
struct DriverAPI {
  std::string libraryPath;
  int version = 0; ///< cuDriverGetVersion, e.g. 13000.

  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDeviceTotalMem)(size_t *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxSynchronize)();
  /// Optional (null when the library lacks it): the device of the current
  /// context, for AOT launches in a context the caller made.
  CUresult (*cuCtxGetDevice)(CUdevice *) = nullptr;
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  /// Optional (null when the library lacks it): lets a launch check that its
  /// stream belongs to the context the kernel is loaded in.
  CUresult (*cuStreamGetCtx)(CUstream, CUcontext *) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemGetInfo)(size_t *, size_t *);
  /// Optional (CUDA 11.2+): stream-ordered allocation, for the global
  /// scratch of kernels that build tensor maps (KernelInfo::globalScratchBytes).
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream) = nullptr;
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream) = nullptr;
  /// Optional: a pool of Kiln's own for that scratch (Device::allocScratchAsync).
  CUresult (*cuMemPoolCreate)(CUmemoryPool *, const MemPoolProps *) = nullptr;
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool, int, void *) = nullptr;
  CUresult (*cuMemAllocFromPoolAsync)(CUdeviceptr *, size_t, CUmemoryPool, CUstream) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuLinkCreate)(unsigned, int *, void **, CUlinkState *);
  CUresult (*cuLinkAddData)(CUlinkState, int, void *, size_t, const char *,
                            unsigned, int *, void **);
  CUresult (*cuLinkComplete)(CUlinkState, void **, size_t *);
  CUresult (*cuLinkDestroy)(CUlinkState);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  /// Optional (null when the driver lacks it): every program of the grid is
  /// resident at once, or the launch is refused
  /// (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).
  CUresult (*cuLaunchCooperativeKernel)(CUfunction, unsigned, unsigned,
                                        unsigned, unsigned, unsigned, unsigned,
                                        unsigned, CUstream, void **) = nullptr;
  /// Optional (CUDA 12+): a launch with attributes (launch_pdl's).
  CUresult (*cuLaunchKernelEx)(const LaunchConfig *, CUfunction, void **,
                               void **) = nullptr;
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  /// Optional: SUCCESS once the event's work is done, ERROR_NOT_READY before.
  CUresult (*cuEventQuery)(CUevent) = nullptr;
  /// Optional: *status != 0 while the stream is being captured into a graph.
  CUresult (*cuStreamIsCapturing)(CUstream, int *) = nullptr;
  /// Optional (CUDA 12+): encodes a 128-byte CUtensorMap for TMA copies.
  /// Arguments: map, data type, rank, address, dims, strides (bytes, rank -
  /// 1 of them), box dims, element strides, interleave, swizzle, L2
  /// promotion, OOB fill (the cu::TENSOR_MAP_* numbers below).
  CUresult (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *,
                                     const unsigned long long *,
                                     const unsigned long long *,
                                     const unsigned *, const unsigned *, int,
                                     int, int, int) = nullptr;

  /// Loads `library` (a file name searched like dlopen does, or a path),
  /// resolves every entry point and calls cuInit(0). On failure returns false
  /// with `error` set; it starts with "no CUDA driver found" when the library
  /// cannot be opened.
  static bool load(const char *library, DriverAPI &out, std::string &error);

  /// "CUDA_ERROR_X (driver's description)" for a result code.
  std::string describe(CUresult r) const;
};

/// What a driver JIT or module load reported: the result, the call that
/// failed (null on success) and the JIT's error (else info) log.
struct DriverJitResult {
  CUresult result = cu::SUCCESS;
  const char *failedCall = nullptr;
  std::string log;
  bool ok() const { return result == cu::SUCCESS; }
  /// "\nJIT log:\n<log>", or "" when the log is empty.
  std::string logText() const;
};

/// PTX -> cubin with the driver's JIT (cuLinkCreate / cuLinkAddData /
/// cuLinkComplete) for the current context's device; `name` labels the input.
DriverJitResult jitLinkPTX(const DriverAPI &drv, const std::string &ptx,
                           const char *name, std::string &cubin);

/// How the driver compiles a kernel's PTX. Through its linker (jitLinkPTX)
/// the code is relocatable and the cubin can be cached; loaded as a module
/// (loadModuleImage of the PTX) it is compiled as a whole program, as
/// Triton's ptxas compiles, and cached by the driver's own JIT cache only.
/// Whole-program code takes fewer registers but keeps fewer loads in flight.
enum class JitMode { Link, WholeProgram };

/// The mode for `ptx`: KILN_JIT=link or whole, else (auto, the default) the
/// backend's choice: whole program when the PTX ends with
/// kWholeProgramMarker. False with `error` set for another KILN_JIT value.
bool chooseJitMode(const std::string &ptx, JitMode &mode, std::string &error);

/// cuModuleLoadDataEx of an image (a cubin, or NUL-terminated PTX that the
/// driver JIT-compiles), copied to 8-byte alignment first.
DriverJitResult loadModuleImage(const DriverAPI &drv, const void *image,
                                size_t size, CUmodule &module);

/// The process-wide driver, loaded once from $KILN_CUDA_DRIVER or
/// "libcuda.so.1"; null with `*error` set (the remembered failure) when it
/// could not be loaded. Thread-safe.
const DriverAPI *processDriver(std::string *error);

} // namespace kiln::rt

#endif // KILN_RUNTIME_DRIVERAPI_H
