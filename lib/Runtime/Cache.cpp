//===- Cache.cpp - Cache keys, disk entries and the memory cache ----------===//
#include "kiln/Runtime/Cache.h"
#include "RuntimeError.h"
#include "kiln/Target/LLVMToPTX.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <atomic>
#include <cstring>
#include <elf.h>
#include <link.h>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

#ifndef KILN_VERSION_STRING
#define KILN_VERSION_STRING "0.0.0"
#endif

using namespace kiln;
using namespace kiln::rt;

//===----------------------------------------------------------------------===//
// Configuration and keys
//===----------------------------------------------------------------------===//

CacheConfig CacheConfig::fromEnv() {
  CacheConfig c;
  if (const char *v = std::getenv("KILN_CACHE")) {
    std::string s = llvm::StringRef(v).trim().lower();
    if (s == "0" || s == "false" || s == "off" || s == "no")
      c.diskEnabled = false;
  }
  if (const char *d = std::getenv("KILN_CACHE_DIR"); d && *d)
    c.dir = d;
  else if (const char *home = std::getenv("HOME"); home && *home)
    c.dir = std::string(home) + "/.cache/kiln";
  if (const char *log = std::getenv("KILN_LOG")) {
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(log).split(parts, ',');
    for (llvm::StringRef p : parts)
      if (p.trim() == "cache" || p.trim() == "all")
        c.log = true;
  }
  return c;
}

std::string kiln::rt::sha256Hex(llvm::StringRef data) {
  auto digest = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(data.bytes_begin(), data.size()));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

namespace {
struct BuildIdSearch {
  uintptr_t address; // Some code of this library.
  std::string id;
};

/// The GNU build-id note of the loaded object that contains search->address.
int findBuildId(dl_phdr_info *info, size_t, void *data) {
  auto *search = static_cast<BuildIdSearch *>(data);
  bool contains = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && search->address >= start &&
        search->address < start + ph.p_memsz)
      contains = true;
  }
  if (!contains)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE)
      continue;
    const char *p = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
    const char *end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      auto *note = reinterpret_cast<const ElfW(Nhdr) *>(p);
      const char *name = p + sizeof(ElfW(Nhdr));
      const char *desc = name + ((note->n_namesz + 3) & ~3u);
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0 && desc + note->n_descsz <= end) {
        search->id = llvm::toHex(
            llvm::StringRef(desc, note->n_descsz), /*LowerCase=*/true);
        return 1;
      }
      p = desc + ((note->n_descsz + 3) & ~3u);
    }
  }
  return 1;
}
} // namespace

const std::string &kiln::rt::kilnBuildVersion() {
  static const std::string version = [] {
    // The linker's build-id names this exact build of the compiler (Kiln
    // links statically); without one, hash the executable's bytes.
    BuildIdSearch search{reinterpret_cast<uintptr_t>(&findBuildId), ""};
    dl_iterate_phdr(findBuildId, &search);
    if (!search.id.empty())
      return std::string(KILN_VERSION_STRING) + "+" + search.id;
    auto buf = llvm::MemoryBuffer::getFile("/proc/self/exe", /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    if (!buf)
      return std::string(KILN_VERSION_STRING) + "+unknown-build";
    return std::string(KILN_VERSION_STRING) +
           llvm::formatv("+{0:x-16}", llvm::xxh3_64bits((*buf)->getBuffer()))
               .str();
  }();
  return version;
}

std::string kiln::rt::cacheKeyText(const CacheKeyInputs &in) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "kiln-cache-key 1\n";
  os << "kiln " << in.kilnVersion << "\n";
  os << "source-sha256 " << in.sourceHash << "\n";
  os << "kernel " << in.spec.kernelName << "\n";
  os << "signature ";
  for (size_t i = 0; i < in.spec.signature.size(); ++i)
    os << (i ? ";" : "") << in.spec.signature[i].toString();
  os << "\nconstexprs ";
  bool first = true;
  for (const auto &[name, value] : in.spec.constexprs) { // std::map: sorted.
    os << (first ? "" : ";") << name << "=" << value;
    first = false;
  }
  os << "\nnum-warps " << in.spec.numWarps << "\n";
  os << "num-stages " << in.spec.numStages << "\n";
  os << "arch " << in.spec.arch << "\n";
  if (in.spec.debug) // only then: keys of non-debug builds stay as they were
    os << "debug 1\n";
  if (!in.spec.fpFusion) // likewise
    os << "fp-fusion 0\n";
  os << "options " << in.options << "\n";
  return text;
}

