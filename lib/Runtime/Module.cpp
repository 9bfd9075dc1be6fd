//===- Module.cpp - Modules, kernel handles, loading and launching --------===//
#include "kiln/Runtime/Module.h"
#include "kiln/Runtime/Occupancy.h"
#include "KernelState.h"
#include "RuntimeError.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <charconv>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>

using namespace kiln;
using namespace kiln::rt;

namespace {
double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

struct LoadedRegistry {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<LoadedKernel>> byKey;
};
LoadedRegistry &registry() {
  static auto *r = new LoadedRegistry();
  return *r;
}

/// Kernel parameters by source hash and kernel name. Listing them parses the
/// whole file, so it is done once per kernel and process, however many
/// Modules (e.g. one per LayerNorm::create) hold the same source.
llvm::Expected<std::vector<KernelParameter>>
kernelParameters(const Module::State &m, llvm::StringRef name) {
  struct Cache {
    std::mutex mutex;
    std::map<std::string, std::vector<KernelParameter>> byKey;
  };
  static auto *cache = new Cache();
  std::string key = m.hash + '/' + name.str();
  {
    std::lock_guard<std::mutex> lock(cache->mutex);
    auto it = cache->byKey.find(key);
    if (it != cache->byKey.end())
      return it->second;
  }
  // Parsed outside the lock: another thread may race us to the same result.
  auto params = listKernelParameters(m.source, m.filename, name);
  if (!params)
    return params.takeError();
  std::lock_guard<std::mutex> lock(cache->mutex);
  cache->byKey.emplace(std::move(key), *params);
  return params;
}

/// Decorator layers by source hash and kernel name, read once per process
/// like the parameters.
llvm::Expected<std::shared_ptr<const KernelLayers>>
kernelLayers(const Module::State &m, llvm::StringRef name) {
  struct Cache {
    std::mutex mutex;
    std::map<std::string, std::shared_ptr<const KernelLayers>> byKey;
  };
  static auto *cache = new Cache();
  std::string key = m.hash + '/' + name.str();
  {
    std::lock_guard<std::mutex> lock(cache->mutex);
    auto it = cache->byKey.find(key);
    if (it != cache->byKey.end())
      return it->second;
  }
  auto layers = readKernelLayers(m.source, m.filename, name);
  if (!layers)
    return layers.takeError();
  std::lock_guard<std::mutex> lock(cache->mutex);
  cache->byKey.emplace(std::move(key), *layers);
  return layers;
}

/// What the specialization depends on. Built on every launch, into a stack
/// buffer: no allocation unless the constexprs make it unusually long.
using Signature = llvm::SmallString<128>;

/// The arguments' part of the signature: kind, dtype and value class of each.
void appendArgClasses(llvm::ArrayRef<Arg> args, llvm::SmallVectorImpl<char> &s) {
  for (const Arg &a : args) {
    s.push_back(char('a' + int(a.kind())));
    s.push_back(char('A' + int(a.dtype())));
    // Value classes the specialization depends on: 16-divisible, the
    // integer 1 (a constexpr), neither, or not specialized on its value.
    bool div16 = a.kind() == Arg::Kind::Pointer ? a.pointer() % 16 == 0
                 : a.kind() == Arg::Kind::Int   ? a.intValue() % 16 == 0
                                                : false;
    s.push_back(!a.specializable()     ? 'n'
                : a.isSpecializedOne() ? '2'
                : div16                ? '1'
                                       : '0');
    if (!a.constexprText().empty()) { // a function passed as a value
      s.push_back('(');
      s.append(a.constexprText().begin(), a.constexprText().end());
      s.push_back(')');
    }
    if (a.kind() == Arg::Kind::TensorDesc || a.kind() == Arg::Kind::Tuple) {
      // The block shape and padding; the element count.
      char buf[24];
      auto bits = a.kind() == Arg::Kind::Tuple ? (long long)a.tupleSize()
                                                : (long long)a.descriptorBits();
      s.append(buf, std::to_chars(buf, buf + sizeof(buf), bits).ptr);
      if (!a.tupleFields().empty()) { // a namedtuple's fields select code
        s.push_back('(');
        s.append(a.tupleFields().begin(), a.tupleFields().end());
        s.push_back(')');
      }
    }
  }
}

void launchSignature(llvm::ArrayRef<Arg> args, const LaunchOptions &options,
                     bool fixed, Signature &s) {
  auto number = [&s](long long v) {
    char buf[24];
    s.append(buf, std::to_chars(buf, buf + sizeof(buf), v).ptr);
  };
  number(options.device);
  if (fixed)
    return;
  s += '/';
  number(options.numWarps);
  // Everything else the compiled code depends on (deriveSpec).
  s += '/';
  number(options.numStages);
  if (!options.fpFusion)
    s += "/nofuse";
  appendArgClasses(args, s);
  for (const auto &[name, value] : options.constexprs) {
    s += '|';
    s += name;
    s += '=';
    s += value.text();
  }
}

llvm::Expected<std::string> jitToCubin(const Device &dev,
                                       const CompiledKernel &ck) {
  std::string cubin;
  DriverJitResult r =
      jitLinkPTX(dev.driver(), ck.ptx, ck.info.name.c_str(), cubin);
  if (!r.ok())
    return makeError("driver JIT of kernel `" + ck.info.name + "` for " +
                     dev.arch() + " failed in " + r.failedCall + ": " +
                     dev.driver().describe(r.result) + r.logText());
  return cubin;
}

llvm::Expected<CUmodule> loadCubin(const Device &dev, llvm::StringRef cubin,
                                   llvm::StringRef kernelName) {
  CUmodule mod = nullptr;
  DriverJitResult r =
      loadModuleImage(dev.driver(), cubin.data(), cubin.size(), mod);
  if (!r.ok())
    return makeError("cuModuleLoadDataEx of kernel `" + kernelName +
                     "` on device " + std::to_string(dev.index()) + ": " +
                     dev.driver().describe(r.result) + r.logText());
  return mod;
}

/// Loads `ck` on `dev`: cubin from the disk cache or the driver's JIT, then
/// the function and its shared-memory setup.
llvm::Expected<std::shared_ptr<LoadedKernel>>
loadOnDevice(Device &dev, std::shared_ptr<const CompiledKernel> ck,
             llvm::StringRef key, DiskCache *cache, PrepareStats &st) {
  const Driver &drv = dev.driver();
  const KernelInfo &info = ck->info;
  if (auto err = dev.makeCurrent())
    return err;
  std::string cubinKey = sha256Hex(
      llvm::formatv("kiln-cubin 1\nkernel-key {0}\ncc {1}.{2}\ndriver {3}\n",
                    key, dev.ccMajor(), dev.ccMinor(), drv.version)
          .str());

  auto t0 = std::chrono::steady_clock::now();
  CUmodule mod = nullptr;
  // Pipelined tensor-core kernels compile as whole programs: fewer
  // registers (mamba's chunk scan at 32 x 64 on 2 warps: 158 against 188
  // relocatable, local ptxas), no cubin of ours to cache (DriverAPI.h).
  JitMode mode;
  RegisterCapMode capMode;
  std::string modeError;
  if (!chooseJitMode(ck->ptx, mode, modeError) ||
      !registerCapMode(capMode, modeError))
    return makeError(modeError);
  if (mode == JitMode::WholeProgram) {
    auto tj = std::chrono::steady_clock::now();
    DriverJitResult r = loadModuleImage(drv, ck->ptx.data(), ck->ptx.size(), mod);
    if (!r.ok())
      return makeError("driver JIT (whole program) of kernel `" + info.name + "` for " +
                       dev.arch() + " failed in " + r.failedCall + ": " +
                       drv.describe(r.result) + r.logText());
    st.jitMs = msSince(tj);
    if (cache)
      cache->log(llvm::formatv("jit module {0} (driver JIT, whole program, in {1:f2} ms; "
                               "no cubin stored)",
                               info.name, st.jitMs));
  }
  std::optional<std::string> cubin = cache && !mod ? cache->loadBinary(cubinKey)
                                                   : std::nullopt;
  if (cubin) {
    auto m = loadCubin(dev, *cubin, info.name);
    if (m) {
      mod = *m;
      st.cubinFromDisk = true;
      cache->log("hit cubin " + info.name + " " + cubinKey.substr(0, 16));
    } else {
      // A cubin the driver refuses is rebuilt from the PTX.
      cache->log("unusable cubin for " + info.name + ": " +
                 llvm::toString(m.takeError()) + "; re-running the JIT");
    }
  }
  if (!mod) {
    auto tj = std::chrono::steady_clock::now();
    auto built = jitToCubin(dev, *ck);
    if (!built)
      return built.takeError();
    st.jitMs = msSince(tj);
    if (cache) {
      cache->log(llvm::formatv("jit cubin {0} {1} (driver JIT in {2:f2} ms)",
                               info.name, cubinKey.substr(0, 16), st.jitMs));
      if (auto err = cache->storeBinary(cubinKey, *built))
        cache->log("cubin not stored: " + llvm::toString(std::move(err)));
    }
    auto m = loadCubin(dev, *built, info.name);
    if (!m)
      return m.takeError();
    mod = *m;
  }

  // A kernel that cannot run (too much shared memory, ...) must not keep its
  // module loaded: each failed launch would leak one (LeakSanitizer, with
  // the stand-in driver).
  llvm::scope_exit unloadOnError([&] {
    if (mod)
      drv.cuModuleUnload(mod);
  });
  CUfunction fn = nullptr;
  if (auto err = drv.check(drv.cuModuleGetFunction(&fn, mod, info.name.c_str()),
                           "cuModuleGetFunction(`" + info.name + "`)"))
    return err;
  int maxThreads = 0, staticSmem = 0, regs = 0;
  if (auto err = drv.check(
          drv.cuFuncGetAttribute(&maxThreads, cu::FUNC_MAX_THREADS_PER_BLOCK,
                                 fn),
          "cuFuncGetAttribute"))
    return err;
  if (auto err = drv.check(
          drv.cuFuncGetAttribute(&staticSmem, cu::FUNC_SHARED_SIZE_BYTES, fn),
          "cuFuncGetAttribute"))
    return err;
  int localBytes = 0;
  llvm::consumeError(
      drv.check(drv.cuFuncGetAttribute(&regs, cu::FUNC_NUM_REGS, fn), ""));
  llvm::consumeError(drv.check(
      drv.cuFuncGetAttribute(&localBytes, cu::FUNC_LOCAL_SIZE_BYTES, fn), ""));
  unsigned threads = info.numWarps * 32;
  if (threads > unsigned(maxThreads))
    return makeError(llvm::formatv(
        "kernel `{0}` uses {1} registers per thread, which allows at most {2} "
        "threads per block, but num_warps = {3} needs {4}",
        info.name, regs, maxThreads, info.numWarps, threads));
  const DeviceLimits &lim = dev.limits();
  uint64_t smem = uint64_t(staticSmem) + info.sharedBytes;
  if (smem > lim.maxSharedPerBlockOptin)
    return makeError(llvm::formatv(
        "kernel `{0}` needs {1} bytes of shared memory ({2} static + {3} "
        "dynamic); device {4} allows at most {5} per block",
        info.name, smem, staticSmem, info.sharedBytes, dev.index(),
        lim.maxSharedPerBlockOptin));
  if (smem > lim.maxSharedPerBlock) {
    if (auto err = drv.check(
            drv.cuFuncSetAttribute(fn, cu::FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   int(info.sharedBytes)),
            llvm::formatv("raising the dynamic shared memory limit of `{0}` "
                          "to {1} bytes (cuFuncSetAttribute)",
                          info.name, info.sharedBytes)
                .str()))
      return err;
    // Without a preference the driver configures the smallest carveout that
    // holds one such program, and a second cannot share the SM (the corpus
    // matmul: 102 KB configured for 98 KB programs, one per SM; Triton
    // prefers shared memory for these kernels and gets 228 KB, two).
    if (auto err = drv.check(
            drv.cuFuncSetAttribute(fn, cu::FUNC_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                   cu::SHAREDMEM_CARVEOUT_MAX_SHARED),
            llvm::formatv("preferring shared memory over L1 for `{0}` (cuFuncSetAttribute)",
                          info.name)
                .str()))
      return err;
  }
  st.loadMs = msSince(t0) - st.jitMs;
  st.loadedModule = true;

  unloadOnError.release();
  auto lk = std::make_shared<LoadedKernel>(&dev, mod, fn, std::move(ck),
                                           memoryCacheGeneration());
  // Whole-program builds (tensor-core kernels) already allocate for
  // occupancy; the linker's builds get a higher-occupancy variant planned.
  if (capMode != RegisterCapMode::Off && mode == JitMode::Link)
    planOccupancyBuild(*lk, cache, cubinKey, regs, localBytes,
                       capMode == RegisterCapMode::On);
  return lk;
}
} // namespace

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

