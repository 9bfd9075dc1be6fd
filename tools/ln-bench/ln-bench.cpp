//===- ln-bench.cpp - Time Kiln's LayerNorm kernels on a GPU --------------===//
//
// For each dtype and shape: forward and whole backward (zeroing of locks and
// partial sums, _layer_norm_bwd_dx_fused, _layer_norm_bwd_dwdb) timed with
// CUDA events after a warm-up, the L2 flushed before every repetition by
// writing a 256 MB buffer (as triton.testing.do_bench does), median of the
// repetitions. GB/s as in the Triton tutorial: 2*M*N*elsize / t forward,
// 3*M*N*elsize / t backward. Also the cold (empty cache) and warm (disk
// cache) compile time of each kernel and the host cost of a launch.
// Results go to stdout and, with --json, to a JSON file that
// bench/compare_triton.py reads.
//
//===----------------------------------------------------------------------===//
#include "Options.h"
#include "kiln/Runtime/HalfFloat.h"
#include "kiln/Runtime/LayerNorm.h"
#include "kiln/Target/BuiltinKernels.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <map>
#include <random>

using namespace kiln;
using namespace kiln::rt;
using namespace kiln::lnbench;

namespace {

constexpr size_t kFlushBytes = size_t(256) << 20;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Event timing of fn with an L2 flush before every repetition.
class Timer {
public:
  static llvm::Expected<Timer> create(Device &dev, CUstream stream, int reps,
                                      int warmup) {
    Timer t(dev, stream, reps, warmup);
    auto flush = DeviceBuffer::alloc(dev, kFlushBytes);
    if (!flush)
      return flush.takeError();
    t.flush_ = std::move(*flush);
    for (int i = 0; i < 2 * reps; ++i) {
      auto e = Event::create(dev);
      if (!e)
        return e.takeError();
      t.events_.push_back(std::move(*e));
    }
    return t;
  }

  struct Result {
    double medianMs = 0, minMs = 0;
  };

