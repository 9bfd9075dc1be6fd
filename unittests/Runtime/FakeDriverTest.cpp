//===- FakeDriverTest.cpp - The launch path against a stand-in driver -----===//
//
// KILN_CUDA_DRIVER points the runtime at FakeCuda.cpp's library, so module
// loading, the shared-memory opt-in, argument packing, the LayerNorm launch
// sequence and the cubin cache are checked on any machine. The kernels are
// compiled by the real compiler; only the driver is fake.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "kiln/Runtime/LayerNorm.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>

using namespace kiln;
using namespace kiln::rt;
using namespace kiln::rt::fakedrv;

namespace {
const char *kAxpiPTX = ".version 8.0\n.target sm_80\n.address_size 64\n"
                       ".visible .entry kiln_test_axpi(\n"
                       "\t.param .u64 X,\n\t.param .f32 scale,\n"
                       "\t.param .u32 n\n)\n{\n\tret;\n}\n";

CompiledKernel axpi(unsigned sharedBytes = 0, const char *name = nullptr) {
  CompiledKernel k;
  k.info.name = name ? name : "kiln_test_axpi";
  auto param = [](const char *n, ParamSpec::Kind kind, DType t) {
    ParamSpec s;
    s.kind = kind;
    s.dtype = t;
    return KernelInfo::Param{n, s};
  };
  k.info.params = {param("X", ParamSpec::Kind::Pointer, DType::F32),
                   param("scale", ParamSpec::Kind::Scalar, DType::F32),
                   param("n", ParamSpec::Kind::Scalar, DType::I32)};
  k.info.numWarps = 4;
  k.info.sharedBytes = sharedBytes;
  k.ptx = kAxpiPTX;
  if (name) {
    std::string ptx = k.ptx;
    ptx.replace(ptx.find("kiln_test_axpi"), 14, name);
    k.ptx = ptx;
  }
  return k;
}

} // namespace

TEST_F(FakeDriver, DeviceComesFromTheDriver) {
  EXPECT_EQ(dev->name(), "Kiln Fake GPU");
  EXPECT_EQ(dev->arch(), "sm_90");
  EXPECT_EQ(dev->limits().maxSharedPerBlockOptin, 227u * 1024);
  EXPECT_EQ(dev->limits().maxGrid[1], 65535u);
  EXPECT_EQ(dev->driver().version, 13000);
  auto other = Device::get(1);
  ASSERT_FALSE(bool(other));
  EXPECT_EQ(llvm::toString(other.takeError()),
            "CUDA device 1 does not exist: the driver sees 1 device(s)");
}

TEST_F(FakeDriver, LaunchPacksParametersAsTheEntryDeclaresThem) {
  auto buf = DeviceBuffer::alloc(*dev, 4096);
  ASSERT_TRUE(bool(buf));
  auto stream = Stream::create(*dev);
  ASSERT_TRUE(bool(stream));
  Kernel k = Kernel::fromCompiled(axpi());
  LaunchOptions o;
  o.stream = stream->handle();
  ASSERT_EQ(errorText(k.launch(Grid(8, 2), {Arg::ptr(buf->ptr(), DType::F32),
                                            Arg::f32(2.5f),
                                            Arg::integer(1000)},
                               o)),
            "");
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].kernel, "kiln_test_axpi");
  EXPECT_EQ(l[0].grid[0], 8u);
  EXPECT_EQ(l[0].grid[1], 2u);
  EXPECT_EQ(l[0].block[0], 128u);
  EXPECT_EQ(l[0].shared, 0u);
  EXPECT_EQ(l[0].stream, (void *)stream->handle());
  ASSERT_EQ(l[0].params.size(), 3u);
  EXPECT_EQ(l[0].params[0], buf->ptr());
  EXPECT_EQ(l[0].params[1], floatBitsOf(2.5f));
  EXPECT_EQ(l[0].params[2], 1000u);
  // The second launch reuses the loaded function: no new JIT or load.
  int links = fake().calls("cuLinkCreate");
  int loads = fake().calls("cuModuleLoadDataEx");
  ASSERT_EQ(errorText(k.launch(Grid(1), {Arg::ptr(buf->ptr(), DType::F32),
                                         Arg::f32(1.0f), Arg::integer(1)})),
            "");
  EXPECT_EQ(fake().calls("cuLinkCreate"), links);
  EXPECT_EQ(fake().calls("cuModuleLoadDataEx"), loads);
  // A zero grid dimension launches nothing.
  ASSERT_EQ(errorText(k.launch(Grid(0), {Arg::ptr(buf->ptr(), DType::F32),
                                         Arg::f32(1.0f), Arg::integer(1)})),
            "");
  EXPECT_EQ(launches().size(), 2u);
}

