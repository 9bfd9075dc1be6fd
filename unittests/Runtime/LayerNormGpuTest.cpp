//===- LayerNormGpuTest.cpp - LayerNorm on a GPU vs an fp64 CPU reference -===//
//
// Inputs as in the Triton tutorial: x = -2.3 + 0.5 * randn, w, b = rand,
// dy = 0.1 * randn (rounded to the dtype; the reference uses the rounded
// values). Outputs are poisoned with NaN bit patterns (0xFF bytes) first, so
// an element the kernels never write fails the comparison; row padding of
// strided inputs holds NaN, so a kernel reading past N fails too.
//
// Tolerances (issue 5): y within 1e-2 absolute for fp16/bf16 and 1e-4 for
// fp32, plus half an ulp of the output dtype relative to |ref| (bf16 cannot
// store |y| >= 4 any closer than 0.0156); mean and rstd (fp32) within 1e-4
// absolute + 1e-4 relative; dx, dw, db within the same 1e-2 / 1e-4 times
// their scale (max |ref| of that tensor; for dx at least the size of the
// terms it is the difference of, which cancel exactly at N = 1) plus the same
// half ulp.
//
//===----------------------------------------------------------------------===//
#include "GpuTestUtil.h"
#include "kiln/Runtime/LayerNorm.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <fstream>

using namespace kiln;
using namespace kiln::rt;
using namespace kiln::rt::test;

namespace {
constexpr float kEps = 1e-5f;

int64_t maxN(DType t) { return 65536 / dtypeBytes(t); }

struct Problem {
  int64_t M, N, stride;
  DType t;
  HostArray x, w, b, dy;
};

/// Tutorial inputs; padding columns (stride > N) hold NaN.
Problem makeProblem(int64_t M, int64_t N, int64_t stride, DType t,
                    uint64_t seed) {
  Problem p{M, N, stride, t, {}, {}, {}, {}};
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform;
  size_t span = M == 0 ? 0 : size_t((M - 1) * stride + N);
  p.x = HostArray(t, span, 0xff);
  p.dy = HostArray(t, span, 0xff);
  p.w = HostArray(t, N);
  p.b = HostArray(t, N);
  for (int64_t r = 0; r < M; ++r)
    for (int64_t c = 0; c < N; ++c) {
      p.x.set(r * stride + c, -2.3 + 0.5 * normal(rng));
      p.dy.set(r * stride + c, 0.1 * normal(rng));
    }
  for (int64_t c = 0; c < N; ++c) {
    p.w.set(c, uniform(rng));
    p.b.set(c, uniform(rng));
  }
  return p;
}

struct Reference {
  std::vector<double> y, mean, rstd, dx, dw, db;
  /// max over elements of rstd * (|w dy| + |xhat c1| + |c2|): the size of the
  /// terms dx is the difference of. When they cancel (N = 1: dx is exactly 0)
  /// fp32 rounding of them, not |dx|, bounds the error.
  double dxTerms = 0;
};

Reference reference(const Problem &p) {
  Reference r;
  const int64_t M = p.M, N = p.N;
  r.y.resize(M * N);
  r.dx.resize(M * N);
  r.mean.resize(M);
  r.rstd.resize(M);
  r.dw.assign(N, 0.0);
  r.db.assign(N, 0.0);
  std::vector<double> xhat(N), wdy(N);
  for (int64_t i = 0; i < M; ++i) {
    const size_t row = size_t(i * p.stride);
    double sum = 0;
    for (int64_t c = 0; c < N; ++c)
      sum += p.x.get(row + c);
    double mean = sum / N, var = 0;
    for (int64_t c = 0; c < N; ++c) {
      double d = p.x.get(row + c) - mean;
      var += d * d;
    }
    var /= N;
    double rstd = 1.0 / std::sqrt(var + double(kEps));
    r.mean[i] = mean;
    r.rstd[i] = rstd;
    double c1 = 0, c2 = 0;
    for (int64_t c = 0; c < N; ++c) {
      xhat[c] = (p.x.get(row + c) - mean) * rstd;
      r.y[i * N + c] = xhat[c] * p.w.get(c) + p.b.get(c);
      double dy = p.dy.get(row + c);
      wdy[c] = p.w.get(c) * dy;
      c1 += xhat[c] * wdy[c];
      c2 += wdy[c];
      r.dw[c] += dy * xhat[c];
      r.db[c] += dy;
    }
    c1 /= N;
    c2 /= N;
    for (int64_t c = 0; c < N; ++c) {
      r.dx[i * N + c] = (wdy[c] - (xhat[c] * c1 + c2)) * rstd;
      r.dxTerms = std::max(r.dxTerms, (std::fabs(wdy[c]) + std::fabs(xhat[c] * c1) +
                                       std::fabs(c2)) * rstd);
    }
  }
  return r;
}

double scaleOf(const std::vector<double> &v) {
  double s = 0;
  for (double x : v)
    s = std::max(s, std::fabs(x));
  return std::max(s, 1e-6);
}

/// Compares out (rows x cols at `stride`) with ref (dense):
/// |out - ref| <= atol + rtol * |ref| everywhere (NaN fails). Also checks
/// that padding bytes still hold the 0xFF poison. Returns the max |error|.
double expectClose(const char *what, const HostArray &out, int64_t rows,
                   int64_t cols, int64_t stride, const std::vector<double> &ref,
                   double atol, double rtol) {
  double worst = 0;
  int reported = 0;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      double got = out.get(size_t(r * stride + c));
      double want = ref[size_t(r * cols + c)];
      double err = std::fabs(got - want);
      if (!(err <= atol + rtol * std::fabs(want))) {
        if (reported++ < 5)
          ADD_FAILURE() << what << "[" << r << ", " << c << "] = " << got
                        << ", reference " << want << " (error " << err
                        << ", allowed " << atol + rtol * std::fabs(want) << ")";
        worst = std::isnan(err) ? INFINITY : std::max(worst, err);
        continue;
      }
      worst = std::max(worst, err);
    }
    if (r + 1 < rows)
      for (int64_t c = cols; c < stride; ++c) {
        size_t bytes = dtypeBytes(out.dtype);
        size_t at = size_t(r * stride + c) * bytes;
        bool poisoned = std::all_of(out.bytes.begin() + at,
                                    out.bytes.begin() + at + bytes,
                                    [](uint8_t b) { return b == 0xff; });
        if (!poisoned && reported++ < 5)
          ADD_FAILURE() << what << ": padding element [" << r << ", " << c
                        << "] was overwritten";
      }
  }
  if (reported > 5)
    ADD_FAILURE() << what << ": " << reported << " mismatches in total";
  return worst;
}

