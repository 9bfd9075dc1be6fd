//===- Device.cpp - Devices, streams, events and buffers ------------------===//
#include "kiln/Runtime/Device.h"
#include "RuntimeError.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <memory>
#include <mutex>

using namespace kiln::rt;

llvm::Expected<int> Device::count() {
  auto drv = kiln::rt::driver();
  if (!drv)
    return drv.takeError();
  int n = 0;
  if (auto err = drv->check(drv->cuDeviceGetCount(&n), "cuDeviceGetCount"))
    return err;
  return n;
}

llvm::Expected<Device &> Device::get(int index) {
  // Devices live until the process exits: kernels loaded into their primary
  // contexts are cached process-wide, and tearing contexts down from static
  // destructors races with the driver's own shutdown.
  static std::mutex mutex;
  static auto *devices = new std::map<int, std::unique_ptr<Device>>();
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = devices->find(index); it != devices->end())
    return *it->second;

  auto n = count();
  if (!n)
    return n.takeError();
  if (index < 0 || index >= *n)
    return makeError(llvm::formatv(
        "CUDA device {0} does not exist: the driver sees {1} device(s)", index,
        *n));
  const Driver *drv = &llvm::cantFail(kiln::rt::driver()); // count() loaded it.

  std::unique_ptr<Device> d(new Device());
  d->index_ = index;
  d->driver_ = drv;
  auto what = [&](const char *call) {
    return llvm::formatv("{0} for device {1}", call, index).str();
  };
  if (auto err = drv->check(drv->cuDeviceGet(&d->handle_, index),
                            what("cuDeviceGet")))
    return err;
  char name[256] = {0};
  if (auto err = drv->check(drv->cuDeviceGetName(name, sizeof(name) - 1,
                                                 d->handle_),
                            what("cuDeviceGetName")))
    return err;
  d->name_ = name;
  auto attr = [&](int a, int &out) -> llvm::Error {
    return drv->check(drv->cuDeviceGetAttribute(&out, a, d->handle_),
                      what("cuDeviceGetAttribute"));
  };
  int gx = 0, gy = 0, gz = 0, threads = 0, smem = 0, smemOptin = 0;
  for (auto [a, out] :
       {std::pair<int, int *>{cu::DEV_CC_MAJOR, &d->ccMajor_},
        {cu::DEV_CC_MINOR, &d->ccMinor_},
        {cu::DEV_MULTIPROCESSOR_COUNT, &d->multiprocessors_},
        {cu::DEV_L2_CACHE_SIZE, &d->l2Bytes_},
        {cu::DEV_MAX_GRID_DIM_X, &gx},
        {cu::DEV_MAX_GRID_DIM_Y, &gy},
        {cu::DEV_MAX_GRID_DIM_Z, &gz},
        {cu::DEV_MAX_THREADS_PER_BLOCK, &threads},
        {cu::DEV_MAX_SHARED_PER_BLOCK, &smem},
        {cu::DEV_MAX_SHARED_PER_BLOCK_OPTIN, &smemOptin}})
    if (auto err = attr(a, *out))
      return err;
  d->limits_.maxGrid = {uint32_t(gx), uint32_t(gy), uint32_t(gz)};
  d->limits_.maxThreadsPerBlock = unsigned(threads);
  d->limits_.maxSharedPerBlock = unsigned(smem);
  d->limits_.maxSharedPerBlockOptin = unsigned(std::max(smem, smemOptin));
  // Per-SM capacities only steer the register cap (Occupancy.h): a driver
  // that does not answer leaves sm_90's numbers.
  for (auto [a, out] : {std::pair<int, unsigned *>{cu::DEV_MAX_REGISTERS_PER_SM,
                                                   &d->limits_.registersPerSM},
                        {cu::DEV_MAX_THREADS_PER_SM, &d->limits_.maxThreadsPerSM},
                        {cu::DEV_MAX_BLOCKS_PER_SM, &d->limits_.maxBlocksPerSM},
                        {cu::DEV_MAX_SHARED_PER_SM, &d->limits_.sharedPerSM}}) {
    int v = 0;
    if (drv->cuDeviceGetAttribute(&v, a, d->handle_) == cu::SUCCESS && v > 0)
      *out = unsigned(v);
  }
  if (auto err = drv->check(drv->cuDeviceTotalMem(&d->totalMemory_, d->handle_),
                            what("cuDeviceTotalMem")))
    return err;

  int cc = d->ccMajor_ * 10 + d->ccMinor_;
  if (cc < 80)
    return makeError(llvm::formatv(
        "CUDA device {0} ({1}) has compute capability {2}.{3}; Kiln needs "
        "8.0 or newer",
        index, d->name_, d->ccMajor_, d->ccMinor_));
  d->arch_ = "sm_" + std::to_string(std::min(cc, 90));

  if (auto err = drv->check(drv->cuDevicePrimaryCtxRetain(&d->context_,
                                                          d->handle_),
                            what("cuDevicePrimaryCtxRetain")))
    return err;
  Device &ref = *d;
  (*devices)[index] = std::move(d);
  return ref;
}