llvm::Expected<Module> Module::fromFile(llvm::StringRef path,
                                        ModuleOptions options) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf)
    return makeError("cannot read kernel file " + path + ": " +
                     buf.getError().message());
  return fromSource((*buf)->getBuffer().str(), path.str(), std::move(options));
}

Module Module::fromSource(std::string source, std::string filename,
                          ModuleOptions options) {
  return Module(std::make_shared<State>(std::move(source), std::move(filename),
                                        std::move(options)));
}

llvm::Expected<Kernel> Module::kernel(llvm::StringRef name) const {
  auto params = kernelParameters(*state_, name);
  if (!params)
    return params.takeError();
  auto layers = state_->decorators
                    ? state_->decorators(state_->source, state_->filename, name)
                    : kernelLayers(*state_, name);
  if (!layers)
    return layers.takeError();
  auto ks = std::make_shared<Kernel::State>();
  ks->module = state_;
  ks->name = name.str();
  ks->params = std::move(*params);
  if (*layers && !(*layers)->empty()) {
    ks->layers = std::move(*layers);
    if (ks->layers->autotune)
      ks->tuner = std::make_unique<Autotuner>(
          *ks->layers->autotune, ks->name, state_->hash, &state_->cache,
          state_->autotune);
  }
  return Kernel(std::move(ks));
}

