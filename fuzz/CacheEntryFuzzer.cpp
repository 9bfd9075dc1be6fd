//===- CacheEntryFuzzer.cpp - The disk-cache entry reader -----------------===//
//
// Input: the bytes of a cache file. If the first byte is even, the rest is
// wrapped in a valid envelope (header, size, checksum) so the payload reader
// (JSON, KernelInfo) sees it; otherwise the rest is the file as is, for the
// header parser. A rejected entry must be removed, as DiskCache promises.
//
//===----------------------------------------------------------------------===//
#include "kiln/Runtime/Cache.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace kiln::rt;

static const char kKey[] =
    "ab00000000000000000000000000000000000000000000000000000000000000";

static DiskCache &cache() {
  static DiskCache *c = [] {
    llvm::SmallString<128> dir;
    if (llvm::sys::fs::createUniqueDirectory("kiln-fuzz-cache", dir))
      abort();
    CacheConfig config;
    config.dir = std::string(dir);
    return new DiskCache(config);
  }();
  return *c;
}

static void writeEntry(llvm::StringRef path, llvm::StringRef bytes) {
  llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path));
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    abort();
  os << bytes;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  llvm::StringRef rest(reinterpret_cast<const char *>(data) + 1, size - 1);
  std::string file = (data[0] & 1) ? rest.str()
                                   : encodeCacheEntry("kernel", kKey, rest);
  llvm::consumeError(decodeCacheEntry(file, "kernel", kKey).takeError());
  std::string path = cache().entryPath(kKey, "kernel");
  writeEntry(path, file);
  std::optional<kiln::CompiledKernel> k = cache().loadKernel(kKey);
  bool exists = llvm::sys::fs::exists(path);
  if (!k && exists) {
    fprintf(stderr, "kiln fuzz: rejected cache entry was not removed\n");
    abort();
  }
  if (k)
    (void)k->info.toJSON();
  llvm::sys::fs::remove(path);
  return 0;
}