TEST_F(FakeDriver, ProgrammaticLaunchGoesThroughLaunchKernelEx) {
  auto buf = DeviceBuffer::alloc(*dev, 4096);
  ASSERT_TRUE(bool(buf));
  Kernel k = Kernel::fromCompiled(axpi());
  std::vector<Arg> args = {Arg::ptr(buf->ptr(), DType::F32), Arg::f32(1.0f),
                           Arg::integer(9)};
  LaunchOptions o;
  o.programmaticLaunch = true;
  int before = fake().calls("cuLaunchKernelEx(pdl)");
  ASSERT_EQ(errorText(k.launch(Grid(4), args, o)), "");
  EXPECT_EQ(fake().calls("cuLaunchKernelEx(pdl)"), before + 1);
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].grid[0], 4u);
  EXPECT_EQ(l[0].block[0], 128u);
  EXPECT_EQ(l[0].params[2], 9u);
  // A plain launch does not use it.
  int plain = fake().calls("cuLaunchKernelEx");
  ASSERT_EQ(errorText(k.launch(Grid(4), args)), "");
  EXPECT_EQ(fake().calls("cuLaunchKernelEx"), plain);
  EXPECT_EQ(launches().size(), 2u);
  // Cooperative and programmatic together: one launch with both attributes.
  o.cooperative = true;
  int coop = fake().calls("cuLaunchCooperativeKernel");
  ASSERT_EQ(errorText(k.launch(Grid(4), args, o)), "");
  EXPECT_EQ(fake().calls("cuLaunchKernelEx(pdl)"), before + 2);
  EXPECT_EQ(fake().calls("cuLaunchKernelEx(cooperative)"), 1);
  EXPECT_EQ(fake().calls("cuLaunchCooperativeKernel"), coop);
  EXPECT_EQ(launches().size(), 3u);
}

TEST_F(FakeDriver, CooperativeLaunchGoesThroughTheCooperativeEntryPoint) {
  auto buf = DeviceBuffer::alloc(*dev, 4096);
  ASSERT_TRUE(bool(buf));
  Kernel k = Kernel::fromCompiled(axpi());
  std::vector<Arg> args = {Arg::ptr(buf->ptr(), DType::F32), Arg::f32(1.0f),
                           Arg::integer(7)};
  LaunchOptions o;
  o.cooperative = true;
  int before = fake().calls("cuLaunchCooperativeKernel");
  ASSERT_EQ(errorText(k.launch(Grid(132), args, o)), "");
  EXPECT_EQ(fake().calls("cuLaunchCooperativeKernel"), before + 1);
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].grid[0], 132u);
  EXPECT_EQ(l[0].params[2], 7u);
  // A plain launch does not use it.
  ASSERT_EQ(errorText(k.launch(Grid(132), args)), "");
  EXPECT_EQ(fake().calls("cuLaunchCooperativeKernel"), before + 1);
  // The fake holds 132 SMs x 16 programs of 128 threads at once.
  EXPECT_EQ(errorText(k.launch(Grid(132 * 16 + 1), args, o)),
            "kernel `kiln_test_axpi`: launch_cooperative_grid: the grid "
            "2113x1x1 (2113 programs of 128 threads) cannot be resident on "
            "device 0 at once; launch fewer programs");
  EXPECT_EQ(launches().size(), 2u);
}

