//===- TensorDescFakeTest.cpp - Host tensor descriptors through the runtime ===//
//
// A kernel parameter read with `desc.load(...)` takes a host tensor
// descriptor: Arg::tensorDescArgs (header, shapes, strides) specializes it
// as `tensordesc<T[B...]>` and launches with the base, the i32 shapes and
// the i64 strides but the last. Checked end to end (real compiler, stand-in
// driver): the parameters the driver receives, the cache key per block
// shape, and the errors of bad descriptors. A kernel that copies descriptor
// blocks with TMA (a pipelined dot loop on sm_90), or stores them with TMA
// (in a loop), also gets one CUtensorMap per such descriptor, encoded by the launch (the
// stand-in driver's encoding records the arguments).
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "kiln/Runtime/Module.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::rt;
using namespace kiln::rt::fakedrv;

namespace {
const char *kSource = R"(import triton
import triton.language as tl


@triton.jit
def scale(x_desc, y_desc, n, BM: tl.constexpr):
    m = tl.program_id(0) * BM
    y_desc.store([m, 0], x_desc.load([m, 0]) * 2)
)";

// Descriptor stores in a loop over row blocks: TMA stores on sm_90.
const char *kTiles = R"(import triton
import triton.language as tl


@triton.jit
def tiles(x_desc, y_desc, n, BM: tl.constexpr):
    for m in range(tl.program_id(0) * BM, n, tl.num_programs(0) * BM):
        y_desc.store([m, 0], x_desc.load([m, 0]) * 2)
)";

// Pipelined dot operands from descriptors: TMA copies on sm_90.
const char *kMatmul = R"(import triton
import triton.language as tl


@triton.jit
def mm(a_desc, b_desc, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.program_id(0) * BM
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([m, k]), b_desc.load([k, 0]), acc)
    r = tl.arange(0, BM)
    n = tl.arange(0, BN)
    tl.store(c + (m + r)[:, None] * BN + n[None, :], acc)
)";

class TensorDescFake : public FakeDriver {
protected:
  void SetUp() override {
    FakeDriver::SetUp();
    auto b = DeviceBuffer::alloc(*dev, 1 << 20);
    ASSERT_TRUE(bool(b));
    buf = std::make_unique<DeviceBuffer>(std::move(*b));
  }
  std::vector<Arg> desc(uint64_t offset, llvm::ArrayRef<int64_t> block,
                        int64_t rows = 100, int64_t stride = 72,
                        bool nan = false, int64_t cols = 70) {
    auto a = Arg::tensorDescArgs(buf->ptr() + offset, DType::F16, {rows, cols},
                                 {stride, 1}, block, nan);
    EXPECT_TRUE(bool(a)) << llvm::toString(a.takeError());
    return *a;
  }
  /// `source` compiled without the disk cache (each test compiles afresh).
  static Module uncached(const char *source, const char *file) {
    ModuleOptions mo;
    mo.cache = CacheConfig{false, "", false};
    return Module::fromSource(source, file, mo);
  }
  std::unique_ptr<DeviceBuffer> buf;
};

std::vector<Arg> concat(std::vector<Arg> a, const std::vector<Arg> &b,
                        Arg last) {
  a.insert(a.end(), b.begin(), b.end());
  a.push_back(last);
  return a;
}
} // namespace

