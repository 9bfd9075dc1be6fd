//===- Autotune.h - @triton.autotune / @triton.heuristics at launch time --===//
//
// A decorated kernel's launch goes through its decorator layers (read from
// the source once, see kiln/Frontend/Decorators.h) before specialization:
//
//   LaunchArgs (parameters by name, plus LaunchOptions::constexprs)
//     -> autotune: the tuning key (values of the `key` parameters and the
//        device name) selects a config, tuned on first use; its kwargs,
//        num_warps and num_stages join the arguments
//     -> heuristics: each lambda adds its value
//     -> specialize, compile, launch as for an undecorated kernel.
//
// Tuning a new key compiles every config in parallel (through the compile
// caches), times each on the launch's stream with CUDA events, keeps the
// fastest in memory and persists it on disk beside the compile cache:
//   <cache dir>/v1/<key[0:2]>/<key>.tune
// where key = sha256 of autotuneKeyText (kernel source hash, kernel, key
// values, device name, Kiln build id, configs). A corrupt entry is ignored,
// re-tuned and rewritten. KILN_LOG=autotune prints each config's time and
// the choice; KILN_AUTOTUNE=off takes the first config without timing.
//
// The Autotuner itself only sees an AutotuneSpec and callbacks (compile a
// config, time a config), so it is tested without a device or a frontend.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_AUTOTUNE_H
#define KILN_RUNTIME_AUTOTUNE_H