std::string kiln::rt::cacheKey(const CacheKeyInputs &in) {
  return sha256Hex(cacheKeyText(in));
}

//===----------------------------------------------------------------------===//
// Entry encoding
//===----------------------------------------------------------------------===//

static constexpr llvm::StringLiteral kMagic = "KILNCACHE";

std::string kiln::rt::encodeCacheEntry(llvm::StringRef kind,
                                       llvm::StringRef key,
                                       llvm::StringRef payload) {
  std::string out = llvm::formatv("{0} 1 {1} {2} {3} {4}\n", kMagic, kind, key,
                                  payload.size(), sha256Hex(payload))
                        .str();
  out += payload.str();
  return out;
}

llvm::Expected<std::string> kiln::rt::decodeCacheEntry(llvm::StringRef file,
                                                       llvm::StringRef kind,
                                                       llvm::StringRef key) {
  size_t nl = file.find('\n');
  if (nl == llvm::StringRef::npos || nl > 512)
    return makeError("no header line (empty or truncated file)");
  llvm::SmallVector<llvm::StringRef> fields;
  file.take_front(nl).split(fields, ' ');
  if (fields.size() != 6 || fields[0] != kMagic)
    return makeError("bad header");
  if (fields[1] != "1")
    return makeError("unknown entry format version " + fields[1]);
  if (fields[2] != kind || fields[3] != key)
    return makeError("header names another entry (" + fields[2] + " " +
                     fields[3] + ")");
  size_t size = 0;
  if (fields[4].getAsInteger(10, size))
    return makeError("bad payload size in header");
  llvm::StringRef payload = file.drop_front(nl + 1);
  if (payload.size() != size)
    return makeError(llvm::formatv("payload is {0} bytes, header says {1} "
                                   "(truncated or appended to)",
                                   payload.size(), size));
  if (sha256Hex(payload) != fields[5])
    return makeError("checksum mismatch (corrupt payload)");
  return payload.str();
}

//===----------------------------------------------------------------------===//
// DiskCache
//===----------------------------------------------------------------------===//

void DiskCache::log(const llvm::Twine &message) const {
  if (config_.log)
    llvm::errs() << "kiln[cache]: " << message << "\n";
}

std::string DiskCache::entryPath(llvm::StringRef key,
                                 llvm::StringRef kind) const {
  llvm::SmallString<256> p(config_.dir);
  llvm::sys::path::append(p, "v1", key.take_front(2), key + "." + kind);
  return std::string(p);
}

std::optional<std::string> DiskCache::loadPayload(llvm::StringRef key,
                                                  llvm::StringRef kind) {
  if (!enabled())
    return std::nullopt;
  std::string path = entryPath(key, kind);
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf)
    return std::nullopt;
  auto payload = decodeCacheEntry((*buf)->getBuffer(), kind, key);
  if (!payload) {
    log("corrupt entry " + path + ": " + llvm::toString(payload.takeError()) +
        "; removing it and recompiling");
    llvm::sys::fs::remove(path);
    return std::nullopt;
  }
  return std::move(*payload);
}

llvm::Error DiskCache::storePayload(llvm::StringRef key, llvm::StringRef kind,
                                    llvm::StringRef payload) {
  if (!enabled())
    return llvm::Error::success();
  std::string path = entryPath(key, kind);
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  if (auto ec = llvm::sys::fs::create_directories(dir))
    return makeError("cannot create cache folder " + dir + ": " +
                     ec.message());
  // Unique temporary in the same folder, then an atomic rename.
  llvm::SmallString<256> tmp;
  int fd = -1;
  if (auto ec = llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", fd,
                                                tmp))
    return makeError("cannot create a temporary cache file in " + dir + ": " +
                     ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << encodeCacheEntry(kind, key, payload);
    os.close();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return makeError("cannot write cache file " + tmp + ": " + why);
    }
  }
  if (auto ec = llvm::sys::fs::rename(tmp, path)) {
    llvm::sys::fs::remove(tmp);
    return makeError("cannot rename cache file into " + path + ": " +
                     ec.message());
  }
  return llvm::Error::success();
}