TEST_F(FakeDriver, DynamicSharedMemoryAbove48KBIsOptedIn) {
  auto buf = DeviceBuffer::alloc(*dev, 4096);
  ASSERT_TRUE(bool(buf));
  std::vector<Arg> args = {Arg::ptr(buf->ptr(), DType::F32), Arg::f32(1.0f),
                           Arg::integer(1)};
  int before = fake().calls("cuFuncSetAttribute");
  ASSERT_EQ(errorText(Kernel::fromCompiled(axpi(48 * 1024)).launch(Grid(1),
                                                                   args)),
            "");
  EXPECT_EQ(fake().calls("cuFuncSetAttribute"), before); // Not needed.
  EXPECT_EQ(fake().carveout("kiln_test_axpi"), -1);
  ASSERT_EQ(errorText(Kernel::fromCompiled(axpi(100 * 1024)).launch(Grid(1),
                                                                    args)),
            "");
  // The limit, and the preference for shared memory over L1 that lets two
  // such programs share an SM.
  EXPECT_EQ(fake().calls("cuFuncSetAttribute"), before + 2);
  EXPECT_EQ(fake().carveout("kiln_test_axpi"), 100);
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[1].shared, 100u * 1024);
  std::string msg = errorText(
      Kernel::fromCompiled(axpi(228 * 1024)).launch(Grid(1), args));
  EXPECT_EQ(msg, "kernel `kiln_test_axpi` needs 233472 bytes of shared memory "
                 "(0 static + 233472 dynamic); device 0 allows at most 232448 "
                 "per block");
}

TEST_F(FakeDriver, DriverErrorsCarryNameStringAndJitLog) {
  auto buf = DeviceBuffer::alloc(*dev, 4096);
  ASSERT_TRUE(bool(buf));
  std::vector<Arg> args = {Arg::ptr(buf->ptr(), DType::F32), Arg::f32(1.0f),
                           Arg::integer(1)};
  CompiledKernel bad = axpi();
  bad.ptx.replace(bad.ptx.find("ret;"), 4, "bogus.op;");
  EXPECT_EQ(errorText(Kernel::fromCompiled(bad).launch(Grid(1), args)),
            "driver JIT of kernel `kiln_test_axpi` for sm_90 failed in "
            "cuLinkAddData: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation "
            "failed)\nJIT log:\nptxas application ptx input, line 1; error   "
            ": Unknown modifier '.bogus'");
  CompiledKernel missing = axpi();
  missing.info.name = "elsewhere";
  EXPECT_EQ(errorText(Kernel::fromCompiled(missing).launch(Grid(1), args)),
            "cuModuleGetFunction(`elsewhere`): CUDA_ERROR_NOT_FOUND (named "
            "symbol not found)");
  EXPECT_EQ(errorText(Kernel::fromCompiled(axpi(0, "kiln_fake_fail_launch"))
                          .launch(Grid(3), args)),
            "cuLaunchKernel of `kiln_fake_fail_launch` (grid 3x1x1, 128 "
            "threads, 0 bytes of shared memory): "
            "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (too many resources requested "
            "for launch)");
}

