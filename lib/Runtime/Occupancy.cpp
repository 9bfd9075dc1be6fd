//===- Occupancy.cpp - Programs per SM; register-capped builds ------------===//
#include "kiln/Runtime/Occupancy.h"
#include "KernelState.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cctype>
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

bool kiln::rt::registerCapsEnabled(bool &enabled, std::string &error) {
  enabled = true;
  const char *v = std::getenv("KILN_OCCUPANCY");
  if (!v || !*v)
    return true;
  std::string text(v);
  size_t b = text.find_first_not_of(" \t"), e = text.find_last_not_of(" \t");
  std::string choice = b == std::string::npos ? "" : text.substr(b, e - b + 1);
  std::transform(choice.begin(), choice.end(), choice.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (choice == "1" || choice == "on" || choice == "0" || choice == "off") {
    enabled = choice == "1" || choice == "on";
    return true;
  }
  error = "KILN_OCCUPANCY=\"" + choice +
          "\": expected on (register-capped builds for grids larger than the "
          "device holds at once) or off";
  return false;
}

void kiln::rt::planRegisterCappedBuild(LoadedKernel &lk, const DiskCache *cache,
                                       llvm::StringRef cubinKey, int registers,
                                       int localBytes) {
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
  if (cache)
    c.cache.emplace(*cache);
  c.cubinKey = sha256Hex(llvm::formatv("{0}\nmaxnreg {1}\n", cubinKey,
                                       plan->registers)
                             .str());
  if (cache)
    cache->log(llvm::formatv(
        "kernel {0}: {1} registers, {2} programs per SM; grids above {3} "
        "programs get a build capped at {4} registers ({5} per SM)",
        info.name, registers, plan->programsPerSM, c.fromPrograms,
        plan->registers, plan->cappedProgramsPerSM));
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
} // namespace

CUfunction kiln::rt::launchFunction(LoadedKernel &lk, uint64_t programs) {
  if (programs <= lk.capped.fromPrograms)
    return lk.function;
  std::call_once(lk.capped.built, [&] { buildRegisterCapped(lk); });
  return lk.capped.function ? lk.capped.function : lk.function;
}