llvm::Expected<std::vector<std::string>> Module::kernelNames() const {
  return listKernels(state_->source, state_->filename);
}
const std::string &Module::source() const { return state_->source; }
const std::string &Module::filename() const { return state_->filename; }
const std::string &Module::sourceHash() const { return state_->hash; }

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

Kernel Kernel::fromCompiled(CompiledKernel compiled) {
  auto ks = std::make_shared<Kernel::State>();
  ks->name = compiled.info.name;
  std::string infoText;
  llvm::raw_string_ostream(infoText) << compiled.info.toJSON();
  ks->precompiledKey = sha256Hex("precompiled\n" + infoText + "\n" +
                                 compiled.ptx);
  ks->precompiled = std::make_shared<const CompiledKernel>(std::move(compiled));
  return Kernel(std::move(ks));
}

const std::string &Kernel::name() const { return state_->name; }
llvm::ArrayRef<KernelParameter> Kernel::params() const {
  return state_->params;
}

llvm::Expected<KernelSpec> Kernel::specialize(llvm::ArrayRef<Arg> args,
                                              const LaunchOptions &options,
                                              llvm::StringRef arch) const {
  if (state_->precompiled)
    return makeError("kernel `" + state_->name +
                     "` was compiled ahead of time; it has no specializations");
  return deriveSpec(state_->name, state_->params, args, options, arch);
}