// Kernels the backend marks (pipelined tensor-core loops) are compiled by the
// driver as whole programs (cuModuleLoadDataEx of the PTX: fewer registers,
// as Triton's ptxas); the others through its linker, whose cubin is cached.
TEST_F(FakeDriver, MarkedKernelsCompileAsWholePrograms) {
  auto buf = DeviceBuffer::alloc(*dev, 4096);
  ASSERT_TRUE(bool(buf));
  std::vector<Arg> args = {Arg::ptr(buf->ptr(), DType::F32), Arg::f32(1.0f),
                           Arg::integer(1)};
  auto withMma = [](const char *name) {
    CompiledKernel k = axpi(0, name);
    k.ptx += kWholeProgramMarker;
    return k;
  };
  auto launch = [&](const CompiledKernel &k) {
    return errorText(Kernel::fromCompiled(k).launch(Grid(1), args));
  };
  int links = fake().calls("cuLinkCreate");
  int ptxLoads = fake().calls("cuModuleLoadDataEx(PTX)");
  EXPECT_EQ(launch(withMma("kiln_test_mma")), "");
  EXPECT_EQ(fake().calls("cuLinkCreate"), links);
  EXPECT_EQ(fake().calls("cuModuleLoadDataEx(PTX)"), ptxLoads + 1);
  EXPECT_EQ(launch(axpi(0, "kiln_test_plain")), "");
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 1);
  EXPECT_EQ(fake().calls("cuModuleLoadDataEx(PTX)"), ptxLoads + 1);

  // A whole-program JIT error names the call and carries the driver's log.
  CompiledKernel bad = withMma("kiln_test_mma_bad");
  bad.ptx.replace(bad.ptx.find("ret;"), 4, "bogus.op;");
  EXPECT_EQ(launch(bad),
            "driver JIT (whole program) of kernel `kiln_test_mma_bad` for sm_90 failed in "
            "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)\n"
            "JIT log:\nptxas application ptx input, line 1; error   : Unknown modifier "
            "'.bogus'");

  // KILN_JIT chooses for every kernel; another value is an error.
  ::setenv("KILN_JIT", "link", 1);
  EXPECT_EQ(launch(withMma("kiln_test_mma_linked")), "");
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 2);
  ::setenv("KILN_JIT", " Whole ", 1);
  EXPECT_EQ(launch(axpi(0, "kiln_test_plain_whole")), "");
  EXPECT_EQ(fake().calls("cuModuleLoadDataEx(PTX)"), ptxLoads + 3);
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 2);
  ::setenv("KILN_JIT", "fast", 1);
  EXPECT_EQ(launch(axpi(0, "kiln_test_plain_fast")),
            "KILN_JIT=\"fast\": expected link (the driver's linker, relocatable code), "
            "whole (whole-program compile) or auto");
  ::unsetenv("KILN_JIT");
}

TEST_F(FakeDriver, DeviceBufferChecksSizes) {
  auto buf = DeviceBuffer::alloc(*dev, 64);
  ASSERT_TRUE(bool(buf));
  std::vector<uint8_t> host(128, 7);
  EXPECT_EQ(errorText(buf->copyFromHost(host.data(), 128)),
            "copy of 128 bytes into a device buffer of 64 bytes");
  ASSERT_EQ(errorText(buf->copyFromHost(host.data(), 64)), "");
  ASSERT_EQ(errorText(buf->fill32(0x01020304)), "");
  uint32_t back[16];
  ASSERT_EQ(errorText(buf->copyToHost(back, 64)), "");
  EXPECT_EQ(back[15], 0x01020304u);
  // A prefix only.
  ASSERT_EQ(errorText(buf->fill32(0, nullptr, 16)), "");
  ASSERT_EQ(errorText(buf->copyToHost(back, 64)), "");
  EXPECT_EQ(back[3], 0u);
  EXPECT_EQ(back[4], 0x01020304u);
  EXPECT_EQ(errorText(buf->fill32(0, nullptr, 68)),
            "fill32 of 68 bytes on a buffer of 64 bytes");
  EXPECT_EQ(errorText(buf->fill32(0, nullptr, 6)),
            "fill32 of 6 bytes (not a multiple of 4)");
  auto odd = DeviceBuffer::alloc(*dev, 6);
  ASSERT_TRUE(bool(odd));
  EXPECT_EQ(errorText(odd->fill32(0)),
            "fill32 on a buffer of 6 bytes (not a multiple of 4)");
}

