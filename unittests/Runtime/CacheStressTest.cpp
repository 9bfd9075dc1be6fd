//===- CacheStressTest.cpp - 8 processes share one KILN_CACHE_DIR ---------===//
//
// Eight child processes (this test binary re-run with
// --gtest_filter=CacheStress.Child) compile the same and different
// specializations of one kernel through one disk cache, dropping their
// memory caches each round so every round reads the disk. Meanwhile this
// process truncates, corrupts and deletes entries in place. Checked: every
// child always gets the PTX of a reference compile made without a cache; an
// entry that does not decode is always one this test damaged (never one half
// written by a child); no temporary file is left behind; the cache was
// really shared (children read each other's entries).
//
//===----------------------------------------------------------------------===//
#include "kiln/Runtime/Module.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <thread>

using namespace kiln;
using namespace kiln::rt;

namespace {

constexpr const char *kSource = R"(import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * 2.0 + 1.0, mask=mask)
)";

constexpr int kChildren = 8;
constexpr int kRounds = 12;
constexpr int kBlocks[] = {64, 128, 256};

std::vector<Arg> launchArgs() {
  return {Arg::ptr(0x7f0000000000ull, DType::F32),
          Arg::ptr(0x7f0000100000ull, DType::F32), Arg::integer(1000)};
}

LaunchOptions optionsFor(int block) {
  LaunchOptions o;
  o.constexprs.emplace("BLOCK", block);
  return o;
}

/// Half the children always compile BLOCK=128 (the same entry); the others
/// walk through every block size (different entries).
int blockFor(int child, int round) {
  return child % 2 == 0 ? 128 : kBlocks[(child + round) % 3];
}

std::string readFile(llvm::StringRef path) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  return buf ? (*buf)->getBuffer().str() : std::string();
}

void writeFile(llvm::StringRef path, llvm::StringRef bytes) {
  std::ofstream(path.str(), std::ios::binary | std::ios::trunc) << bytes.str();
}

/// Cache entries (not temporaries) under `dir`.
std::vector<std::string> listEntries(llvm::StringRef dir, bool temporaries) {
  std::vector<std::string> out;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir, ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    bool isTemp = name.contains(".tmp-");
    if (it->type() == llvm::sys::fs::file_type::regular_file &&
        isTemp == temporaries)
      out.push_back(it->path());
  }
  return out;
}

/// Decodes an entry file as DiskCache does: kind and key from its name.
bool decodes(llvm::StringRef path, llvm::StringRef bytes) {
  llvm::StringRef name = llvm::sys::path::filename(path);
  auto [key, kind] = name.split('.');
  auto payload = decodeCacheEntry(bytes, kind, key);
  if (payload)
    return true;
  llvm::consumeError(payload.takeError());
  return false;
}

} // namespace

// One child: rounds of compileFor through the shared disk cache.
TEST(CacheStress, Child) {
  const char *id = std::getenv("KILN_CACHE_STRESS_CHILD");
  const char *refDir = std::getenv("KILN_CACHE_STRESS_REF");
  if (!id || !refDir)
    GTEST_SKIP() << "runs only as a child of CacheStress.EightProcesses";
  int child = std::atoi(id);
  ModuleOptions mo;
  mo.cache = CacheConfig::fromEnv(); // KILN_CACHE_DIR from the parent.
  Module m = Module::fromSource(kSource, "scale.py", mo);
  Kernel k = llvm::cantFail(m.kernel("scale"));
  int fromDisk = 0, compiled = 0;
  for (int round = 0; round < kRounds; ++round) {
    clearMemoryCaches();
    int block = blockFor(child, round);
    PrepareStats stats;
    auto ck = k.compileFor("sm_90", launchArgs(), optionsFor(block), &stats);
    ASSERT_TRUE(bool(ck)) << llvm::toString(ck.takeError());
    std::string expected =
        readFile((llvm::Twine(refDir) + "/ref-" + llvm::Twine(block) + ".ptx")
                     .str());
    ASSERT_FALSE(expected.empty());
    ASSERT_EQ((*ck)->ptx, expected)
        << "child " << child << " round " << round << " BLOCK=" << block;
    (stats.ptxFrom == PrepareStats::From::Disk ? fromDisk : compiled) += 1;
  }
  std::ofstream((llvm::Twine(refDir) + "/child-" + id + ".txt").str())
      << fromDisk << " " << compiled << "\n";
}

