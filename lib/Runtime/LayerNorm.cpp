//===- LayerNorm.cpp - Host side of the tutorial's LayerNorm --------------===//
#include "kiln/Runtime/LayerNorm.h"
#include "RuntimeError.h"
#include "kiln/Target/BuiltinKernels.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace kiln;
using namespace kiln::rt;

namespace {
constexpr const char *kFwd = "_layer_norm_fwd_fused";
constexpr const char *kBwdDx = "_layer_norm_bwd_dx_fused";
constexpr const char *kBwdDwDb = "_layer_norm_bwd_dwdb";

llvm::Error checkDType(DType t) {
  if (t == DType::F16 || t == DType::BF16 || t == DType::F32)
    return llvm::Error::success();
  return makeError(llvm::formatv(
      "layer_norm: dtype {0} is not supported (fp16, bf16 or fp32)",
      dtypeName(t)));
}

std::string shape(const DeviceMatrix &m) {
  return llvm::formatv("[{0}, {1}] {2} (stride {3})", m.rows, m.cols,
                       dtypeName(m.dtype), m.stride)
      .str();
}

/// Checks one matrix operand against the expected shape and dtype.
llvm::Error checkMatrix(const DeviceMatrix &m, const char *name, int64_t rows,
                        int64_t cols, DType dtype, int64_t stride) {
  if (m.rows != rows || m.cols != cols || m.dtype != dtype)
    return makeError(llvm::formatv(
        "layer_norm: `{0}` is {1}; expected [{2}, {3}] {4}", name, shape(m),
        rows, cols, dtypeName(dtype)));
  if (m.stride != stride)
    return makeError(llvm::formatv(
        "layer_norm: `{0}` has row stride {1} but x has {2}; the kernels "
        "address x, y, dy and dx with one stride",
        name, m.stride, stride));
  if (m.ptr == 0 && rows > 0)
    return makeError(llvm::formatv("layer_norm: `{0}` is a null pointer", name));
  return llvm::Error::success();
}

llvm::Error checkVector(const DeviceVector &v, const char *name, int64_t size,
                        DType dtype) {
  if (v.size != size || v.dtype != dtype)
    return makeError(llvm::formatv(
        "layer_norm: `{0}` is [{1}] {2}; expected [{3}] {4}", name, v.size,
        dtypeName(v.dtype), size, dtypeName(dtype)));
  if (v.ptr == 0 && size > 0)
    return makeError(llvm::formatv("layer_norm: `{0}` is a null pointer", name));
  return llvm::Error::success();
}

/// x itself: dtype, shape, stride, and offsets that fit the kernels' 32-bit
/// row arithmetic (row * stride is computed in i32).
llvm::Error checkInput(const DeviceMatrix &x) {
  if (auto err = checkDType(x.dtype))
    return err;
  if (x.rows < 0 || x.cols < 1)
    return makeError(llvm::formatv("layer_norm: `x` is {0}; need M >= 0 and "
                                   "N >= 1",
                                   shape(x)));
  if (x.stride < x.cols)
    return makeError(llvm::formatv(
        "layer_norm: `x` has row stride {0} < N = {1}", x.stride, x.cols));
  if (x.rows > 0 && (x.rows - 1) * x.stride + x.cols > INT32_MAX)
    return makeError(llvm::formatv(
        "layer_norm: `x` spans {0} elements; the kernels compute row offsets "
        "in 32 bits (at most {1})",
        (x.rows - 1) * x.stride + x.cols, INT32_MAX));
  if (x.ptr == 0 && x.rows > 0)
    return makeError("layer_norm: `x` is a null pointer");
  return llvm::Error::success();
}

size_t matrixBytes(const DeviceMatrix &m) {
  if (m.rows == 0)
    return 0;
  return size_t((m.rows - 1) * m.stride + m.cols) * dtypeBytes(m.dtype);
}

llvm::Error ensure(Device &dev, DeviceBuffer &buf, size_t bytes) {
  if (buf.size() >= bytes && buf)
    return llvm::Error::success();
  buf = DeviceBuffer();
  auto b = DeviceBuffer::alloc(dev, bytes);
  if (!b)
    return b.takeError();
  buf = std::move(*b);
  return llvm::Error::success();
}

/// Allocates each buffer with its size (the allocating forward/backward).
llvm::Error
allocate(Device &dev,
         std::initializer_list<std::pair<DeviceBuffer *, size_t>> buffers) {
  for (auto [buf, bytes] : buffers) {
    auto a = DeviceBuffer::alloc(dev, bytes);
    if (!a)
      return a.takeError();
    *buf = std::move(*a);
  }
  return llvm::Error::success();
}

llvm::Error withContext(llvm::Error err, const char *what) {
  if (!err)
    return err;
  return makeError(llvm::Twine("layer_norm ") + what + ": " +
                   llvm::toString(std::move(err)));
}
} // namespace