TEST_F(TensorDescFake, LaunchPassesBaseShapesAndStrides) {
  Module m = uncached(kSource, "scale.py");
  Kernel k = llvm::cantFail(m.kernel("scale"));
  LaunchOptions o;
  o.constexprs.emplace("BM", 32);
  std::vector<Arg> args =
      concat(desc(0, {32, 64}), desc(65536, {32, 64}, 100, 72, true),
             Arg::integer(5));
  PrepareStats st;
  auto ck = k.prepare(args, o, &st);
  ASSERT_TRUE(bool(ck)) << llvm::toString(ck.takeError());
  std::string sig;
  for (const KernelInfo::Param &p : ck->info.params)
    sig += (sig.empty() ? "" : " ") + p.name + ":" + p.spec.toString();
  EXPECT_EQ(sig, "x_desc:*fp16:16 x_desc.shape0:i32 x_desc.shape1:i32 "
                 "x_desc.stride0:i64:8 y_desc:*fp16:16 y_desc.shape0:i32 "
                 "y_desc.shape1:i32 y_desc.stride0:i64:8 n:i32");
  // A store outside a loop stays vector stores (TmaStores.cpp): no tensor map.
  EXPECT_TRUE(ck->info.tensorMaps.empty());
  ASSERT_EQ(errorText(k.launch(Grid(4), args, o)), "");
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].params,
            (std::vector<uint64_t>{buf->ptr(), 100, 70, 72,
                                   buf->ptr() + 65536, 100, 70, 72, 5}));

  // Another block shape is another specialization; the same one is not.
  auto before = k.prepare(args, o, &st);
  ASSERT_TRUE(bool(before));
  EXPECT_EQ(st.ptxFrom, PrepareStats::From::Memory);
  std::vector<Arg> other =
      concat(desc(0, {16, 64}), desc(65536, {16, 64}), Arg::integer(5));
  auto again = k.prepare(other, o, &st);
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_NE(st.ptxFrom, PrepareStats::From::Memory);

  // Shapes divisible by 16 specialize like an integer's `:16`.
  auto wide = Arg::tensorDescArgs(buf->ptr(), DType::F16, {64, 64}, {72, 1},
                                  {32, 64}, false);
  ASSERT_TRUE(bool(wide));
  std::vector<Arg> aligned = concat(*wide, desc(65536, {32, 64}),
                                    Arg::integer(5));
  auto div = k.prepare(aligned, o, &st);
  ASSERT_TRUE(bool(div)) << llvm::toString(div.takeError());
  EXPECT_EQ(div->info.params[1].spec.toString(), "i32:16");
  EXPECT_EQ(div->info.params[2].spec.toString(), "i32:16");
  EXPECT_EQ(div->info.params[5].spec.toString(), "i32");
}

// A descriptor store in a loop, the rows ending on 16-byte chunks: a TMA
// store on sm_90 (TmaStores.cpp), through one tensor map of boxes of all
// rows x one 128-byte panel, passed after the parameters. Rows of 70 halves
// do not end on a chunk (the unit would write the chunk whole): no map.
TEST_F(TensorDescFake, StoresInALoopPassATensorMap) {
  Module m = uncached(kTiles, "tiles.py");
  Kernel k = llvm::cantFail(m.kernel("tiles"));
  LaunchOptions o;
  o.constexprs.emplace("BM", 32);
  std::vector<Arg> x = desc(0, {32, 64}, 64, 72, false, 64);
  std::vector<Arg> args = concat(x, desc(65536, {32, 64}, 64, 72, false, 64), Arg::integer(64));
  auto ck = k.prepare(args, o);
  ASSERT_TRUE(bool(ck)) << llvm::toString(ck.takeError());
  ASSERT_EQ(ck->info.tensorMaps.size(), 1u);
  EXPECT_EQ(ck->info.tensorMaps[0].param, 4u);
  EXPECT_EQ(ck->info.tensorMaps[0].box, (std::vector<int64_t>{32, 64}));
  EXPECT_EQ(ck->info.tensorMaps[0].swizzle, 128u);
  EXPECT_NE(ck->ptx.find("cp.async.bulk.tensor.2d.global.shared::cta"), std::string::npos);
  ASSERT_EQ(errorText(k.launch(Grid(2), args, o)), "");
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 1u);
  ASSERT_EQ(l[0].params.size(), 10u);
  // Words: address, dims (inner first), stride in bytes, box (inner first),
  // data type, swizzle, OOB fill, interleave, L2 promotion, rank.
  std::vector<uint64_t> map(16);
  EXPECT_EQ(fake().launchBlob(0, 9, reinterpret_cast<unsigned char *>(map.data()), 128), 128);
  map.resize(12);
  EXPECT_EQ(map, (std::vector<uint64_t>{buf->ptr() + 65536, 64, 64, 144, 64, 32,
                                        cu::TENSOR_MAP_FLOAT16, cu::TENSOR_MAP_SWIZZLE_128B, 0, 0,
                                        cu::TENSOR_MAP_L2_PROMOTION_128B, 2}));

  auto stores = k.prepare(concat(x, desc(65536, {32, 64}, 64), Arg::integer(64)), o);
  ASSERT_TRUE(bool(stores)) << llvm::toString(stores.takeError());
  EXPECT_TRUE(stores->info.tensorMaps.empty());
}