TEST_F(FakeDriver, LayerNormLaunchSequence) {
  TempDir dir;
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), false};
  auto ln = LayerNorm::create(0, std::move(mo));
  ASSERT_TRUE(bool(ln)) << llvm::toString(ln.takeError());
  const int64_t M = 300, N = 1000, S = 1040;
  const DType t = DType::F16;
  std::vector<DeviceBuffer> bufs;
  auto alloc = [&](size_t bytes) {
    bufs.push_back(llvm::cantFail(DeviceBuffer::alloc(*dev, bytes)));
    return bufs.back().ptr();
  };
  size_t mat = size_t((M - 1) * S + N) * 2;
  DeviceMatrix x{alloc(mat), t, M, N, S}, y{alloc(mat), t, M, N, S},
      dy{alloc(mat), t, M, N, S}, dx{alloc(mat), t, M, N, S};
  DeviceVector w{alloc(N * 2), t, N}, b{alloc(N * 2), t, N},
      dw{alloc(N * 2), t, N}, db{alloc(N * 2), t, N},
      mean{alloc(M * 4), DType::F32, M}, rstd{alloc(M * 4), DType::F32, M};
  auto stream = llvm::cantFail(Stream::create(*dev));
  CUstream s = stream.handle();

  ASSERT_EQ(errorText(ln->forwardInto(x, w, b, 1e-5f, y, mean, rstd, s)), "");
  LayerNormWorkspace ws;
  ASSERT_EQ(errorText(ln->backwardInto(dy, x, w, b, mean, rstd, dx, dw, db, ws,
                                       s)),
            "");
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 3u);
  // Forward: BLOCK_SIZE 1024, num_warps 4, one program per row.
  EXPECT_EQ(l[0].kernel, "_layer_norm_fwd_fused");
  EXPECT_EQ(l[0].grid[0], unsigned(M));
  EXPECT_EQ(l[0].block[0], 128u);
  EXPECT_EQ(l[0].stream, (void *)s);
  EXPECT_EQ(l[0].params,
            (std::vector<uint64_t>{x.ptr, y.ptr, w.ptr, b.ptr, mean.ptr,
                                   rstd.ptr, uint64_t(S), uint64_t(N),
                                   floatBitsOf(1e-5f)}));
  // Backward: locks and partial sums zeroed on the stream first.
  const unsigned G = 256;
  std::vector<MemsetRec> m = memsets();
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].ptr, ws.locks.ptr());
  EXPECT_EQ(m[0].elementBytes, 4u);
  EXPECT_EQ(m[0].count, 2u * G);
  for (int i : {1, 2}) {
    EXPECT_EQ(m[i].elementBytes, 1u);
    EXPECT_EQ(m[i].count, size_t(G) * N * 2);
    EXPECT_EQ(m[i].value, 0u);
  }
  EXPECT_EQ(m[1].ptr, ws.partialDw.ptr());
  EXPECT_EQ(m[2].ptr, ws.partialDb.ptr());
  for (const MemsetRec &r : m)
    EXPECT_EQ(r.stream, (void *)s);
  EXPECT_EQ(l[1].kernel, "_layer_norm_bwd_dx_fused");
  EXPECT_EQ(l[1].grid[0], unsigned(M));
  EXPECT_EQ(l[1].block[0], 128u);
  EXPECT_EQ(l[1].params,
            (std::vector<uint64_t>{dx.ptr, dy.ptr, ws.partialDw.ptr(),
                                   ws.partialDb.ptr(), x.ptr, w.ptr, mean.ptr,
                                   rstd.ptr, ws.locks.ptr(), uint64_t(S),
                                   uint64_t(N)}));
  EXPECT_EQ(l[2].kernel, "_layer_norm_bwd_dwdb");
  EXPECT_EQ(l[2].grid[0], 8u); // cdiv(1000, 128)
  EXPECT_EQ(l[2].block[0], 128u);
  EXPECT_EQ(l[2].params,
            (std::vector<uint64_t>{ws.partialDw.ptr(), ws.partialDb.ptr(),
                                   dw.ptr, db.ptr, uint64_t(G), uint64_t(N)}));
  for (const Launch &k : l)
    EXPECT_EQ(k.stream, (void *)s);

  // M = 0: no forward launch; backward still writes dw = db = 0.
  fake().reset();
  DeviceMatrix x0 = x, y0 = y, dy0 = dy, dx0 = dx;
  x0.rows = y0.rows = dy0.rows = dx0.rows = 0;
  DeviceVector mean0{mean.ptr, DType::F32, 0}, rstd0{rstd.ptr, DType::F32, 0};
  ASSERT_EQ(errorText(ln->forwardInto(x0, w, b, 1e-5f, y0, mean0, rstd0)), "");
  EXPECT_EQ(launches().size(), 0u);
  ASSERT_EQ(errorText(ln->backwardInto(dy0, x0, w, b, mean0, rstd0, dx0, dw,
                                       db, ws)),
            "");
  l = launches();
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].kernel, "_layer_norm_bwd_dwdb");
  EXPECT_EQ(l[0].params[4], 0u);
}