llvm::Expected<LayerNormForwardConfig>
kiln::rt::layerNormForwardConfig(int64_t n, DType dtype) {
  if (auto err = checkDType(dtype))
    return err;
  if (n < 1)
    return makeError(llvm::formatv("layer_norm: N = {0}; need N >= 1", n));
  int64_t maxFused = 65536 / dtypeBytes(dtype);
  int64_t block = std::min<int64_t>(maxFused, llvm::PowerOf2Ceil(n));
  if (n > block)
    return makeError(llvm::formatv(
        "layer_norm: N = {0} is above the limit of {1} {2} elements (64 KB) "
        "per row; larger rows are not supported yet",
        n, maxFused, dtypeName(dtype)));
  LayerNormForwardConfig c;
  c.blockSize = unsigned(block);
  c.numWarps = unsigned(std::min<int64_t>(std::max<int64_t>(block / 256, 1), 8));
  return c;
}

namespace {
LaunchOptions makeOptions(
    int device, CUstream stream, unsigned numWarps,
    std::initializer_list<std::pair<const char *, unsigned>> constexprs) {
  LaunchOptions o;
  o.device = device;
  o.stream = stream;
  o.numWarps = numWarps;
  for (auto [name, value] : constexprs)
    o.constexprs.emplace(name, value);
  return o;
}
} // namespace

LaunchOptions LayerNormForwardConfig::launchOptions(int device,
                                                    CUstream stream) const {
  return makeOptions(device, stream, numWarps, {{"BLOCK_SIZE", blockSize}});
}

LaunchOptions LayerNormBackwardConfig::dxLaunchOptions(int device,
                                                       CUstream stream) const {
  return makeOptions(
      device, stream, numWarps,
      {{"GROUP_SIZE_M", groupSizeM}, {"BLOCK_SIZE_N", blockSizeN}});
}

LaunchOptions
LayerNormBackwardConfig::dwdbLaunchOptions(int device, CUstream stream) const {
  return makeOptions(
      device, stream, dwdbNumWarps,
      {{"BLOCK_SIZE_M", dwdbBlockM}, {"BLOCK_SIZE_N", dwdbBlockN}});
}

llvm::Expected<LayerNormBackwardConfig>
kiln::rt::layerNormBackwardConfig(int64_t n, DType dtype) {
  auto fwd = layerNormForwardConfig(n, dtype);
  if (!fwd)
    return fwd.takeError();
  LayerNormBackwardConfig c;
  c.groupSizeM = 64;
  if (n <= 8192)
    c.groupSizeM = 96;
  if (n <= 4096)
    c.groupSizeM = 128;
  if (n <= 1024)
    c.groupSizeM = 256;
  c.blockSizeN = fwd->blockSize;
  c.numWarps = fwd->numWarps;
  return c;
}

namespace kiln::rt {
// LayerNormFused.cpp: the kernels of layer_norm_fast.py.
llvm::Expected<std::shared_ptr<NormKernelSet>>
loadNormKernels(const Module &module, const Module &coop);
Module builtinNormModule(ModuleOptions options);
Module builtinNormCoopModule(ModuleOptions options);
} // namespace kiln::rt

llvm::Expected<LayerNorm> LayerNorm::create(int device, ModuleOptions options) {
  Module m = Module::fromSource(builtinLayerNormSource().str(),
                                kBuiltinLayerNormName, options);
  return create(device, m, builtinNormModule(options),
                builtinNormCoopModule(options));
}

llvm::Expected<LayerNorm> LayerNorm::create(int device, const Module &module) {
  return create(device, module, builtinNormModule({}));
}