TEST_F(TensorDescFake, BadDescriptorsAreNamed) {
  Module m = uncached(kSource, "scale.py");
  Kernel k = llvm::cantFail(m.kernel("scale"));
  LaunchOptions o;
  o.constexprs.emplace("BM", 32);
  auto fails = [&](std::vector<Arg> args) {
    return errorText(k.launch(Grid(1), args, o));
  };
  EXPECT_EQ(fails(concat(desc(8, {32, 64}), desc(0, {32, 64}),
                         Arg::integer(5))),
            "kernel `scale`: argument #1 `x_desc`: the descriptor's base "
            "0x" + llvm::utohexstr(buf->ptr() + 8, true) +
                " is not 16-byte aligned");
  EXPECT_EQ(fails(concat(desc(0, {32, 64}, 100, 71), desc(0, {32, 64}),
                         Arg::integer(5))),
            "kernel `scale`: argument #1 `x_desc`: the descriptor's stride 0 "
            "(71 elements) is not a multiple of 16 bytes");
  // One descriptor short: the count names what is missing.
  std::vector<Arg> shortArgs = desc(0, {32, 64});
  shortArgs.push_back(Arg::integer(5));
  EXPECT_EQ(fails(shortArgs),
            "kernel `scale` takes 3 argument(s) (x_desc, y_desc, n) but 2 were "
            "given: missing `n` (argument #3)");
  auto bad = Arg::tensorDescArgs(buf->ptr(), DType::F16, {4, 4}, {4, 2},
                                 {16, 16}, false);
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "tensor descriptor: the last stride must be 1, got 2");
  EXPECT_EQ(launches().size(), 0u);
}

