//===- main.cpp - LayerNorm forward and backward through Kiln's runtime ---===//
//
//   layernorm-example [M N [fp16|bf16|fp32]]      (default 1151 8192 fp16)
//
// JIT-compiles the three kernels of layer_norm.py (built into Kiln), runs
// forward and backward on random inputs and prints the largest difference to
// a float64 CPU reference; then the same with the fused kernels of
// layer_norm_fast.py (normForward / normBackward, any N). Rows above 64 KB
// skip the tutorial's kernels. Exit status 1 on any error.
//
//===----------------------------------------------------------------------===//
#include "kiln/Runtime/HalfFloat.h"
#include "kiln/Runtime/LayerNorm.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace kiln;
using namespace kiln::rt;

namespace {
// Host values are kept as float; these convert to and from the dtype's bits.
std::vector<uint8_t> pack(const std::vector<float> &v, DType t) {
  std::vector<uint8_t> out(v.size() * dtypeBytes(t));
  for (size_t i = 0; i < v.size(); ++i) {
    if (t == DType::F32) {
      std::memcpy(&out[i * 4], &v[i], 4);
      continue;
    }
    uint16_t h = t == DType::F16 ? floatToHalf(v[i]) : floatToBF16(v[i]);
    std::memcpy(&out[i * 2], &h, 2);
  }
  return out;
}

std::vector<float> unpack(const std::vector<uint8_t> &b, DType t) {
  std::vector<float> out(b.size() / dtypeBytes(t));
  for (size_t i = 0; i < out.size(); ++i) {
    if (t == DType::F32) {
      std::memcpy(&out[i], &b[i * 4], 4);
      continue;
    }
    uint16_t h;
    std::memcpy(&h, &b[i * 2], 2);
    out[i] = t == DType::F16 ? halfToFloat(h) : bf16ToFloat(h);
  }
  return out;
}

/// Rounds to the dtype, so the reference sees exactly what the GPU sees.
std::vector<float> random(size_t n, DType t, std::mt19937 &rng, bool uniform,
                          float offset, float scale) {
  std::normal_distribution<float> normal;
  std::uniform_real_distribution<float> unif;
  std::vector<float> v(n);
  for (float &x : v)
    x = offset + scale * (uniform ? unif(rng) : normal(rng));
  return unpack(pack(v, t), t);
}

double maxDiff(const std::vector<float> &a, const std::vector<double> &b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i)
    m = std::max(m, std::fabs(double(a[i]) - b[i]));
  return m;
}

int fail(llvm::Error e) {
  std::fprintf(stderr, "error: %s\n", llvm::toString(std::move(e)).c_str());
  return 1;
}
} // namespace