DeviceBuffer upload(Device &dev, const HostArray &h) {
  auto b = DeviceBuffer::alloc(dev, std::max<size_t>(h.bytes.size(), 16));
  EXPECT_TRUE(bool(b));
  if (!b) {
    llvm::consumeError(b.takeError());
    return DeviceBuffer();
  }
  llvm::Error e = b->copyFromHost(h.bytes.data(), h.bytes.size());
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return std::move(*b);
}

HostArray download(const DeviceBuffer &b, DType t, size_t count) {
  HostArray h(t, count);
  llvm::Error e = b.copyToHost(h.bytes.data(), h.bytes.size());
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return h;
}

DeviceBuffer poisoned(Device &dev, size_t bytes) {
  auto b = DeviceBuffer::alloc(dev, std::max<size_t>(bytes, 16));
  EXPECT_TRUE(bool(b));
  if (!b) {
    llvm::consumeError(b.takeError());
    return DeviceBuffer();
  }
  llvm::Error e = b->fill8(0xff);
  EXPECT_FALSE(bool(e)) << llvm::toString(std::move(e));
  return std::move(*b);
}

/// Device copies of a problem and the output buffers.
struct DeviceProblem {
  DeviceBuffer x, w, b, dy, y, mean, rstd, dx, dw, db;
  DeviceMatrix X, Y, DY, DX;
  DeviceVector W, B, Mean, Rstd, DW, DB;
};

DeviceProblem toDevice(Device &dev, const Problem &p) {
  DeviceProblem d;
  size_t el = dtypeBytes(p.t);
  d.x = upload(dev, p.x);
  d.w = upload(dev, p.w);
  d.b = upload(dev, p.b);
  d.dy = upload(dev, p.dy);
  d.y = poisoned(dev, p.x.bytes.size());
  d.dx = poisoned(dev, p.x.bytes.size());
  d.mean = poisoned(dev, p.M * 4);
  d.rstd = poisoned(dev, p.M * 4);
  d.dw = poisoned(dev, p.N * el);
  d.db = poisoned(dev, p.N * el);
  d.X = {d.x.ptr(), p.t, p.M, p.N, p.stride};
  d.Y = {d.y.ptr(), p.t, p.M, p.N, p.stride};
  d.DY = {d.dy.ptr(), p.t, p.M, p.N, p.stride};
  d.DX = {d.dx.ptr(), p.t, p.M, p.N, p.stride};
  d.W = {d.w.ptr(), p.t, p.N};
  d.B = {d.b.ptr(), p.t, p.N};
  d.Mean = {d.mean.ptr(), DType::F32, p.M};
  d.Rstd = {d.rstd.ptr(), DType::F32, p.M};
  d.DW = {d.dw.ptr(), p.t, p.N};
  d.DB = {d.db.ptr(), p.t, p.N};
  return d;
}