TEST_F(TensorDescFake, TmaCopiesGetEncodedTensorMaps) {
  Module m = uncached(kMatmul, "mm.py");
  Kernel k = llvm::cantFail(m.kernel("mm"));
  LaunchOptions o;
  o.constexprs.emplace("BM", 64);
  o.constexprs.emplace("BN", 128);
  o.constexprs.emplace("BK", 32);
  // A: 200 x 96 (row stride 104), B: 96 x 128 (stride 128, NaN padding).
  auto a = Arg::tensorDescArgs(buf->ptr(), DType::F16, {200, 96}, {104, 1}, {64, 32}, false);
  auto b = Arg::tensorDescArgs(buf->ptr() + 65536, DType::F16, {96, 128}, {128, 1},
                               {32, 128}, true);
  ASSERT_TRUE(bool(a) && bool(b));
  std::vector<Arg> args = concat(*a, *b, Arg::ptr(buf->ptr() + 131072, DType::F32));
  args.push_back(Arg::integer(96));
  auto ck = k.prepare(args, o);
  ASSERT_TRUE(bool(ck)) << llvm::toString(ck.takeError());
  // A's rows of 32 halves are one 64-byte panel; B's rows of 128 are four
  // panels of 64 halves (128 bytes), copied one box each.
  ASSERT_EQ(ck->info.tensorMaps.size(), 2u);
  EXPECT_EQ(ck->info.tensorMaps[0].param, 0u);
  EXPECT_EQ(ck->info.tensorMaps[0].box, (std::vector<int64_t>{64, 32}));
  EXPECT_EQ(ck->info.tensorMaps[0].swizzle, 64u);
  EXPECT_FALSE(ck->info.tensorMaps[0].nanFill);
  EXPECT_EQ(ck->info.tensorMaps[1].param, 4u);
  EXPECT_EQ(ck->info.tensorMaps[1].box, (std::vector<int64_t>{32, 64}));
  EXPECT_EQ(ck->info.tensorMaps[1].swizzle, 128u);
  EXPECT_TRUE(ck->info.tensorMaps[1].nanFill);
  EXPECT_NE(ck->ptx.find("cp.async.bulk.tensor.2d"), std::string::npos);
  EXPECT_NE(ck->ptx.find(".param .align 64 .b8 mm_param_10[128]"), std::string::npos);
  // The metadata survives the disk cache's JSON.
  auto round = KernelInfo::fromJSON(llvm::formatv("{0}", ck->info.toJSON()).str());
  ASSERT_TRUE(bool(round)) << llvm::toString(round.takeError());
  ASSERT_EQ(round->tensorMaps.size(), 2u);
  EXPECT_EQ(round->tensorMaps[1].box, ck->info.tensorMaps[1].box);
  EXPECT_TRUE(round->tensorMaps[1].nanFill);

  ASSERT_EQ(errorText(k.launch(Grid(4), args, o)), "");
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 1u);
  ASSERT_EQ(l[0].params.size(), 12u); // 10 parameters, then the two maps
  // Words: address, dims (inner first), stride in bytes, box (inner first),
  // data type, swizzle, OOB fill, interleave, L2 promotion, rank.
  auto words = [&](int param) {
    std::vector<uint64_t> w(16);
    EXPECT_EQ(fake().launchBlob(0, param, reinterpret_cast<unsigned char *>(w.data()), 128),
              128);
    w.resize(12);
    return w;
  };
  EXPECT_EQ(words(10), (std::vector<uint64_t>{buf->ptr(), 96, 200, 208, 32, 64,
                                              cu::TENSOR_MAP_FLOAT16,
                                              cu::TENSOR_MAP_SWIZZLE_64B, 0, 0,
                                              cu::TENSOR_MAP_L2_PROMOTION_128B, 2}));
  EXPECT_EQ(words(11), (std::vector<uint64_t>{buf->ptr() + 65536, 128, 96, 256, 64, 32,
                                              cu::TENSOR_MAP_FLOAT16,
                                              cu::TENSOR_MAP_SWIZZLE_128B,
                                              cu::TENSOR_MAP_OOB_FILL_NAN, 0,
                                              cu::TENSOR_MAP_L2_PROMOTION_128B, 2}));
  EXPECT_EQ(fake().calls("cuTensorMapEncodeTiled"), 2);
}