int main(int argc, char **argv) {
  int64_t M = argc > 2 ? std::atoll(argv[1]) : 1151;
  int64_t N = argc > 2 ? std::atoll(argv[2]) : 8192;
  DType t = DType::F16;
  if (argc > 3) {
    auto parsed = parseDTypeName(argv[3]);
    if (!parsed) {
      std::fprintf(stderr, "error: unknown dtype `%s`\n", argv[3]);
      return 1;
    }
    t = *parsed;
  }
  if (M < 1 || N < 1) {
    std::fprintf(stderr, "usage: %s [M N [fp16|bf16|fp32]]\n", argv[0]);
    return 1;
  }
  const float eps = 1e-5f;

  // Inputs as in the Triton tutorial.
  std::mt19937 rng(0);
  std::vector<float> x = random(M * N, t, rng, false, -2.3f, 0.5f);
  std::vector<float> dy = random(M * N, t, rng, false, 0.0f, 0.1f);
  std::vector<float> w = random(N, t, rng, true, 0.0f, 1.0f);
  std::vector<float> b = random(N, t, rng, true, 0.0f, 1.0f);

  auto ln = LayerNorm::create(/*device=*/0);
  if (!ln)
    return fail(ln.takeError());
  Device &dev = ln->device();
  auto upload = [&](const std::vector<float> &v) -> llvm::Expected<DeviceBuffer> {
    std::vector<uint8_t> bytes = pack(v, t);
    auto buf = DeviceBuffer::alloc(dev, bytes.size());
    if (!buf)
      return buf.takeError();
    if (auto e = buf->copyFromHost(bytes.data(), bytes.size()))
      return std::move(e);
    return buf;
  };
  auto dx_ = upload(x), ddy = upload(dy), dw_ = upload(w), db_ = upload(b);
  for (auto *e : {&dx_, &ddy, &dw_, &db_})
    if (!*e)
      return fail(e->takeError());
  DeviceMatrix X{dx_->ptr(), t, M, N, N}, DY{ddy->ptr(), t, M, N, N};
  DeviceVector W{dw_->ptr(), t, N}, B{db_->ptr(), t, N};

  auto download = [&](const DeviceBuffer &buf, DType type, size_t n)
      -> llvm::Expected<std::vector<float>> {
    std::vector<uint8_t> bytes(n * dtypeBytes(type));
    if (auto e = buf.copyToHost(bytes.data(), bytes.size()))
      return std::move(e);
    return unpack(bytes, type);
  };
  // y, dx, dw, db of the tutorial's kernels (when a row fits in 64 KB) and
  // of the fused ones.
  std::vector<std::vector<float>> results[2];
  auto tutorialConfig = layerNormForwardConfig(N, t);
  if (!tutorialConfig)
    llvm::consumeError(tutorialConfig.takeError()); // the 64 KB limit
  else {
    auto fwd = ln->forward(X, W, B, eps);
    if (!fwd)
      return fail(fwd.takeError());
    auto bwd = ln->backward(DY, X, W, B, fwd->mean, fwd->rstd);
    if (!bwd)
      return fail(bwd.takeError());
    for (auto [buf, n] : {std::pair{&fwd->yBuffer, M * N},
                          {&bwd->dxBuffer, M * N},
                          {&bwd->dwBuffer, N},
                          {&bwd->dbBuffer, N}}) {
      auto v = download(*buf, t, size_t(n));
      if (!v)
        return fail(v.takeError());
      results[0].push_back(std::move(*v));
    }
  }
  {
    // The fused path: the caller owns every buffer.
    size_t mat = size_t(M * N) * dtypeBytes(t), vec = size_t(N) * dtypeBytes(t);
    std::vector<DeviceBuffer> bufs;
    for (size_t bytes : {mat, mat, vec, vec, size_t(M) * 4, size_t(M) * 4}) {
      auto b = DeviceBuffer::alloc(dev, bytes);
      if (!b)
        return fail(b.takeError());
      bufs.push_back(std::move(*b));
    }
    NormOptions o; // LayerNorm with bias, eps 1e-5
    NormForwardArgs f;
    f.x = X;
    f.w = W;
    f.b = B;
    f.y = {bufs[0].ptr(), t, M, N, N};
    f.mean = {bufs[4].ptr(), DType::F32, M};
    f.rstd = {bufs[5].ptr(), DType::F32, M};
    if (auto e = ln->normForward(f, o))
      return fail(std::move(e));
    NormBackwardArgs g;
    g.dy = DY;
    g.x = X;
    g.w = W;
    g.b = B;
    g.mean = f.mean;
    g.rstd = f.rstd;
    g.dx = {bufs[1].ptr(), t, M, N, N};
    g.dw = {bufs[2].ptr(), t, N};
    g.db = {bufs[3].ptr(), t, N};
    NormWorkspace ws;
    if (auto e = ln->normBackward(g, o, ws))
      return fail(std::move(e));
    for (auto [i, n] : {std::pair{0, M * N}, {1, M * N}, {2, N}, {3, N}}) {
      auto v = download(bufs[i], t, size_t(n));
      if (!v)
        return fail(v.takeError());
      results[1].push_back(std::move(*v));
    }
  }

  // float64 reference.
  std::vector<double> ry(M * N), rdx(M * N), rdw(N, 0.0), rdb(N, 0.0);
  std::vector<double> xhat(N), wdy(N);
  for (int64_t r = 0; r < M; ++r) {
    const float *xr = &x[r * N], *dyr = &dy[r * N];
    double mean = 0, var = 0, c1 = 0, c2 = 0;
    for (int64_t c = 0; c < N; ++c)
      mean += xr[c];
    mean /= N;
    for (int64_t c = 0; c < N; ++c)
      var += (xr[c] - mean) * (xr[c] - mean);
    double rstd = 1.0 / std::sqrt(var / N + eps);
    for (int64_t c = 0; c < N; ++c) {
      xhat[c] = (xr[c] - mean) * rstd;
      wdy[c] = double(w[c]) * dyr[c];
      ry[r * N + c] = xhat[c] * w[c] + b[c];
      c1 += xhat[c] * wdy[c];
      c2 += wdy[c];
      rdw[c] += dyr[c] * xhat[c];
      rdb[c] += dyr[c];
    }
    for (int64_t c = 0; c < N; ++c)
      rdx[r * N + c] = (wdy[c] - (xhat[c] * c1 / N + c2 / N)) * rstd;
  }

  std::printf("LayerNorm %s M=%lld N=%lld on %s\n", dtypeName(t),
              (long long)M, (long long)N, dev.name().c_str());
  for (int k = 0; k < 2; ++k) {
    const char *what = k == 0 ? "tutorial kernels" : "fused kernels";
    if (results[k].empty()) {
      std::printf("%s: skipped (a row above 64 KB)\n", what);
      continue;
    }
    const auto &r = results[k];
    std::printf("%s, max |error| vs float64 reference:\n", what);
    std::printf("  y  %.3g\n  dx %.3g\n  dw %.3g\n  db %.3g\n",
                maxDiff(r[0], ry), maxDiff(r[1], rdx), maxDiff(r[2], rdw),
                maxDiff(r[3], rdb));
  }
  return 0;
}