  llvm::Expected<Result> time(const std::function<llvm::Error()> &fn) {
    for (int i = 0; i < warmup_; ++i)
      if (auto e = fn())
        return std::move(e);
    for (int r = 0; r < reps_; ++r) {
      if (auto e = flush_.fill8(uint8_t(r), stream_))
        return std::move(e);
      if (auto e = events_[2 * r].record(stream_))
        return std::move(e);
      if (auto e = fn())
        return std::move(e);
      if (auto e = events_[2 * r + 1].record(stream_))
        return std::move(e);
    }
    std::vector<double> ms;
    for (int r = 0; r < reps_; ++r) {
      auto t = Event::elapsedMs(events_[2 * r], events_[2 * r + 1]);
      if (!t)
        return t.takeError();
      ms.push_back(*t);
    }
    return Result{median(ms), *std::min_element(ms.begin(), ms.end())};
  }

private:
  Timer(Device &d, CUstream s, int reps, int warmup)
      : dev_(&d), stream_(s), reps_(reps), warmup_(warmup) {}
  Device *dev_;
  CUstream stream_;
  int reps_, warmup_;
  DeviceBuffer flush_;
  std::vector<Event> events_;
};

/// Random rows (tutorial distributions) uploaded once and tiled over the
/// whole matrix on the device: realistic values without generating
/// hundreds of millions of numbers on the host.
llvm::Error fillRandom(Device &dev, DeviceBuffer &buf, DType t, int64_t M,
                       int64_t N, double offset, double scale, bool uniform,
                       uint64_t seed) {
  const int64_t rows = std::min<int64_t>(M, 64);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unif;
  size_t el = dtypeBytes(t);
  std::vector<uint8_t> host(size_t(rows * N) * el);
  for (int64_t i = 0; i < rows * N; ++i) {
    float v = float(offset + scale * (uniform ? unif(rng) : normal(rng)));
    if (t == DType::F32) {
      std::memcpy(&host[i * 4], &v, 4);
    } else {
      uint16_t h = t == DType::F16 ? floatToHalf(v) : floatToBF16(v);
      std::memcpy(&host[i * 2], &h, 2);
    }
  }
  if (auto e = buf.copyFromHost(host.data(), host.size()))
    return e;
  const Driver &drv = dev.driver();
  size_t done = host.size(), total = size_t(M * N) * el;
  while (done < total) {
    size_t chunk = std::min(done, total - done);
    if (auto e = drv.check(drv.cuMemcpyDtoD(buf.ptr() + done, buf.ptr(), chunk),
                           "cuMemcpyDtoD"))
      return e;
    done += chunk;
  }
  return llvm::Error::success();
}

struct Buffers {
  DeviceBuffer x, y, w, b, mean, rstd, dy, dx, dw, db;
  DeviceMatrix X, Y, DY, DX;
  DeviceVector W, B, Mean, Rstd, DW, DB;
};

llvm::Expected<Buffers> makeBuffers(Device &dev, DType t, int64_t M,
                                    int64_t N) {
  Buffers bf;
  size_t el = dtypeBytes(t), mat = size_t(M * N) * el, vec = size_t(N) * el;
  std::pair<DeviceBuffer *, size_t> all[] = {
      {&bf.x, mat},         {&bf.y, mat},         {&bf.dy, mat},
      {&bf.dx, mat},        {&bf.w, vec},         {&bf.b, vec},
      {&bf.dw, vec},        {&bf.db, vec},        {&bf.mean, size_t(M) * 4},
      {&bf.rstd, size_t(M) * 4}};
  for (auto &[buf, bytes] : all) {
    auto a = DeviceBuffer::alloc(dev, bytes);
    if (!a)
      return a.takeError();
    *buf = std::move(*a);
  }
  if (auto e = fillRandom(dev, bf.x, t, M, N, -2.3, 0.5, false, 1))
    return std::move(e);
  if (auto e = fillRandom(dev, bf.dy, t, M, N, 0.0, 0.1, false, 2))
    return std::move(e);
  if (auto e = fillRandom(dev, bf.w, t, 1, N, 0.0, 1.0, true, 3))
    return std::move(e);
  if (auto e = fillRandom(dev, bf.b, t, 1, N, 0.0, 1.0, true, 4))
    return std::move(e);
  bf.X = {bf.x.ptr(), t, M, N, N};
  bf.Y = {bf.y.ptr(), t, M, N, N};
  bf.DY = {bf.dy.ptr(), t, M, N, N};
  bf.DX = {bf.dx.ptr(), t, M, N, N};
  bf.W = {bf.w.ptr(), t, N};
  bf.B = {bf.b.ptr(), t, N};
  bf.DW = {bf.dw.ptr(), t, N};
  bf.DB = {bf.db.ptr(), t, N};
  bf.Mean = {bf.mean.ptr(), DType::F32, M};
  bf.Rstd = {bf.rstd.ptr(), DType::F32, M};
  return bf;
}

std::string isoDate() {
  std::time_t now = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buf;
}

/// Device addresses of every operand of the three kernels.
struct Pointers {
  CUdeviceptr x, y, w, b, mean, rstd, dy, dx, dw, db, locks, partialDw,
      partialDb;
};

Pointers pointersOf(const Buffers &bf, const LayerNormWorkspace &ws) {
  return {bf.x.ptr(),  bf.y.ptr(),  bf.w.ptr(),        bf.b.ptr(),
          bf.mean.ptr(), bf.rstd.ptr(), bf.dy.ptr(),   bf.dx.ptr(),
          bf.dw.ptr(), bf.db.ptr(), ws.locks.ptr(), ws.partialDw.ptr(),
          ws.partialDb.ptr()};
}

/// Arguments and options of each kernel for one shape, exactly as
/// LayerNorm::forwardInto / backwardInto launch them.
struct KernelCall {
  const char *kernel;
  std::vector<Arg> args;
  LaunchOptions options;
};

std::vector<KernelCall> kernelCalls(const Pointers &p, DType t, int64_t M,
                                    int64_t N) {
  auto f = layerNormForwardConfig(N, t);
  auto b = layerNormBackwardConfig(N, t);
  if (!f || !b) {
    llvm::consumeError(f.takeError());
    llvm::consumeError(b.takeError());
    return {};
  }
  KernelCall fwd{"_layer_norm_fwd_fused",
                 {Arg::ptr(p.x, t), Arg::ptr(p.y, t), Arg::ptr(p.w, t),
                  Arg::ptr(p.b, t), Arg::ptr(p.mean, DType::F32),
                  Arg::ptr(p.rstd, DType::F32), Arg::integer(N),
                  Arg::integer(N), Arg::f32(1e-5f)},
                 f->launchOptions()};
  KernelCall dx{"_layer_norm_bwd_dx_fused",
                {Arg::ptr(p.dx, t), Arg::ptr(p.dy, t), Arg::ptr(p.partialDw, t),
                 Arg::ptr(p.partialDb, t), Arg::ptr(p.x, t), Arg::ptr(p.w, t),
                 Arg::ptr(p.mean, DType::F32), Arg::ptr(p.rstd, DType::F32),
                 Arg::ptr(p.locks, DType::I32), Arg::integer(N),
                 Arg::integer(N)},
                b->dxLaunchOptions()};
  KernelCall dwdb{"_layer_norm_bwd_dwdb",
                  {Arg::ptr(p.partialDw, t), Arg::ptr(p.partialDb, t),
                   Arg::ptr(p.dw, t), Arg::ptr(p.db, t),
                   Arg::integer(std::min<int64_t>(b->groupSizeM, M)),
                   Arg::integer(N)},
                  b->dwdbLaunchOptions()};
  return {fwd, dx, dwdb};
}

Kernel &kernelOf(LayerNorm &ln, const char *name) {
  llvm::StringRef n = name;
  return n == "_layer_norm_fwd_fused"      ? ln.forwardKernel()
         : n == "_layer_norm_bwd_dx_fused" ? ln.backwardDxKernel()
                                           : ln.backwardDwDbKernel();
}

/// Cold (empty cache dir, nothing in memory) and warm (disk cache) times of
/// compiling and loading each kernel for one shape.
llvm::Expected<llvm::json::Array> compileTimes(Device &dev, DType t, int64_t M,
                                               int64_t N) {
  llvm::SmallString<128> dir;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("ln-bench-cache", dir))
    return llvm::createStringError(ec, "cannot create a cache folder");
  ModuleOptions mo;
  mo.cache = CacheConfig{true, std::string(dir), false};
  auto ln = LayerNorm::create(dev.index(), std::move(mo));
  if (!ln)
    return ln.takeError();
  auto bf = makeBuffers(dev, t, std::min<int64_t>(M, 256), N);
  if (!bf)
    return bf.takeError();
  // A backward call sizes the workspace so the calls below see real buffers.
  LayerNormWorkspace ws;
  if (auto e = ln->backwardInto(bf->DY, bf->X, bf->W, bf->B, bf->Mean,
                                bf->Rstd, bf->DX, bf->DW, bf->DB, ws))
    return std::move(e);
  llvm::json::Array out;
  for (KernelCall &c : kernelCalls(pointersOf(*bf, ws), t, M, N)) {
    Kernel &kernel = kernelOf(*ln, c.kernel);
    PrepareStats cold, warm, memory;
    clearMemoryCaches();
    llvm::sys::fs::remove_directories(dir);
    auto ck = kernel.prepare(c.args, c.options, &cold);
    if (!ck)
      return ck.takeError();
    llvm::json::Object stages;
    for (auto [stage, ms] : ck->stageMillis)
      stages[stageName(stage)] = ms;
    clearMemoryCaches();
    auto w = kernel.prepare(c.args, c.options, &warm);
    if (!w)
      return w.takeError();
    auto m = kernel.prepare(c.args, c.options, &memory);
    if (!m)
      return m.takeError();
    auto tm0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i)
      if (auto e = kernel.prepare(c.args, c.options).takeError())
        return std::move(e);
    double lookupUs = std::chrono::duration<double, std::micro>(
                          std::chrono::steady_clock::now() - tm0)
                          .count() /
                      1000;
    out.push_back(llvm::json::Object{
        {"kernel", c.kernel},
        {"dtype", dtypeName(t)},
        {"N", N},
        {"cold_ms", cold.totalMs},
        {"cold_compile_ms", cold.compileMs},
        {"cold_jit_ms", cold.jitMs},
        {"cold_load_ms", cold.loadMs},
        {"stages_ms", std::move(stages)},
        {"warm_ms", warm.totalMs},
        {"warm_from_disk", warm.ptxFrom == PrepareStats::From::Disk &&
                               warm.cubinFromDisk},
        {"memory_lookup_us", lookupUs}});
    std::printf("  %-26s %s N=%-6lld cold %8.2f ms (compile %7.2f, driver JIT "
                "%7.2f, load %5.2f)  warm %6.2f ms  in-memory %5.2f us\n",
                c.kernel, dtypeName(t), (long long)N,
                cold.totalMs, cold.compileMs, cold.jitMs, cold.loadMs,
                warm.totalMs, lookupUs);
  }
  clearMemoryCaches();
  llvm::sys::fs::remove_directories(dir);
  return out;
}