double tolerance(DType t) { return t == DType::F32 ? 1e-4 : 1e-2; }

/// Runs forward and backward on `p` and checks everything.
void runAndCheck(Device &dev, LayerNorm &ln, const Problem &p) {
  Reference ref = reference(p);
  DeviceProblem d = toDevice(dev, p);
  LayerNormWorkspace ws;
  const double tol = tolerance(p.t), eps = storageEpsilon(p.t);
  llvm::Error e = ln.forwardInto(d.X, d.W, d.B, kEps, d.Y, d.Mean, d.Rstd);
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  e = ln.backwardInto(d.DY, d.X, d.W, d.B, d.Mean, d.Rstd, d.DX, d.DW, d.DB,
                      ws);
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  e = dev.synchronize();
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));

  size_t span = p.x.size();
  HostArray y = download(d.y, p.t, span), dx = download(d.dx, p.t, span);
  HostArray mean = download(d.mean, DType::F32, p.M);
  HostArray rstd = download(d.rstd, DType::F32, p.M);
  HostArray dw = download(d.dw, p.t, p.N), db = download(d.db, p.t, p.N);
  double ey = expectClose("y", y, p.M, p.N, p.stride, ref.y, tol, eps);
  double em = expectClose("mean", mean, 1, p.M, p.M, ref.mean, 1e-4, 1e-4);
  double er = expectClose("rstd", rstd, 1, p.M, p.M, ref.rstd, 1e-4, 1e-4);
  double sdx = std::max(scaleOf(ref.dx), ref.dxTerms);
  double sdw = scaleOf(ref.dw), sdb = scaleOf(ref.db);
  double edx =
      expectClose("dx", dx, p.M, p.N, p.stride, ref.dx, tol * sdx, eps);
  double edw = expectClose("dw", dw, 1, p.N, p.N, ref.dw, tol * sdw, eps);
  double edb = expectClose("db", db, 1, p.N, p.N, ref.db, tol * sdb, eps);
  std::printf("  %s M=%lld N=%lld stride=%lld: max |err| y %.3g mean %.3g "
              "rstd %.3g | dx %.3g (scale %.3g) dw %.3g (scale %.3g) db %.3g "
              "(scale %.3g)\n",
              dtypeName(p.t), (long long)p.M, (long long)p.N,
              (long long)p.stride, ey, em, er, edx, sdx, edw, sdw, edb, sdb);
}

struct Case {
  int64_t M, N;
  DType t;
};

void PrintTo(const Case &c, std::ostream *os) {
  *os << dtypeName(c.t) << " [" << c.M << ", " << c.N << "]";
}

std::vector<Case> allCases() {
  std::vector<Case> cases;
  for (DType t : {DType::F16, DType::BF16, DType::F32})
    for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{
             {1151, 8192}, {4096, 1024}, {1, 1}, {7, 3000}, {3, 777},
             {4096, 4096}, {200, maxN(t)}})
      cases.push_back({m, n, t});
  return cases;
}

class LayerNormGpu : public testing::TestWithParam<Case> {};

/// One LayerNorm for all tests (its kernels stay compiled); never destroyed,
/// so no device memory is freed from a static destructor.
LayerNorm *sharedLayerNorm(Device &dev) {
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
} // namespace

TEST_P(LayerNormGpu, ForwardAndBackwardMatchFp64Reference) {
  KILN_REQUIRE_GPU(dev);
  LayerNorm *ln = sharedLayerNorm(dev);
  ASSERT_NE(ln, nullptr);
  const Case &c = GetParam();
  uint64_t seed = testSeed() ^ uint64_t(c.M * 1000003 + c.N * 31 + int(c.t));
  SCOPED_TRACE("seed " + std::to_string(seed) + " (KILN_TEST_SEED=" +
               std::to_string(testSeed()) + ")");
  runAndCheck(dev, *ln, makeProblem(c.M, c.N, c.N, c.t, seed));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, LayerNormGpu, testing::ValuesIn(allCases()),
    [](const testing::TestParamInfo<Case> &info) {
      return std::string(dtypeName(info.param.t)) + "_" +
             std::to_string(info.param.M) + "x" + std::to_string(info.param.N);
    });

