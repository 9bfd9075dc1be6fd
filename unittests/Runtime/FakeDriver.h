//===- FakeDriver.h - Helpers for tests against FakeCuda.cpp's driver -----===//
#ifndef KILN_UNITTESTS_RUNTIME_FAKEDRIVER_H
#define KILN_UNITTESTS_RUNTIME_FAKEDRIVER_H

#include "kiln/Runtime/Device.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace kiln::rt::fakedrv {

// Before main: the runtime reads KILN_CUDA_DRIVER on its first driver call.
inline const int kUseFakeDriver = [] {
  setenv("KILN_CUDA_DRIVER", KILN_FAKE_CUDA, 1);
  return 0;
}();

struct FakeApi {
  int (*launchCount)();
  int (*launch)(int, char *, size_t, unsigned *, void **, uint64_t *, int);
  int (*memsetCount)();
  int (*memset)(int, uint64_t *, unsigned *, size_t *, uint32_t *, void **);
  int (*calls)(const char *);
  void (*reset)();
  int (*copyCount)();
  int (*copy)(int, uint64_t *, uint64_t *, size_t *);
  void (*setKernelTime)(const char *, unsigned, float);
  int (*carveout)(const char *); ///< -1 when never set
  int (*launchRegisterCap)(int); ///< launch i's `.maxnreg` (0: none)
  int (*launchWholeProgram)(int); ///< 1: launch i ran PTX loaded whole
  /// Launch i's parameter k of over 8 bytes: its size (-1: none), copied out.
  int (*launchBlob)(int, int, unsigned char *, int);
};

inline const FakeApi &fake() {
  static FakeApi api = [] {
    FakeApi a{};
    void *h = dlopen(KILN_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
    if (!h)
      return a;
    a.launchCount = (int (*)())dlsym(h, "kilnFakeLaunchCount");
    a.launch = (decltype(a.launch))dlsym(h, "kilnFakeLaunch");
    a.memsetCount = (int (*)())dlsym(h, "kilnFakeMemsetCount");
    a.memset = (decltype(a.memset))dlsym(h, "kilnFakeMemset");
    a.calls = (int (*)(const char *))dlsym(h, "kilnFakeCalls");
    a.reset = (void (*)())dlsym(h, "kilnFakeReset");
    a.copyCount = (int (*)())dlsym(h, "kilnFakeCopyCount");
    a.copy = (decltype(a.copy))dlsym(h, "kilnFakeCopy");
    a.setKernelTime = (decltype(a.setKernelTime))dlsym(h, "kilnFakeSetKernelTime");
    a.carveout = (int (*)(const char *))dlsym(h, "kilnFakeCarveout");
    a.launchRegisterCap = (int (*)(int))dlsym(h, "kilnFakeLaunchRegisterCap");
    a.launchWholeProgram = (int (*)(int))dlsym(h, "kilnFakeLaunchWholeProgram");
    a.launchBlob = (decltype(a.launchBlob))dlsym(h, "kilnFakeLaunchBlob");
    return a;
  }();
  return api;
}

struct Launch {
  std::string kernel;
  unsigned grid[3], block[3], shared;
  void *stream;
  std::vector<uint64_t> params;
};

inline std::vector<Launch> launches() {
  std::vector<Launch> out;
  for (int i = 0; i < fake().launchCount(); ++i) {
    Launch l;
    char name[256];
    unsigned d[7];
    uint64_t params[64];
    int n = fake().launch(i, name, sizeof(name), d, &l.stream, params, 64);
    l.kernel = name;
    std::memcpy(l.grid, d, 12);
    std::memcpy(l.block, d + 3, 12);
    l.shared = d[6];
    l.params.assign(params, params + n);
    out.push_back(l);
  }
  return out;
}

struct MemsetRec {
  uint64_t ptr;
  unsigned elementBytes;
  size_t count;
  uint32_t value;
  void *stream;
};

inline std::vector<MemsetRec> memsets() {
  std::vector<MemsetRec> out;
  for (int i = 0; i < fake().memsetCount(); ++i) {
    MemsetRec m;
    fake().memset(i, &m.ptr, &m.elementBytes, &m.count, &m.value, &m.stream);
    out.push_back(m);
  }
  return out;
}

inline uint64_t floatBitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

inline std::string errorText(llvm::Error e) {
  return e ? llvm::toString(std::move(e)) : std::string();
}

struct CopyRec {
  uint64_t dst, src;
  size_t bytes;
};

inline std::vector<CopyRec> copies() {
  std::vector<CopyRec> out;
  for (int i = 0; i < fake().copyCount(); ++i) {
    CopyRec c;
    fake().copy(i, &c.dst, &c.src, &c.bytes);
    out.push_back(c);
  }
  return out;
}

struct TempDir {
  llvm::SmallString<128> path;
  TempDir() { llvm::sys::fs::createUniqueDirectory("kiln-fake-cache", path); }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
  std::string str() const { return std::string(path); }
};

class FakeDriver : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_NE(fake().reset, nullptr) << "cannot open " << KILN_FAKE_CUDA;
    fake().reset();
    auto d = Device::get(0);
    ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
    dev = &*d;
  }
  Device *dev = nullptr;
};

} // namespace kiln::rt::fakedrv

#endif // KILN_UNITTESTS_RUNTIME_FAKEDRIVER_H