llvm::Expected<std::shared_ptr<const CompiledKernel>>
Kernel::compileFor(llvm::StringRef arch, llvm::ArrayRef<Arg> args,
                   const LaunchOptions &options, PrepareStats *stats) const {
  const State &s = *state_;
  if (s.precompiled)
    return s.precompiled;
  auto spec = deriveSpec(s.name, s.params, args, options, arch);
  if (!spec)
    return spec.takeError();
  return compileCached({s.module->source, s.module->filename, s.module->hash,
                        *spec},
                       s.module->cache, s.module->compile, stats);
}

LoadedKernel::~LoadedKernel() {
  // Kernels launched from it may still run: unloading waits for them.
  if (!module)
    return;
  llvm::consumeError(device->synchronize());
  device->driver().cuModuleUnload(module);
  const Driver &drv = device->driver();
  if (alternative.module)
    drv.cuModuleUnload(alternative.module);
  for (const Alternative::Sample &sample : alternative.recorded) {
    drv.cuEventDestroy(sample.start);
    drv.cuEventDestroy(sample.stop);
  }
}

llvm::Expected<std::shared_ptr<LoadedKernel>> Kernel::resolve(llvm::ArrayRef<Arg> args,
                                               const LaunchOptions &options,
                                               PrepareStats *stats) {
  State &s = *state_;
  bool fixed = s.precompiled != nullptr;
  Signature sig;
  launchSignature(args, options, fixed, sig);
  unsigned gen = memoryCacheGeneration();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.generation != gen) {
      s.table.clear();
      s.generation = gen;
    }
    if (auto it = s.table.find(sig); it != s.table.end()) {
      if (stats)
        *stats = PrepareStats(); // From memory, nothing loaded.
      return it->second;
    }
  }
  // Compiling and loading run without the kernel's or the registry's lock,
  // so that the configs of an autotuned kernel (one Kernel, several
  // specializations) compile and JIT in parallel threads. Two threads with
  // the same specialization may both do the work; the first to publish wins.

  auto t0 = std::chrono::steady_clock::now();
  PrepareStats local;
  PrepareStats &st = stats ? *stats : local;
  st = PrepareStats();
  auto dev = Device::get(options.device);
  if (!dev)
    return dev.takeError();

  std::shared_ptr<const CompiledKernel> ck;
  std::string key;
  DiskCache *cache = nullptr;
  if (fixed) {
    ck = s.precompiled;
    key = s.precompiledKey;
  } else {
    auto spec = deriveSpec(s.name, s.params, args, options, dev->arch());
    if (!spec)
      return spec.takeError();
    cache = &s.module->cache;
    auto compiled = compileCached({s.module->source, s.module->filename,
                                   s.module->hash, *spec},
                                  *cache, s.module->compile, &st);
    if (!compiled)
      return compiled.takeError();
    ck = *compiled;
    key = st.key;
  }

  std::string regKey = std::to_string(dev->index()) + ":" + key;
  LoadedRegistry &reg = registry();
  auto registered = [&]() -> std::shared_ptr<LoadedKernel> {
    std::lock_guard<std::mutex> rlock(reg.mutex);
    auto it = reg.byKey.find(regKey);
    return it != reg.byKey.end() && it->second->generation == gen
               ? it->second
               : nullptr;
  };
  std::shared_ptr<LoadedKernel> lk = registered();
  if (!lk) {
    auto loaded = loadOnDevice(*dev, ck, key, cache, st);
    if (!loaded)
      return loaded.takeError();
    (*loaded)->onesAreConstant = !fixed;
    std::lock_guard<std::mutex> rlock(reg.mutex);
    auto [it, inserted] = reg.byKey.try_emplace(regKey, *loaded);
    if (!inserted && it->second->generation != gen)
      it->second = *loaded; // a stale entry from before clearMemoryCaches()
    lk = it->second;        // ours, or the one another thread loaded first
  }
  st.key = key;
  st.totalMs = msSince(t0);
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.generation == gen)
    lk = s.table.try_emplace(sig, lk).first->second;
  return lk;
}