TEST(LayerNormGpuStride, RowStrideIsRespected) {
  KILN_REQUIRE_GPU(dev);
  LayerNorm *ln = sharedLayerNorm(dev);
  ASSERT_NE(ln, nullptr);
  // An aligned stride (a multiple of 16) and an odd one (unaligned rows).
  for (DType t : {DType::F16, DType::BF16, DType::F32})
    for (int64_t stride : {1040, 1003}) {
      SCOPED_TRACE(std::string(dtypeName(t)) + " stride " +
                   std::to_string(stride));
      runAndCheck(dev, *ln,
                  makeProblem(300, 1000, stride, t, testSeed() + stride));
    }
}

TEST(LayerNormGpuRepeat, BackwardIsRaceFreeOver20Runs) {
  KILN_REQUIRE_GPU(dev);
  LayerNorm *ln = sharedLayerNorm(dev);
  ASSERT_NE(ln, nullptr);
  for (DType t : {DType::F16, DType::BF16, DType::F32}) {
    SCOPED_TRACE(dtypeName(t));
    Problem p = makeProblem(4096, 1024, 1024, t, testSeed() + 77);
    Reference ref = reference(p);
    DeviceProblem d = toDevice(dev, p);
    LayerNormWorkspace ws;
    llvm::Error e = ln->forwardInto(d.X, d.W, d.B, kEps, d.Y, d.Mean, d.Rstd);
    ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
    const double tol = tolerance(t), eps = storageEpsilon(t);
    const double sdw = scaleOf(ref.dw), sdb = scaleOf(ref.db);
    HostArray firstDx, firstDw, firstDb;
    double spreadDw = 0, spreadDb = 0;
    for (int run = 0; run < 20; ++run) {
      for (DeviceBuffer *b : {&d.dx, &d.dw, &d.db})
        ASSERT_FALSE(bool(b->fill8(0xff)));
      e = ln->backwardInto(d.DY, d.X, d.W, d.B, d.Mean, d.Rstd, d.DX, d.DW,
                           d.DB, ws);
      ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
      HostArray dx = download(d.dx, t, p.x.size());
      HostArray dw = download(d.dw, t, p.N), db = download(d.db, t, p.N);
      expectClose("dw", dw, 1, p.N, p.N, ref.dw, tol * sdw, eps);
      expectClose("db", db, 1, p.N, p.N, ref.db, tol * sdb, eps);
      if (run == 0) {
        firstDx = dx;
        firstDw = dw;
        firstDb = db;
        continue;
      }
      // dx does not depend on the order rows take the locks: bit-identical.
      ASSERT_EQ(dx.bytes, firstDx.bytes) << "dx changed in run " << run;
      for (int64_t c = 0; c < p.N; ++c) {
        spreadDw = std::max(spreadDw, std::fabs(dw.get(c) - firstDw.get(c)));
        spreadDb = std::max(spreadDb, std::fabs(db.get(c) - firstDb.get(c)));
      }
    }
    // Rows take the locks in any order, so the 16-bit partial sums round
    // differently from run to run; each run is within tol of the reference
    // (checked above), so two runs differ by at most twice that. A race
    // shows as garbage against the reference or as a changed dx.
    EXPECT_LE(spreadDw, 2 * tol * sdw);
    EXPECT_LE(spreadDb, 2 * tol * sdb);
    std::printf("  %s 4096x1024, 20 backward runs: max run-to-run change dw "
                "%.3g (scale %.3g), db %.3g (scale %.3g)\n",
                dtypeName(t), spreadDw, sdw, spreadDb, sdb);
  }
}