TEST(CacheStress, EightProcesses) {
  llvm::SmallString<128> root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kiln-cache-stress", root));
  std::string cacheDir = (root + "/cache").str();
  std::string refDir = (root + "/ref").str();
  ASSERT_FALSE(llvm::sys::fs::create_directories(refDir));

  // Reference PTX, compiled with no disk cache at all.
  {
    ModuleOptions mo;
    mo.cache = CacheConfig{/*diskEnabled=*/false, "", false};
    Module m = Module::fromSource(kSource, "scale.py", mo);
    Kernel k = llvm::cantFail(m.kernel("scale"));
    for (int block : kBlocks) {
      clearMemoryCaches();
      auto ck = k.compileFor("sm_90", launchArgs(), optionsFor(block));
      ASSERT_TRUE(bool(ck)) << llvm::toString(ck.takeError());
      writeFile(refDir + "/ref-" + std::to_string(block) + ".ptx",
                (*ck)->ptx);
    }
  }

  std::string exe = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&readFile));
  ASSERT_FALSE(exe.empty());
  ::setenv("KILN_CACHE_DIR", cacheDir.c_str(), 1);
  ::setenv("KILN_CACHE", "1", 1);
  ::setenv("KILN_CACHE_STRESS_REF", refDir.c_str(), 1);
  std::vector<llvm::sys::ProcessInfo> children;
  for (int c = 0; c < kChildren; ++c) {
    ::setenv("KILN_CACHE_STRESS_CHILD", std::to_string(c).c_str(), 1);
    std::string err;
    std::string log = refDir + "/child-" + std::to_string(c) + ".log";
    children.push_back(llvm::sys::ExecuteNoWait(
        exe, {exe, "--gtest_filter=CacheStress.Child"}, std::nullopt,
        {std::nullopt, llvm::StringRef(log), llvm::StringRef(log)}, 0, &err));
    ASSERT_NE(children.back().Pid, 0) << err;
  }
  ::unsetenv("KILN_CACHE_STRESS_CHILD");
  ::unsetenv("KILN_CACHE_STRESS_REF");

  // Damage entries while the children run. Every damaged content is
  // remembered: an entry that fails to decode must be one of them.
  std::mt19937 rng(13);
  std::set<std::string> damaged;
  int damages = 0;
  auto checkEntries = [&] {
    for (const std::string &path : listEntries(cacheDir, false)) {
      auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
      // Removed meanwhile by a child that found it corrupt (and maybe
      // written again since: the open failed, the path exists again).
      if (!buf)
        continue;
      std::string bytes = (*buf)->getBuffer().str();
      EXPECT_TRUE(decodes(path, bytes) || damaged.count(bytes))
          << path << " does not decode and was not damaged by the test ("
          << bytes.size() << " bytes)";
    }
  };
  std::vector<bool> done(kChildren, false);
  int running = kChildren;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(8);
  while (running > 0 && std::chrono::steady_clock::now() < deadline) {
    std::vector<std::string> entries = listEntries(cacheDir, false);
    if (!entries.empty()) {
      const std::string &path = entries[rng() % entries.size()];
      std::string bytes = readFile(path);
      if (!bytes.empty()) {
        std::string bad = bytes;
        switch (rng() % 3) {
        case 0: // Truncated, as by a crash during a non-atomic write.
          bad.resize(rng() % bytes.size());
          break;
        case 1: // One payload byte flipped.
          bad[bytes.size() - 1 - rng() % std::min<size_t>(bytes.size(), 200)] ^=
              0x20;
          break;
        case 2: // Garbage appended.
          bad += "\ngarbage";
          break;
        }
        damaged.insert(bad);
        writeFile(path, bad);
        ++damages;
      }
    }
    checkEntries();
    std::this_thread::sleep_for(std::chrono::milliseconds(15));
    for (int c = 0; c < kChildren; ++c) {
      if (done[c])
        continue;
      llvm::sys::ProcessInfo r = llvm::sys::Wait(children[c], 0);
      if (r.Pid == children[c].Pid) {
        done[c] = true;
        --running;
        EXPECT_EQ(r.ReturnCode, 0)
            << "child " << c << " failed:\n"
            << readFile(refDir + "/child-" + std::to_string(c) + ".log");
      }
    }
  }
  for (int c = 0; c < kChildren; ++c)
    if (!done[c]) {
      llvm::sys::ProcessInfo r = llvm::sys::Wait(children[c], 60);
      EXPECT_EQ(r.ReturnCode, 0)
          << "child " << c << " timed out or failed:\n"
          << readFile(refDir + "/child-" + std::to_string(c) + ".log");
    }
  ::unsetenv("KILN_CACHE_DIR");
  ::unsetenv("KILN_CACHE");

  EXPECT_GT(damages, 0) << "the test never damaged an entry";
  checkEntries();
  EXPECT_TRUE(listEntries(cacheDir, true).empty())
      << "temporary files left in the cache";
  int fromDisk = 0, compiled = 0;
  for (int c = 0; c < kChildren; ++c) {
    std::ifstream in(refDir + "/child-" + std::to_string(c) + ".txt");
    int d = -1, n = -1;
    in >> d >> n;
    EXPECT_EQ(d + n, kRounds) << "child " << c << " did not report";
    fromDisk += d;
    compiled += n;
  }
  // The children shared the cache: most rounds were served from disk.
  EXPECT_GT(fromDisk, 0);
  EXPECT_GT(compiled, 0);

  // A healthy cache serves the reference PTX afterwards.
  ModuleOptions mo;
  mo.cache = CacheConfig{true, cacheDir, false};
  Module m = Module::fromSource(kSource, "scale.py", mo);
  Kernel k = llvm::cantFail(m.kernel("scale"));
  for (int block : kBlocks) {
    clearMemoryCaches();
    auto ck = k.compileFor("sm_90", launchArgs(), optionsFor(block));
    ASSERT_TRUE(bool(ck)) << llvm::toString(ck.takeError());
    EXPECT_EQ((*ck)->ptx,
              readFile(refDir + "/ref-" + std::to_string(block) + ".ptx"));
  }
  llvm::sys::fs::remove_directories(root);
}