llvm::Expected<const CompiledKernel &>
Kernel::prepare(llvm::ArrayRef<Arg> args, const LaunchOptions &options,
                PrepareStats *stats) {
  auto lk = resolve(args, options, stats);
  if (!lk)
    return lk.takeError();
  return *(*lk)->compiled;
}

llvm::Error Kernel::launch(const Grid &grid, llvm::ArrayRef<Arg> args,
                           const LaunchOptions &options) {
  if (state_->layers)
    return launchWithLayers(&grid, nullptr, args, options);
  auto resolved = resolve(args, options, nullptr);
  if (!resolved)
    return resolved.takeError();
  return launchLoaded(**resolved, grid, args, options);
}

llvm::Error Kernel::launch(const Grid &grid, llvm::ArrayRef<Arg> args,
                           const LaunchOptions &options, LaunchMemo &memo) {
  if (state_->layers)
    return launchWithLayers(&grid, nullptr, args, options);
  llvm::SmallString<32> classes;
  appendArgClasses(args, classes);
  unsigned gen = memoryCacheGeneration();
  if (!memo.loaded || memo.generation != gen || memo.args != classes) {
    auto resolved = resolve(args, options, nullptr);
    if (!resolved)
      return resolved.takeError();
    memo.loaded = std::move(*resolved);
    memo.args = classes;
    memo.generation = gen;
  }
  return launchLoaded(*memo.loaded, grid, args, options);
}

