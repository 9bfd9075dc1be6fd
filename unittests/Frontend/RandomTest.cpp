//===- RandomTest.cpp - Philox random builtins against a host reference ---===//
//
// A host Philox4x32 checked against the Random123 known-answer vectors, then
// the compiler's tl.philox / randint4x / randint / rand / rand4x on constexpr
// seeds and offsets: the generated IR folds to constants under the
// canonicalizer, which must equal the reference (bit for bit, floats too).
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Tile/IR/Tile.h"
#include "kiln/Frontend/Frontend.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "gtest/gtest.h"

#include <array>
#include <bit>
#include <cstring>

using namespace kiln;

namespace {

using Quad = std::array<uint32_t, 4>;

/// Philox4x32 with Triton's round order (the key bump after each round does
/// not change the outputs of a standard Philox4x32-R).
Quad philox4x32(Quad c, uint32_t k0, uint32_t k1, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    uint64_t p0 = uint64_t(0xD2511F53u) * c[0];
    uint64_t p1 = uint64_t(0xCD9E8D57u) * c[2];
    c = {uint32_t(p1 >> 32) ^ c[1] ^ k0, uint32_t(p1),
         uint32_t(p0 >> 32) ^ c[3] ^ k1, uint32_t(p0)};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

/// Triton's uint_to_uniform_float for 32-bit values: |x| read as int32
/// (negatives map to -x - 1 == ~x) times the largest scale below 2**-31.
float uniform(uint32_t x) {
  int32_t s = int32_t(x) < 0 ? int32_t(~x) : int32_t(x);
  return float(s) * float(4.6566127342e-10);
}

TEST(Philox, Random123KnownAnswers) {
  EXPECT_EQ(philox4x32({0, 0, 0, 0}, 0, 0, 10),
            (Quad{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32({~0u, ~0u, ~0u, ~0u}, ~0u, ~0u, 10),
            (Quad{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                       0xa4093822, 0x299f31d0, 10),
            (Quad{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(Philox, UniformConversion) {
  EXPECT_EQ(uniform(0), 0.0f);
  EXPECT_EQ(uniform(0xffffffffu), 0.0f); // -1 -> 0
  EXPECT_LT(uniform(0x7fffffffu), 1.0f);
  EXPECT_EQ(uniform(0x80000000u), uniform(0x7fffffffu));
  EXPECT_EQ(uniform(2), 2 * float(4.6566127342e-10));
}

const char *kSource = R"(import triton
import triton.language as tl


@triton.jit
def ints(O, SEED: tl.constexpr, OFF: tl.constexpr, R: tl.constexpr):
    a, b, c, d = tl.randint4x(SEED, OFF, R)
    tl.store(O + 0, a)
    tl.store(O + 1, b)
    tl.store(O + 2, c)
    tl.store(O + 3, d)
    tl.store(O + 4, tl.randint(SEED, OFF, n_rounds=R))


@triton.jit
def floats(O, SEED: tl.constexpr, OFF: tl.constexpr):
    tl.store(O, tl.rand(SEED, OFF))
    u0, u1, u2, u3 = tl.rand4x(SEED, OFF)
    tl.store(O + 1, u0)
    tl.store(O + 2, u1)
    tl.store(O + 3, u2)
    tl.store(O + 4, u3)


@triton.jit
def kat(O, SEED: tl.constexpr, C0: tl.constexpr, C1: tl.constexpr,
        C2: tl.constexpr, C3: tl.constexpr):
    a, b, c, d = tl.philox(SEED, C0, C1, C2, C3)
    tl.store(O + 0, a)
    tl.store(O + 1, b)
    tl.store(O + 2, c)
    tl.store(O + 3, d)
)";

/// Compiles `kernel`, folds it and returns the bits of each stored constant
/// in program order (empty on failure).
std::vector<uint32_t> storedBits(llvm::StringRef kernel, llvm::StringRef sig,
                                 std::map<std::string, std::string> defs) {
  mlir::MLIRContext ctx;
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(kSource, "r.py"),
                        llvm::SMLoc());
  KernelSpec spec;
  spec.kernelName = kernel.str();
  spec.signature = cantFail(parseSignature(sig.str()));
  spec.constexprs = std::move(defs);
  mlir::OwningOpRef<mlir::ModuleOp> m = compileToTile(ctx, sm, spec);
  if (!m)
    return {};
  mlir::PassManager pm(&ctx);
  pm.addPass(mlir::createCanonicalizerPass());
  if (failed(pm.run(*m)))
    return {};
  std::vector<uint32_t> out;
  bool allConstant = true;
  m->walk([&](tile::StoreOp st) {
    auto cst = st.getValue().getDefiningOp<mlir::arith::ConstantOp>();
    if (!cst) {
      allConstant = false;
      return;
    }
    mlir::Attribute v = cst.getValue();
    if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(v))
      out.push_back(uint32_t(i.getValue().getZExtValue()));
    else if (auto f = llvm::dyn_cast<mlir::FloatAttr>(v))
      out.push_back(std::bit_cast<uint32_t>(float(f.getValueAsDouble())));
    else
      allConstant = false;
  });
  if (!allConstant)
    return {};
  return out;
}

TEST(Philox, CompiledPhiloxMatchesKnownAnswers) {
  auto run = [](const char *seed, const char *c0, const char *c1,
                const char *c2, const char *c3) {
    return storedBits("kat", "*u32",
                      {{"SEED", seed}, {"C0", c0}, {"C1", c1}, {"C2", c2},
                       {"C3", c3}});
  };
  EXPECT_EQ(run("0", "0", "0", "0", "0"),
            (std::vector<uint32_t>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c,
                                   0x9b00dbd8}));
  // Seed -1 becomes the uint64 0xffffffffffffffff: both key words all ones.
  EXPECT_EQ(run("-1", "4294967295", "4294967295", "4294967295", "-1"),
            (std::vector<uint32_t>{0x408f276d, 0x41c83b0e, 0xa20bc7c6,
                                   0x6d5451fd}));
  // Key (0xa4093822, 0x299f31d0) is the seed 0x299f31d0a4093822.
  EXPECT_EQ(run("2999170649027065890", "608135816", "2242054355",
                "320440878", "57701188"),
            (std::vector<uint32_t>{0xd16cfe09, 0x94fdcceb, 0x5001e420,
                                   0x24126ea1}));
}

struct SeedOffset {
  int64_t seed, offset;
};

TEST(Philox, CompiledRandintMatchesReference) {
  for (SeedOffset so : {SeedOffset{0, 0}, SeedOffset{42, 1},
                        SeedOffset{0x12345678, 0x7fffffff},
                        SeedOffset{-1, -5},
                        SeedOffset{0x123456789abcd, 0x100000005}}) {
    for (int rounds : {7, 10}) {
      SCOPED_TRACE(std::to_string(so.seed) + " " + std::to_string(so.offset) +
                   " " + std::to_string(rounds));
      uint64_t seed = uint64_t(so.seed), off = uint64_t(so.offset);
      // Constexpr offsets are int32 when they fit: no high counter word.
      bool wide = so.offset < INT32_MIN || so.offset > INT32_MAX;
      Quad q = philox4x32({uint32_t(off), wide ? uint32_t(off >> 32) : 0, 0, 0},
                          uint32_t(seed), uint32_t(seed >> 32), rounds);
      std::vector<uint32_t> got =
          storedBits("ints", "*u32",
                     {{"SEED", std::to_string(so.seed)},
                      {"OFF", std::to_string(so.offset)},
                      {"R", std::to_string(rounds)}});
      EXPECT_EQ(got, (std::vector<uint32_t>{q[0], q[1], q[2], q[3], q[0]}));
    }
  }
}

TEST(Philox, CompiledRandMatchesReference) {
  for (SeedOffset so : {SeedOffset{7, 3}, SeedOffset{-123456789, 99}}) {
    uint64_t seed = uint64_t(so.seed), off = uint64_t(so.offset);
    Quad q = philox4x32({uint32_t(off), 0, 0, 0}, uint32_t(seed),
                        uint32_t(seed >> 32), 10);
    std::vector<uint32_t> want;
    for (uint32_t x : {q[0], q[0], q[1], q[2], q[3]})
      want.push_back(std::bit_cast<uint32_t>(uniform(x)));
    EXPECT_EQ(storedBits("floats", "*fp32",
                         {{"SEED", std::to_string(so.seed)},
                          {"OFF", std::to_string(so.offset)}}),
              want);
  }
}

} // namespace
