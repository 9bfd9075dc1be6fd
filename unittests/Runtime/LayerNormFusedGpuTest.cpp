//===- LayerNormFusedGpuTest.cpp - Fused norms vs an fp64 CPU reference ---===//
//
// Every variant of the fused LayerNorm / RMSNorm (one-pass, chunked and
// cooperative forward; one-pass, columns, chunked and cooperative backward;
// through normForward / normBackward) and every option (residual, no bias, dropout, row scale,
// second output) against an fp64 reference, for fp16, bf16 and fp32 and the
// odd shapes 1x1, 3x777, 7x3000, N = 16385, 20000, 65537, 100000, 262144.
//
// Inputs as the tutorial's (x = -2.3 + 0.5 randn, w, b = rand, dy = 0.1
// randn) rounded to the dtype; residual = randn, rowScale in [0.5, 1.5).
// Outputs start as NaN bit patterns (0xFF bytes), so an element no kernel
// writes fails. Dropout's keep mask is read back from residualOut (a dropped
// element holds exactly the residual, or 0 without one)
// and its kept fraction must be 1 - p within 6 sigma; the reference then
// uses that mask. Tolerances: 1e-2 (fp16/bf16) or 1e-4 (fp32) times the
// tensor's max |reference| plus half an ulp of the output relative (and
// half the smallest subnormal); dx and dresidualIn also 32 fp32 ulps of the
// largest term of rstd * (g - (xhat * c1 + c2)), whose terms cancel when a
// row has no variance (N = 1: dx = 0 while rstd = 1/sqrt(eps)). With
// residualOut stored, the reference normalises it rounded to the dtype, as
// the kernels do.
// dw/db must be bitwise equal over 20 backward runs.
//
//===----------------------------------------------------------------------===//
#include "GpuTestUtil.h"
#include "kiln/Runtime/LayerNorm.h"
#include "gtest/gtest.h"
#include <algorithm>

using namespace kiln;
using namespace kiln::rt;
using namespace kiln::rt::test;

namespace {
constexpr float kEps = 1e-5f;
constexpr float kDropout = 0.25f;
/// Absolute error allowed in dx: this many fp32 ulps of the largest term
/// of its difference (see the check).
constexpr double kFp32FloorUlps = 32;

/// v rounded to the storage dtype t.
double roundTo(DType t, double v) { return HostArray(t, 1).set(0, v); }

struct Case {
  int64_t M, N;
  DType t;
  const char *opts; // "plain", "rms", "all", "allrms", "nobias"
};

NormOptions optionsOf(const Case &c) {
  NormOptions o;
  std::string s = c.opts;
  if (s == "rms" || s == "allrms") {
    o.rms = true;
    o.bias = false;
  }
  if (s == "nobias")
    o.bias = false;
  if (s == "all" || s == "allrms") {
    o.residual = o.rowScale = o.secondOutput = true;
    o.secondBias = !o.rms;
    o.dropoutP = kDropout;
    o.seed = uint32_t(c.N * 7 + c.M);
  }
  return o;
}

DeviceBuffer upload(Device &dev, const HostArray &h) {
  auto b = llvm::cantFail(
      DeviceBuffer::alloc(dev, std::max<size_t>(h.bytes.size(), 16)));
  llvm::Error e = b.copyFromHost(h.bytes.data(), h.bytes.size());
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return b;
}

DeviceBuffer poisoned(Device &dev, size_t bytes) {
  auto b =
      llvm::cantFail(DeviceBuffer::alloc(dev, std::max<size_t>(bytes, 16)));
  llvm::Error e = b.fill8(0xff);
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return b;
}

HostArray download(const DeviceBuffer &b, DType t, size_t count) {
  HostArray h(t, count);
  llvm::Error e = b.copyToHost(h.bytes.data(), h.bytes.size());
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return h;
}

/// Half the smallest subnormal of `t`: below the smallest normal the
/// spacing of stored values is absolute (fp16: 2^-24), so a correctly
/// rounded output may be that far from the exact value.
double storageFloor(DType t) {
  switch (t) {
  case DType::F16:
    return std::ldexp(1.0, -25);
  case DType::BF16:
    return std::ldexp(1.0, -134);
  default:
    return std::ldexp(1.0, -150);
  }
}

/// |got - want| <= tol * max |want| + floor + relUlp * |want| + the storage
/// floor of got's dtype, for every element (NaN fails).
void expectClose(const char *what, const HostArray &got,
                 const std::vector<double> &want, double tol, double relUlp,
                 double floor = 0, const std::vector<char> *skip = nullptr) {
  double scale = 1e-6;
  for (double v : want)
    scale = std::max(scale, std::fabs(v));
  double atol = tol * scale + floor + storageFloor(got.dtype);
  int bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (skip && (*skip)[i])
      continue;
    double g = got.get(i), err = std::fabs(g - want[i]);
    if (!(err <= atol + relUlp * std::fabs(want[i])) && bad++ < 5)
      ADD_FAILURE() << what << "[" << i << "] = " << g << ", reference "
                    << want[i] << " (allowed " << atol << ")";
  }
  if (bad > 5)
    ADD_FAILURE() << what << ": " << bad << " mismatches of " << want.size();
}

