//===- GpuTestUtil.h - Helpers for the runtime's GPU tests ----------------===//
#ifndef KILN_UNITTESTS_RUNTIME_GPUTESTUTIL_H
#define KILN_UNITTESTS_RUNTIME_GPUTESTUTIL_H

#include "kiln/Runtime/Device.h"
#include "kiln/Runtime/HalfFloat.h"
#include "kiln/Frontend/Spec.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

namespace kiln::rt::test {

/// Why GPU tests cannot run here, or "" when a device is usable. A driver
/// that loads but fails later is a test failure, not a reason to skip.
inline std::string gpuUnavailableReason() {
  auto n = Device::count();
  if (!n)
    return llvm::toString(n.takeError());
  if (*n == 0)
    return "the CUDA driver reports no device";
  return "";
}

/// Skips the test (with the reason printed) when there is no GPU; else binds
/// `dev` to device 0.
#define KILN_REQUIRE_GPU(dev)                                                  \
  if (std::string _why = ::kiln::rt::test::gpuUnavailableReason();             \
      !_why.empty())                                                           \
    GTEST_SKIP() << "no GPU: " << _why;                                        \
  auto _devOrErr = ::kiln::rt::Device::get(0);                                 \
  ASSERT_TRUE(bool(_devOrErr)) << llvm::toString(_devOrErr.takeError());       \
  ::kiln::rt::Device &dev = *_devOrErr

#define KILN_ASSERT_OK(expr)                                                   \
  do {                                                                         \
    llvm::Error _e = (expr);                                                   \
    ASSERT_FALSE(bool(_e)) << llvm::toString(std::move(_e));                   \
  } while (0)

/// Unwraps an Expected or fails the test.
#define KILN_ASSIGN_OR_FAIL(lhs, expr)                                         \
  auto _tmp_##lhs = (expr);                                                    \
  ASSERT_TRUE(bool(_tmp_##lhs)) << llvm::toString(_tmp_##lhs.takeError());     \
  auto lhs = std::move(*_tmp_##lhs)

/// Host storage of `count` elements of a floating dtype.
struct HostArray {
  DType dtype = DType::F32;
  std::vector<uint8_t> bytes;
  HostArray() = default;
  HostArray(DType t, size_t count, uint8_t fill = 0)
      : dtype(t), bytes(count * dtypeBytes(t), fill) {}
  size_t size() const { return bytes.size() / dtypeBytes(dtype); }
  double get(size_t i) const {
    switch (dtype) {
    case DType::F16: {
      uint16_t h;
      std::memcpy(&h, &bytes[i * 2], 2);
      return halfToFloat(h);
    }
    case DType::BF16: {
      uint16_t h;
      std::memcpy(&h, &bytes[i * 2], 2);
      return bf16ToFloat(h);
    }
    default: {
      float f;
      std::memcpy(&f, &bytes[i * 4], 4);
      return f;
    }
    }
  }
  /// Stores v rounded to the dtype; returns the stored value.
  double set(size_t i, double v) {
    switch (dtype) {
    case DType::F16: {
      uint16_t h = floatToHalf(float(v));
      std::memcpy(&bytes[i * 2], &h, 2);
      return halfToFloat(h);
    }
    case DType::BF16: {
      uint16_t h = floatToBF16(float(v));
      std::memcpy(&bytes[i * 2], &h, 2);
      return bf16ToFloat(h);
    }
    default: {
      float f = float(v);
      std::memcpy(&bytes[i * 4], &f, 4);
      return f;
    }
    }
  }
};

/// Half an ulp relative: the rounding of a stored result of this dtype.
inline double storageEpsilon(DType t) {
  switch (t) {
  case DType::F16:
    return std::ldexp(1.0, -11);
  case DType::BF16:
    return std::ldexp(1.0, -8);
  default:
    return std::ldexp(1.0, -24);
  }
}

/// Seed for this run: $KILN_TEST_SEED, else fresh from the OS.
inline uint64_t testSeed() {
  static uint64_t seed = [] {
    if (const char *s = std::getenv("KILN_TEST_SEED"))
      return uint64_t(std::strtoull(s, nullptr, 10));
    return (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  }();
  return seed;
}

} // namespace kiln::rt::test

#endif
