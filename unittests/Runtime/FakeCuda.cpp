//===- FakeCuda.cpp - A stand-in CUDA driver for CPU-only runtime tests ---===//
//
// Built as a shared library that the runtime loads through KILN_CUDA_DRIVER
// in RuntimeFakeDriverTests. "Device memory" is host memory; the JIT turns
// PTX into a fake cubin ("FAKECUBIN <length>\n" + PTX) and rejects PTX with
// "bogus"; launches run nothing but are recorded with their parameter values
// (sizes read from the entry's .param list), so tests can check what the
// runtime asked the driver to do. kilnFake* functions expose the records.
//
// Timing: each stream has a virtual clock in ms. A launch advances its
// stream's clock by the time of the first rule (kilnFakeSetKernelTime) that
// matches it (by text in the module's PTX, or "<whole-program>" for PTX loaded
// as a whole program, and/or threads per block; default
// 1 ms); a rule with a negative time makes the launch fail with
// CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES. cuEventRecord stamps the event with the
// stream's clock; cuEventElapsedTime subtracts the stamps.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {
using CUresult = int;
constexpr CUresult OK = 0, INVALID_VALUE = 1, INVALID_IMAGE = 200,
                   INVALID_PTX = 218, INVALID_HANDLE = 400, NOT_FOUND = 500,
                   LAUNCH_OUT_OF_RESOURCES = 701,
                   COOPERATIVE_LAUNCH_TOO_LARGE = 720;

struct Module;
struct Function {
  Module *module = nullptr;
  std::string name;
  std::vector<unsigned> paramBytes;
  int maxDynamicShared = 0;
};
struct Module {
  std::string ptx;
  std::map<std::string, Function *> functions;
  bool wholeProgram = false; ///< PTX loaded by cuModuleLoadDataEx.
};
struct Link {
  std::string ptx;
  std::string cubin;
  char *errorLog = nullptr;
  size_t errorLogSize = 0;
};

struct Launch {
  std::string kernel;
  unsigned grid[3], block[3], shared;
  void *stream;
  std::vector<uint64_t> params;
  int registerCap = 0; ///< The launched build's `.maxnreg` (0: none).
  bool wholeProgram = false; ///< The launched build was PTX loaded whole.
  /// Parameters over 8 bytes (CUtensorMaps), whole, by parameter index.
  std::map<size_t, std::vector<unsigned char>> blobs;
};
struct Memset {
  uint64_t ptr;
  unsigned elementBytes;
  size_t count;
  uint32_t value;
  void *stream;
};

struct Copy {
  uint64_t dst, src;
  size_t bytes;
};
struct TimeRule {
  std::string ptxNeedle; ///< Empty: any kernel.
  unsigned threads;      ///< 0: any block size.
  float ms;              ///< < 0: the launch fails (out of resources).
};

std::mutex mutex;
std::vector<Launch> launches;
std::vector<Memset> memsets;
std::vector<Copy> copies;
std::vector<TimeRule> timeRules;
std::map<void *, double> streamClock;
std::map<void *, double> eventStamp;
std::map<std::string, int> calls;
// Shared-memory carveout preference last set per kernel name.
std::map<std::string, int> carveouts;
int dummyContext, dummyStreams[64], dummyEvents[4096];
// A context that is not the primary one, and a stream made in it.
int otherContext, otherContextStream, destroyedStream;
int nextStream = 0, nextEvent = 0;
void *current = nullptr;

void count(const char *name) {
  std::lock_guard<std::mutex> lock(mutex);
  ++calls[name];
}

