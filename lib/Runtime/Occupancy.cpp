//===- Occupancy.cpp - Programs per SM; higher-occupancy builds ----------===//
#include "kiln/Runtime/Occupancy.h"
#include "KernelState.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cstdlib>
#include <utility>

using namespace kiln;
using namespace kiln::rt;

unsigned kiln::rt::residentPrograms(const DeviceLimits &lim, unsigned registers,
                                    unsigned threads, uint64_t sharedBytes) {
  if (threads == 0)
    return 0;
  unsigned warps = (threads + 31) / 32;
  // Registers are allocated per warp in units of 256 (8 per thread).
  unsigned perWarp = (std::max(registers, 1u) * 32 + 255) / 256 * 256;
  unsigned byRegisters = lim.registersPerSM / perWarp / warps;
  unsigned byThreads = lim.maxThreadsPerSM / (warps * 32);
  // The driver reserves 1 KB of shared memory per program (sm_80 and newer).
  uint64_t bySharedMemory = lim.sharedPerSM / (sharedBytes + 1024);
  return unsigned(std::min<uint64_t>(
      {byRegisters, byThreads, lim.maxBlocksPerSM, bySharedMemory}));
}

std::optional<RegisterCap> kiln::rt::planRegisterCap(const DeviceLimits &lim,
                                                     unsigned registers,
                                                     unsigned threads,
                                                     uint64_t sharedBytes) {
  RegisterCap best;
  best.programsPerSM = residentPrograms(lim, registers, threads, sharedBytes);
  if (best.programsPerSM == 0 || registers <= 24)
    return std::nullopt;
  best.cappedProgramsPerSM = best.programsPerSM;
  // Caps below 60 % of the kernel's registers are not tried: ptxas then
  // trades too many loads in flight. At 70 % (sessions 28-41) lightllm's
  // flash decoding (95 registers, 1 warp) stopped at 72 registers, 28
  // programs per SM, 2 % faster than its own build, where 64 (Triton's
  // count, 32 programs) does not spill and runs 8 % faster; its GELU gate
  // (255, 4 warps) had no cap at all, and 168 (3 programs) runs 14 %
  // faster (H200, KILN_LOG=cache timings).
  unsigned lowest = std::max(24u, (registers * 6 + 9) / 10);
  // Descending: the first cap of each higher step is that step's largest.
  for (unsigned cap = (registers - 1) / 8 * 8; cap >= lowest; cap -= 8) {
    unsigned programs = residentPrograms(lim, cap, threads, sharedBytes);
    if (programs > best.cappedProgramsPerSM) {
      if (!best.firstStepRegisters)
        best.firstStepRegisters = cap;
      best.cappedProgramsPerSM = programs;
      best.registers = cap;
    }
  }
  if (best.firstStepRegisters == best.registers)
    best.firstStepRegisters = 0;
  // Any step up is a candidate: the launches time it against the own build
  // (KILN_OCCUPANCY=auto). Small steps win or lose by kernel (H200: the
  // corpus's LayerNorm forward at 48 registers, 5 programs per SM, ran 1.06x
  // slower than its 40-register build of 6; its cross-entropy forward, 5 ->
  // 6, and fp32 row sums, 9 -> 12, run 1.13-1.29x slower capped).
  if (!best.registers)
    return std::nullopt;
  return best;
}

std::optional<std::string> kiln::rt::withRegisterCap(std::string_view ptx,
                                                     unsigned registers) {
  std::string out(ptx);
  std::string directive = ".maxnreg " + std::to_string(registers);
  auto lineAt = [&](std::string_view prefix) -> size_t {
    for (size_t at = out.find(prefix); at != std::string::npos;
         at = out.find(prefix, at + 1))
      if (at == 0 || out[at - 1] == '\n')
        return at;
    return std::string::npos;
  };
  if (size_t at = lineAt(".maxnreg "); at != std::string::npos) {
    size_t end = out.find('\n', at);
    out.replace(at, end == std::string::npos ? std::string::npos : end - at,
                directive);
    return out;
  }
  size_t at = lineAt(".maxntid ");
  if (at == std::string::npos)
    return std::nullopt;
  size_t end = out.find('\n', at);
  if (end == std::string::npos)
    return std::nullopt;
  out.insert(end + 1, directive + "\n");
  return out;
}