const char *kEmptyPTX = ".version 8.0\n.target sm_80\n.address_size 64\n"
                        ".visible .entry kiln_empty()\n{\n\tret;\n}\n";

/// Host microseconds per call of `fn`, median over batches of 100 calls.
template <typename Fn>
llvm::Expected<double> hostMicros(Device &dev, Fn fn) {
  std::vector<double> per;
  for (int batch = 0; batch < 21; ++batch) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 100; ++i)
      if (auto e = fn())
        return std::move(e);
    double us = std::chrono::duration<double, std::micro>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
    if (auto e = dev.synchronize())
      return std::move(e);
    if (batch > 0) // The first batch warms caches.
      per.push_back(us / 100);
  }
  return median(per);
}

llvm::Expected<llvm::json::Object> launchOverhead(Device &dev, LayerNorm &ln,
                                                  CUstream stream) {
  const DType t = DType::F16;
  const int64_t M = 1, N = 1024;
  auto bf = makeBuffers(dev, t, M, N);
  if (!bf)
    return bf.takeError();
  LayerNormWorkspace ws;
  if (auto e = ln.backwardInto(bf->DY, bf->X, bf->W, bf->B, bf->Mean,
                               bf->Rstd, bf->DX, bf->DW, bf->DB, ws, stream))
    return std::move(e);
  std::vector<KernelCall> calls = kernelCalls(pointersOf(*bf, ws), t, M, N);
  KernelCall &fwd = calls[0];
  fwd.options.stream = stream;
  Kernel &fwdKernel = ln.forwardKernel();
  CompiledKernel empty;
  empty.info.name = "kiln_empty";
  empty.info.numWarps = 1;
  empty.ptx = kEmptyPTX;
  Kernel emptyKernel = Kernel::fromCompiled(empty);
  LaunchOptions emptyOpts;
  emptyOpts.stream = stream;

  auto e1 = hostMicros(dev, [&] {
    return emptyKernel.launch(Grid(1), {}, emptyOpts);
  });
  if (!e1)
    return e1.takeError();
  auto e2 = hostMicros(dev, [&] {
    return fwdKernel.launch(Grid(uint32_t(M)), fwd.args, fwd.options);
  });
  if (!e2)
    return e2.takeError();
  auto e3 = hostMicros(dev, [&] {
    return ln.forwardInto(bf->X, bf->W, bf->B, 1e-5f, bf->Y, bf->Mean,
                          bf->Rstd, stream);
  });
  if (!e3)
    return e3.takeError();
  auto e4 = hostMicros(dev, [&] {
    return ln.backwardInto(bf->DY, bf->X, bf->W, bf->B, bf->Mean, bf->Rstd,
                           bf->DX, bf->DW, bf->DB, ws, stream);
  });
  if (!e4)
    return e4.takeError();
  std::printf("\nHost launch overhead (us per call, median of 20 x 100):\n"
              "  empty kernel, no arguments (Kernel::launch)   %6.2f\n"
              "  _layer_norm_fwd_fused, 9 args (Kernel::launch) %6.2f\n"
              "  LayerNorm::forwardInto (checks + 1 launch)     %6.2f\n"
              "  LayerNorm::backwardInto (3 memsets + 2 launches) %6.2f\n",
              *e1, *e2, *e3, *e4);
  return llvm::json::Object{{"empty_kernel_us", *e1},
                            {"fwd_kernel_launch_us", *e2},
                            {"layer_norm_forward_us", *e3},
                            {"layer_norm_backward_us", *e4}};
}

