//===- TensorDescFakeTest.cpp - Host tensor descriptors through the runtime ===//
//
// A kernel parameter read with `desc.load(...)` takes a host tensor
// descriptor: Arg::tensorDescArgs (header, shapes, strides) specializes it
// as `tensordesc<T[B...]>` and launches with the base, the i32 shapes and
// the i64 strides but the last. Checked end to end (real compiler, stand-in
// driver): the parameters the driver receives, the cache key per block
// shape, and the errors of bad descriptors.
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
                        bool nan = false) {
    auto a = Arg::tensorDescArgs(buf->ptr() + offset, DType::F16, {rows, 70},
                                 {stride, 1}, block, nan);
    EXPECT_TRUE(bool(a)) << llvm::toString(a.takeError());
    return *a;
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
  ModuleOptions mo;
  mo.cache = CacheConfig{false, "", false};
  Module m = Module::fromSource(kSource, "scale.py", mo);
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

TEST_F(TensorDescFake, BadDescriptorsAreNamed) {
  ModuleOptions mo;
  mo.cache = CacheConfig{false, "", false};
  Module m = Module::fromSource(kSource, "scale.py", mo);
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