bool kiln::rt::registerCapMode(RegisterCapMode &mode, std::string &error) {
  mode = RegisterCapMode::Auto;
  const char *v = std::getenv("KILN_OCCUPANCY");
  if (!v || !*v)
    return true;
  std::string choice = llvm::StringRef(v).trim().lower();
  if (choice == "auto" || choice == "on" || choice == "off") {
    mode = choice == "auto" ? RegisterCapMode::Auto
           : choice == "on" ? RegisterCapMode::On
                            : RegisterCapMode::Off;
    return true;
  }
  error = "KILN_OCCUPANCY=\"" + choice +
          "\": expected auto (time the higher-occupancy build on the first "
          "large grids and keep the faster), on (always that build for grids "
          "larger than the device holds at once) or off";
  return false;
}

void kiln::rt::planOccupancyBuild(LoadedKernel &lk, const DiskCache *cache,
                                  llvm::StringRef cubinKey, int registers,
                                  int localBytes, bool always) {
  const KernelInfo &info = lk.compiled->info;
  const Device &dev = *lk.device;
  unsigned regs = unsigned(std::max(registers, 0)), threads = info.numWarps * 32;
  auto plan = planRegisterCap(dev.limits(), regs, threads, info.sharedBytes);
  unsigned own = residentPrograms(dev.limits(), regs, threads, info.sharedBytes);
  // Without a cap (the linker's registers are far above an occupancy step:
  // Liger's SwiGLU at 16384 columns, 111 registers and 1 program of 512
  // threads per SM, where a whole-program ptxas takes 37 and fits 3), the
  // whole-program build, if registers are what bound the programs.
  bool whole = own && 2 * residentPrograms(dev.limits(), 32, threads,
                                           info.sharedBytes) >= 3 * own;
  if (!plan && !whole)
    return;
  LoadedKernel::Alternative &a = lk.alternative;
  a.registers = plan ? plan->registers : 0;
  a.firstStepRegisters = plan ? plan->firstStepRegisters : 0;
  a.baseCubinKey = cubinKey.str();
  a.wholeProgram = whole;
  a.ownPrograms = own;
  a.fromPrograms = uint64_t(own) * uint64_t(std::max(dev.multiprocessors(), 1));
  a.localBytes = localBytes;
  if (always)
    a.choice = LoadedKernel::Alternative::Choice::Alternative;
  if (!cache)
    return;
  a.cache.emplace(*cache);
  if (plan)
    cache->log(llvm::formatv(
        "kernel {0}: {1} registers, {2} programs per SM; a build capped at "
        "{3} registers ({4} per SM) for grids above {5} programs",
        info.name, registers, own, plan->registers, plan->cappedProgramsPerSM,
        a.fromPrograms));
  else
    cache->log(llvm::formatv(
        "kernel {0}: {1} registers, {2} programs per SM; a whole-program "
        "build for grids above {3} programs",
        info.name, registers, own, a.fromPrograms));
}