bool writeJson(const std::string &path, llvm::json::Object doc) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "ln-bench: cannot write " << path << ": " << ec.message()
                 << "\n";
    return false;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc))) << "\n";
  std::printf("\nwrote %s\n", path.c_str());
  return true;
}

/// --compile-only: every specialization the sweep launches, compiled for
/// `arch` into a fresh cache, without a GPU (addresses are made up but
/// 16-byte aligned, as cuMemAlloc's are).
int runCompileOnly(const Options &o) {
  llvm::SmallString<128> dir;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("ln-bench-cache", dir)) {
    llvm::errs() << "ln-bench: cannot create a cache folder: " << ec.message()
                 << "\n";
    return 1;
  }
  ModuleOptions mo;
  mo.cache = CacheConfig{true, std::string(dir), false};
  Module m = Module::fromSource(builtinLayerNormSource().str(),
                                kBuiltinLayerNormName, std::move(mo));
  std::map<std::string, Kernel> kernels;
  for (const char *name : {"_layer_norm_fwd_fused", "_layer_norm_bwd_dx_fused",
                           "_layer_norm_bwd_dwdb"}) {
    auto k = m.kernel(name);
    if (!k) {
      llvm::errs() << "ln-bench: " << llvm::toString(k.takeError()) << "\n";
      return 1;
    }
    kernels.emplace(name, std::move(*k));
  }
  Pointers p;
  CUdeviceptr *slots[] = {&p.x,  &p.y,  &p.w,  &p.b,     &p.mean,
                          &p.rstd, &p.dy, &p.dx, &p.dw,  &p.db,
                          &p.locks, &p.partialDw, &p.partialDb};
  for (size_t i = 0; i < std::size(slots); ++i)
    *slots[i] = 0x7f0000000000ull + (CUdeviceptr(i) << 32);

  std::printf("ln-bench --compile-only: %s, Kiln %s\n", o.arch.c_str(),
              kilnBuildVersion().c_str());
  int failures = 0;
  llvm::json::Array compiles;
  std::map<std::string, std::vector<double>> perKernel;
  for (DType t : o.dtypes)
    for (auto [M, N] : o.shapes)
      for (KernelCall &c : kernelCalls(p, t, M, N)) {
        PrepareStats st;
        auto ck = kernels.at(c.kernel).compileFor(o.arch, c.args, c.options,
                                                  &st);
        if (!ck) {
          std::string msg = llvm::toString(ck.takeError());
          std::printf("%-26s %s M=%lld N=%lld: error: %s\n", c.kernel,
                      dtypeName(t), (long long)M, (long long)N, msg.c_str());
          compiles.push_back(llvm::json::Object{{"kernel", c.kernel},
                                                {"dtype", dtypeName(t)},
                                                {"M", M},
                                                {"N", N},
                                                {"error", msg}});
          ++failures;
          continue;
        }
        if (st.ptxFrom != PrepareStats::From::Compiler)
          continue; // Same variant as an earlier shape.
        llvm::json::Object stages;
        std::string stageText;
        for (auto [stage, ms] : (*ck)->stageMillis) {
          stages[stageName(stage)] = ms;
          stageText += llvm::formatv(" {0} {1:f1}", stageName(stage), ms);
        }
        perKernel[c.kernel].push_back(st.compileMs);
        std::printf("%-26s %s N=%-6lld %8.2f ms  (%s) ptx %zu bytes, smem "
                    "%u\n",
                    c.kernel, dtypeName(t), (long long)N, st.compileMs,
                    llvm::StringRef(stageText).trim().str().c_str(),
                    (*ck)->ptx.size(), (*ck)->info.sharedBytes);
        compiles.push_back(llvm::json::Object{
            {"kernel", c.kernel},
            {"dtype", dtypeName(t)},
            {"M", M},
            {"N", N},
            {"compile_ms", st.compileMs},
            {"stages_ms", std::move(stages)},
            {"ptx_bytes", int64_t((*ck)->ptx.size())},
            {"shared_bytes", (*ck)->info.sharedBytes}});
      }
  std::printf("\nvariants compiled, median compile time:\n");
  for (auto &[k, v] : perKernel)
    std::printf("  %-26s %3zu variants, median %.2f ms\n", k.c_str(), v.size(),
                median(v));
  llvm::sys::fs::remove_directories(dir);
  if (!o.jsonPath.empty() &&
      !writeJson(o.jsonPath, llvm::json::Object{{"tool", "ln-bench"},
                                                {"mode", "compile-only"},
                                                {"arch", o.arch},
                                                {"kiln_version",
                                                 kilnBuildVersion()},
                                                {"date", isoDate()},
                                                {"compiles",
                                                 std::move(compiles)}}))
    return 1;
  if (failures)
    std::printf("\nln-bench: %d compile(s) failed\n", failures);
  return failures ? 1 : 0;
}