// A batched operand (Liger's fused MLP): a 3-D descriptor whose [1, BM, BK]
// block the kernel loads and reshapes to 2-D. The load drops the unit
// dimension, and the TMA copy keeps a coordinate per dimension: a 3-D tensor
// map whose box is the block (its last dimension a slot panel).
TEST_F(TensorDescFake, SqueezedBatchedBlocksGetThreeDimensionalTensorMaps) {
  Module m = uncached(R"(import triton
import triton.language as tl


@triton.jit
def bmm(a_desc, b_desc, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    batch = tl.program_id(1)
    m = tl.program_id(0) * BM
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.reshape(a_desc.load([batch, m, k]), [BM, BK])
        acc = tl.dot(a, b_desc.load([k, 0]), acc)
    r = tl.arange(0, BM)
    n = tl.arange(0, BN)
    tl.store(c + (m + r)[:, None] * BN + n[None, :], acc)
)",
                      "bmm.py");
  Kernel k = llvm::cantFail(m.kernel("bmm"));
  LaunchOptions o;
  o.constexprs.emplace("BM", 64);
  o.constexprs.emplace("BN", 128);
  o.constexprs.emplace("BK", 32);
  // A: 3 batches of 200 x 96 (batch stride 200 * 104, row stride 104).
  auto a = Arg::tensorDescArgs(buf->ptr(), DType::F16, {3, 200, 96}, {200 * 104, 104, 1},
                               {1, 64, 32}, false);
  auto b = Arg::tensorDescArgs(buf->ptr() + 131072, DType::F16, {96, 128}, {128, 1}, {32, 128},
                               false);
  ASSERT_TRUE(bool(a) && bool(b));
  std::vector<Arg> args = concat(*a, *b, Arg::ptr(buf->ptr() + 262144, DType::F32));
  args.push_back(Arg::integer(96));
  auto ck = k.prepare(args, o);
  ASSERT_TRUE(bool(ck)) << llvm::toString(ck.takeError());
  ASSERT_EQ(ck->info.tensorMaps.size(), 2u);
  EXPECT_EQ(ck->info.tensorMaps[0].box, (std::vector<int64_t>{1, 64, 32}));
  EXPECT_EQ(ck->info.tensorMaps[0].swizzle, 64u);
  EXPECT_EQ(ck->info.tensorMaps[1].param, 6u);
  EXPECT_NE(ck->ptx.find("cp.async.bulk.tensor.3d"), std::string::npos);
  EXPECT_EQ(ck->ptx.find("cp.async.cg.shared.global"), std::string::npos);
  auto round = KernelInfo::fromJSON(llvm::formatv("{0}", ck->info.toJSON()).str());
  ASSERT_TRUE(bool(round)) << llvm::toString(round.takeError());
  EXPECT_EQ(round->tensorMaps[0].box, ck->info.tensorMaps[0].box);

  ASSERT_EQ(errorText(k.launch(Grid(4, 3), args, o)), "");
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 1u);
  // A's 6 parameters, B's 4, c and K, then the two maps.
  ASSERT_EQ(l[0].params.size(), 14u);
  std::vector<uint64_t> w(16);
  EXPECT_EQ(fake().launchBlob(0, 12, reinterpret_cast<unsigned char *>(w.data()), 128), 128);
  // Innermost first: dims 96, 200, 3; strides 208 and 41600 bytes; box 32, 64, 1.
  EXPECT_EQ(w[0], buf->ptr());
  EXPECT_EQ((std::vector<uint64_t>{w[1], w[2], w[12]}), (std::vector<uint64_t>{96, 200, 3}));
  EXPECT_EQ((std::vector<uint64_t>{w[3], w[13]}), (std::vector<uint64_t>{208, 41600}));
  EXPECT_EQ((std::vector<uint64_t>{w[4], w[5], w[14]}), (std::vector<uint64_t>{32, 64, 1}));
  EXPECT_EQ(w[11], 3u);
}

TEST_F(TensorDescFake, TmaIsOffForAheadOfTimeAndOlderTargets) {
  KernelSpec spec;
  spec.kernelName = "mm";
  spec.arch = "sm_80";
  auto parsed = parseSignature(
      "tensordesc<fp16[64,32],div=16x16>,tensordesc<fp16[32,128],div=16x16>,*fp32:16,i32");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  spec.signature = *parsed;
  spec.constexprs = {{"BM", "64"}, {"BN", "128"}, {"BK", "32"}};
  auto ampere = compileKernel(kMatmul, "mm.py", spec);
  ASSERT_TRUE(bool(ampere)) << llvm::toString(ampere.takeError());
  EXPECT_TRUE(ampere->info.tensorMaps.empty());
  EXPECT_EQ(ampere->ptx.find("cp.async.bulk.tensor"), std::string::npos);
  spec.arch = "sm_90";
  CompileOptions aot;
  aot.tmaCopies = false;
  auto hopper = compileKernel(kMatmul, "mm.py", spec, aot);
  ASSERT_TRUE(bool(hopper)) << llvm::toString(hopper.takeError());
  EXPECT_TRUE(hopper->info.tensorMaps.empty());
  EXPECT_NE(hopper->ptx.find("cp.async.cg.shared.global"), std::string::npos);
}

