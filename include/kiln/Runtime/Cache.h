//===- Cache.h - Compiled-kernel caches: key, disk entries, memory --------===//
//
// A compiled kernel (PTX + KernelInfo) is identified by a SHA-256 key over a
// canonical text (cacheKeyText) naming everything that can change the code:
//
//   kiln-cache-key 1
//   kiln <version>+<build id>
//   source-sha256 <hex of the whole kernel file>
//   kernel <name>
//   signature <entry>;<entry>;...        (ParamSpec::toString each)
//   constexprs <NAME>=<literal>;...      (sorted by name)
//   num-warps <n>
//   arch <sm_XY>
//   options <compile options>
//
// Hashing the whole source file covers every helper the kernel calls. The
// build id (the linker's GNU build-id of the binary holding Kiln, or a hash
// of the executable when it has none) makes a rebuilt compiler miss instead
// of reusing code an older build produced.
//
// On disk ($KILN_CACHE_DIR, default ~/.cache/kiln) each entry is one file
//   <dir>/v1/<key[0:2]>/<key>.kernel   (JSON: kernel, spec, info, ptx)
//   <dir>/v1/<key[0:2]>/<key>.cubin    (driver JIT output; its own key adds
//                                       the device's compute capability and
//                                       the driver version)
// made of the header line
//   KILNCACHE 1 <kind> <key> <payload bytes> <sha256 of payload>\n
// and the payload. Files are written to a unique temporary name in the same
// folder and renamed into place, so readers never see half an entry and
// concurrent writers of the same key are harmless. A header, size or
// checksum mismatch marks the entry corrupt: it is removed and recompiled,
// never loaded. Entries hold no paths (sources are compiled under their base
// name). KILN_CACHE=0 turns the disk cache off; KILN_LOG=cache prints hits,
// misses and corrupt entries to stderr.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_CACHE_H
#define KILN_RUNTIME_CACHE_H

#include "kiln/Frontend/Spec.h"
#include "kiln/Target/Pipeline.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace kiln::rt {

struct CacheConfig {
  bool diskEnabled = true;
  std::string dir; ///< Cache root; empty disables the disk cache.
  bool log = false;
  /// KILN_CACHE (0/false/off disables the disk cache), KILN_CACHE_DIR
  /// (default $HOME/.cache/kiln), KILN_LOG (comma list; "cache" logs).
  static CacheConfig fromEnv();
};

/// Everything the key is made of.
struct CacheKeyInputs {
  std::string kilnVersion; ///< kilnBuildVersion() unless testing.
  std::string sourceHash;  ///< sha256Hex of the kernel file.
  KernelSpec spec;         ///< Names the kernel, too.
  std::string options = "ptx";
};

std::string sha256Hex(llvm::StringRef data);
/// "<KILN_VERSION>+<hex build-id>" (or "+<xxh3 of the executable>" when the
/// binary has no build-id), computed once.
const std::string &kilnBuildVersion();
std::string cacheKeyText(const CacheKeyInputs &inputs);
std::string cacheKey(const CacheKeyInputs &inputs);

/// Builds the header + payload of a disk entry, and checks one read back
/// (errors say what is wrong: bad header, truncated, checksum mismatch).
std::string encodeCacheEntry(llvm::StringRef kind, llvm::StringRef key,
                             llvm::StringRef payload);
llvm::Expected<std::string> decodeCacheEntry(llvm::StringRef file,
                                             llvm::StringRef kind,
                                             llvm::StringRef key);

class DiskCache {
public:
  explicit DiskCache(CacheConfig config) : config_(std::move(config)) {}
  const CacheConfig &config() const { return config_; }
  bool enabled() const { return config_.diskEnabled && !config_.dir.empty(); }

  /// Path of an entry ("kernel" or "cubin").
  std::string entryPath(llvm::StringRef key, llvm::StringRef kind) const;

  /// The kernel entry, or nullopt on a miss. A corrupt entry is reported
  /// (KILN_LOG=cache), deleted and treated as a miss.
  std::optional<CompiledKernel> loadKernel(llvm::StringRef key);
  llvm::Error storeKernel(llvm::StringRef key, const CompiledKernel &kernel);
  std::optional<std::string> loadBinary(llvm::StringRef key);
  llvm::Error storeBinary(llvm::StringRef key, llvm::StringRef bytes);

  /// Writes `log` lines when config().log.
  void log(const llvm::Twine &message) const;

  /// The checked payload of an entry of any kind (e.g. "tune" for autotuning
  /// results), or nullopt on a miss; a corrupt file is removed first.
  std::optional<std::string> loadPayload(llvm::StringRef key,
                                         llvm::StringRef kind);
  /// Writes an entry atomically (temporary file + rename).
  llvm::Error storePayload(llvm::StringRef key, llvm::StringRef kind,
                           llvm::StringRef payload);

private:
  CacheConfig config_;
};

/// The compile step, injectable for tests (default: kiln::compileKernel).
using CompileFunction = std::function<llvm::Expected<CompiledKernel>(
    llvm::StringRef source, llvm::StringRef filename, const KernelSpec &spec)>;

/// How a specialization was obtained (for logs, tests and ln-bench).
struct PrepareStats {
  enum class From { Memory, Disk, Compiler };
  From ptxFrom = From::Memory;
  bool cubinFromDisk = false;
  bool loadedModule = false; ///< False when the function was already loaded.
  double compileMs = 0;      ///< Source -> PTX (compiler runs only).
  double jitMs = 0;          ///< PTX -> cubin by the driver.
  double loadMs = 0;         ///< cuModuleLoadData + function setup.
  double totalMs = 0;
  std::string key;
};

struct CompileRequest {
  llvm::StringRef source;
  llvm::StringRef filename; ///< For diagnostics; only its base name is cached.
  llvm::StringRef sourceHash;
  const KernelSpec &spec;
};

/// PTX + KernelInfo for a request: the process-wide memory cache, then the
/// disk cache, then `compile` (whose result is stored in both). Compile
/// errors are returned with the full filename in their locations.
llvm::Expected<std::shared_ptr<const CompiledKernel>>
compileCached(const CompileRequest &request, DiskCache &cache,
              const CompileFunction &compile, PrepareStats *stats = nullptr);

/// Warnings of the kernels compileCached produced (compiled, or read from
/// the disk cache, whose entries keep them) since the last call, each text
/// once per process, with full filenames; "" when none. Thread-safe.
std::string takeCompileWarnings();

/// Forgets every compiled and loaded kernel held in process memory (loaded
/// modules stay resident); the next launch goes to the disk cache.
void clearMemoryCaches();
/// Incremented by clearMemoryCaches (lets Kernel handles drop their tables).
unsigned memoryCacheGeneration();

} // namespace kiln::rt

#endif // KILN_RUNTIME_CACHE_H
