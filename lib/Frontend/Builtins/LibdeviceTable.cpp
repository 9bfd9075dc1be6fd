//===- LibdeviceTable.cpp - Triton 3.6's libdevice wrappers as data -------===//
//
// One row per function of triton.language.extra.cuda.libdevice: its name and
// its overloads, each `ARGS>RET SYMBOL` with one letter per dtype
// (i int32, I int64, u uint32, U uint64, f fp32, d fp64). The common shapes
// are spelled once: `F1` is `f>f __nv_<name>f|d>d __nv_<name>` (and F2/F3/F4
// for two to four operands). Triton's table is the reference; its wrappers
// that return `.to(tl.int1)` (isnan, isinf, finitef, isfinited) are marked.
//
//===----------------------------------------------------------------------===//
#include "Libdevice.h"

#include "llvm/ADT/StringExtras.h"

using namespace kiln;
using namespace kiln::fe;

namespace {
/// Uniform fp32/fp64 functions of `n` operands.
constexpr const char *F1 = "#1", *F2 = "#2", *F3 = "#3", *F4 = "#4";

struct Row {
  const char *name;
  const char *overloads;
  bool toBool = false;
};

const Row kRows[] = {
    // Integer and bit functions.
    {"clz", "i>i __nv_clz|I>i __nv_clzll"},
    {"popc", "i>i __nv_popc|I>i __nv_popcll"},
    {"byte_perm", "iii>i __nv_byte_perm"},
    {"mulhi", "ii>i __nv_mulhi|uu>u __nv_umulhi|II>I __nv_mul64hi|UU>U __nv_umul64hi"},
    {"mul24", "ii>i __nv_mul24|uu>u __nv_umul24"},
    {"brev", "i>i __nv_brev|I>I __nv_brevll"},
    {"sad", "iiu>i __nv_sad|uuu>u __nv_usad"},
    {"abs", "i>i __nv_abs|I>I __nv_llabs|f>f __nv_fabsf|d>d __nv_fabs"},
    {"ffs", "i>i __nv_ffs|I>i __nv_ffsll"},
    {"hadd", "ii>i __nv_hadd|uu>u __nv_uhadd"},
    {"rhadd", "ii>i __nv_rhadd|uu>u __nv_urhadd"},
    // Rounding and classification.
    {"floor", F1},
    {"ceil", F1},
    {"trunc", F1},
    {"rint", F1},
    {"nearbyint", F1},
    {"round", F1},
    {"llrint", "f>I __nv_llrintf|d>I __nv_llrint"},
    {"llround", "f>I __nv_llroundf|d>I __nv_llround"},
    {"rcp64h", "d>d __nv_rcp64h"},
    {"saturatef", "f>f __nv_saturatef"},
    {"isnan", "f>i __nv_isnanf|d>i __nv_isnand", true},
    {"isinf", "f>i __nv_isinff|d>i __nv_isinfd", true},
    {"finitef", "f>i __nv_finitef", true},
    {"isfinited", "d>i __nv_isfinited", true},
    {"signbit", "f>i __nv_signbitf|d>i __nv_signbitd"},
    {"copysign", F2},
    {"nextafter", F2},
    {"fdim", F2},
    {"fmod", F2},
    {"remainder", F2},
    {"ilogb", "f>i __nv_ilogbf|d>i __nv_ilogb"},
    {"logb", F1},
    {"ldexp", "fi>f __nv_ldexpf|di>d __nv_ldexp"},
    {"scalbn", "fi>f __nv_scalbnf|di>d __nv_scalbn"},
    // Arithmetic with explicit rounding.
    {"fma", F3},
    {"fma_rn", "fff>f __nv_fmaf_rn|ddd>d __nv_fma_rn"},
    {"fma_rz", "fff>f __nv_fmaf_rz|ddd>d __nv_fma_rz"},
    {"fma_rd", "fff>f __nv_fmaf_rd|ddd>d __nv_fma_rd"},
    {"fma_ru", "fff>f __nv_fmaf_ru|ddd>d __nv_fma_ru"},
    {"fast_dividef", "ff>f __nv_fast_fdividef"},
    {"div_rn", "ff>f __nv_fdiv_rn|dd>d __nv_ddiv_rn"},
    {"div_rz", "ff>f __nv_fdiv_rz|dd>d __nv_ddiv_rz"},
    {"div_rd", "ff>f __nv_fdiv_rd|dd>d __nv_ddiv_rd"},
    {"div_ru", "ff>f __nv_fdiv_ru|dd>d __nv_ddiv_ru"},
    {"rcp_rn", "f>f __nv_frcp_rn|d>d __nv_drcp_rn"},
    {"rcp_rz", "f>f __nv_frcp_rz|d>d __nv_drcp_rz"},
    {"rcp_rd", "f>f __nv_frcp_rd|d>d __nv_drcp_rd"},
    {"rcp_ru", "f>f __nv_frcp_ru|d>d __nv_drcp_ru"},
    {"sqrt_rn", "f>f __nv_fsqrt_rn|d>d __nv_dsqrt_rn"},
    {"sqrt_rz", "f>f __nv_fsqrt_rz|d>d __nv_dsqrt_rz"},
    {"sqrt_rd", "f>f __nv_fsqrt_rd|d>d __nv_dsqrt_rd"},
    {"sqrt_ru", "f>f __nv_fsqrt_ru|d>d __nv_dsqrt_ru"},
    {"sqrt", F1},
    {"rsqrt", F1},
    {"rsqrt_rn", "f>f __nv_frsqrt_rn"},
    {"add_rn", "dd>d __nv_dadd_rn|ff>f __nv_fadd_rn"},
    {"add_rz", "dd>d __nv_dadd_rz|ff>f __nv_fadd_rz"},
    {"add_rd", "dd>d __nv_dadd_rd|ff>f __nv_fadd_rd"},
    {"add_ru", "dd>d __nv_dadd_ru|ff>f __nv_fadd_ru"},
    {"sub_rn", "ff>f __nv_fsub_rn|dd>d __nv_dsub_rn"},
    {"sub_rz", "ff>f __nv_fsub_rz|dd>d __nv_dsub_rz"},
    {"sub_rd", "ff>f __nv_fsub_rd|dd>d __nv_dsub_rd"},
    {"sub_ru", "ff>f __nv_fsub_ru|dd>d __nv_dsub_ru"},
    {"mul_rn", "dd>d __nv_dmul_rn|ff>f __nv_fmul_rn"},
    {"mul_rz", "dd>d __nv_dmul_rz|ff>f __nv_fmul_rz"},
    {"mul_rd", "dd>d __nv_dmul_rd|ff>f __nv_fmul_rd"},
    {"mul_ru", "dd>d __nv_dmul_ru|ff>f __nv_fmul_ru"},
    // Conversions (Triton declares the unsigned results as int32 / int64).
    {"double2float_rn", "d>f __nv_double2float_rn"},
    {"double2float_rz", "d>f __nv_double2float_rz"},
    {"double2float_rd", "d>f __nv_double2float_rd"},
    {"double2float_ru", "d>f __nv_double2float_ru"},
    {"double2int_rn", "d>i __nv_double2int_rn"},
    {"double2int_rz", "d>i __nv_double2int_rz"},
    {"double2int_rd", "d>i __nv_double2int_rd"},
    {"double2int_ru", "d>i __nv_double2int_ru"},
    {"double2uint_rn", "d>i __nv_double2uint_rn"},
    {"double2uint_rz", "d>i __nv_double2uint_rz"},
    {"double2uint_rd", "d>i __nv_double2uint_rd"},
    {"double2uint_ru", "d>i __nv_double2uint_ru"},
    {"int2double_rn", "i>d __nv_int2double_rn"},
    {"uint2double_rn", "u>d __nv_uint2double_rn"},
    {"float2int_rn", "f>i __nv_float2int_rn"},
    {"float2int_rz", "f>i __nv_float2int_rz"},
    {"float2int_rd", "f>i __nv_float2int_rd"},
    {"float2int_ru", "f>i __nv_float2int_ru"},
    {"float2uint_rn", "f>i __nv_float2uint_rn"},
    {"float2uint_rz", "f>i __nv_float2uint_rz"},
    {"float2uint_rd", "f>i __nv_float2uint_rd"},
    {"float2uint_ru", "f>i __nv_float2uint_ru"},
    {"int2float_rn", "i>f __nv_int2float_rn"},
    {"int2float_rz", "i>f __nv_int2float_rz"},
    {"int2float_rd", "i>f __nv_int2float_rd"},
    {"int2float_ru", "i>f __nv_int2float_ru"},
    {"uint2float_rn", "u>f __nv_uint2float_rn"},
    {"uint2float_rz", "u>f __nv_uint2float_rz"},
    {"uint2float_rd", "u>f __nv_uint2float_rd"},
    {"uint2float_ru", "u>f __nv_uint2float_ru"},
    {"hiloint2double", "ii>d __nv_hiloint2double"},
    {"double2loint", "d>i __nv_double2loint"},
    {"double2hiint", "d>i __nv_double2hiint"},
    {"float2ll_rn", "f>I __nv_float2ll_rn"},
    {"float2ll_rz", "f>I __nv_float2ll_rz"},
    {"float2ll_rd", "f>I __nv_float2ll_rd"},
    {"float2ll_ru", "f>I __nv_float2ll_ru"},
    {"float2ull_rn", "f>I __nv_float2ull_rn"},
    {"float2ull_rz", "f>I __nv_float2ull_rz"},
    {"float2ull_rd", "f>I __nv_float2ull_rd"},
    {"float2ull_ru", "f>I __nv_float2ull_ru"},
    {"double2ll_rn", "d>I __nv_double2ll_rn"},
    {"double2ll_rz", "d>I __nv_double2ll_rz"},
    {"double2ll_rd", "d>I __nv_double2ll_rd"},
    {"double2ll_ru", "d>I __nv_double2ll_ru"},
    {"double2ull_rn", "d>I __nv_double2ull_rn"},
    {"double2ull_rz", "d>I __nv_double2ull_rz"},
    {"double2ull_rd", "d>I __nv_double2ull_rd"},
    {"double2ull_ru", "d>I __nv_double2ull_ru"},
    {"ll2float_rn", "I>f __nv_ll2float_rn"},
    {"ll2float_rz", "I>f __nv_ll2float_rz"},
    {"ll2float_rd", "I>f __nv_ll2float_rd"},
    {"ll2float_ru", "I>f __nv_ll2float_ru"},
    {"ull2float_rn", "U>f __nv_ull2float_rn"},
    {"ull2float_rz", "U>f __nv_ull2float_rz"},
    {"ull2float_rd", "U>f __nv_ull2float_rd"},
    {"ull2float_ru", "U>f __nv_ull2float_ru"},
    {"ll2double_rn", "I>d __nv_ll2double_rn"},
    {"ll2double_rz", "I>d __nv_ll2double_rz"},
    {"ll2double_rd", "I>d __nv_ll2double_rd"},
    {"ll2double_ru", "I>d __nv_ll2double_ru"},
    {"ull2double_rn", "U>d __nv_ull2double_rn"},
    {"ull2double_rz", "U>d __nv_ull2double_rz"},
    {"ull2double_rd", "U>d __nv_ull2double_rd"},
    {"ull2double_ru", "U>d __nv_ull2double_ru"},
    {"int_as_float", "i>f __nv_int_as_float"},
    {"float_as_int", "f>i __nv_float_as_int"},
    {"uint_as_float", "u>f __nv_uint_as_float"},
    {"float_as_uint", "f>i __nv_float_as_uint"},
    {"longlong_as_double", "I>d __nv_longlong_as_double"},
    {"double_as_longlong", "d>I __nv_double_as_longlong"},
    // Fast (approximate) fp32 intrinsics.
    {"fast_sinf", "f>f __nv_fast_sinf"},
    {"fast_cosf", "f>f __nv_fast_cosf"},
    {"fast_log2f", "f>f __nv_fast_log2f"},
    {"fast_logf", "f>f __nv_fast_logf"},
    {"fast_expf", "f>f __nv_fast_expf"},
    {"fast_tanf", "f>f __nv_fast_tanf"},
    {"fast_exp10f", "f>f __nv_fast_exp10f"},
    {"fast_log10f", "f>f __nv_fast_log10f"},
    {"fast_powf", "ff>f __nv_fast_powf"},
    // Transcendental functions.
    {"sin", F1},
    {"cos", F1},
    {"sinpi", F1},
    {"cospi", F1},
    {"tan", F1},
    {"log2", F1},
    {"exp", F1},
    {"exp2", F1},
    {"exp10", F1},
    {"expm1", F1},
    {"cosh", F1},
    {"sinh", F1},
    {"tanh", F1},
    {"atan2", F2},
    {"atan", F1},
    {"asin", F1},
    {"acos", F1},
    {"log", F1},
    {"log10", F1},
    {"log1p", F1},
    {"acosh", F1},
    {"asinh", F1},
    {"atanh", F1},
    {"hypot", F2},
    {"rhypot", F2},
    {"norm3d", F3},
    {"rnorm3d", F3},
    {"norm4d", F4},
    {"rnorm4d", F4},
    {"cbrt", F1},
    {"rcbrt", F1},
    {"j0", F1},
    {"j1", F1},
    {"y0", F1},
    {"y1", F1},
    {"yn", "if>f __nv_ynf|id>d __nv_yn"},
    {"jn", "if>f __nv_jnf|id>d __nv_jn"},
    {"cyl_bessel_i0", F1},
    {"cyl_bessel_i1", F1},
    {"erf", F1},
    {"erfinv", F1},
    {"erfc", F1},
    {"erfcx", F1},
    {"erfcinv", F1},
    {"normcdfinv", F1},
    {"normcdf", F1},
    {"lgamma", F1},
    {"tgamma", F1},
    {"pow", "fi>f __nv_powif|di>d __nv_powi|ff>f __nv_powf|dd>d __nv_pow"},
};

DType letterDType(char c) {
  switch (c) {
  case 'i': return DType::I32;
  case 'I': return DType::I64;
  case 'u': return DType::U32;
  case 'U': return DType::U64;
  case 'f': return DType::F32;
  default: return DType::F64;
  }
}

LibdeviceFn parseRow(const Row &row) {
  LibdeviceFn fn;
  fn.name = row.name;
  fn.toBool = row.toBool;
  std::string spec = row.overloads;
  if (spec[0] == '#') { // uniform fp32 / fp64
    unsigned n = spec[1] - '0';
    std::string base = std::string("__nv_") + row.name;
    fn.overloads.push_back({std::vector<DType>(n, DType::F32), DType::F32, base + "f"});
    fn.overloads.push_back({std::vector<DType>(n, DType::F64), DType::F64, base});
  } else {
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(spec).split(parts, '|');
    for (llvm::StringRef p : parts) {
      auto [sig, symbol] = p.split(' ');
      auto [args, ret] = sig.split('>');
      LibdeviceOverload o;
      for (char c : args)
        o.args.push_back(letterDType(c));
      o.result = letterDType(ret[0]);
      o.symbol = symbol.str();
      fn.overloads.push_back(std::move(o));
    }
  }
  fn.arity = fn.overloads.front().args.size();
  return fn;
}
} // namespace

llvm::ArrayRef<LibdeviceFn> kiln::fe::libdeviceFunctions() {
  static const std::vector<LibdeviceFn> table = [] {
    std::vector<LibdeviceFn> t;
    for (const Row &r : kRows)
      t.push_back(parseRow(r));
    return t;
  }();
  return table;
}

const LibdeviceFn *kiln::fe::findLibdevice(llvm::StringRef name) {
  for (const LibdeviceFn &f : libdeviceFunctions())
    if (f.name == name)
      return &f;
  return nullptr;
}
