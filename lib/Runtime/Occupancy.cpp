//===- Occupancy.cpp - Programs per SM; register-capped builds ------------===//
#include "kiln/Runtime/Occupancy.h"
#include "KernelState.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cstdlib>

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
  unsigned lowest = std::max(24u, (registers * 7 + 9) / 10);
  // Descending: the first cap of each higher step is that step's largest.
  for (unsigned cap = (registers - 1) / 8 * 8; cap >= lowest; cap -= 8) {
    unsigned programs = residentPrograms(lim, cap, threads, sharedBytes);
    if (programs > best.cappedProgramsPerSM) {
      best.cappedProgramsPerSM = programs;
      best.registers = cap;
    }
  }
  // Smaller steps lose more to the loads ptxas stops keeping in flight than
  // the extra programs win back (H200: the corpus's cross-entropy forward,
  // 5 -> 6 programs, 1.24-1.29x slower; its fp32 row sums, 9 -> 12, 1.13x;
  // the tutorial LayerNorm's backward at 1024 columns, 10 -> 12, 1.12x;
  // against 1.10-1.14x faster at 4 -> 6 and 5 -> 8).
  if (!best.registers || 2 * best.cappedProgramsPerSM < 3 * best.programsPerSM)
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
          "\": expected auto (time the register-capped build on the first "
          "large grids and keep the faster), on (always the capped build for "
          "grids larger than the device holds at once) or off";
  return false;
}

void kiln::rt::planRegisterCappedBuild(LoadedKernel &lk, const DiskCache *cache,
                                       llvm::StringRef cubinKey, int registers,
                                       int localBytes, bool always) {
  const KernelInfo &info = lk.compiled->info;
  const Device &dev = *lk.device;
  auto plan = planRegisterCap(dev.limits(), unsigned(std::max(registers, 0)),
                              info.numWarps * 32, info.sharedBytes);
  if (!plan)
    return;
  LoadedKernel::Capped &c = lk.capped;
  c.registers = plan->registers;
  c.fromPrograms = uint64_t(plan->programsPerSM) *
                   uint64_t(std::max(dev.multiprocessors(), 1));
  c.localBytes = localBytes;
  if (always)
    c.choice = LoadedKernel::Capped::Choice::Capped;
  if (cache)
    c.cache.emplace(*cache);
  c.cubinKey = sha256Hex(llvm::formatv("{0}\nmaxnreg {1}\n", cubinKey,
                                       plan->registers)
                             .str());
  if (cache)
    cache->log(llvm::formatv(
        "kernel {0}: {1} registers, {2} programs per SM; a build capped at "
        "{3} registers ({4} per SM) for grids above {5} programs",
        info.name, registers, plan->programsPerSM, plan->registers,
        plan->cappedProgramsPerSM, c.fromPrograms));
}