llvm::Expected<LayerNorm> LayerNorm::create(int device, const Module &module,
                                            const Module &fused) {
  return create(device, module, fused, builtinNormCoopModule({}));
}

llvm::Expected<LayerNorm> LayerNorm::create(int device, const Module &module,
                                            const Module &fused,
                                            const Module &coop) {
  auto fwd = module.kernel(kFwd);
  if (!fwd)
    return fwd.takeError();
  auto dx = module.kernel(kBwdDx);
  if (!dx)
    return dx.takeError();
  auto dwdb = module.kernel(kBwdDwDb);
  if (!dwdb)
    return dwdb.takeError();
  auto fast = loadNormKernels(fused, coop);
  if (!fast)
    return fast.takeError();
  auto dev = Device::get(device);
  if (!dev)
    return dev.takeError();
  return LayerNorm(*dev, std::move(*fwd), std::move(*dx), std::move(*dwdb),
                   std::move(*fast));
}

llvm::Error LayerNorm::forwardInto(const DeviceMatrix &x, const DeviceVector &w,
                                   const DeviceVector &b, float eps,
                                   const DeviceMatrix &y,
                                   const DeviceVector &mean,
                                   const DeviceVector &rstd, CUstream stream) {
  if (auto err = checkInput(x))
    return err;
  const int64_t M = x.rows, N = x.cols;
  auto cfg = layerNormForwardConfig(N, x.dtype);
  if (!cfg)
    return cfg.takeError();
  for (auto [v, name] : {std::pair{&w, "w"}, {&b, "b"}})
    if (auto err = checkVector(*v, name, N, x.dtype))
      return err;
  if (auto err = checkMatrix(y, "y", M, N, x.dtype, x.stride))
    return err;
  for (auto [v, name] : {std::pair{&mean, "mean"}, {&rstd, "rstd"}})
    if (auto err = checkVector(*v, name, M, DType::F32))
      return err;
  if (M == 0)
    return llvm::Error::success();

  DType t = x.dtype;
  return withContext(
      fwd_.launch(Grid(uint32_t(M)),
                  {Arg::ptr(x.ptr, t), Arg::ptr(y.ptr, t), Arg::ptr(w.ptr, t),
                   Arg::ptr(b.ptr, t), Arg::ptr(mean.ptr, DType::F32),
                   Arg::ptr(rstd.ptr, DType::F32), Arg::integer(x.stride),
                   Arg::integer(N), Arg::f32(eps)},
                  cfg->launchOptions(device_->index(), stream)),
      "forward");
}

llvm::Expected<LayerNorm::ForwardResult>
LayerNorm::forward(const DeviceMatrix &x, const DeviceVector &w,
                   const DeviceVector &b, float eps, CUstream stream) {
  if (auto err = checkInput(x))
    return err;
  ForwardResult r;
  r.y = x;
  r.mean = {0, DType::F32, x.rows};
  r.rstd = {0, DType::F32, x.rows};
  if (auto err = allocate(*device_, {{&r.yBuffer, matrixBytes(x)},
                                     {&r.meanBuffer, size_t(x.rows) * 4},
                                     {&r.rstdBuffer, size_t(x.rows) * 4}}))
    return err;
  r.y.ptr = r.yBuffer.ptr();
  r.mean.ptr = r.meanBuffer.ptr();
  r.rstd.ptr = r.rstdBuffer.ptr();
  if (auto err = forwardInto(x, w, b, eps, r.y, r.mean, r.rstd, stream))
    return err;
  return r;
}