TEST_F(FakeDriver, CubinsAreCachedOnDiskAndBadOnesRebuilt) {
  TempDir dir;
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), /*log=*/true};
  auto ln = LayerNorm::create(0, std::move(mo));
  ASSERT_TRUE(bool(ln)) << llvm::toString(ln.takeError());
  std::vector<DeviceBuffer> bufs;
  auto ptr = [&](size_t bytes, DType t) {
    bufs.push_back(llvm::cantFail(DeviceBuffer::alloc(*dev, bytes)));
    return Arg::ptr(bufs.back().ptr(), t);
  };
  const DType t = DType::BF16;
  std::vector<Arg> args = {ptr(4096, t),          ptr(4096, t),
                           ptr(1024, t),          ptr(1024, t),
                           ptr(64, DType::F32),   ptr(64, DType::F32),
                           Arg::integer(512),     Arg::integer(512),
                           Arg::f32(1e-5f)};
  LaunchOptions o;
  o.numWarps = 2;
  o.constexprs.emplace("BLOCK_SIZE", 512);
  Kernel &k = ln->forwardKernel();

  clearMemoryCaches();
  PrepareStats st;
  testing::internal::CaptureStderr();
  ASSERT_TRUE(bool(k.prepare(args, o, &st)));
  std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(st.ptxFrom, PrepareStats::From::Compiler);
  EXPECT_FALSE(st.cubinFromDisk);
  // KILN_LOG=cache times each stage: the compile, then the driver's JIT.
  EXPECT_NE(log.find("kiln[cache]: miss _layer_norm_fwd_fused"), std::string::npos) << log;
  EXPECT_NE(log.find("kiln[cache]: jit cubin _layer_norm_fwd_fused "), std::string::npos) << log;
  EXPECT_NE(log.find(" ms)"), std::string::npos) << log;
  int links = fake().calls("cuLinkCreate");
  int unloads = fake().calls("cuModuleUnload");

  clearMemoryCaches();
  testing::internal::CaptureStderr();
  ASSERT_TRUE(bool(k.prepare(args, o, &st)));
  log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(st.ptxFrom, PrepareStats::From::Disk);
  EXPECT_TRUE(st.cubinFromDisk);
  EXPECT_NE(log.find("kiln[cache]: hit cubin _layer_norm_fwd_fused "), std::string::npos) << log;
  EXPECT_EQ(log.find("jit cubin"), std::string::npos) << log;
  EXPECT_EQ(fake().calls("cuLinkCreate"), links); // No JIT this time.
  // The previous generation's loaded kernel had no owner left once the new
  // one replaced it: its module is unloaded (and its memory freed, which
  // LeakSanitizer checks in CI's sanitizer step).
  EXPECT_EQ(fake().calls("cuModuleUnload"), unloads + 1);

  // Find the cubin entry; replace it with a well-formed entry the driver
  // refuses, then with a truncated one: both are rebuilt by the JIT.
  std::string cubinPath;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir.str(), ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".cubin"))
      cubinPath = it->path();
  ASSERT_FALSE(cubinPath.empty());
  std::string key = llvm::sys::path::stem(cubinPath).str();
  std::ofstream(cubinPath, std::ios::trunc | std::ios::binary)
      << encodeCacheEntry("cubin", key, "not an image");
  clearMemoryCaches();
  ASSERT_TRUE(bool(k.prepare(args, o, &st)));
  EXPECT_FALSE(st.cubinFromDisk);
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 1);

  auto good = llvm::MemoryBuffer::getFile(cubinPath);
  ASSERT_TRUE(bool(good));
  std::string bytes = (*good)->getBuffer().str();
  std::ofstream(cubinPath, std::ios::trunc | std::ios::binary)
      << bytes.substr(0, bytes.size() - 10);
  clearMemoryCaches();
  ASSERT_TRUE(bool(k.prepare(args, o, &st)));
  EXPECT_FALSE(st.cubinFromDisk);
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 2);
  clearMemoryCaches();
  ASSERT_TRUE(bool(k.prepare(args, o, &st)));
  EXPECT_TRUE(st.cubinFromDisk);
}