/// Byte sizes of the .param entries of `.entry name(...)` in ptx.
bool parseEntry(const std::string &ptx, const std::string &name,
                std::vector<unsigned> &sizes) {
  size_t at = 0;
  while ((at = ptx.find(".entry " + name, at)) != std::string::npos) {
    size_t after = at + 7 + name.size();
    if (after < ptx.size() && (ptx[after] == '(' || ptx[after] == ' ' ||
                               ptx[after] == '\n' || ptx[after] == '\r'))
      break;
    at = after;
  }
  if (at == std::string::npos)
    return false;
  size_t open = ptx.find('(', at), brace = ptx.find('{', at);
  if (open == std::string::npos || (brace != std::string::npos && open > brace))
    return true; // No parameters.
  size_t close = ptx.find(')', open);
  std::string list = ptx.substr(open, close - open);
  size_t p = 0;
  while ((p = list.find(".param", p)) != std::string::npos) {
    p += 6;
    // `.param .align 64 .b8 name[128]`: an array of bytes (a CUtensorMap).
    size_t end = std::min(list.find(',', p), list.size());
    std::string decl = list.substr(p, end - p);
    if (size_t open = decl.find('['); open != std::string::npos) {
      sizes.push_back(unsigned(std::atoi(decl.c_str() + open + 1)));
      continue;
    }
    size_t t = list.find('.', p);
    std::string type = list.substr(t + 1, 3);
    unsigned bytes = 4;
    if (type.rfind("u64", 0) == 0 || type.rfind("b64", 0) == 0 ||
        type.rfind("s64", 0) == 0 || type.rfind("f64", 0) == 0)
      bytes = 8;
    else if (type.rfind("u16", 0) == 0 || type.rfind("b16", 0) == 0 ||
             type.rfind("s16", 0) == 0 || type.rfind("f16", 0) == 0)
      bytes = 2;
    else if (type.rfind("u8", 0) == 0 || type.rfind("b8", 0) == 0 ||
             type.rfind("s8", 0) == 0)
      bytes = 1;
    sizes.push_back(bytes);
  }
  return true;
}
} // namespace

extern "C" {
// ---- Inspection API for tests ---------------------------------------------
int kilnFakeLaunchCount() {
  std::lock_guard<std::mutex> lock(mutex);
  return int(launches.size());
}
/// Copies launch i's kernel name (NUL-terminated) and numbers out.
int kilnFakeLaunch(int i, char *name, size_t nameSize, unsigned *dims7,
                   void **stream, uint64_t *params, int maxParams) {
  std::lock_guard<std::mutex> lock(mutex);
  if (i < 0 || i >= int(launches.size()))
    return -1;
  const Launch &l = launches[i];
  std::snprintf(name, nameSize, "%s", l.kernel.c_str());
  unsigned d[7] = {l.grid[0],  l.grid[1],  l.grid[2], l.block[0],
                   l.block[1], l.block[2], l.shared};
  std::memcpy(dims7, d, sizeof(d));
  *stream = l.stream;
  int n = int(l.params.size());
  for (int k = 0; k < n && k < maxParams; ++k)
    params[k] = l.params[k];
  return n;
}
/// Bytes of launch i's parameter k when it is over 8 bytes (a CUtensorMap):
/// its size, copied up to `size` into `out`; -1 if there is no such blob.
int kilnFakeLaunchBlob(int i, int k, unsigned char *out, int size) {
  std::lock_guard<std::mutex> lock(mutex);
  if (i < 0 || i >= int(launches.size()))
    return -1;
  auto it = launches[i].blobs.find(size_t(k));
  if (it == launches[i].blobs.end())
    return -1;
  std::memcpy(out, it->second.data(), std::min<size_t>(size, it->second.size()));
  return int(it->second.size());
}
int kilnFakeLaunchRegisterCap(int i) {
  std::lock_guard<std::mutex> lock(mutex);
  return i < 0 || i >= int(launches.size()) ? -1 : launches[i].registerCap;
}
int kilnFakeLaunchWholeProgram(int i) {
  std::lock_guard<std::mutex> lock(mutex);
  return i < 0 || i >= int(launches.size()) ? -1 : launches[i].wholeProgram;
}
int kilnFakeMemsetCount() {
  std::lock_guard<std::mutex> lock(mutex);
  return int(memsets.size());
}
int kilnFakeMemset(int i, uint64_t *ptr, unsigned *elementBytes,
                   size_t *count, uint32_t *value, void **stream) {
  std::lock_guard<std::mutex> lock(mutex);
  if (i < 0 || i >= int(memsets.size()))
    return -1;
  const Memset &m = memsets[i];
  *ptr = m.ptr;
  *elementBytes = m.elementBytes;
  *count = m.count;
  *value = m.value;
  *stream = m.stream;
  return 0;
}
int kilnFakeCalls(const char *name) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = calls.find(name);
  return it == calls.end() ? 0 : it->second;
}
int kilnFakeCarveout(const char *kernel) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = carveouts.find(kernel);
  return it == carveouts.end() ? -1 : it->second;
}
int kilnFakeCopyCount() {
  std::lock_guard<std::mutex> lock(mutex);
  return int(copies.size());
}
/// Device-to-device copy i (the autotuner's save/restore of buffers).
int kilnFakeCopy(int i, uint64_t *dst, uint64_t *src, size_t *bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  if (i < 0 || i >= int(copies.size()))
    return -1;
  *dst = copies[i].dst;
  *src = copies[i].src;
  *bytes = copies[i].bytes;
  return 0;
}
/// Launches of kernels whose PTX contains `ptxNeedle` (any when empty or
/// null) with `threads` threads per block (any when 0) take `ms` (< 0:
/// fail). Earlier rules win.
void kilnFakeSetKernelTime(const char *ptxNeedle, unsigned threads, float ms) {
  std::lock_guard<std::mutex> lock(mutex);
  timeRules.push_back({ptxNeedle ? ptxNeedle : "", threads, ms});
}
/// A stream that belongs to another context than the device's primary one.
void *kilnFakeOtherContextStream() { return &otherContextStream; }
/// A handle cuStreamGetCtx rejects, as the real driver does a destroyed one.
void *kilnFakeDestroyedStream() { return &destroyedStream; }

