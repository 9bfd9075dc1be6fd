//===- Module.h - Kernel files, kernel handles and launches ---------------===//
//
//   auto mod = kiln::rt::Module::fromFile("layer_norm.py");
//   auto k = mod->kernel("_layer_norm_fwd_fused");
//   kiln::rt::LaunchOptions opts;
//   opts.numWarps = 8;
//   opts.constexprs["BLOCK_SIZE"] = 1024;
//   llvm::Error err = k->launch({M}, {Arg::ptr(x, DType::F16), ...,
//                                     Arg::integer(N), Arg::f32(1e-5f)}, opts);
//
// The first launch with a new specialization (see Launch.h) compiles the
// kernel (through the caches of Cache.h), has the driver JIT the PTX to a
// cubin, loads it into the device's primary context and remembers the
// function; later launches with the same specialization only check and pack
// the arguments and call cuLaunchKernel.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_MODULE_H
#define KILN_RUNTIME_MODULE_H

#include "kiln/Runtime/Autotune.h"
#include "kiln/Runtime/Cache.h"
#include "kiln/Runtime/Launch.h"
#include "llvm/ADT/SmallString.h"
#include <memory>
#include <optional>

namespace kiln::rt {

struct ModuleOptions {
  /// The compile step; kiln::compileKernel when empty.
  CompileFunction compile;
  /// Cache settings; CacheConfig::fromEnv() when unset.
  std::optional<CacheConfig> cache;
  /// Reads a kernel's decorator layers; readKernelLayers (the frontend's
  /// KernelDecorators, once per source text and kernel) when empty.
  DecoratorReader decorators;
  /// Autotuning settings; AutotuneSettings::fromEnv() when unset.
  std::optional<AutotuneSettings> autotune;
};

class Kernel;

/// A Triton-language source file holding one or more @triton.jit kernels.
class Module {
public:
  static llvm::Expected<Module> fromFile(llvm::StringRef path,
                                         ModuleOptions options = {});
  static Module fromSource(std::string source, std::string filename,
                           ModuleOptions options = {});

  /// A handle for kernel `name`; errors list the kernels in the file. The
  /// frontend reads the kernel's parameters (kiln::listKernelParameters) and
  /// decorators once per source text and kernel in the process; a decorator
  /// Kiln cannot evaluate is an error here.
  llvm::Expected<Kernel> kernel(llvm::StringRef name) const;
  /// The file's @triton.jit functions (kiln::listKernels).
  llvm::Expected<std::vector<std::string>> kernelNames() const;
  const std::string &source() const;
  const std::string &filename() const;
  const std::string &sourceHash() const;

  struct State;

private:
  explicit Module(std::shared_ptr<State> s) : state_(std::move(s)) {}
  std::shared_ptr<State> state_;
};

/// A loaded kernel ready to launch on one device (owned by the runtime).
struct LoadedKernel;

/// The specialization a caller's last launch resolved to, kept by the caller
/// (a bound launcher) so that the next launch with arguments of the same
/// value classes skips the kernel's lookup (signature string, lock, hash).
/// Only for launches whose options, stream excepted, never change.
struct LaunchMemo {
  /// The argument part of the launch signature it was resolved for.
  llvm::SmallString<32> args;
  std::shared_ptr<LoadedKernel> loaded;
  /// memoryCacheGeneration() when resolved: clearing the caches invalidates.
  unsigned generation = 0;
};

class Kernel {
public:
  /// A kernel compiled elsewhere (e.g. ln-compile's PTX and JSON): launches
  /// check their arguments against `compiled.info` and use its PTX.
  static Kernel fromCompiled(CompiledKernel compiled);

  const std::string &name() const;
  /// Parameters as written in the def (empty for fromCompiled kernels).
  llvm::ArrayRef<KernelParameter> params() const;

  /// The specialization `args` and `options` select on `arch`.
  llvm::Expected<KernelSpec> specialize(llvm::ArrayRef<Arg> args,
                                        const LaunchOptions &options,
                                        llvm::StringRef arch) const;

  /// Compiles (through the caches) the specialization for `args` on `arch`
  /// without loading it anywhere; needs no GPU.
  llvm::Expected<std::shared_ptr<const CompiledKernel>>
  compileFor(llvm::StringRef arch, llvm::ArrayRef<Arg> args,
             const LaunchOptions &options = {},
             PrepareStats *stats = nullptr) const;

  /// Compiles and loads the specialization for `args` on options.device if
  /// needed; returns its compiled form. Launch calls this itself.
  llvm::Expected<const CompiledKernel &>
  prepare(llvm::ArrayRef<Arg> args, const LaunchOptions &options = {},
          PrepareStats *stats = nullptr);

  /// Checks and launches. Errors name the parameter or the failing driver
  /// call with the driver's error name and description. A decorated kernel
  /// applies its layers first (and tunes on a new autotune key).
  llvm::Error launch(const Grid &grid, llvm::ArrayRef<Arg> args,
                     const LaunchOptions &options = {});
  /// The same with a grid computed from the meta-parameters the layers
  /// settle on (any kernel, decorated or not).
  llvm::Error launch(const GridFunction &grid, llvm::ArrayRef<Arg> args,
                     const LaunchOptions &options = {});
  /// launch(grid, args, options) for a caller whose options, stream
  /// excepted, are the same at every call with `memo` (see LaunchMemo).
  llvm::Error launch(const Grid &grid, llvm::ArrayRef<Arg> args,
                     const LaunchOptions &options, LaunchMemo &memo);

  /// The decorator layers applied at launch; null when undecorated.
  const KernelLayers *layers() const;
  /// The autotuner; null without @triton.autotune.
  Autotuner *autotuner() const;
  /// What a launch with `args` and `options` would run: the options after
  /// autotune (tuning the key if new) and heuristics, and the
  /// meta-parameters a grid function sees. Undecorated kernels get `options`.
  /// `grid` is what tuning launches each config with.
  llvm::Expected<LaunchOptions> resolveOptions(llvm::ArrayRef<Arg> args,
                                               const LaunchOptions &options,
                                               const GridFunction &grid,
                                               LaunchArgs *meta = nullptr);

  struct State;

private:
  explicit Kernel(std::shared_ptr<State> s) : state_(std::move(s)) {}
  llvm::Expected<std::shared_ptr<LoadedKernel>> resolve(llvm::ArrayRef<Arg> args,
                                         const LaunchOptions &options,
                                         PrepareStats *stats);
  static llvm::Error launchLoaded(LoadedKernel &lk, const Grid &grid,
                                  llvm::ArrayRef<Arg> args,
                                  const LaunchOptions &options);
  llvm::Error launchWithLayers(const Grid *grid, const GridFunction *gridFn,
                               llvm::ArrayRef<Arg> args,
                               const LaunchOptions &options);
  llvm::Error applyLayers(const Grid *grid, const GridFunction *gridFn,
                          llvm::ArrayRef<Arg> args,
                          const LaunchOptions &options, LaunchOptions &opts,
                          LaunchArgs &meta);
  llvm::Error autotune(const Grid *grid, const GridFunction *gridFn,
                       llvm::ArrayRef<Arg> args, const LaunchOptions &user,
                       LaunchOptions &opts, LaunchArgs &meta);
  std::shared_ptr<State> state_;
  friend class Module;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_MODULE_H