TEST_F(FakeDriver, MemoizedLaunchFollowsTheArgumentsValueClasses) {
  // A bound launcher (the C API's, which python/kiln calls) keeps the last
  // specialization in a LaunchMemo: it must switch whenever the arguments'
  // value classes do, and drop it when the memory caches are cleared.
  ModuleOptions mo;
  mo.cache = CacheConfig{false, "", false};
  Module m = Module::fromSource(R"(import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
)",
                                "scale.py", mo);
  Kernel k = llvm::cantFail(m.kernel("scale"));
  auto buf = DeviceBuffer::alloc(*dev, 4096);
  ASSERT_TRUE(bool(buf));
  LaunchOptions o;
  o.constexprs.emplace("BLOCK", 64);
  LaunchMemo memo;
  auto launch = [&](uint64_t ptr, int64_t n) {
    return errorText(
        k.launch(Grid(1), {Arg::ptr(ptr, DType::F32), Arg::integer(n)}, o,
                 memo));
  };
  uint64_t base = buf->ptr();
  ASSERT_EQ(launch(base, 1000), "");
  int links = fake().calls("cuLinkCreate");
  ASSERT_EQ(launch(base + 32, 1016), ""); // same classes: nothing new
  EXPECT_EQ(fake().calls("cuLinkCreate"), links);
  ASSERT_EQ(launch(base, 1), ""); // n == 1 is a constant: not passed
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 1);
  ASSERT_EQ(launch(base + 4, 1000), ""); // not 16-byte aligned
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 2);
  ASSERT_EQ(launch(base, 1000), ""); // back to the first, already loaded
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 2);
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 5u);
  std::vector<std::vector<uint64_t>> expected = {
      {base, 1000}, {base + 32, 1016}, {base}, {base + 4, 1000}, {base, 1000}};
  for (size_t i = 0; i < l.size(); ++i)
    EXPECT_EQ(l[i].params, expected[i]) << "launch " << i;
  // Cleared caches: the memo resolves (and loads) again.
  int loads = fake().calls("cuModuleLoadDataEx");
  clearMemoryCaches();
  ASSERT_EQ(launch(base, 1000), "");
  EXPECT_GT(fake().calls("cuModuleLoadDataEx"), loads);
  EXPECT_EQ(launches().back().params, (std::vector<uint64_t>{base, 1000}));
}
