//===- main.cpp - LayerNorm forward compiled ahead of time ----------------===//
//
//   aot-layernorm [M]          (default M = 1151 rows of N = 4096 fp16)
//
// The kernel `_layer_norm_fwd_fused` of examples/layernorm/layer_norm.py was
// compiled at build time by kiln_add_kernel (see CMakeLists.txt) into
// layer_norm_fwd.h/.cpp: this program links only Kiln's small AOT runtime
// (no LLVM, no MLIR, no compiler). It runs the kernel on random inputs and
// compares y, mean and rstd with a float64 CPU reference. Exit status 0 when
// they match, 1 on any error (e.g. no CUDA driver on this machine).
//
//===----------------------------------------------------------------------===//
#include "layer_norm_fwd.h"

#include "kiln/Runtime/DriverAPI.h"
#include "kiln/Runtime/HalfFloat.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {
constexpr int kN = 4096; // The CONSTEXPRS BLOCK_SIZE of CMakeLists.txt.
constexpr float kEps = 1e-5f;

int fail(const std::string &what) {
  std::fprintf(stderr, "aot-layernorm: error: %s\n", what.c_str());
  return 1;
}

/// Device memory through the driver table the AOT runtime loaded.
struct DeviceBuffer {
  const kiln::rt::DriverAPI *drv;
  kiln::rt::CUdeviceptr ptr = 0;
  DeviceBuffer(const kiln::rt::DriverAPI *drv, size_t bytes) : drv(drv) {
    if (drv->cuMemAlloc(&ptr, bytes) != kiln::rt::cu::SUCCESS)
      ptr = 0;
  }
  ~DeviceBuffer() {
    if (ptr)
      drv->cuMemFree(ptr);
  }
  template <typename T> T *as() const { return reinterpret_cast<T *>(ptr); }
};
} // namespace

int main(int argc, char **argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 1151;
  if (M <= 0)
    return fail("M must be a positive number of rows");

  // Loads the driver, makes device 0's primary context current and loads
  // the image for its arch: fails here with "no CUDA driver found" without
  // a GPU.
  kiln::aot::LoadInfo info;
  auto t0 = std::chrono::steady_clock::now();
  if (kiln::aot::Status s =
          kiln::aot::prepare(kiln::aot::layer_norm_fwd_kernel, nullptr, &info);
      !s)
    return fail(s.message());
  double loadMs = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - t0)
                      .count();
  std::printf("device sm_%d: running the sm_%d %s (%.1f ms to load)\n",
              info.deviceSm, info.image->sm,
              info.image->isCubin ? "cubin" : "PTX through the driver's JIT",
              loadMs);
  if (!info.cubinError.empty())
    std::printf("  (embedded cubin not used: %s)\n", info.cubinError.c_str());

  const kiln::rt::DriverAPI *drv = kiln::rt::processDriver(nullptr);
  std::mt19937 rng(0);
  std::normal_distribution<float> normal;
  auto toHalf = [](float f) { return kiln::rt::floatToHalf(f); };
  std::vector<uint16_t> x(size_t(M) * kN), w(kN), b(kN);
  for (auto &v : x)
    v = toHalf(-2.3f + 0.5f * normal(rng));
  for (auto &v : w)
    v = toHalf(1.0f + 0.1f * normal(rng));
  for (auto &v : b)
    v = toHalf(0.1f * normal(rng));

  DeviceBuffer dx(drv, x.size() * 2), dy(drv, x.size() * 2), dw(drv, kN * 2),
      db(drv, kN * 2), dmean(drv, M * 4), drstd(drv, M * 4);
  for (auto *buf : {&dx, &dy, &dw, &db, &dmean, &drstd})
    if (!buf->ptr)
      return fail("cuMemAlloc failed");
  drv->cuMemcpyHtoD(dx.ptr, x.data(), x.size() * 2);
  drv->cuMemcpyHtoD(dw.ptr, w.data(), kN * 2);
  drv->cuMemcpyHtoD(db.ptr, b.data(), kN * 2);

  // One program per row; the arguments are checked as the JIT checks them.
  using kiln::aot::half;
  kiln::aot::Status s = kiln::aot::layer_norm_fwd(
      /*stream=*/nullptr, kiln::aot::Grid(unsigned(M)), dx.as<half>(),
      dy.as<half>(), dw.as<half>(), db.as<half>(), dmean.as<float>(),
      drstd.as<float>(), /*stride=*/kN, /*N=*/kN, kEps);
  if (!s)
    return fail(s.message());
  if (drv->cuCtxSynchronize() != kiln::rt::cu::SUCCESS)
    return fail("the kernel failed (cuCtxSynchronize)");

  std::vector<uint16_t> y(x.size());
  std::vector<float> mean(M), rstd(M);
  drv->cuMemcpyDtoH(y.data(), dy.ptr, y.size() * 2);
  drv->cuMemcpyDtoH(mean.data(), dmean.ptr, M * 4);
  drv->cuMemcpyDtoH(rstd.data(), drstd.ptr, M * 4);

  double maxY = 0, maxMean = 0, maxRstd = 0;
  for (int r = 0; r < M; ++r) {
    const uint16_t *row = &x[size_t(r) * kN];
    double m = 0, var = 0;
    for (int c = 0; c < kN; ++c)
      m += kiln::rt::halfToFloat(row[c]);
    m /= kN;
    for (int c = 0; c < kN; ++c) {
      double d = kiln::rt::halfToFloat(row[c]) - m;
      var += d * d;
    }
    double rs = 1 / std::sqrt(var / kN + kEps);
    maxMean = std::max(maxMean, std::abs(mean[r] - m));
    maxRstd = std::max(maxRstd, std::abs(rstd[r] - rs) / rs);
    for (int c = 0; c < kN; ++c) {
      double ref = (kiln::rt::halfToFloat(row[c]) - m) * rs *
                       kiln::rt::halfToFloat(w[c]) +
                   kiln::rt::halfToFloat(b[c]);
      maxY = std::max(
          maxY, std::abs(kiln::rt::halfToFloat(y[size_t(r) * kN + c]) - ref));
    }
  }
  bool ok = maxY <= 2e-2 && maxMean <= 1e-4 && maxRstd <= 1e-4;
  std::printf("LayerNorm forward %d x %d fp16: max |y - ref| = %.3g, "
              "|mean - ref| = %.3g, rel |rstd - ref| = %.3g: %s\n",
              M, kN, maxY, maxMean, maxRstd, ok ? "OK" : "MISMATCH");
  return ok ? 0 : 1;
}
