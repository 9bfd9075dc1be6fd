//===- Device.h - Devices, primary contexts, streams, events, buffers -----===//
//
// A Device is one GPU by ordinal with its primary context (the one the CUDA
// runtime and PyTorch share), retained for the life of the process. Every
// runtime call makes that context current on the calling thread first, so a
// program may drive several devices from one thread.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_DEVICE_H
#define KILN_RUNTIME_DEVICE_H

#include "kiln/Runtime/Driver.h"
#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

namespace kiln::rt {

/// Launch limits of a device. The defaults are CUDA's limits for every
/// architecture Kiln targets, so validation can run without a GPU.
struct DeviceLimits {
  std::array<uint32_t, 3> maxGrid = {2147483647u, 65535u, 65535u};
  unsigned maxThreadsPerBlock = 1024;
  unsigned maxSharedPerBlock = 48 * 1024;       ///< Without opt-in.
  unsigned maxSharedPerBlockOptin = 227 * 1024; ///< sm_90's opt-in limit.
  /// What one SM holds at once (sm_90's numbers until the driver answers):
  /// the programs resident per SM follow from these (Occupancy.h).
  unsigned registersPerSM = 64 * 1024;
  unsigned maxThreadsPerSM = 2048;
  unsigned maxBlocksPerSM = 32;
  unsigned sharedPerSM = 228 * 1024;
};

class Device {
public:
  /// Number of devices the driver sees (error when no driver).
  static llvm::Expected<int> count();
  /// The device of ordinal `index`, created on first use. Errors name the
  /// index and the number of devices present.
  static llvm::Expected<Device &> get(int index = 0);

  int index() const { return index_; }
  CUdevice handle() const { return handle_; }
  CUcontext context() const { return context_; }
  const Driver &driver() const { return *driver_; }
  const std::string &name() const { return name_; }
  int ccMajor() const { return ccMajor_; }
  int ccMinor() const { return ccMinor_; }
  /// The compile target: "sm_<major><minor>", capped at sm_90 (the newest
  /// target Kiln emits; its PTX is JIT-compiled for newer GPUs).
  const std::string &arch() const { return arch_; }
  const DeviceLimits &limits() const { return limits_; }
  int multiprocessors() const { return multiprocessors_; }
  int l2Bytes() const { return l2Bytes_; }
  size_t totalMemory() const { return totalMemory_; }

  /// Makes the primary context current on this thread (cheap when it is).
  llvm::Error makeCurrent() const;
  llvm::Error synchronize() const;

  /// `bytes` of device memory ordered on `stream` (the global scratch of a
  /// launch), from a pool of Kiln's own that keeps what it frees (launches
  /// between synchronizations do not go back to the system); from the
  /// device's default pool when the driver has no pools. Free with
  /// freeScratchAsync on the same stream. Errors name the size.
  llvm::Expected<CUdeviceptr> allocScratchAsync(size_t bytes, CUstream stream) const;
  void freeScratchAsync(CUdeviceptr ptr, CUstream stream) const;

private:
  Device() = default;
  int index_ = 0;
  CUdevice handle_ = 0;
  CUcontext context_ = nullptr;
  const Driver *driver_ = nullptr;
  std::string name_, arch_;
  int ccMajor_ = 0, ccMinor_ = 0, multiprocessors_ = 0, l2Bytes_ = 0;
  size_t totalMemory_ = 0;
  DeviceLimits limits_;
  mutable std::once_flag scratchPoolOnce_;
  mutable CUmemoryPool scratchPool_ = nullptr;
};

/// A driver object (stream, event) owned together with the device it was
/// made on; move-only, destroyed by `Destroy` with that device's context
/// current.
template <typename Handle, CUresult (*DriverAPI::*Destroy)(Handle)>
class DeviceHandle {
public:
  DeviceHandle(DeviceHandle &&other) noexcept
      : device_(other.device_), handle_(std::exchange(other.handle_, nullptr)) {
  }
  DeviceHandle &operator=(DeviceHandle &&other) noexcept {
    if (this != &other) {
      reset();
      device_ = other.device_;
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ~DeviceHandle() { reset(); }
  Handle handle() const { return handle_; }
  Device &device() const { return *device_; }

protected:
  DeviceHandle(Device &d, Handle h) : device_(&d), handle_(h) {}
  Device *device_;
  Handle handle_;

private:
  void reset() {
    if (!handle_)
      return;
    llvm::consumeError(device_->makeCurrent());
    (device_->driver().*Destroy)(handle_);
    handle_ = nullptr;
  }
};

/// An owned, non-blocking stream.
class Stream : public DeviceHandle<CUstream, &Driver::cuStreamDestroy> {
public:
  static llvm::Expected<Stream> create(Device &device);
  llvm::Error synchronize() const;

  /// `bytes` of device memory ordered on `stream` (the global scratch of a
  /// launch), from a pool of Kiln's own that keeps what it frees (launches
  /// between synchronizations do not go back to the system); from the
  /// device's default pool when the driver has no pools. Free with
  /// freeScratchAsync on the same stream. Errors name the size.
  llvm::Expected<CUdeviceptr> allocScratchAsync(size_t bytes, CUstream stream) const;
  void freeScratchAsync(CUdeviceptr ptr, CUstream stream) const;

private:
  using DeviceHandle::DeviceHandle;
};

/// An owned timing event.
class Event : public DeviceHandle<CUevent, &Driver::cuEventDestroy> {
public:
  static llvm::Expected<Event> create(Device &device);
  llvm::Error record(CUstream stream = nullptr);
  llvm::Error synchronize();
  /// Milliseconds between two recorded events (waits for `end`).
  static llvm::Expected<float> elapsedMs(Event &start, Event &end);

private:
  using DeviceHandle::DeviceHandle;
};

/// An owned device allocation (RAII) for tests, benchmarks and the LayerNorm
/// API's outputs.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  static llvm::Expected<DeviceBuffer> alloc(Device &device, size_t bytes);
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  CUdeviceptr ptr() const { return ptr_; }
  size_t size() const { return bytes_; }
  Device *device() const { return device_; }
  explicit operator bool() const { return ptr_ != 0; }

  /// Synchronous copies of `bytes` (default: the whole buffer); errors when
  /// `bytes` exceeds the buffer.
  llvm::Error copyFromHost(const void *src, size_t bytes);
  llvm::Error copyToHost(void *dst, size_t bytes) const;
  /// Fills every byte / every 32-bit word (size must be a multiple of 4);
  /// fill32 with `bytes`: only the first `bytes` (a multiple of 4, at most
  /// the size), e.g. the part of a reused, larger buffer a call needs.
  llvm::Error fill8(uint8_t value, CUstream stream = nullptr);
  llvm::Error fill32(uint32_t value, CUstream stream = nullptr,
                     size_t bytes = SIZE_MAX);

private:
  Device *device_ = nullptr;
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
  void release();
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_DEVICE_H