namespace {
using Alternative = LoadedKernel::Alternative;

void logTo(const Alternative &a, const llvm::Twine &msg) {
  if (a.cache)
    a.cache->log(msg);
}

/// Takes `mod` as lk.alternative's build when its function fits more
/// programs per SM than the own build without more local memory (and, for
/// a cap, within it); unloads it otherwise.
void adoptBuild(LoadedKernel &lk, CUmodule mod, unsigned cap) {
  Alternative &a = lk.alternative;
  const Driver &drv = lk.device->driver();
  const KernelInfo &info = lk.compiled->info;
  CUfunction fn = nullptr;
  int regs = 0, local = 0;
  bool ok = drv.cuModuleGetFunction(&fn, mod, info.name.c_str()) == cu::SUCCESS &&
            drv.cuFuncGetAttribute(&regs, cu::FUNC_NUM_REGS, fn) == cu::SUCCESS &&
            drv.cuFuncGetAttribute(&local, cu::FUNC_LOCAL_SIZE_BYTES, fn) ==
                cu::SUCCESS;
  unsigned programs = ok ? residentPrograms(lk.device->limits(), unsigned(regs),
                                            info.numWarps * 32, info.sharedBytes)
                         : 0;
  if (!ok || local > a.localBytes || (cap && unsigned(regs) > cap) ||
      programs <= a.ownPrograms) {
    if (cap)
      logTo(a, llvm::formatv("kernel {0}: register cap {1} dropped ({2} registers, "
                             "{3} bytes of local memory against {4})",
                             info.name, cap, regs, local, a.localBytes));
    else
      logTo(a, llvm::formatv("kernel {0}: whole-program build dropped ({1} registers, "
                             "{2} programs per SM, {3} bytes of local memory against "
                             "{4})",
                             info.name, regs, programs, local, a.localBytes));
    drv.cuModuleUnload(mod);
    return;
  }
  // Same shared-memory setup as the kernel's own build (loadOnDevice).
  if (info.sharedBytes > lk.device->limits().maxSharedPerBlock &&
      (drv.cuFuncSetAttribute(fn, cu::FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              int(info.sharedBytes)) != cu::SUCCESS ||
       drv.cuFuncSetAttribute(fn, cu::FUNC_PREFERRED_SHARED_MEMORY_CARVEOUT,
                              cu::SHAREDMEM_CARVEOUT_MAX_SHARED) != cu::SUCCESS)) {
    drv.cuModuleUnload(mod);
    return;
  }
  a.what = cap ? llvm::formatv("capped at {0} registers", cap).str()
               : llvm::formatv("whole-program build ({0} registers)", regs).str();
  a.label = cap ? "capped build" : "whole-program build";
  logTo(a, cap ? llvm::formatv("kernel {0}: register-capped build, {1} registers",
                               info.name, regs)
                     .str()
               : llvm::formatv("kernel {0}: whole-program build, {1} registers, "
                               "{2} programs per SM",
                               info.name, regs, programs)
                     .str());
  a.module = mod;
  a.function = fn;
}

/// The linker's build under a `cap` (from the disk cache when it holds it).
void buildRegisterCapped(LoadedKernel &lk, unsigned cap) {
  Alternative &a = lk.alternative;
  const Driver &drv = lk.device->driver();
  const std::string &name = lk.compiled->info.name;
  auto ptx = withRegisterCap(lk.compiled->ptx, cap);
  if (!ptx)
    return logTo(a, "kernel " + name + ": no .maxntid line to cap registers after");
  std::string cubinKey =
      sha256Hex(llvm::formatv("{0}\nmaxnreg {1}\n", a.baseCubinKey, cap).str());
  std::optional<std::string> cubin;
  if (a.cache)
    cubin = a.cache->loadBinary(cubinKey);
  CUmodule mod = nullptr;
  if (cubin && !loadModuleImage(drv, cubin->data(), cubin->size(), mod).ok())
    mod = nullptr;
  if (!mod) {
    std::string built;
    DriverJitResult r = jitLinkPTX(drv, *ptx, name.c_str(), built);
    if (!r.ok())
      return logTo(a, "kernel " + name + ": register-capped build failed in " +
                          r.failedCall + ": " + drv.describe(r.result));
    if (!loadModuleImage(drv, built.data(), built.size(), mod).ok())
      return logTo(a, "kernel " + name + ": register-capped cubin not loadable");
    if (a.cache)
      if (auto err = a.cache->storeBinary(cubinKey, built))
        logTo(a, "cubin not stored: " + llvm::toString(std::move(err)));
  }
  adoptBuild(lk, mod, cap);
}

/// The PTX compiled as a whole program (the driver's JIT cache keeps it).
void buildWholeProgram(LoadedKernel &lk) {
  Alternative &a = lk.alternative;
  const Driver &drv = lk.device->driver();
  const std::string &ptx = lk.compiled->ptx;
  CUmodule mod = nullptr;
  DriverJitResult r = loadModuleImage(drv, ptx.data(), ptx.size(), mod);
  if (!r.ok())
    return logTo(a, "kernel " + lk.compiled->info.name +
                        ": whole-program build failed in " + r.failedCall + ": " +
                        drv.describe(r.result));
  adoptBuild(lk, mod, 0);
}

/// The cap first (measured on the corpus), then the first step up if that
/// spilled (Liger's LayerNorm forward: 56 registers, 40 spills, 48 fits 5
/// programs instead of 4), then the whole program.
void buildAlternative(LoadedKernel &lk) {
  Alternative &a = lk.alternative;
  if (a.registers)
    buildRegisterCapped(lk, a.registers);
  if (!a.function && a.firstStepRegisters)
    buildRegisterCapped(lk, a.firstStepRegisters);
  if (!a.function && a.wholeProgram)
    buildWholeProgram(lk);
}

using Choice = Alternative::Choice;
using Sample = Alternative::Sample;

/// Launches timed per build; the faster build wins by 3 % or more of the
/// own build's best time, else the own build stays.
constexpr unsigned kMeasuredLaunches = 8;

void destroy(const Driver &drv, const Sample &s) {
  drv.cuEventDestroy(s.start);
  drv.cuEventDestroy(s.stop);
}

/// Reads the samples whose launches are done; decides once every measuring
/// launch has been read. Under a.mutex.
void harvest(LoadedKernel &lk) {
  Alternative &a = lk.alternative;
  const Driver &drv = lk.device->driver();
  std::vector<Sample> waiting;
  for (const Sample &s : a.recorded) {
    CUresult q = drv.cuEventQuery(s.stop);
    if (q == cu::ERROR_NOT_READY) {
      waiting.push_back(s);
      continue;
    }
    float ms = 0;
    if (q == cu::SUCCESS && drv.cuEventElapsedTime(&ms, s.start, s.stop) == cu::SUCCESS)
      (s.alternative ? a.alternativeMs : a.ownMs).push_back(ms);
    destroy(drv, s);
  }
  a.recorded = std::move(waiting);
  if (a.started < kMeasuredLaunches || !a.recorded.empty())
    return;
  bool alternative = false;
  if (!a.ownMs.empty() && !a.alternativeMs.empty()) {
    float own = *std::min_element(a.ownMs.begin(), a.ownMs.end());
    float alt = *std::min_element(a.alternativeMs.begin(), a.alternativeMs.end());
    alternative = alt < 0.97f * own;
    logTo(a, llvm::formatv("kernel {0}: own build {1:f4} ms, {2} {3:f4} ms (best of "
                           "{4} / {5} launches): grids above {6} programs run the {7}",
                           lk.compiled->info.name, own, a.what, alt, a.ownMs.size(),
                           a.alternativeMs.size(), a.fromPrograms,
                           alternative ? a.label : "own build"));
  }
  a.choice.store(alternative ? Choice::Alternative : Choice::Own,
                 std::memory_order_release);
}

/// A launch while the choice is being measured: alternately each build,
/// with events around it.
OccupancyLaunch measuredLaunch(LoadedKernel &lk, CUstream stream) {
  Alternative &a = lk.alternative;
  const Driver &drv = lk.device->driver();
  std::lock_guard<std::mutex> lock(a.mutex);
  if (!drv.cuEventQuery) { // cannot read events without waiting: keep the own
    a.choice.store(Choice::Own, std::memory_order_release);
    return {lk.function, {}};
  }
  harvest(lk);
  Choice ch = a.choice.load(std::memory_order_acquire);
  if (ch != Choice::Measure)
    return {ch == Choice::Alternative ? a.function : lk.function, {}};
  // Nothing is timed into a graph being captured, nor beyond the measured
  // launches (their events not read yet).
  int capturing = 0;
  if (a.started >= kMeasuredLaunches ||
      (drv.cuStreamIsCapturing && drv.cuStreamIsCapturing(stream, &capturing) == cu::SUCCESS &&
       capturing))
    return {lk.function, {}};
  Sample s;
  s.alternative = a.started % 2 == 1;
  if (drv.cuEventCreate(&s.start, 0) != cu::SUCCESS ||
      drv.cuEventCreate(&s.stop, 0) != cu::SUCCESS ||
      drv.cuEventRecord(s.start, stream) != cu::SUCCESS) {
    if (s.start)
      drv.cuEventDestroy(s.start);
    if (s.stop)
      drv.cuEventDestroy(s.stop);
    return {lk.function, {}};
  }
  ++a.started;
  return {s.alternative ? a.function : lk.function, s};
}
} // namespace