int run(const Options &o) {
  auto dev = Device::get(o.device);
  if (!dev) {
    llvm::errs() << "ln-bench: " << llvm::toString(dev.takeError()) << "\n";
    return 1;
  }
  auto stream = Stream::create(*dev);
  if (!stream) {
    llvm::errs() << "ln-bench: " << llvm::toString(stream.takeError()) << "\n";
    return 1;
  }
  CUstream s = stream->handle();
  auto ln = LayerNorm::create(o.device);
  if (!ln) {
    llvm::errs() << "ln-bench: " << llvm::toString(ln.takeError()) << "\n";
    return 1;
  }
  auto timer = Timer::create(*dev, s, o.reps, o.warmup);
  if (!timer) {
    llvm::errs() << "ln-bench: " << llvm::toString(timer.takeError()) << "\n";
    return 1;
  }
  std::printf("ln-bench: %s (cc %d.%d, %d SMs), driver %d, Kiln %s\n",
              dev->name().c_str(), dev->ccMajor(), dev->ccMinor(),
              dev->multiprocessors(), dev->driver().version,
              kilnBuildVersion().c_str());
  std::printf("median of %d reps after %d warm-up runs, L2 flushed (%zu MB "
              "written) before each rep\n",
              o.reps, o.warmup, kFlushBytes >> 20);

  int failures = 0;
  llvm::json::Array results, compile;
  LayerNormWorkspace ws;
  for (DType t : o.dtypes) {
    std::printf("\n%-5s %6s %6s | %9s %8s | %9s %8s | %5s %5s %5s\n",
                dtypeName(t), "M", "N", "fwd ms", "GB/s", "bwd ms", "GB/s",
                "BLOCK", "warps", "GROUP");
    for (auto [M, N] : o.shapes) {
      llvm::json::Object r{{"dtype", dtypeName(t)}, {"M", M}, {"N", N}};
      auto fail = [&](llvm::Error e) {
        std::string msg = llvm::toString(std::move(e));
        std::printf("%-5s %6lld %6lld | error: %s\n", dtypeName(t),
                    (long long)M, (long long)N, msg.c_str());
        r["error"] = msg;
        results.push_back(std::move(r));
        ++failures;
      };
      auto fc = layerNormForwardConfig(N, t);
      auto bc = layerNormBackwardConfig(N, t);
      if (!fc || !bc) {
        llvm::consumeError(bc.takeError());
        fail(fc ? llvm::Error::success() : fc.takeError());
        continue;
      }
      auto bf = makeBuffers(*dev, t, M, N);
      if (!bf) {
        fail(bf.takeError());
        continue;
      }
      auto fwd = timer->time([&] {
        return ln->forwardInto(bf->X, bf->W, bf->B, 1e-5f, bf->Y, bf->Mean,
                               bf->Rstd, s);
      });
      if (!fwd) {
        fail(fwd.takeError());
        continue;
      }
      auto bwd = timer->time([&] {
        return ln->backwardInto(bf->DY, bf->X, bf->W, bf->B, bf->Mean,
                                bf->Rstd, bf->DX, bf->DW, bf->DB, ws, s);
      });
      if (!bwd) {
        fail(bwd.takeError());
        continue;
      }
      double el = dtypeBytes(t);
      double fwdGBs = 2.0 * M * N * el / (fwd->medianMs * 1e-3) / 1e9;
      double bwdGBs = 3.0 * M * N * el / (bwd->medianMs * 1e-3) / 1e9;
      std::printf("%-5s %6lld %6lld | %9.4f %8.1f | %9.4f %8.1f | %5u %5u "
                  "%5u\n",
                  dtypeName(t), (long long)M, (long long)N, fwd->medianMs,
                  fwdGBs, bwd->medianMs, bwdGBs, fc->blockSize, fc->numWarps,
                  bc->groupSizeM);
      std::fflush(stdout);
      r["fwd_ms"] = fwd->medianMs;
      r["fwd_ms_min"] = fwd->minMs;
      r["bwd_ms"] = bwd->medianMs;
      r["bwd_ms_min"] = bwd->minMs;
      r["fwd_gbps"] = fwdGBs;
      r["bwd_gbps"] = bwdGBs;
      r["fwd"] = llvm::json::Object{{"BLOCK_SIZE", fc->blockSize},
                                    {"num_warps", fc->numWarps}};
      r["bwd"] = llvm::json::Object{{"GROUP_SIZE_M", bc->groupSizeM},
                                    {"BLOCK_SIZE_N", bc->blockSizeN},
                                    {"num_warps", bc->numWarps},
                                    {"dwdb_BLOCK_SIZE_M", bc->dwdbBlockM},
                                    {"dwdb_BLOCK_SIZE_N", bc->dwdbBlockN},
                                    {"dwdb_num_warps", bc->dwdbNumWarps}};
      results.push_back(std::move(r));
    }
  }

  if (o.compileTimes) {
    std::printf("\nCompile times (cold: empty cache; warm: from the disk "
                "cache, new process state):\n");
    for (DType t : o.dtypes) {
      auto ct = compileTimes(*dev, t, 4096, 8192);
      if (!ct) {
        std::printf("  %s: error: %s\n", dtypeName(t),
                    llvm::toString(ct.takeError()).c_str());
        ++failures;
        continue;
      }
      for (auto &v : *ct)
        compile.push_back(std::move(v));
    }
  }
  llvm::json::Object overhead;
  if (o.launchOverhead) {
    auto lo = launchOverhead(*dev, *ln, s);
    if (!lo) {
      std::printf("launch overhead: error: %s\n",
                  llvm::toString(lo.takeError()).c_str());
      ++failures;
    } else {
      overhead = std::move(*lo);
    }
  }

  if (!o.jsonPath.empty()) {
    llvm::json::Array dtypes;
    for (DType t : o.dtypes)
      dtypes.push_back(dtypeName(t));
    llvm::json::Object doc{
        {"tool", "ln-bench"},
        {"kiln_version", kilnBuildVersion()},
        {"date", isoDate()},
        {"device",
         llvm::json::Object{{"name", dev->name()},
                            {"compute_capability",
                             llvm::formatv("{0}.{1}", dev->ccMajor(),
                                           dev->ccMinor())
                                 .str()},
                            {"arch", dev->arch()},
                            {"multiprocessors", dev->multiprocessors()},
                            {"l2_bytes", dev->l2Bytes()},
                            {"memory_bytes", int64_t(dev->totalMemory())},
                            {"driver_version", dev->driver().version}}},
        {"method",
         llvm::json::Object{{"timer", "cuEventElapsedTime"},
                            {"statistic", "median"},
                            {"reps", o.reps},
                            {"warmup", o.warmup},
                            {"l2_flush_bytes", int64_t(kFlushBytes)},
                            {"eps", 1e-5},
                            {"fwd_bytes", "2*M*N*elsize"},
                            {"bwd_bytes", "3*M*N*elsize"},
                            {"bwd_includes",
                             "zeroing locks and partial sums, "
                             "_layer_norm_bwd_dx_fused, _layer_norm_bwd_dwdb"}}},
        {"dtypes", std::move(dtypes)},
        {"results", std::move(results)},
        {"compile", std::move(compile)},
        {"launch_overhead", std::move(overhead)}};
    if (!writeJson(o.jsonPath, std::move(doc)))
      return 1;
  }
  if (failures)
    std::printf("\nln-bench: %d measurement(s) failed\n", failures);
  return failures ? 1 : 0;
}
} // namespace

int main(int argc, char **argv) {
  auto o = parseArgs(argc, argv);
  if (!o) {
    llvm::errs() << llvm::toString(o.takeError()) << "\n";
    return 1;
  }
  if (o->plan)
    return runPlan(*o);
  return o->compileOnly ? runCompileOnly(*o) : run(*o);
}