LayerNorm *sharedNorm(Device &dev) {
  static LayerNorm *ln = nullptr;
  if (!ln) {
    auto made = LayerNorm::create(dev.index());
    if (!made) {
      ADD_FAILURE() << llvm::toString(made.takeError());
      return nullptr;
    }
    ln = new LayerNorm(std::move(*made));
  }
  return ln;
}

void runCase(Device &dev, LayerNorm &ln, const Case &c, uint64_t seed) {
  const int64_t M = c.M, N = c.N;
  const DType t = c.t;
  const NormOptions o = optionsOf(c);
  const size_t MN = size_t(M * N);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform;
  HostArray x(t, MN), res(t, MN), dy(t, MN), dy1(t, MN), dres(t, MN);
  HostArray w(t, N), b(t, N), w1(t, N), b1(t, N), rs(DType::F32, M);
  for (size_t i = 0; i < MN; ++i) {
    x.set(i, -2.3 + 0.5 * normal(rng));
    res.set(i, normal(rng));
    dy.set(i, 0.1 * normal(rng));
    dy1.set(i, 0.1 * normal(rng));
    dres.set(i, 0.1 * normal(rng));
  }
  for (int64_t i = 0; i < N; ++i) {
    w.set(i, uniform(rng));
    b.set(i, uniform(rng));
    w1.set(i, uniform(rng));
    b1.set(i, uniform(rng));
  }
  for (int64_t i = 0; i < M; ++i)
    rs.set(i, 0.5 + uniform(rng));

  const size_t mb = MN * dtypeBytes(t), vb = N * dtypeBytes(t);
  DeviceBuffer dX = upload(dev, x), dRes = upload(dev, res),
               dDy = upload(dev, dy), dDy1 = upload(dev, dy1),
               dDres = upload(dev, dres), dW = upload(dev, w),
               dB = upload(dev, b), dW1 = upload(dev, w1),
               dB1 = upload(dev, b1), dRs = upload(dev, rs);
  DeviceBuffer dY = poisoned(dev, mb), dY1 = poisoned(dev, mb),
               dResOut = poisoned(dev, mb), dMean = poisoned(dev, M * 4),
               dRstd = poisoned(dev, M * 4), dDx = poisoned(dev, mb),
               dDresIn = poisoned(dev, mb), dDw = poisoned(dev, vb),
               dDb = poisoned(dev, vb), dDw1 = poisoned(dev, vb),
               dDb1 = poisoned(dev, vb);
  auto mat = [&](const DeviceBuffer &buf) {
    return DeviceMatrix{buf.ptr(), t, M, N, N};
  };
  auto vec = [&](const DeviceBuffer &buf) {
    return DeviceVector{buf.ptr(), t, N};
  };
  auto stat = [&](const DeviceBuffer &buf) {
    return DeviceVector{buf.ptr(), DType::F32, M};
  };
  NormForwardArgs fa{mat(dX),  mat(dRes),    vec(dW),     vec(dB),
                     vec(dW1), vec(dB1),     stat(dRs),   mat(dY),
                     mat(dY1), mat(dResOut), stat(dMean), stat(dRstd)};
  // With a workspace: the cooperative forward where the plan picks it
  // (100000 and 262144 columns, plain and RMS, fp16).
  NormWorkspace ws;
  llvm::Error e = ln.normForward(fa, o, ws);
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  NormBackwardArgs ba;
  ba.dy = mat(dDy);
  ba.x = o.writesResidualOut() ? mat(dResOut) : mat(dX);
  ba.dy1 = mat(dDy1);
  ba.dresidual = mat(dDres);
  ba.w = vec(dW);
  ba.b = vec(dB);
  ba.w1 = vec(dW1);
  ba.b1 = vec(dB1);
  ba.rowScale = stat(dRs);
  ba.mean = stat(dMean);
  ba.rstd = stat(dRstd);
  ba.dx = mat(dDx);
  ba.dresidualIn = mat(dDresIn);
  ba.dw = vec(dDw);
  ba.db = vec(dDb);
  ba.dw1 = vec(dDw1);
  ba.db1 = vec(dDb1);
  e = ln.normBackward(ba, o, ws);
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  e = dev.synchronize();
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));

  HostArray resOut =
      o.writesResidualOut() ? download(dResOut, t, MN) : HostArray();
  // Dropout's decisions, read back from residualOut.
  std::vector<char> keep(MN, 1), unknown(MN, 0);
  if (o.dropoutP > 0.f) {
    size_t kept = 0;
    for (size_t i = 0; i < MN; ++i) {
      // A dropped element is exactly the residual (or 0): h + 0 rounds to
      // the dtype value it came from. A kept x so small that the residual
      // absorbs it looks the same (seen once in bf16 at N = 262144): its
      // decision cannot be read back, so its dx is not checked.
      double base = o.residual ? res.get(i) : 0.0;
      keep[i] = resOut.get(i) != base;
      kept += keep[i];
      double h = x.get(i) * (o.rowScale ? rs.get(size_t(i) / size_t(N)) : 1.0);
      unknown[i] = !keep[i] && roundTo(t, base + h / (1.0 - double(o.dropoutP))) == base;
    }
    double p = 1.0 - o.dropoutP, n = double(MN);
    double sigma = std::sqrt(n * p * (1 - p));
    EXPECT_LE(std::fabs(double(kept) - n * p), 6 * sigma + 1)
        << kept << " of " << MN << " kept with p = " << o.dropoutP;
  }

  // fp64 reference.
  std::vector<double> y(MN), y1(MN), pre(MN), mean(M), rstd(M), dx(MN),
      dresIn(MN), dw(N, 0.0), db(N, 0.0), dw1(N, 0.0), db1(N, 0.0);
  std::vector<double> xhat(N), g(N);
  double dxTerm = 0, dresTerm = 0;
  for (int64_t r = 0; r < M; ++r) {
    const size_t row = size_t(r * N);
    double s = 0;
    for (int64_t cI = 0; cI < N; ++cI) {
      size_t i = row + cI;
      double h = x.get(i);
      if (o.rowScale)
        h *= rs.get(r);
      if (o.dropoutP > 0.f)
        h = keep[i] ? h / (1.0 - double(o.dropoutP)) : 0.0;
      if (o.residual)
        h += res.get(i);
      // The kernels normalise residualOut as stored (rounded to t), as
      // unfused `layer_norm(x + residual)` in t would; the backward reads
      // it back.
      if (o.writesResidualOut())
        h = roundTo(t, h);
      pre[i] = h;
      s += h;
    }
    double mu = o.rms ? 0.0 : s / N, var = 0;
    for (int64_t cI = 0; cI < N; ++cI)
      var += (pre[row + cI] - mu) * (pre[row + cI] - mu);
    var /= N;
    double rsd = 1.0 / std::sqrt(var + double(kEps));
    mean[r] = mu;
    rstd[r] = rsd;
    double c1 = 0, c2 = 0;
    for (int64_t cI = 0; cI < N; ++cI) {
      size_t i = row + cI;
      xhat[cI] = (pre[i] - mu) * rsd;
      y[i] = xhat[cI] * w.get(cI) + (o.bias ? b.get(cI) : 0.0);
      g[cI] = dy.get(i) * w.get(cI);
      dw[cI] += dy.get(i) * xhat[cI];
      db[cI] += dy.get(i);
      if (o.secondOutput) {
        y1[i] = xhat[cI] * w1.get(cI) + (o.secondBias ? b1.get(cI) : 0.0);
        g[cI] += dy1.get(i) * w1.get(cI);
        dw1[cI] += dy1.get(i) * xhat[cI];
        db1[cI] += dy1.get(i);
      }
      c1 += xhat[cI] * g[cI];
      c2 += g[cI];
    }
    c1 /= N;
    c2 = o.rms ? 0.0 : c2 / N;
    for (int64_t cI = 0; cI < N; ++cI) {
      size_t i = row + cI;
      double d = (g[cI] - (xhat[cI] * c1 + c2)) * rsd;
      // The largest term of that difference: fp32 leaves a few ulps of it
      // even where the terms cancel (a row without variance: dx = 0).
      double term = rsd * (std::fabs(g[cI]) + std::fabs(xhat[cI] * c1) +
                           std::fabs(c2));
      dresTerm = std::max(dresTerm, term);
      if (o.residual)
        d += dres.get(i);
      dresIn[i] = d;
      if (o.dropoutP > 0.f) {
        d = keep[i] ? d / (1.0 - double(o.dropoutP)) : 0.0;
        term = keep[i] ? term / (1.0 - double(o.dropoutP)) : 0.0;
      }
      if (o.rowScale) {
        d *= rs.get(r);
        term *= rs.get(r);
      }
      dx[i] = d;
      dxTerm = std::max(dxTerm, term);
    }
  }

  const double tol = t == DType::F32 ? 1e-4 : 1e-2, ulp = storageEpsilon(t);
  expectClose("y", download(dY, t, MN), y, tol, ulp);
  expectClose("rstd", download(dRstd, DType::F32, M), rstd, 1e-4, 1e-4);
  if (!o.rms)
    expectClose("mean", download(dMean, DType::F32, M), mean, 1e-4, 1e-4);
  if (o.writesResidualOut())
    expectClose("residualOut", resOut, pre, tol, ulp);
  if (o.secondOutput)
    expectClose("y1", download(dY1, t, MN), y1, tol, ulp);
  // dx = rstd * (g - (xhat * c1 + c2)) in fp32: allow kFp32FloorUlps fp32
  // ulps of its largest term (rstd = 1/sqrt(eps) ~ 316 when N = 1).
  const double u32 = std::ldexp(1.0, -24);
  expectClose("dx", download(dDx, t, MN), dx, tol, ulp,
              kFp32FloorUlps * u32 * dxTerm, &unknown);
  if (o.residual)
    expectClose("dresidualIn", download(dDresIn, t, MN), dresIn, tol, ulp,
                kFp32FloorUlps * u32 * dresTerm);
  HostArray gotDw = download(dDw, t, N);
  expectClose("dw", gotDw, dw, tol, ulp);
  HostArray gotDb;
  if (o.bias) {
    gotDb = download(dDb, t, N);
    expectClose("db", gotDb, db, tol, ulp);
  }
  if (o.secondOutput)
    expectClose("dw1", download(dDw1, t, N), dw1, tol, ulp);
  if (o.secondBias)
    expectClose("db1", download(dDb1, t, N), db1, tol, ulp);

  // Deterministic: the same dw/db bits on every run.
  int runs = MN <= (size_t(1) << 22) ? 20 : 3;
  for (int run = 1; run < runs; ++run) {
    e = ln.normBackward(ba, o, ws);
    ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
    EXPECT_EQ(download(dDw, t, N).bytes, gotDw.bytes) << "dw, run " << run;
    if (o.bias) {
      EXPECT_EQ(download(dDb, t, N).bytes, gotDb.bytes) << "db, run " << run;
    }
  }
}