namespace {
thread_local bool pausedOnThisThread = false;
} // namespace

bool kiln::rt::setOccupancyPaused(bool paused) {
  return std::exchange(pausedOnThisThread, paused);
}

bool kiln::rt::occupancyPaused() { return pausedOnThisThread; }

OccupancyLaunch kiln::rt::beginLaunch(LoadedKernel &lk, CUstream stream) {
  Alternative &a = lk.alternative;
  Choice ch = a.choice.load(std::memory_order_acquire);
  if (ch == Choice::Own || (ch == Choice::Measure && pausedOnThisThread))
    return {lk.function, {}};
  std::call_once(a.built, [&] { buildAlternative(lk); });
  if (!a.function)
    return {lk.function, {}};
  if (ch == Choice::Alternative)
    return {a.function, {}};
  return measuredLaunch(lk, stream);
}

void kiln::rt::endLaunch(LoadedKernel &lk, const OccupancyLaunch &launch,
                         CUstream stream, bool launched) {
  Alternative &a = lk.alternative;
  const Driver &drv = lk.device->driver();
  if (!launched || drv.cuEventRecord(launch.sample.stop, stream) != cu::SUCCESS) {
    std::lock_guard<std::mutex> lock(a.mutex);
    destroy(drv, launch.sample);
    return;
  }
  std::lock_guard<std::mutex> lock(a.mutex);
  a.recorded.push_back(launch.sample);
}