std::optional<CompiledKernel> DiskCache::loadKernel(llvm::StringRef key) {
  std::optional<std::string> payload = loadPayload(key, "kernel");
  if (!payload)
    return std::nullopt;
  std::string path = entryPath(key, "kernel");
  auto reject = [&](const llvm::Twine &why) -> std::optional<CompiledKernel> {
    log("corrupt entry " + path + ": " + why + "; removing it and recompiling");
    llvm::sys::fs::remove(path);
    return std::nullopt;
  };
  auto json = llvm::json::parse(*payload);
  if (!json)
    return reject("payload is not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object *obj = json->getAsObject();
  if (!obj)
    return reject("payload is not a JSON object");
  std::optional<llvm::StringRef> ptx = obj->getString("ptx");
  std::optional<llvm::StringRef> warnings = obj->getString("warnings");
  const llvm::json::Value *info = obj->get("info");
  if (!ptx || !info)
    return reject("payload lacks `ptx` or `info`");
  std::string infoText;
  llvm::raw_string_ostream(infoText) << *info;
  auto parsed = KernelInfo::fromJSON(infoText);
  if (!parsed)
    return reject("bad kernel info: " + llvm::toString(parsed.takeError()));
  CompiledKernel k;
  k.info = std::move(*parsed);
  k.ptx = ptx->str();
  if (warnings)
    k.warnings = warnings->str();
  return k;
}

llvm::Error DiskCache::storeKernel(llvm::StringRef key,
                                   const CompiledKernel &kernel) {
  llvm::json::Object obj{{"format", 1},
                         {"kernel", kernel.info.name},
                         {"kiln", kilnBuildVersion()},
                         {"info", kernel.info.toJSON()},
                         {"ptx", kernel.ptx}};
  if (!kernel.warnings.empty())
    obj["warnings"] = kernel.warnings;
  std::string payload;
  llvm::raw_string_ostream(payload) << llvm::json::Value(std::move(obj));
  return storePayload(key, "kernel", payload);
}

std::optional<std::string> DiskCache::loadBinary(llvm::StringRef key) {
  return loadPayload(key, "cubin");
}

llvm::Error DiskCache::storeBinary(llvm::StringRef key,
                                   llvm::StringRef bytes) {
  return storePayload(key, "cubin", bytes);
}

//===----------------------------------------------------------------------===//
// Memory cache and compileCached
//===----------------------------------------------------------------------===//

namespace {
struct MemoryCache {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const CompiledKernel>> kernels;
};
MemoryCache &memoryCache() {
  static auto *cache = new MemoryCache();
  return *cache;
}
std::atomic<unsigned> generation{0};

/// Puts `full` back into diagnostics rendered against its base name.
std::string restoreFilename(std::string message, llvm::StringRef base,
                            llvm::StringRef full) {
  if (base == full)
    return message;
  std::string out;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(message).split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    llvm::StringRef line = lines[i];
    if (i)
      out += '\n';
    if (line.starts_with((base + ":").str()))
      out += (full + line.drop_front(base.size())).str();
    else
      out += line.str();
  }
  return out;
}

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - t0)
      .count();
}
} // namespace

void kiln::rt::clearMemoryCaches() {
  MemoryCache &mc = memoryCache();
  std::lock_guard<std::mutex> lock(mc.mutex);
  mc.kernels.clear();
  ++generation;
}

unsigned kiln::rt::memoryCacheGeneration() { return generation.load(); }

namespace {
struct WarningSink {
  std::mutex mutex;
  std::vector<std::string> pending;
  std::set<std::string> seen;
};
WarningSink &warningSink() {
  static WarningSink sink;
  return sink;
}
void recordCompileWarnings(const std::string &text) {
  WarningSink &w = warningSink();
  std::lock_guard<std::mutex> lock(w.mutex);
  if (w.seen.insert(text).second)
    w.pending.push_back(text);
}
} // namespace

std::string kiln::rt::takeCompileWarnings() {
  WarningSink &w = warningSink();
  std::lock_guard<std::mutex> lock(w.mutex);
  std::string joined;
  for (const std::string &t : w.pending)
    joined += (joined.empty() ? "" : "\n") + t;
  w.pending.clear();
  return joined;
}