// Descriptors made in the kernel: their blocks go by TMA through tensor maps
// the kernel builds (tile.tensormap_create) in global scratch the launch
// allocates on its stream, 128 bytes per map and program, passed last.
const char *kDeviceDescriptors = R"(import triton
import triton.language as tl


@triton.jit
def mm(a, bt, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(bt, [N, K], [K, 1], [BN, BK], padding_option="nan")
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(a_desc.load([0, k * BK]), b_desc.load([0, k * BK]).T)
    r = tl.arange(0, BM)
    n = tl.arange(0, BN)
    tl.store(c + r[:, None] * BN + n[None, :], acc)
)";

TEST_F(TensorDescFake, KernelBuiltTensorMapsGetGlobalScratch) {
  Module m = uncached(kDeviceDescriptors, "mm.py");
  Kernel k = llvm::cantFail(m.kernel("mm"));
  LaunchOptions o;
  o.constexprs.emplace("BM", 64);
  o.constexprs.emplace("BN", 64);
  o.constexprs.emplace("BK", 64);
  std::vector<Arg> args{Arg::ptr(buf->ptr(), DType::F16), Arg::ptr(buf->ptr() + 65536, DType::F16),
                        Arg::ptr(buf->ptr() + 131072, DType::F32), Arg::integer(64),
                        Arg::integer(64), Arg::integer(200)};
  auto ck = k.prepare(args, o);
  ASSERT_TRUE(bool(ck)) << llvm::toString(ck.takeError());
  EXPECT_TRUE(ck->info.tensorMaps.empty());
  EXPECT_EQ(ck->info.globalScratchBytes, 256u);
  EXPECT_NE(ck->ptx.find(".version 8.3"), std::string::npos);
  EXPECT_NE(ck->ptx.find("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic"),
            std::string::npos);
  EXPECT_NE(ck->ptx.find("cp.async.bulk.tensor.2d"), std::string::npos);
  auto round = KernelInfo::fromJSON(llvm::formatv("{0}", ck->info.toJSON()).str());
  ASSERT_TRUE(bool(round)) << llvm::toString(round.takeError());
  EXPECT_EQ(round->globalScratchBytes, 256u);

  // Each launch takes its scratch from Kiln's pool, which keeps what is
  // freed (made once per device: an earlier test may have made it).
  ASSERT_EQ(errorText(k.launch(Grid(3, 2), args, o)), "");
  ASSERT_EQ(errorText(k.launch(Grid(3, 2), args, o)), "");
  std::vector<Launch> l = launches();
  ASSERT_EQ(l.size(), 2u);
  ASSERT_EQ(l[0].params.size(), 7u); // 6 parameters, then the scratch
  EXPECT_NE(l[0].params[6], 0u);
  EXPECT_EQ(l[0].params[6] % 256, 0u);
  EXPECT_EQ(fake().calls("cuMemAllocFromPoolAsync"), 2);
  EXPECT_EQ(fake().calls("cuMemFreeAsync"), 2);
  EXPECT_EQ(fake().calls("cuMemAllocAsync"), 0);
  EXPECT_LE(fake().calls("cuMemPoolCreate"), 1);
  EXPECT_EQ(fake().calls("cuMemPoolCreate"), fake().calls("cuMemPoolSetAttribute(keep all)"));
  EXPECT_EQ(fake().calls("cuTensorMapEncodeTiled"), 0);

  // Cached metadata that claims an odd scratch is refused by name.
  std::string text = llvm::formatv("{0}", ck->info.toJSON()).str();
  size_t at = text.find("\"global_scratch\":256");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 20, "\"global_scratch\":100");
  auto bad = KernelInfo::fromJSON(text);
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "kernel info: field 'global_scratch' must be a multiple of 128, got 100");
}