TEST(LayerNormGpuErrors, ApiChecksNameTheOperand) {
  KILN_REQUIRE_GPU(dev);
  LayerNorm *ln = sharedLayerNorm(dev);
  ASSERT_NE(ln, nullptr);
  Problem p = makeProblem(4, 64, 64, DType::F16, 1);
  DeviceProblem d = toDevice(dev, p);
  auto text = [](llvm::Error e) {
    return e ? llvm::toString(std::move(e)) : std::string();
  };
  DeviceMatrix wide = d.X;
  wide.cols = wide.stride = 32769;
  EXPECT_EQ(text(ln->forwardInto(wide, d.W, d.B, kEps, d.Y, d.Mean, d.Rstd)),
            "layer_norm: N = 32769 is above the limit of 32768 fp16 elements "
            "(64 KB) per row; larger rows are not supported yet");
  DeviceVector w32 = d.W;
  w32.dtype = DType::F32;
  EXPECT_EQ(text(ln->forwardInto(d.X, w32, d.B, kEps, d.Y, d.Mean, d.Rstd)),
            "layer_norm: `w` is [64] fp32; expected [64] fp16");
  DeviceVector meanHalf = d.Mean;
  meanHalf.dtype = DType::F16;
  EXPECT_EQ(text(ln->forwardInto(d.X, d.W, d.B, kEps, d.Y, meanHalf, d.Rstd)),
            "layer_norm: `mean` is [4] fp16; expected [4] fp32");
  DeviceMatrix dyStrided = d.DY;
  dyStrided.stride = 80;
  LayerNormWorkspace ws;
  EXPECT_EQ(text(ln->backwardInto(dyStrided, d.X, d.W, d.B, d.Mean, d.Rstd,
                                  d.DX, d.DW, d.DB, ws)),
            "layer_norm: `dy` has row stride 80 but x has 64; the kernels "
            "address x, y, dy and dx with one stride");
  DeviceMatrix nullX = d.X;
  nullX.ptr = 0;
  EXPECT_EQ(text(ln->forwardInto(nullX, d.W, d.B, kEps, d.Y, d.Mean, d.Rstd)),
            "layer_norm: `x` is a null pointer");
}

TEST(LayerNormGpuErrors, KernelLaunchErrorsNameTheParameter) {
  KILN_REQUIRE_GPU(dev);
  LayerNorm *ln = sharedLayerNorm(dev);
  ASSERT_NE(ln, nullptr);
  Problem p = makeProblem(4, 64, 64, DType::F16, 2);
  DeviceProblem d = toDevice(dev, p);
  Kernel &fwd = ln->forwardKernel();
  LaunchOptions opts;
  opts.numWarps = 1;
  opts.constexprs.emplace("BLOCK_SIZE", 64);
  DType t = DType::F16;
  std::vector<Arg> args = {Arg::ptr(d.x.ptr(), t),    Arg::ptr(d.y.ptr(), t),
                           Arg::ptr(d.w.ptr(), t),    Arg::ptr(d.b.ptr(), t),
                           Arg::ptr(d.mean.ptr(), DType::F32),
                           Arg::ptr(d.rstd.ptr(), DType::F32),
                           Arg::integer(64),          Arg::integer(64),
                           Arg::f32(kEps)};
  auto text = [](llvm::Error e) {
    return e ? llvm::toString(std::move(e)) : std::string();
  };
  std::vector<Arg> fewer(args.begin(), args.end() - 1);
  EXPECT_EQ(text(fwd.launch(Grid(4), fewer, opts)),
            "kernel `_layer_norm_fwd_fused` takes 9 argument(s) (X, Y, W, B, "
            "Mean, Rstd, stride, N, eps) but 8 were given: missing `eps` "
            "(argument #9)");
  std::vector<Arg> nullX = args;
  nullX[0] = Arg::ptr(0, t);
  EXPECT_EQ(text(fwd.launch(Grid(4), nullX, opts)),
            "kernel `_layer_norm_fwd_fused`: argument #1 `X` is a null device "
            "pointer");
  // The compiled kernel, launched ahead-of-time style, rejects a wrong dtype.
  auto compiled = fwd.prepare(args, opts);
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  Kernel aot = Kernel::fromCompiled(*compiled);
  std::vector<Arg> wrong = args;
  wrong[2] = Arg::ptr(d.w.ptr(), DType::F32);
  EXPECT_EQ(text(aot.launch(Grid(4), wrong)),
            "kernel `_layer_norm_fwd_fused`: argument #3 `W`: expected a "
            "pointer to fp16, got a pointer to fp32");
  EXPECT_EQ(text(aot.launch(Grid(4), args)), "");
  EXPECT_EQ(text(fwd.launch(Grid(4), args, opts)), "");
  EXPECT_FALSE(bool(dev.synchronize()));
}

namespace {
struct TempDir {
  llvm::SmallString<128> path;
  TempDir() { llvm::sys::fs::createUniqueDirectory("kiln-gpu-cache", path); }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string str() const { return std::string(path); }
};

std::vector<std::string> entries(const std::string &dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir, ec), end;
       it != end && !ec; it.increment(ec))
    if (it->type() == llvm::sys::fs::file_type::regular_file)
      out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string slurp(const std::string &path) {
  auto b = llvm::MemoryBuffer::getFile(path, false, false);
  return b ? (*b)->getBuffer().str() : "";
}
} // namespace