llvm::Expected<std::shared_ptr<const CompiledKernel>>
kiln::rt::compileCached(const CompileRequest &req, DiskCache &cache,
                        const CompileFunction &compile, PrepareStats *stats) {
  auto t0 = std::chrono::steady_clock::now();
  CacheKeyInputs inputs{kilnBuildVersion(), req.sourceHash.str(), req.spec};
  // log/sin/cos/erf/... compile to libdevice's code only where it is
  // installed, and libdevice builds differ in the last bit of some functions:
  // the key names the file (path, size, modification time), so pointing
  // KILN_LIBDEVICE at another build never reuses the first one's PTX.
  if (std::optional<std::string> libdevice = findLibdevice()) {
    inputs.options = "ptx libdevice " + *libdevice;
    llvm::sys::fs::file_status status;
    if (!llvm::sys::fs::status(*libdevice, status))
      inputs.options += " " + std::to_string(status.getSize()) + " " +
                        std::to_string(llvm::sys::toTimeT(status.getLastModificationTime()));
  }
  // KILN_LLVM_OPTIONS changes the PTX: never share entries across values.
  if (const std::string &llvmOptions = llvmOptionsFromEnvironment(); !llvmOptions.empty())
    inputs.options += (inputs.options.empty() ? "" : " ") + ("llvm-options " + llvmOptions);
  std::string key = cacheKey(inputs);
  PrepareStats local;
  PrepareStats &st = stats ? *stats : local;
  st.key = key;
  const std::string &kname = req.spec.kernelName;
  std::string shortKey = key.substr(0, 16);

  MemoryCache &mc = memoryCache();
  {
    std::lock_guard<std::mutex> lock(mc.mutex);
    if (auto it = mc.kernels.find(key); it != mc.kernels.end()) {
      st.ptxFrom = PrepareStats::From::Memory;
      return it->second;
    }
  }

  std::shared_ptr<const CompiledKernel> result;
  if (auto fromDisk = cache.loadKernel(key)) {
    if (fromDisk->info.name != kname) {
      cache.log("corrupt entry " + cache.entryPath(key, "kernel") +
                ": holds kernel `" + fromDisk->info.name + "`; recompiling");
    } else {
      st.ptxFrom = PrepareStats::From::Disk;
      result = std::make_shared<const CompiledKernel>(std::move(*fromDisk));
      cache.log(llvm::formatv("hit {0} {1} ({2:f2} ms)", kname, shortKey,
                              msSince(t0))
                    .str());
    }
  }
  if (!result) {
    cache.log("miss " + kname + " " + shortKey + " [" + req.spec.toString() +
              "]" + (cache.enabled() ? "" : " (disk cache off)"));
    // Compile under the base name: entries hold no paths and the same file
    // content anywhere maps to the same entry.
    llvm::StringRef base = llvm::sys::path::filename(req.filename);
    auto tc = std::chrono::steady_clock::now();
    auto compiled = compile(req.source, base, req.spec);
    st.compileMs = msSince(tc);
    if (!compiled)
      return makeError(restoreFilename(llvm::toString(compiled.takeError()),
                                       base, req.filename));
    if (compiled->info.name.empty())
      compiled->info.name = kname;
    if (compiled->ptx.empty())
      return makeError("compiler returned no PTX for kernel `" + kname + "`");
    st.ptxFrom = PrepareStats::From::Compiler;
    if (auto err = cache.storeKernel(key, *compiled))
      cache.log("not stored: " + llvm::toString(std::move(err)));
    else
      cache.log(llvm::formatv("{3} {0} {1} (compiled in {2:f2} ms)", kname,
                              shortKey, st.compileMs,
                              cache.enabled() ? "stored" : "compiled")
                    .str());
    result = std::make_shared<const CompiledKernel>(std::move(*compiled));
  }
  if (!result->warnings.empty())
    recordCompileWarnings(restoreFilename(
        result->warnings, llvm::sys::path::filename(req.filename), req.filename));
  std::lock_guard<std::mutex> lock(mc.mutex);
  auto [it, inserted] = mc.kernels.emplace(key, result);
  return it->second;
}