void kilnFakeReset() {
  std::lock_guard<std::mutex> lock(mutex);
  launches.clear();
  memsets.clear();
  copies.clear();
  calls.clear();
  carveouts.clear();
  timeRules.clear();
}

// ---- Driver API -----------------------------------------------------------
CUresult cuInit(unsigned) { return OK; }
CUresult cuDriverGetVersion(int *v) {
  *v = 13000;
  return OK;
}
CUresult cuGetErrorName(CUresult r, const char **s) {
  switch (r) {
  case OK: *s = "CUDA_SUCCESS"; return OK;
  case INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; return OK;
  case INVALID_IMAGE: *s = "CUDA_ERROR_INVALID_IMAGE"; return OK;
  case INVALID_PTX: *s = "CUDA_ERROR_INVALID_PTX"; return OK;
  case INVALID_HANDLE: *s = "CUDA_ERROR_INVALID_HANDLE"; return OK;
  case NOT_FOUND: *s = "CUDA_ERROR_NOT_FOUND"; return OK;
  case LAUNCH_OUT_OF_RESOURCES:
    *s = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    return OK;
  }
  *s = nullptr;
  return INVALID_VALUE;
}
CUresult cuGetErrorString(CUresult r, const char **s) {
  switch (r) {
  case OK: *s = "no error"; return OK;
  case INVALID_VALUE: *s = "invalid argument"; return OK;
  case INVALID_IMAGE: *s = "device kernel image is invalid"; return OK;
  case INVALID_PTX: *s = "a PTX JIT compilation failed"; return OK;
  case INVALID_HANDLE: *s = "invalid resource handle"; return OK;
  case NOT_FOUND: *s = "named symbol not found"; return OK;
  case LAUNCH_OUT_OF_RESOURCES: *s = "too many resources requested for launch"; return OK;
  }
  *s = nullptr;
  return INVALID_VALUE;
}
CUresult cuDeviceGetCount(int *n) {
  *n = 1;
  return OK;
}
CUresult cuDeviceGet(int *d, int ordinal) {
  if (ordinal != 0)
    return INVALID_VALUE;
  *d = 0;
  return OK;
}
CUresult cuDeviceGetName(char *name, int len, int) {
  std::snprintf(name, size_t(len), "Kiln Fake GPU");
  return OK;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int) {
  switch (attr) {
  case 1: *v = 1024; break;                 // max threads per block
  case 5: *v = 2147483647; break;           // grid x
  case 6: case 7: *v = 65535; break;        // grid y, z
  case 8: *v = 48 * 1024; break;            // shared per block
  case 16: *v = 132; break;                 // SMs
  case 38: *v = 50 * 1024 * 1024; break;    // L2
  case 75: *v = 9; break;                   // cc major
  case 76: *v = 0; break;                   // cc minor
  case 97: *v = 227 * 1024; break;          // shared opt-in
  case 39: *v = 2048; break;                // threads per SM
  case 81: *v = 228 * 1024; break;          // shared per SM
  case 82: *v = 64 * 1024; break;           // registers per SM
  case 106: *v = 32; break;                 // programs per SM
  default: return INVALID_VALUE;
  }
  return OK;
}
CUresult cuDeviceTotalMem_v2(size_t *b, int) {
  *b = size_t(80) << 30;
  return OK;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int) {
  *ctx = &dummyContext;
  return OK;
}
CUresult cuCtxSetCurrent(void *ctx) {
  count("cuCtxSetCurrent");
  current = ctx;
  return OK;
}
CUresult cuCtxGetCurrent(void **ctx) {
  *ctx = current;
  return OK;
}
CUresult cuCtxSynchronize() { return OK; }
CUresult cuStreamCreate(void **s, unsigned) {
  *s = &dummyStreams[nextStream++ % 64];
  return OK;
}
CUresult cuStreamDestroy_v2(void *) { return OK; }
CUresult cuStreamGetCtx(void *s, void **ctx) {
  if (s == &otherContextStream) {
    *ctx = &otherContext;
    return OK;
  }
  // Tests pass made-up handles (e.g. the C API's): all are the primary
  // context's, except the destroyed-looking one.
  if (s == &destroyedStream)
    return INVALID_HANDLE;
  *ctx = &dummyContext;
  return OK;
}
CUresult cuStreamSynchronize(void *) { return OK; }
CUresult cuMemAlloc_v2(uint64_t *p, size_t bytes) {
  count("cuMemAlloc");
  void *m = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!m)
    return INVALID_VALUE;
  *p = reinterpret_cast<uint64_t>(m);
  return OK;
}
CUresult cuMemFree_v2(uint64_t p) {
  std::free(reinterpret_cast<void *>(p));
  return OK;
}
/// Stream-ordered: the stand-in runs everything at once, so these are
/// cuMemAlloc / cuMemFree, counted apart.
CUresult cuMemAllocAsync(uint64_t *p, size_t bytes, void *) {
  count("cuMemAllocAsync");
  void *m = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!m)
    return INVALID_VALUE;
  *p = reinterpret_cast<uint64_t>(m);
  return OK;
}
/// Pools: one stand-in handle; allocations as cuMemAllocAsync's.
static int fakePool;
CUresult cuMemPoolCreate(void **pool, const void *) {
  count("cuMemPoolCreate");
  *pool = &fakePool;
  return OK;
}
CUresult cuMemPoolSetAttribute(void *pool, int attr, void *value) {
  if (pool != &fakePool)
    return INVALID_HANDLE;
  if (attr == 4 && *static_cast<uint64_t *>(value) == UINT64_MAX)
    count("cuMemPoolSetAttribute(keep all)");
  return OK;
}
CUresult cuMemAllocFromPoolAsync(uint64_t *p, size_t bytes, void *pool, void *) {
  count("cuMemAllocFromPoolAsync");
  if (pool != &fakePool)
    return INVALID_HANDLE;
  void *m = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!m)
    return INVALID_VALUE;
  *p = reinterpret_cast<uint64_t>(m);
  return OK;
}
CUresult cuMemFreeAsync(uint64_t p, void *) {
  count("cuMemFreeAsync");
  std::free(reinterpret_cast<void *>(p));
  return OK;
}
CUresult cuMemGetInfo_v2(size_t *f, size_t *t) {
  *f = *t = size_t(80) << 30;
  return OK;
}
CUresult cuMemcpyHtoD_v2(uint64_t d, const void *s, size_t n) {
  std::memcpy(reinterpret_cast<void *>(d), s, n);
  return OK;
}
CUresult cuMemcpyDtoH_v2(void *d, uint64_t s, size_t n) {
  std::memcpy(d, reinterpret_cast<void *>(s), n);
  return OK;
}
CUresult cuMemcpyDtoD_v2(uint64_t d, uint64_t s, size_t n) {
  std::memmove(reinterpret_cast<void *>(d), reinterpret_cast<void *>(s), n);
  std::lock_guard<std::mutex> lock(mutex);
  copies.push_back({d, s, n});
  return OK;
}
CUresult cuMemsetD8Async(uint64_t p, unsigned char v, size_t n, void *s) {
  std::memset(reinterpret_cast<void *>(p), v, n);
  std::lock_guard<std::mutex> lock(mutex);
  memsets.push_back({p, 1, n, v, s});
  return OK;
}
CUresult cuMemsetD32Async(uint64_t p, unsigned v, size_t n, void *s) {
  auto *w = reinterpret_cast<uint32_t *>(p);
  for (size_t i = 0; i < n; ++i)
    w[i] = v;
  std::lock_guard<std::mutex> lock(mutex);
  memsets.push_back({p, 4, n, v, s});
  return OK;
}
CUresult cuLinkCreate_v2(unsigned n, int *keys, void **values, void **state) {
  count("cuLinkCreate");
  auto *l = new Link();
  for (unsigned i = 0; i < n; ++i) {
    if (keys[i] == 5)
      l->errorLog = static_cast<char *>(values[i]);
    if (keys[i] == 6)
      l->errorLogSize = size_t(reinterpret_cast<uintptr_t>(values[i]));
  }
  *state = l;
  return OK;
}
CUresult cuLinkAddData_v2(void *state, int type, void *data, size_t size,
                          const char *, unsigned, int *, void **) {
  auto *l = static_cast<Link *>(state);
  if (type != 1 || size == 0 || static_cast<char *>(data)[size - 1] != 0)
    return INVALID_VALUE; // PTX must come NUL-terminated, size included.
  l->ptx.assign(static_cast<char *>(data), size - 1);
  // The driver reads PTX as a C string: text after a NUL is lost (an AOT
  // literal that wrote a tab as "\09" ended there).
  if (l->ptx.find('\0') != std::string::npos)
    return INVALID_PTX;
  size_t bad = l->ptx.find("bogus");
  if (bad != std::string::npos) {
    if (l->errorLog && l->errorLogSize)
      std::snprintf(l->errorLog, l->errorLogSize,
                    "ptxas application ptx input, line 1; error   : Unknown "
                    "modifier '.bogus'");
    return INVALID_PTX;
  }
  return OK;
}
CUresult cuLinkComplete(void *state, void **cubin, size_t *size) {
  auto *l = static_cast<Link *>(state);
  l->cubin = "FAKECUBIN " + std::to_string(l->ptx.size()) + "\n" + l->ptx;
  *cubin = l->cubin.data();
  *size = l->cubin.size();
  return OK;
}
CUresult cuLinkDestroy(void *state) {
  delete static_cast<Link *>(state);
  return OK;
}
CUresult cuModuleLoadDataEx(void **mod, const void *image, unsigned numOptions, int *keys,
                            void **values) {
  count("cuModuleLoadDataEx");
  const char *s = static_cast<const char *>(image);
  // PTX (NUL-terminated, as the real driver reads it): compiled as a whole
  // program, with the linker's error log for bad PTX.
  if (std::strncmp(s, ".version", 8) == 0 || std::strncmp(s, "//", 2) == 0) {
    count("cuModuleLoadDataEx(PTX)");
    std::string ptx(s);
    if (ptx.find("bogus") != std::string::npos) {
      for (unsigned i = 0; i + 1 < numOptions; ++i)
        if (keys[i] == 5 && keys[i + 1] == 6)
          std::snprintf(static_cast<char *>(values[i]),
                        size_t(reinterpret_cast<uintptr_t>(values[i + 1])),
                        "ptxas application ptx input, line 1; error   : Unknown "
                        "modifier '.bogus'");
      return INVALID_PTX;
    }
    auto *m = new Module();
    m->ptx = std::move(ptx);
    m->wholeProgram = true;
    *mod = m;
    return OK;
  }
  // A cubin has no size argument: the fake format carries the PTX length.
  if (std::strncmp(s, "FAKECUBIN ", 10) != 0)
    return INVALID_IMAGE;
  char *end = nullptr;
  unsigned long n = std::strtoul(s + 10, &end, 10);
  if (!end || *end != '\n')
    return INVALID_IMAGE;
  auto *m = new Module();
  m->ptx.assign(end + 1, n);
  *mod = m;
  return OK;
}
CUresult cuModuleGetFunction(void **fn, void *mod, const char *name) {
  auto *m = static_cast<Module *>(mod);
  auto it = m->functions.find(name);
  if (it == m->functions.end()) {
    auto *f = new Function{m, name, {}, 0};
    if (!parseEntry(m->ptx, name, f->paramBytes)) {
      delete f;
      return NOT_FOUND;
    }
    it = m->functions.emplace(name, f).first;
  }
  *fn = it->second;
  return OK;
}
CUresult cuModuleUnload(void *mod) {
  count("cuModuleUnload");
  auto *m = static_cast<Module *>(mod);
  for (auto &entry : m->functions) // the module owns its functions
    delete entry.second;
  delete m;
  return OK;
}
/// The `.maxnreg` bound of a module's PTX (0: none).
int registerCap(const std::string &ptx) {
  size_t at = ptx.find("\n.maxnreg ");
  return at == std::string::npos ? 0 : std::atoi(ptx.c_str() + at + 10);
}

