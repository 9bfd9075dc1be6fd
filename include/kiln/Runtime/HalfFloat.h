//===- HalfFloat.h - fp16 / bf16 <-> fp32 conversions on the host ---------===//
//
// Round-to-nearest-even conversions for preparing inputs and reading results
// of half-precision kernels; no compiler extension types needed.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_HALFFLOAT_H
#define KILN_RUNTIME_HALFFLOAT_H

#include <cstdint>
#include <cstring>

namespace kiln::rt {

inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// IEEE binary16 bits of `f`, rounded to nearest even; NaN stays NaN.
inline uint16_t floatToHalf(float f) {
  uint32_t u = floatBits(f);
  uint16_t sign = uint16_t((u >> 16) & 0x8000u);
  uint32_t absU = u & 0x7fffffffu;
  if (absU >= 0x7f800000u) // Inf or NaN (keep NaN quiet and non-zero).
    return sign | (absU > 0x7f800000u ? 0x7e00u : 0x7c00u);
  if (absU >= 0x477ff000u) // Rounds to >= 65520: overflow to Inf.
    return sign | 0x7c00u;
  if (absU < 0x38800000u) { // Below the smallest normal half (2^-14).
    if (absU < 0x33000000u) // Below half the smallest subnormal: zero.
      return sign;
    // Subnormal: value = mantissa * 2^-24; shift the full significand.
    uint32_t exp = absU >> 23;
    uint32_t mant = (absU & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126 - exp; // 113 - exp + 13
    uint32_t result = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (result & 1)))
      ++result;
    return sign | uint16_t(result);
  }
  // Normal: rebias the exponent (127 -> 15) and round 13 mantissa bits away.
  uint32_t result = ((absU - 0x38000000u) >> 13);
  uint32_t rem = absU & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (result & 1)))
    ++result;
  return sign | uint16_t(result);
}

inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) // Inf / NaN.
    return bitsFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    if (mant == 0)
      return bitsFloat(sign);
    // Subnormal: normalize.
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while (!(mant & 0x400u));
    return bitsFloat(sign | uint32_t(127 - 15 - e) << 23 | (mant & 0x3ffu) << 13);
  }
  return bitsFloat(sign | (exp + 127 - 15) << 23 | mant << 13);
}

/// bfloat16 bits of `f` (the top half of fp32), rounded to nearest even.
inline uint16_t floatToBF16(float f) {
  uint32_t u = floatBits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) // NaN: keep it a quiet NaN.
    return uint16_t((u >> 16) | 0x40u);
  uint32_t lsb = (u >> 16) & 1u;
  u += 0x7fffu + lsb;
  return uint16_t(u >> 16);
}

inline float bf16ToFloat(uint16_t b) { return bitsFloat(uint32_t(b) << 16); }

} // namespace kiln::rt

#endif // KILN_RUNTIME_HALFFLOAT_H
