//===- KernelState.h - Module and Kernel internals shared by their files --===//
#ifndef KILN_LIB_RUNTIME_KERNELSTATE_H
#define KILN_LIB_RUNTIME_KERNELSTATE_H

#include "kiln/Runtime/Autotune.h"
#include "kiln/Runtime/CompileLog.h"
#include "kiln/Runtime/Module.h"
#include "llvm/ADT/StringMap.h"
#include <atomic>
#include <mutex>
#include <optional>
#include <vector>

namespace kiln::rt {

struct Module::State {
  std::string source, filename, hash;
  CompileFunction compile;
  DiskCache cache;
  DecoratorReader decorators; ///< Empty: readKernelLayers, cached.
  AutotuneSettings autotune;
  State(std::string src, std::string file, ModuleOptions opts)
      : source(std::move(src)), filename(std::move(file)),
        hash(sha256Hex(source)), compile(std::move(opts.compile)),
        cache(opts.cache ? *opts.cache : CacheConfig::fromEnv()),
        decorators(std::move(opts.decorators)),
        autotune(opts.autotune ? *opts.autotune
                               : AutotuneSettings::fromEnv()) {
    if (!compile)
      compile = [](llvm::StringRef s, llvm::StringRef f, const KernelSpec &k) {
        recordCompileCommand(s, f, k);
        return compileKernel(s, f, k);
      };
  }
};

/// One specialization loaded into one device's primary context, shared by
/// the loaded-kernel registry and the tables of the Kernel handles that
/// launched it. clearMemoryCaches() starts a new generation; the last owner
/// of an older one (a table or registry entry replaced later) unloads it.
struct LoadedKernel {
  LoadedKernel(Device *device, CUmodule module, CUfunction function,
               std::shared_ptr<const CompiledKernel> compiled,
               unsigned generation)
      : device(device), module(module), function(function),
        compiled(std::move(compiled)), generation(generation) {}
  LoadedKernel(const LoadedKernel &) = delete;
  LoadedKernel &operator=(const LoadedKernel &) = delete;
  ~LoadedKernel();

  Device *device = nullptr;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  std::shared_ptr<const CompiledKernel> compiled;
  unsigned generation = 0;
  /// Compiled from source for a deriveSpec specialization, which makes
  /// integer arguments equal to 1 constexprs (not passed); false for
  /// precompiled code, whose signature is the caller's.
  bool onesAreConstant = false;

  /// A second build of the same PTX that fits more programs per SM, for
  /// grids the kernel's own build cannot hold at once (Occupancy.h): the
  /// linker's build under a `.maxnreg` cap, or (no cap planned, or the cap
  /// spilled) the whole-program build, which allocates registers for
  /// occupancy as Triton's ptxas does. Planned at load, built on the first
  /// launch that wants it; which build such grids run is measured on their
  /// first launches (KILN_OCCUPANCY=auto).
  struct Alternative {
    enum class Choice : uint8_t { Measure, Own, Alternative };
    unsigned registers = 0;  ///< The `.maxnreg` cap; 0: none planned.
    unsigned firstStepRegisters = 0; ///< A smaller step, if that one spills.
    bool wholeProgram = false; ///< Try the whole-program build (if no cap).
    unsigned ownPrograms = 0; ///< Programs per SM of the own build.
    uint64_t fromPrograms = UINT64_MAX; ///< Grids above this may use it.
    int localBytes = 0; ///< The own build's local memory: no more allowed.
    std::optional<DiskCache> cache;
    std::string baseCubinKey; ///< The own build's; capped ones derive theirs.
    std::once_flag built;
    CUmodule module = nullptr;
    CUfunction function = nullptr; ///< Null: not built, failed or dropped.
    std::string what; ///< "capped at 40 registers", for the log.
    const char *label = ""; ///< "capped build" or "whole-program build".
    std::atomic<Choice> choice{Choice::Measure};
    /// The measuring launches (under `mutex`): events around each, read
    /// once done; alternately the own build and the alternative.
    struct Sample {
      CUevent start = nullptr, stop = nullptr;
      bool alternative = false;
    };
    std::mutex mutex;
    std::vector<Sample> recorded;
    std::vector<float> ownMs, alternativeMs;
    unsigned started = 0;
  } alternative;
};

/// Plans lk.alternative for a kernel built by the driver's linker whose own
/// build has `registers` registers and `localBytes` of local memory
/// (nothing when registers do not bound its programs per SM).
void planOccupancyBuild(LoadedKernel &lk, const DiskCache *cache,
                        llvm::StringRef cubinKey, int registers, int localBytes,
                        bool always);
/// What a launch of more than lk.alternative.fromPrograms programs runs
/// (the caller compares, on the launch path): the alternative build (built
/// on first use) when measured faster, else the kernel's own; while
/// measuring, `sample` holds the events the launch is timed with. The
/// device's context must be current.
struct OccupancyLaunch {
  CUfunction function = nullptr;
  LoadedKernel::Alternative::Sample sample;
};
OccupancyLaunch beginLaunch(LoadedKernel &lk, CUstream stream);
/// After the launch: ends a measuring launch's timing (or drops it when
/// the launch failed).
void endLaunch(LoadedKernel &lk, const OccupancyLaunch &launch,
               CUstream stream, bool launched);

struct Kernel::State {
  std::shared_ptr<Module::State> module; ///< Null for fromCompiled kernels.
  std::string name;
  std::vector<KernelParameter> params;
  std::shared_ptr<const CompiledKernel> precompiled;
  std::string precompiledKey;
  std::mutex mutex;
  unsigned generation = 0;
  /// Launch signature -> loaded kernel, one entry per variant launched.
  llvm::StringMap<std::shared_ptr<LoadedKernel>> table;
  /// Decorator layers; null for undecorated kernels (the fast path).
  std::shared_ptr<const KernelLayers> layers;
  std::unique_ptr<Autotuner> tuner; ///< With @triton.autotune only.
  /// memoryCacheGeneration() the tuner's memory results belong to.
  std::atomic<unsigned> tunerGeneration{~0u};
};

} // namespace kiln::rt

#endif // KILN_LIB_RUNTIME_KERNELSTATE_H