/// Registers as ptxas would report them: KILN_FAKE_REGISTERS (default 40;
/// KILN_FAKE_WHOLE_REGISTERS, if set, for PTX loaded as a whole program)
/// within the PTX's `.maxnreg`; local memory (spills) when that cap is below
/// KILN_FAKE_SPILLS_BELOW.
int fakeRegisters(const Function *f, bool local) {
  const char *r = std::getenv("KILN_FAKE_REGISTERS");
  if (const char *w = std::getenv("KILN_FAKE_WHOLE_REGISTERS");
      w && f->module->wholeProgram)
    r = w;
  const char *s = std::getenv("KILN_FAKE_SPILLS_BELOW");
  int natural = r ? std::atoi(r) : 40, cap = registerCap(f->module->ptx);
  if (local)
    return cap && s && cap < std::atoi(s) ? 64 : 0;
  return cap ? std::min(natural, cap) : natural;
}

CUresult cuFuncGetAttribute(int *v, int attr, void *fn) {
  switch (attr) {
  case 0: *v = 1024; return OK;
  case 1: *v = 0; return OK;
  case 3: *v = fakeRegisters(static_cast<Function *>(fn), true); return OK;
  case 4: *v = fakeRegisters(static_cast<Function *>(fn), false); return OK;
  case 8: *v = static_cast<Function *>(fn)->maxDynamicShared; return OK;
  }
  return INVALID_VALUE;
}
CUresult cuFuncSetAttribute(void *fn, int attr, int value) {
  count("cuFuncSetAttribute");
  if (attr == 9) { // CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
    if (value < -1 || value > 100)
      return INVALID_VALUE;
    std::lock_guard<std::mutex> lock(mutex);
    carveouts[static_cast<Function *>(fn)->name] = value;
    return OK;
  }
  if (attr != 8 || value > 227 * 1024)
    return INVALID_VALUE;
  static_cast<Function *>(fn)->maxDynamicShared = value;
  return OK;
}
CUresult cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **params, void **) {
  auto *f = static_cast<Function *>(fn);
  if (f->name == "kiln_fake_fail_launch")
    return LAUNCH_OUT_OF_RESOURCES;
  float ms = 1.0f;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (const TimeRule &r : timeRules)
      if ((r.threads == 0 || r.threads == bx * by * bz) &&
          (r.ptxNeedle.empty() ||
           (r.ptxNeedle == "<whole-program>" ? f->module->wholeProgram
                                             : f->module->ptx.find(r.ptxNeedle) !=
                                                   std::string::npos))) {
        ms = r.ms;
        break;
      }
  }
  if (ms < 0)
    return LAUNCH_OUT_OF_RESOURCES;
  int limit = f->maxDynamicShared > 0 ? f->maxDynamicShared : 48 * 1024;
  if (int(shared) > limit || bx * by * bz > 1024 || !gx || !gy || !gz)
    return INVALID_VALUE;
  Launch l{f->name, {gx, gy, gz}, {bx, by, bz}, shared, stream, {},
           registerCap(f->module->ptx), f->module->wholeProgram};
  for (size_t i = 0; i < f->paramBytes.size(); ++i) {
    uint64_t v = 0;
    std::memcpy(&v, params[i], std::min<size_t>(8, f->paramBytes[i]));
    l.params.push_back(v);
    if (f->paramBytes[i] > 8) {
      auto *bytes = static_cast<const unsigned char *>(params[i]);
      l.blobs[i].assign(bytes, bytes + f->paramBytes[i]);
    }
  }
  std::lock_guard<std::mutex> lock(mutex);
  launches.push_back(std::move(l));
  streamClock[stream] += ms;
  return OK;
}
/// As cuLaunchKernel (recorded the same way, counted apart); refuses a grid
/// of more programs than the 132 fake SMs hold at 2048 threads each.
CUresult cuLaunchCooperativeKernel(void *fn, unsigned gx, unsigned gy,
                                   unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shared, void *stream,
                                   void **params) {
  count("cuLaunchCooperativeKernel");
  unsigned threads = std::max(1u, bx * by * bz);
  if (uint64_t(gx) * gy * gz > 132ull * std::max(1u, 2048u / threads))
    return COOPERATIVE_LAUNCH_TOO_LARGE;
  return cuLaunchKernel(fn, gx, gy, gz, bx, by, bz, shared, stream, params,
                        nullptr);
}
/// cuda.h's CUlaunchConfig / CUlaunchAttribute, as cuLaunchKernelEx reads
/// them. Recorded as cuLaunchKernel; counted apart, and "(pdl)" when the
/// programmatic stream serialization attribute (6) is set.
struct FakeLaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    int value;
  } value;
};
struct FakeLaunchConfig {
  unsigned gx, gy, gz, bx, by, bz, shared;
  void *stream;
  FakeLaunchAttribute *attrs;
  unsigned numAttrs;
};
CUresult cuLaunchKernelEx(const FakeLaunchConfig *c, void *fn, void **params, void **extra) {
  count("cuLaunchKernelEx");
  for (unsigned i = 0; i < c->numAttrs; ++i)
    if (c->attrs[i].id == 6 && c->attrs[i].value.value == 1)
      count("cuLaunchKernelEx(pdl)");
    else if (c->attrs[i].id == 2 && c->attrs[i].value.value == 1)
      count("cuLaunchKernelEx(cooperative)");
  return cuLaunchKernel(fn, c->gx, c->gy, c->gz, c->bx, c->by, c->bz, c->shared, c->stream,
                        params, extra);
}
CUresult cuEventCreate(void **e, unsigned) {
  *e = &dummyEvents[nextEvent++ % 4096];
  return OK;
}
CUresult cuEventDestroy_v2(void *) { return OK; }
/// A stand-in CUtensorMap: the arguments, checked as the driver checks them
/// and laid out for tests in the 128 bytes as 16 words: address, dims (2), stride,
/// box (2), data type, swizzle, OOB fill, interleave, L2 promotion, rank.
CUresult cuTensorMapEncodeTiled(void *map, int dataType, unsigned rank, void *address,
                                const unsigned long long *dims,
                                const unsigned long long *strides, const unsigned *box,
                                const unsigned *elementStrides, int interleave, int swizzle,
                                int l2Promotion, int oobFill) {
  count("cuTensorMapEncodeTiled");
  if (reinterpret_cast<uintptr_t>(map) % 64 || rank < 1 || rank > 5 ||
      reinterpret_cast<uintptr_t>(address) % 16)
    return INVALID_VALUE;
  for (unsigned d = 0; d < rank; ++d)
    if (box[d] < 1 || box[d] > 256 || elementStrides[d] != 1 || dims[d] < 1)
      return INVALID_VALUE;
  for (unsigned d = 0; d + 1 < rank; ++d)
    if (strides[d] % 16)
      return INVALID_VALUE;
  unsigned elemBytes = dataType == 0 ? 1 : dataType == 7 ? 4 : 2;
  unsigned span = swizzle == 3 ? 128 : swizzle == 2 ? 64 : swizzle == 1 ? 32 : 0;
  if (span && box[0] * elemBytes > span)
    return INVALID_VALUE;
  uint64_t words[16] = {};
  words[0] = reinterpret_cast<uintptr_t>(address);
  words[1] = dims[0];
  words[2] = rank > 1 ? dims[1] : 0;
  words[3] = rank > 1 ? strides[0] : 0;
  words[4] = box[0];
  words[5] = rank > 1 ? box[1] : 0;
  words[6] = uint64_t(dataType);
  words[7] = uint64_t(swizzle);
  words[8] = uint64_t(oobFill);
  words[9] = uint64_t(interleave);
  words[10] = uint64_t(l2Promotion);
  words[11] = rank;
  words[12] = rank > 2 ? dims[2] : 0; // a third dimension (a batched block)
  words[13] = rank > 2 ? strides[1] : 0;
  words[14] = rank > 2 ? box[2] : 0;
  std::memcpy(map, words, sizeof(words));
  return OK;
}
CUresult cuEventRecord(void *event, void *stream) {
  std::lock_guard<std::mutex> lock(mutex);
  ++calls["cuEventRecord"];
  eventStamp[event] = streamClock[stream];
  return OK;
}
CUresult cuEventSynchronize(void *) { return OK; }
CUresult cuEventQuery(void *) { return OK; } // launches complete at once
CUresult cuStreamIsCapturing(void *, int *status) {
  *status = 0;
  return OK;
}
CUresult cuEventElapsedTime_v2(float *ms, void *start, void *end) {
  std::lock_guard<std::mutex> lock(mutex);
  *ms = float(eventStamp[end] - eventStamp[start]);
  return OK;
}
} // extern "C"