std::vector<Case> allCases() {
  std::vector<Case> cases;
  struct Shape {
    int64_t M, N;
    bool allOptions;
  };
  for (DType t : {DType::F16, DType::BF16, DType::F32})
    for (Shape s :
         {Shape{1, 1, true}, Shape{3, 777, true}, Shape{7, 3000, true},
          Shape{64, 512, true}, Shape{1000, 1024, false}, Shape{33, 8192, true},
          Shape{17, 16384, true}, Shape{5, 16385, false},
          Shape{300, 20000, false}, Shape{4, 65537, true},
          Shape{3, 100000, false}, Shape{2, 262144, true}})
      for (const char *opts : {"plain", "rms", "nobias", "all", "allrms"}) {
        std::string os = opts;
        if (!s.allOptions && os != "plain" && os != "rms")
          continue;
        cases.push_back({s.M, s.N, t, opts});
      }
  return cases;
}

void PrintTo(const Case &c, std::ostream *os) {
  *os << dtypeName(c.t) << " [" << c.M << ", " << c.N << "] " << c.opts;
}

class LayerNormFusedGpu : public testing::TestWithParam<Case> {};
} // namespace

TEST_P(LayerNormFusedGpu, MatchesFp64Reference) {
  KILN_REQUIRE_GPU(dev);
  LayerNorm *ln = sharedNorm(dev);
  ASSERT_NE(ln, nullptr);
  const Case &c = GetParam();
  uint64_t seed = testSeed() ^ uint64_t(c.M * 1000003 + c.N * 31 + int(c.t));
  SCOPED_TRACE("seed " + std::to_string(seed) +
               " (KILN_TEST_SEED=" + std::to_string(testSeed()) + ")");
  runCase(dev, *ln, c, seed);
}