llvm::Error Kernel::launchLoaded(LoadedKernel &lk, const Grid &grid,
                                 llvm::ArrayRef<Arg> args,
                                 const LaunchOptions &options) {
  const KernelInfo &info = lk.compiled->info;
  bool onesAreConstant = lk.onesAreConstant;
  if (auto err = validateLaunch(info, args, grid, lk.device->limits(),
                                onesAreConstant, options.nullPointers))
    return err;
  CUstream stream = options.stream;
  bool cooperative = options.cooperative;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return llvm::Error::success(); // Nothing to run, as in Triton.
  PackedArgs packed(info, args, onesAreConstant);
  if (auto err = lk.device->makeCurrent())
    return err;
  const Driver &drv = lk.device->driver();
  if (auto err = packed.addTensorMaps(info, drv))
    return err;
  // A stream of another context would make cuLaunchKernel fail with a
  // bare CUDA_ERROR_INVALID_HANDLE (or run in the wrong context): name it.
  // The stream that last passed on this thread and device is not asked
  // again: torch launches on the same current stream call after call, and
  // the query is a driver call on every launch's path.
  thread_local const Device *checkedDevice = nullptr;
  thread_local CUstream checkedStream = nullptr;
  if (stream && drv.cuStreamGetCtx &&
      !(stream == checkedStream && lk.device == checkedDevice)) {
    CUcontext streamCtx = nullptr;
    CUresult r = drv.cuStreamGetCtx(stream, &streamCtx);
    if (r != cu::SUCCESS)
      return makeError(llvm::formatv("kernel `{0}`: launch option `stream`: "
                                     "not a usable stream: {1}",
                                     info.name, drv.describe(r)));
    if (streamCtx != lk.device->context())
      return makeError(llvm::formatv(
          "kernel `{0}`: launch option `stream` belongs to another CUDA "
          "context than device {1}'s primary context, where the kernel is "
          "loaded",
          info.name, lk.device->index()));
    checkedDevice = lk.device;
    checkedStream = stream;
  }
  if (options.programmaticLaunch && !drv.cuLaunchKernelEx)
    return makeError(llvm::formatv(
        "kernel `{0}`: launch_pdl: the CUDA driver ({1}) lacks cuLaunchKernelEx",
        info.name, drv.libraryPath));
  if (cooperative && !drv.cuLaunchCooperativeKernel)
    return makeError(llvm::formatv(
        "kernel `{0}`: launch_cooperative_grid: the CUDA driver ({1}) lacks "
        "cuLaunchCooperativeKernel",
        info.name, drv.libraryPath));
  // The tensor maps the kernel builds live in scratch ordered on the
  // launch's stream: allocated before it, freed after it.
  CUdeviceptr scratch = 0;
  if (info.globalScratchBytes) {
    uint64_t bytes = uint64_t(grid.x) * grid.y * grid.z * info.globalScratchBytes;
    auto allocated = lk.device->allocScratchAsync(bytes, stream);
    if (!allocated)
      return makeError(llvm::formatv("kernel `{0}` builds TMA tensor maps ({1} bytes per "
                                     "program): {2}",
                                     info.name, info.globalScratchBytes,
                                     llvm::toString(allocated.takeError())));
    scratch = *allocated;
    packed.addGlobalScratch(scratch);
  }
  llvm::scope_exit freeScratch([&] {
    if (scratch) // (most kernels have none: no call on their launch path)
      lk.device->freeScratchAsync(scratch, stream);
  });
  OccupancyLaunch run{lk.function, {}};
  if (!cooperative && uint64_t(grid.x) * grid.y * grid.z > lk.alternative.fromPrograms)
    run = beginLaunch(lk, stream);
  CUresult r;
  if (options.programmaticLaunch) {
    // Programmatic dependent launch, cooperative too when asked: one launch
    // with both attributes.
    LaunchAttribute attrs[2];
    attrs[0].id = cu::LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attrs[0].value.value = 1;
    attrs[1].id = cu::LAUNCH_ATTRIBUTE_COOPERATIVE;
    attrs[1].value.value = 1;
    LaunchConfig config{grid.x,           grid.y, grid.z, info.numWarps * 32,       1, 1,
                        info.sharedBytes, stream, attrs,  cooperative ? 2u : 1u};
    r = drv.cuLaunchKernelEx(&config, run.function, packed.data(), nullptr);
  } else if (cooperative) {
    r = drv.cuLaunchCooperativeKernel(lk.function, grid.x, grid.y, grid.z,
                                      info.numWarps * 32, 1, 1, info.sharedBytes,
                                      stream, packed.data());
  } else {
    r = drv.cuLaunchKernel(run.function, grid.x, grid.y, grid.z, info.numWarps * 32, 1, 1,
                           info.sharedBytes, stream, packed.data(), nullptr);
  }
  if (run.sample.start)
    endLaunch(lk, run, stream, r == cu::SUCCESS);
  if (r == cu::ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)
    return makeError(llvm::formatv(
        "kernel `{0}`: launch_cooperative_grid: the grid {1}x{2}x{3} ({4} "
        "programs of {5} threads) cannot be resident on device {6} at once; "
        "launch fewer programs",
        info.name, grid.x, grid.y, grid.z,
        uint64_t(grid.x) * grid.y * grid.z, info.numWarps * 32,
        lk.device->index()));
  if (r != cu::SUCCESS)
    return makeError(llvm::formatv("{0} of `{1}` (grid {2}x{3}x{4}, "
                                   "{5} threads, {6} bytes of shared memory): "
                                   "{7}",
                                   options.programmaticLaunch ? "cuLaunchKernelEx"
                                   : cooperative              ? "cuLaunchCooperativeKernel"
                                                              : "cuLaunchKernel",
                                   info.name, grid.x, grid.y, grid.z,
                                   info.numWarps * 32, info.sharedBytes,
                                   drv.describe(r)));
  return llvm::Error::success();
}