namespace {
/// Builds lk.capped's function; leaves it null when the build fails or
/// ptxas could not meet the cap without spilling (the launch then keeps the
/// kernel's own build: a cap is an optimization, never an error).
void buildRegisterCapped(LoadedKernel &lk) {
  LoadedKernel::Capped &c = lk.capped;
  const Driver &drv = lk.device->driver();
  const std::string &name = lk.compiled->info.name;
  auto log = [&](const llvm::Twine &msg) {
    if (c.cache)
      c.cache->log(msg);
  };
  auto ptx = withRegisterCap(lk.compiled->ptx, c.registers);
  if (!ptx)
    return log("kernel " + name + ": no .maxntid line to cap registers after");
  std::optional<std::string> cubin;
  if (c.cache)
    cubin = c.cache->loadBinary(c.cubinKey);
  CUmodule mod = nullptr;
  if (cubin && !loadModuleImage(drv, cubin->data(), cubin->size(), mod).ok())
    mod = nullptr;
  if (!mod) {
    std::string built;
    DriverJitResult r = jitLinkPTX(drv, *ptx, name.c_str(), built);
    if (!r.ok())
      return log("kernel " + name + ": register-capped build failed in " +
                 r.failedCall + ": " + drv.describe(r.result));
    if (!loadModuleImage(drv, built.data(), built.size(), mod).ok())
      return log("kernel " + name + ": register-capped cubin not loadable");
    if (c.cache)
      if (auto err = c.cache->storeBinary(c.cubinKey, built))
        log("cubin not stored: " + llvm::toString(std::move(err)));
  }
  CUfunction fn = nullptr;
  int regs = 0, local = 0;
  if (drv.cuModuleGetFunction(&fn, mod, name.c_str()) != cu::SUCCESS ||
      drv.cuFuncGetAttribute(&regs, cu::FUNC_NUM_REGS, fn) != cu::SUCCESS ||
      drv.cuFuncGetAttribute(&local, cu::FUNC_LOCAL_SIZE_BYTES, fn) !=
          cu::SUCCESS ||
      unsigned(regs) > c.registers || local > c.localBytes) {
    log(llvm::formatv("kernel {0}: register cap {1} dropped ({2} registers, "
                      "{3} bytes of local memory against {4})",
                      name, c.registers, regs, local, c.localBytes));
    drv.cuModuleUnload(mod);
    return;
  }
  // Same shared-memory setup as the kernel's own build (loadOnDevice).
  const KernelInfo &info = lk.compiled->info;
  if (info.sharedBytes > lk.device->limits().maxSharedPerBlock &&
      (drv.cuFuncSetAttribute(fn, cu::FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              int(info.sharedBytes)) != cu::SUCCESS ||
       drv.cuFuncSetAttribute(fn, cu::FUNC_PREFERRED_SHARED_MEMORY_CARVEOUT,
                              cu::SHAREDMEM_CARVEOUT_MAX_SHARED) != cu::SUCCESS)) {
    drv.cuModuleUnload(mod);
    return;
  }
  log(llvm::formatv("kernel {0}: register-capped build, {1} registers", name,
                    regs));
  c.module = mod;
  c.function = fn;
}

using Choice = LoadedKernel::Capped::Choice;
using Sample = LoadedKernel::Capped::Sample;

/// Launches timed per build; the faster build wins by 3 % or more of the
/// own build's best time, else the own build stays.
constexpr unsigned kMeasuredLaunches = 8;

void destroy(const Driver &drv, const Sample &s) {
  drv.cuEventDestroy(s.start);
  drv.cuEventDestroy(s.stop);
}

/// Reads the samples whose launches are done; decides once every measuring
/// launch has been read. Under c.mutex.
void harvest(LoadedKernel &lk) {
  LoadedKernel::Capped &c = lk.capped;
  const Driver &drv = lk.device->driver();
  std::vector<Sample> waiting;
  for (const Sample &s : c.recorded) {
    CUresult q = drv.cuEventQuery(s.stop);
    if (q == cu::ERROR_NOT_READY) {
      waiting.push_back(s);
      continue;
    }
    float ms = 0;
    if (q == cu::SUCCESS && drv.cuEventElapsedTime(&ms, s.start, s.stop) == cu::SUCCESS)
      (s.capped ? c.cappedMs : c.ownMs).push_back(ms);
    destroy(drv, s);
  }
  c.recorded = std::move(waiting);
  if (c.started < kMeasuredLaunches || !c.recorded.empty())
    return;
  bool capped = false;
  if (!c.ownMs.empty() && !c.cappedMs.empty()) {
    float own = *std::min_element(c.ownMs.begin(), c.ownMs.end());
    float cap = *std::min_element(c.cappedMs.begin(), c.cappedMs.end());
    capped = cap < 0.97f * own;
    if (c.cache)
      c.cache->log(llvm::formatv(
          "kernel {0}: own build {1:f4} ms, capped at {2} registers {3:f4} ms "
          "(best of {4} / {5} launches): grids above {6} programs run the {7}",
          lk.compiled->info.name, own, c.registers, cap, c.ownMs.size(),
          c.cappedMs.size(), c.fromPrograms, capped ? "capped build" : "own build"));
  }
  c.choice.store(capped ? Choice::Capped : Choice::Own, std::memory_order_release);
}

/// A launch while the choice is being measured: alternately each build,
/// with events around it.
CappedLaunch measuredLaunch(LoadedKernel &lk, CUstream stream) {
  LoadedKernel::Capped &c = lk.capped;
  const Driver &drv = lk.device->driver();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!drv.cuEventQuery) { // cannot read events without waiting: keep the own
    c.choice.store(Choice::Own, std::memory_order_release);
    return {lk.function, {}};
  }
  harvest(lk);
  Choice ch = c.choice.load(std::memory_order_acquire);
  if (ch != Choice::Measure)
    return {ch == Choice::Capped ? c.function : lk.function, {}};
  // Nothing is timed into a graph being captured, nor beyond the measured
  // launches (their events not read yet).
  int capturing = 0;
  if (c.started >= kMeasuredLaunches ||
      (drv.cuStreamIsCapturing && drv.cuStreamIsCapturing(stream, &capturing) == cu::SUCCESS &&
       capturing))
    return {lk.function, {}};
  Sample s;
  s.capped = c.started % 2 == 1;
  if (drv.cuEventCreate(&s.start, 0) != cu::SUCCESS ||
      drv.cuEventCreate(&s.stop, 0) != cu::SUCCESS ||
      drv.cuEventRecord(s.start, stream) != cu::SUCCESS) {
    if (s.start)
      drv.cuEventDestroy(s.start);
    if (s.stop)
      drv.cuEventDestroy(s.stop);
    return {lk.function, {}};
  }
  ++c.started;
  return {s.capped ? c.function : lk.function, s};
}
} // namespace

CappedLaunch kiln::rt::beginLaunch(LoadedKernel &lk, CUstream stream) {
  LoadedKernel::Capped &c = lk.capped;
  Choice ch = c.choice.load(std::memory_order_acquire);
  if (ch == Choice::Own)
    return {lk.function, {}};
  std::call_once(c.built, [&] { buildRegisterCapped(lk); });
  if (!c.function)
    return {lk.function, {}};
  if (ch == Choice::Capped)
    return {c.function, {}};
  return measuredLaunch(lk, stream);
}

void kiln::rt::endLaunch(LoadedKernel &lk, const CappedLaunch &launch, CUstream stream,
                         bool launched) {
  LoadedKernel::Capped &c = lk.capped;
  const Driver &drv = lk.device->driver();
  if (!launched || drv.cuEventRecord(launch.sample.stop, stream) != cu::SUCCESS) {
    std::lock_guard<std::mutex> lock(c.mutex);
    destroy(drv, launch.sample);
    return;
  }
  std::lock_guard<std::mutex> lock(c.mutex);
  c.recorded.push_back(launch.sample);
}