TEST(LayerNormGpuCache, CorruptEntriesAreDetectedAndRecompiled) {
  KILN_REQUIRE_GPU(dev);
  TempDir dir;
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), true};
  auto made = LayerNorm::create(dev.index(), std::move(mo));
  ASSERT_TRUE(bool(made)) << llvm::toString(made.takeError());
  LayerNorm &ln = *made;
  Problem p = makeProblem(64, 512, 512, DType::F16, testSeed() + 5);
  DeviceProblem d = toDevice(dev, p);
  DType t = DType::F16;
  std::vector<Arg> args = {Arg::ptr(d.x.ptr(), t),    Arg::ptr(d.y.ptr(), t),
                           Arg::ptr(d.w.ptr(), t),    Arg::ptr(d.b.ptr(), t),
                           Arg::ptr(d.mean.ptr(), DType::F32),
                           Arg::ptr(d.rstd.ptr(), DType::F32),
                           Arg::integer(512),         Arg::integer(512),
                           Arg::f32(kEps)};
  LaunchOptions opts;
  opts.numWarps = 2;
  opts.constexprs.emplace("BLOCK_SIZE", 512);

  clearMemoryCaches();
  PrepareStats st;
  auto c1 = ln.forwardKernel().prepare(args, opts, &st);
  ASSERT_TRUE(bool(c1)) << llvm::toString(c1.takeError());
  EXPECT_EQ(st.ptxFrom, PrepareStats::From::Compiler);
  EXPECT_FALSE(st.cubinFromDisk);
  std::vector<std::string> files = entries(dir.str());
  ASSERT_EQ(files.size(), 2u); // <key>.kernel and <cubin key>.cubin
  std::map<std::string, std::string> good;
  for (const std::string &f : files) {
    good[f] = slurp(f);
    // No paths inside: not the cache folder, not the kernel file's folder.
    EXPECT_EQ(good[f].find(dir.str()), std::string::npos) << f;
    EXPECT_EQ(good[f].find("examples/layernorm"), std::string::npos) << f;
  }

  // Warm: both come from disk.
  clearMemoryCaches();
  ASSERT_TRUE(bool(ln.forwardKernel().prepare(args, opts, &st)));
  EXPECT_EQ(st.ptxFrom, PrepareStats::From::Disk);
  EXPECT_TRUE(st.cubinFromDisk);

  // Damage every entry: truncate the kernel entry, flip a byte of the cubin.
  for (const std::string &f : files) {
    std::string bytes = good[f];
    if (llvm::StringRef(f).ends_with(".kernel"))
      bytes.resize(bytes.size() / 2);
    else
      bytes[bytes.size() - 100] ^= 0x40;
    std::ofstream(f, std::ios::binary | std::ios::trunc) << bytes;
  }
  clearMemoryCaches();
  testing::internal::CaptureStderr();
  auto c2 = ln.forwardKernel().prepare(args, opts, &st);
  std::string log = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(bool(c2)) << llvm::toString(c2.takeError());
  EXPECT_EQ(st.ptxFrom, PrepareStats::From::Compiler) << log;
  EXPECT_FALSE(st.cubinFromDisk) << log;
  EXPECT_NE(log.find("corrupt entry"), std::string::npos) << log;
  EXPECT_NE(log.find("truncated"), std::string::npos) << log;
  EXPECT_NE(log.find("checksum mismatch"), std::string::npos) << log;
  // Rewritten whole, and the kernel still computes the right thing.
  for (const std::string &f : files) {
    llvm::StringRef name = llvm::sys::path::filename(f);
    auto [key, kind] = name.split('.');
    auto entry = decodeCacheEntry(slurp(f), kind, key);
    EXPECT_TRUE(bool(entry)) << f << ": " << llvm::toString(entry.takeError());
  }
  LayerNorm::ForwardResult r;
  {
    auto fr = ln.forward(d.X, d.W, d.B, kEps);
    ASSERT_TRUE(bool(fr)) << llvm::toString(fr.takeError());
    r = std::move(*fr);
  }
  HostArray y = download(r.yBuffer, t, p.x.size());
  Reference ref = reference(p);
  expectClose("y", y, p.M, p.N, p.N, ref.y, 1e-2, storageEpsilon(t));
}
