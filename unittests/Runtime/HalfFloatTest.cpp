//===- HalfFloatTest.cpp - fp16/bf16 host conversions ---------------------===//
#include "kiln/Runtime/HalfFloat.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace kiln::rt;

TEST(HalfFloat, EveryHalfRoundTrips) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = halfToFloat(uint16_t(h));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(f)))) << h;
      continue;
    }
    EXPECT_EQ(floatToHalf(f), h) << "half bits " << h;
  }
}

TEST(HalfFloat, KnownValues) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // Rounds up to infinity.
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001); // Smallest subnormal.
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000); // Tie to even: 0.
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_FLOAT_EQ(halfToFloat(0x3555), 0.333251953125f);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
  EXPECT_EQ(floatToHalf(INFINITY), 0x7c00);
}

TEST(HalfFloat, BF16) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    float f = bf16ToFloat(uint16_t(b));
    if (std::isnan(f))
      continue;
    EXPECT_EQ(floatToBF16(f), b) << b;
  }
  EXPECT_EQ(floatToBF16(1.0f), 0x3f80);
  // 1 + 2^-8 is the midpoint of 1 and 1 + 2^-7: ties to even.
  EXPECT_EQ(floatToBF16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(floatToBF16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBF16(NAN))));
}