llvm::Error Device::makeCurrent() const {
  CUcontext current = nullptr;
  if (driver_->cuCtxGetCurrent(&current) == cu::SUCCESS && current == context_)
    return llvm::Error::success();
  // The message is built only on failure: switching contexts is routine.
  CUresult r = driver_->cuCtxSetCurrent(context_);
  if (r == cu::SUCCESS)
    return llvm::Error::success();
  return driver_->check(
      r, llvm::formatv("cuCtxSetCurrent for device {0}", index_).str());
}

llvm::Error Device::synchronize() const {
  if (auto err = makeCurrent())
    return err;
  return driver_->check(driver_->cuCtxSynchronize(), "cuCtxSynchronize");
}

llvm::Expected<CUdeviceptr> Device::allocScratchAsync(size_t bytes, CUstream stream) const {
  const Driver &drv = *driver_;
  if (!drv.cuMemAllocAsync || !drv.cuMemFreeAsync)
    return makeError(llvm::formatv("global scratch: the CUDA driver ({0}) lacks "
                                   "cuMemAllocAsync",
                                   drv.libraryPath));
  // The default pool gives memory back at every synchronization (its release
  // threshold is 0), so that the next launch maps it again; Kiln's keeps it.
  std::call_once(scratchPoolOnce_, [&] {
    if (!drv.cuMemPoolCreate || !drv.cuMemPoolSetAttribute || !drv.cuMemAllocFromPoolAsync)
      return;
    MemPoolProps props;
    props.locationId = index_;
    CUmemoryPool pool = nullptr;
    if (drv.cuMemPoolCreate(&pool, &props) != cu::SUCCESS)
      return;
    uint64_t keepAll = UINT64_MAX;
    drv.cuMemPoolSetAttribute(pool, cu::MEMPOOL_ATTR_RELEASE_THRESHOLD, &keepAll);
    scratchPool_ = pool;
  });
  CUdeviceptr ptr = 0;
  CUresult r = scratchPool_ ? drv.cuMemAllocFromPoolAsync(&ptr, bytes, scratchPool_, stream)
                            : drv.cuMemAllocAsync(&ptr, bytes, stream);
  if (r != cu::SUCCESS)
    return makeError(llvm::formatv("{0} of {1} bytes of global scratch on device {2}: {3}",
                                   scratchPool_ ? "cuMemAllocFromPoolAsync" : "cuMemAllocAsync",
                                   bytes, index_, drv.describe(r)));
  return ptr;
}

void Device::freeScratchAsync(CUdeviceptr ptr, CUstream stream) const {
  if (ptr)
    driver_->cuMemFreeAsync(ptr, stream);
}

//===----------------------------------------------------------------------===//
// Stream and Event
//===----------------------------------------------------------------------===//

namespace {
/// Makes a stream or event with `create` in the device's context.
template <typename Handle>
llvm::Expected<Handle>
createHandle(Device &device, CUresult (*DriverAPI::*create)(Handle *, unsigned),
             unsigned flags, const char *call) {
  if (auto err = device.makeCurrent())
    return err;
  Handle h = nullptr;
  const Driver &drv = device.driver();
  if (auto err = drv.check((drv.*create)(&h, flags), call))
    return err;
  return h;
}
} // namespace

llvm::Expected<Stream> Stream::create(Device &device) {
  auto s = createHandle(device, &Driver::cuStreamCreate,
                        cu::STREAM_NON_BLOCKING, "cuStreamCreate");
  if (!s)
    return s.takeError();
  return Stream(device, *s);
}

llvm::Error Stream::synchronize() const {
  if (auto err = device_->makeCurrent())
    return err;
  return device_->driver().check(device_->driver().cuStreamSynchronize(handle_),
                                 "cuStreamSynchronize");
}