INSTANTIATE_TEST_SUITE_P(Shapes, LayerNormFusedGpu,
                         testing::ValuesIn(allCases()),
                         [](const testing::TestParamInfo<Case> &info) {
                           return std::string(dtypeName(info.param.t)) + "_" +
                                  std::to_string(info.param.M) + "x" +
                                  std::to_string(info.param.N) + "_" +
                                  info.param.opts;
                         });

TEST(RMSNormGpu, ForwardForcesRms) {
  KILN_REQUIRE_GPU(dev);
  auto rms = RMSNorm::create(dev.index());
  ASSERT_TRUE(bool(rms)) << llvm::toString(rms.takeError());
  const int64_t M = 4, N = 256;
  HostArray x(DType::F32, M * N), w(DType::F32, N);
  for (int64_t i = 0; i < M * N; ++i)
    x.set(i, double(i % 7) - 3.0);
  for (int64_t i = 0; i < N; ++i)
    w.set(i, 2.0);
  DeviceBuffer dX = upload(dev, x), dW = upload(dev, w);
  DeviceBuffer dY = poisoned(dev, M * N * 4), dR = poisoned(dev, M * 4);
  NormForwardArgs a;
  a.x = {dX.ptr(), DType::F32, M, N, N};
  a.w = {dW.ptr(), DType::F32, N};
  a.y = {dY.ptr(), DType::F32, M, N, N};
  a.rstd = {dR.ptr(), DType::F32, M};
  NormOptions o; // rms and bias come from RMSNorm
  o.bias = false;
  llvm::Error e = rms->forward(a, o);
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  e = dev.synchronize();
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  HostArray y = download(dY, DType::F32, M * N);
  for (int64_t r = 0; r < M; ++r) {
    double ss = 0;
    for (int64_t c = 0; c < N; ++c)
      ss += x.get(r * N + c) * x.get(r * N + c);
    double rsd = 1.0 / std::sqrt(ss / N + double(kEps));
    for (int64_t c = 0; c < N; ++c)
      EXPECT_NEAR(y.get(r * N + c), 2.0 * x.get(r * N + c) * rsd, 1e-5);
  }
}