llvm::Error LayerNorm::backwardInto(
    const DeviceMatrix &dy, const DeviceMatrix &x, const DeviceVector &w,
    const DeviceVector &b, const DeviceVector &mean, const DeviceVector &rstd,
    const DeviceMatrix &dx, const DeviceVector &dw, const DeviceVector &db,
    LayerNormWorkspace &ws, CUstream stream) {
  if (auto err = checkInput(x))
    return err;
  const int64_t M = x.rows, N = x.cols;
  auto cfg = layerNormBackwardConfig(N, x.dtype);
  if (!cfg)
    return cfg.takeError();
  DType t = x.dtype;
  if (auto err = checkMatrix(dy, "dy", M, N, t, x.stride))
    return err;
  if (auto err = checkMatrix(dx, "dx", M, N, t, x.stride))
    return err;
  for (auto [v, name] : {std::pair{&w, "w"}, {&b, "b"}, {&dw, "dw"},
                         {&db, "db"}})
    if (auto err = checkVector(*v, name, N, t))
      return err;
  for (auto [v, name] : {std::pair{&mean, "mean"}, {&rstd, "rstd"}})
    if (auto err = checkVector(*v, name, M, DType::F32))
      return err;

  const unsigned G = cfg->groupSizeM;
  const size_t partialBytes = size_t(G) * size_t(N) * dtypeBytes(t);
  if (auto err = ensure(*device_, ws.locks, size_t(2) * G * 4))
    return err;
  if (auto err = ensure(*device_, ws.partialDw, partialBytes))
    return err;
  if (auto err = ensure(*device_, ws.partialDb, partialBytes))
    return err;
  // Zeroed every call: the locks must start released and the counters at
  // "nothing written"; zero partial sums keep unwritten rows harmless.
  const Driver &drv = device_->driver();
  if (auto err = device_->makeCurrent())
    return err;
  if (auto err = drv.check(
          drv.cuMemsetD32Async(ws.locks.ptr(), 0, size_t(2) * G, stream),
          "layer_norm backward: zeroing the locks (cuMemsetD32Async)"))
    return err;
  for (DeviceBuffer *p : {&ws.partialDw, &ws.partialDb})
    if (auto err = drv.check(
            drv.cuMemsetD8Async(p->ptr(), 0, partialBytes, stream),
            "layer_norm backward: zeroing the partial sums (cuMemsetD8Async)"))
      return err;

  if (M > 0)
    if (auto err = withContext(
            bwdDx_.launch(Grid(uint32_t(M)),
                          {Arg::ptr(dx.ptr, t), Arg::ptr(dy.ptr, t),
                           Arg::ptr(ws.partialDw.ptr(), t),
                           Arg::ptr(ws.partialDb.ptr(), t), Arg::ptr(x.ptr, t),
                           Arg::ptr(w.ptr, t), Arg::ptr(mean.ptr, DType::F32),
                           Arg::ptr(rstd.ptr, DType::F32),
                           Arg::ptr(ws.locks.ptr(), DType::I32),
                           Arg::integer(x.stride), Arg::integer(N)},
                          cfg->dxLaunchOptions(device_->index(), stream)),
            "backward (dx)"))
      return err;

  uint32_t cols = uint32_t((N + cfg->dwdbBlockN - 1) / cfg->dwdbBlockN);
  return withContext(
      bwdDwDb_.launch(Grid(cols),
                      {Arg::ptr(ws.partialDw.ptr(), t),
                       Arg::ptr(ws.partialDb.ptr(), t), Arg::ptr(dw.ptr, t),
                       Arg::ptr(db.ptr, t),
                       Arg::integer(std::min<int64_t>(G, M)), Arg::integer(N)},
                      cfg->dwdbLaunchOptions(device_->index(), stream)),
      "backward (dw, db)");
}

llvm::Expected<LayerNorm::BackwardResult>
LayerNorm::backward(const DeviceMatrix &dy, const DeviceMatrix &x,
                    const DeviceVector &w, const DeviceVector &b,
                    const DeviceVector &mean, const DeviceVector &rstd,
                    CUstream stream) {
  if (auto err = checkInput(x))
    return err;
  BackwardResult r;
  r.dx = x;
  r.dw = {0, x.dtype, x.cols};
  r.db = {0, x.dtype, x.cols};
  size_t vecBytes = size_t(x.cols) * dtypeBytes(x.dtype);
  if (auto err = allocate(*device_, {{&r.dxBuffer, matrixBytes(x)},
                                     {&r.dwBuffer, vecBytes},
                                     {&r.dbBuffer, vecBytes}}))
    return err;
  r.dx.ptr = r.dxBuffer.ptr();
  r.dw.ptr = r.dwBuffer.ptr();
  r.db.ptr = r.dbBuffer.ptr();
  if (auto err = backwardInto(dy, x, w, b, mean, rstd, r.dx, r.dw, r.db,
                              workspace_, stream))
    return err;
  return r;
}