llvm::Expected<Event> Event::create(Device &device) {
  auto e = createHandle(device, &Driver::cuEventCreate, cu::EVENT_DEFAULT,
                        "cuEventCreate");
  if (!e)
    return e.takeError();
  return Event(device, *e);
}

llvm::Error Event::record(CUstream stream) {
  if (auto err = device_->makeCurrent())
    return err;
  return device_->driver().check(
      device_->driver().cuEventRecord(handle_, stream), "cuEventRecord");
}

llvm::Error Event::synchronize() {
  return device_->driver().check(device_->driver().cuEventSynchronize(handle_),
                                 "cuEventSynchronize");
}

llvm::Expected<float> Event::elapsedMs(Event &start, Event &end) {
  if (auto err = end.synchronize())
    return err;
  float ms = 0;
  const Driver &drv = start.device_->driver();
  if (auto err =
          drv.check(drv.cuEventElapsedTime(&ms, start.handle_, end.handle_),
                    "cuEventElapsedTime"))
    return err;
  return ms;
}

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

llvm::Expected<DeviceBuffer> DeviceBuffer::alloc(Device &device, size_t bytes) {
  if (auto err = device.makeCurrent())
    return err;
  DeviceBuffer b;
  b.device_ = &device;
  b.bytes_ = bytes;
  if (bytes == 0)
    return b;
  const Driver &drv = device.driver();
  if (auto err = drv.check(drv.cuMemAlloc(&b.ptr_, bytes),
                           llvm::formatv("cuMemAlloc of {0} bytes on device {1}",
                                         bytes, device.index())
                               .str()))
    return err;
  return b;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&o) noexcept
    : device_(o.device_), ptr_(o.ptr_), bytes_(o.bytes_) {
  o.ptr_ = 0;
  o.bytes_ = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  if (this != &o) {
    release();
    device_ = o.device_;
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ptr_ = 0;
    o.bytes_ = 0;
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { release(); }

void DeviceBuffer::release() {
  if (ptr_) {
    llvm::consumeError(device_->makeCurrent());
    device_->driver().cuMemFree(ptr_);
  }
  ptr_ = 0;
  bytes_ = 0;
}

llvm::Error DeviceBuffer::copyFromHost(const void *src, size_t bytes) {
  if (bytes > bytes_)
    return makeError(llvm::formatv(
        "copy of {0} bytes into a device buffer of {1} bytes", bytes, bytes_));
  if (bytes == 0)
    return llvm::Error::success();
  if (auto err = device_->makeCurrent())
    return err;
  return device_->driver().check(
      device_->driver().cuMemcpyHtoD(ptr_, src, bytes), "cuMemcpyHtoD");
}

llvm::Error DeviceBuffer::copyToHost(void *dst, size_t bytes) const {
  if (bytes > bytes_)
    return makeError(llvm::formatv(
        "copy of {0} bytes out of a device buffer of {1} bytes", bytes,
        bytes_));
  if (bytes == 0)
    return llvm::Error::success();
  if (auto err = device_->makeCurrent())
    return err;
  return device_->driver().check(
      device_->driver().cuMemcpyDtoH(dst, ptr_, bytes), "cuMemcpyDtoH");
}

llvm::Error DeviceBuffer::fill8(uint8_t value, CUstream stream) {
  if (bytes_ == 0)
    return llvm::Error::success();
  if (auto err = device_->makeCurrent())
    return err;
  return device_->driver().check(
      device_->driver().cuMemsetD8Async(ptr_, value, bytes_, stream),
      "cuMemsetD8Async");
}

llvm::Error DeviceBuffer::fill32(uint32_t value, CUstream stream,
                                 size_t bytes) {
  const bool whole = bytes == SIZE_MAX;
  if (whole)
    bytes = bytes_;
  if (bytes > bytes_)
    return makeError(llvm::formatv(
        "fill32 of {0} bytes on a buffer of {1} bytes", bytes, bytes_));
  if (bytes % 4)
    return makeError(llvm::formatv(
        whole ? "fill32 on a buffer of {0} bytes (not a multiple of 4)"
              : "fill32 of {0} bytes (not a multiple of 4)",
        bytes));
  if (bytes == 0)
    return llvm::Error::success();
  if (auto err = device_->makeCurrent())
    return err;
  return device_->driver().check(
      device_->driver().cuMemsetD32Async(ptr_, value, bytes / 4, stream),
      "cuMemsetD32Async");
}