#include "kiln/Frontend/Decorators.h"
#include "kiln/Runtime/Cache.h"
#include "kiln/Runtime/Device.h"
#include "kiln/Runtime/Launch.h"
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace kiln::rt {

/// A grid computed from the launch's meta-parameters once the config and
/// heuristics are applied, as Triton's `grid = lambda META: ...`. `meta`
/// holds every argument by parameter name, every constexpr, and
/// "num_warps" / "num_stages".
using GridFunction = std::function<Grid(const LaunchArgs &meta)>;

/// The runtime's view of a kernel's decorators: what Kernel::launch applies.
struct KernelLayers {
  std::optional<AutotuneSpec> autotune;
  /// Autotune above every heuristics layer (heuristics see config kwargs).
  bool autotuneIsOutermost = true;
  /// Runs the heuristics layers over the arguments; empty when none.
  std::function<llvm::Error(LaunchArgs &)> heuristics;
  /// The autotune configs (indices) the decorator's early_config_prune keeps
  /// for a launch's arguments; empty when it has none.
  std::function<llvm::Expected<std::vector<size_t>>(const LaunchArgs &)> prune;

  bool empty() const { return !autotune && !heuristics; }
};

/// Reads the layers of `kernel` in `source`; null when it has no decorators.
using DecoratorReader =
    std::function<llvm::Expected<std::shared_ptr<const KernelLayers>>(
        llvm::StringRef source, llvm::StringRef filename,
        llvm::StringRef kernel)>;

/// The default reader: kiln::KernelDecorators::parse (its errors are
/// `FILE:LINE:COL: error: ...`).
llvm::Expected<std::shared_ptr<const KernelLayers>>
readKernelLayers(llvm::StringRef source, llvm::StringRef filename,
                 llvm::StringRef kernel);

//===----------------------------------------------------------------------===//
// Launch values
//===----------------------------------------------------------------------===//

/// What a heuristics lambda sees of a launch argument.
LaunchValue launchValueOf(const Arg &arg);
/// The value of the argument starting at args[i]: a tuple (with a
/// namedtuple's field names) holds its elements' values.
LaunchValue launchValueAt(llvm::ArrayRef<Arg> args, size_t i);
/// A constexpr literal ("128", "True", "None", "0.5", "'s'", "tl.float16")
/// as a launch value (anything else: a string holding the text).
LaunchValue launchValueFromLiteral(llvm::StringRef literal);
/// The constexpr literal for a value; none for pointers.
std::optional<std::string> literalOf(const LaunchValue &value);
bool sameLaunchValue(const LaunchValue &a, const LaunchValue &b);
/// `BLOCK: 128, num_warps: 4, num_stages: 3` for logs and errors.
std::string configText(const AutotuneConfig &config);

/// The values of `spec.key` in `args` (ints by value, pointers by element
/// dtype, others by literal), every pointer argument's dtype (as Triton
/// adds them) and the device name, e.g. "n=1024,X=*fp16,dtypes=X:fp16; @
/// NVIDIA H100". A key with no value in `args` is left out, as in Triton.
llvm::Expected<std::string> autotuneKeyValues(const AutotuneSpec &spec,
                                              llvm::StringRef kernelName,
                                              const LaunchArgs &args,
                                              llvm::StringRef deviceName);

//===----------------------------------------------------------------------===//
// The autotuner
//===----------------------------------------------------------------------===//

struct AutotuneSettings {
  bool timing = true; ///< False with KILN_AUTOTUNE=off: first config, no timing.
  bool log = false;   ///< KILN_LOG=autotune.
  /// Warm-up and timed budget per config (ms) for a decorator without
  /// warmup= / rep=. Triton's do_bench spends 25 + 100 ms per config of each
  /// new key, most of a tuning-heavy test suite's time; 2 + 10 ms with at
  /// least 5 timed runs still separates configs a few percent apart.
  /// KILN_AUTOTUNE_MS=25,100 gives Triton's.
  unsigned warmupMs = 2;
  unsigned repMs = 10;
  /// Set when KILN_AUTOTUNE_MS does not parse: tuning then fails with it.
  std::string budgetError;
  /// Reads KILN_AUTOTUNE (off/0/false disables timing), KILN_AUTOTUNE_MS
  /// and KILN_LOG.
  static AutotuneSettings fromEnv();
};

/// What the autotuner asks of its caller for one tuning run. `compile` may be
/// called from several threads at once; the rest from the tuning thread.
struct TuneCallbacks {
  /// Compiles (and loads) config `index`; an error skips the config.
  std::function<llvm::Error(size_t index)> compile;
  /// Median time of config `index` in ms; an error skips the config.
  std::function<llvm::Expected<double>(size_t index)> time;
  /// Around the timing runs (save / restore buffers); optional.
  std::function<llvm::Error()> begin, end;
};

/// The outcome of Autotuner::select.
struct TuneResult {
  size_t index = 0; ///< Into the pruned configs (Autotuner::configs()).
  enum class From { Memory, Disk, Tuned, Untimed } from = From::Memory;
  /// Per config when tuned: the median ms, or nullopt when skipped.
  std::vector<std::optional<double>> ms;
};

class Autotuner {
public:
  /// `sourceHash` and `kernelName` identify the kernel in disk keys; `cache`
  /// (may be null or disabled) holds the persisted results.
  Autotuner(AutotuneSpec spec, std::string kernelName, std::string sourceHash,
            DiskCache *cache, AutotuneSettings settings);

  /// The configs tuning chooses among (prune_configs_by top_k applied).
  llvm::ArrayRef<AutotuneConfig> configs() const { return configs_; }
  const AutotuneSpec &spec() const { return spec_; }
  /// (warm-up, timed) ms per config: the decorator's, else the settings';
  /// an error when KILN_AUTOTUNE_MS is malformed and the decorator gives
  /// no budget of its own.
  llvm::Expected<std::pair<unsigned, unsigned>> budgetMs() const;

  /// The config for tuning key `keyValues` (autotuneKeyValues): from memory,
  /// from disk, or tuned now through `callbacks` (and then stored in both).
  /// `candidates` (indices into configs(); null: all) are the configs an
  /// early_config_prune kept: only they are tuned, and the disk entry is
  /// theirs. Errors when every config failed, listing each reason.
  llvm::Expected<TuneResult> select(llvm::StringRef keyValues,
                                    const TuneCallbacks &callbacks,
                                    const std::vector<size_t> *candidates = nullptr);

  /// The config remembered in memory for `keyValues`, if any (no disk
  /// access, no tuning).
  std::optional<size_t> lookup(llvm::StringRef keyValues);

  /// The canonical text hashed into the disk key (with the candidates an
  /// early_config_prune kept, if not all).
  std::string diskKeyText(llvm::StringRef keyValues,
                          llvm::ArrayRef<size_t> candidates = {}) const;
  /// Drops the in-memory results (the disk ones stay).
  void forgetInMemory();

private:
  llvm::Expected<TuneResult> tune(llvm::StringRef keyValues,
                                  const TuneCallbacks &callbacks,
                                  llvm::ArrayRef<size_t> candidates);
  std::optional<size_t> loadFromDisk(const std::string &diskKey,
                                     llvm::ArrayRef<size_t> candidates);
  void log(const llvm::Twine &message) const;

  AutotuneSpec spec_;
  std::vector<AutotuneConfig> configs_;
  std::string kernelName_, sourceHash_;
  DiskCache *cache_;
  AutotuneSettings settings_;
  std::mutex mutex_;
  std::map<std::string, size_t, std::less<>> chosen_;
};

//===----------------------------------------------------------------------===//
// Device side of tuning
//===----------------------------------------------------------------------===//

/// Times `run` on `stream` as Triton's do_bench does: one call, a 5-run
/// estimate, then warm-up runs filling `warmupMs` and timed runs filling
/// `repMs` (at least one warm-up, 5 to 1000 timed), each timed run bracketed
/// by CUDA events; `beforeEachRun` (e.g. zeroing buffers) runs outside the
/// timed region. A first call longer than `repMs` is followed by one timed
/// run only, whose time is the result. Returns the median in ms.
llvm::Expected<double> benchmarkOnStream(Device &device, CUstream stream,
                                         unsigned warmupMs, unsigned repMs,
                                         const std::function<llvm::Error()> &beforeEachRun,
                                         const std::function<llvm::Error()> &run);

/// The buffers tuning must not corrupt: `restore_value` ones are copied
/// aside before tuning and copied back after each config's runs;
/// `reset_to_zero` ones are zeroed before every run and once more when
/// tuning ends, as the launch that follows expects them.
class TuningBuffers {
public:
  /// Looks the names up in `args`; errors name a parameter that is not a
  /// pointer or whose size was not given (Arg::ptr(p, dtype, bytes)).
  static llvm::Expected<TuningBuffers>
  create(Device &device, CUstream stream, const AutotuneSpec &spec,
         llvm::StringRef kernelName, llvm::ArrayRef<KernelParameter> params,
         llvm::ArrayRef<Arg> args);
  TuningBuffers(TuningBuffers &&) = default;
  ~TuningBuffers();

  llvm::Error save();    ///< Copies the restore_value buffers aside.
  llvm::Error restore(); ///< Copies them back.
  llvm::Error zero();    ///< Zeroes the reset_to_zero buffers on the stream.

private:
  TuningBuffers() = default;
  struct Buffer {
    CUdeviceptr ptr = 0;
    uint64_t bytes = 0;
    CUdeviceptr saved = 0;
  };
  Device *device_ = nullptr;
  CUstream stream_ = nullptr;
  std::vector<Buffer> reset_, restore_;
  void freeSaved();
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_AUTOTUNE_H
