//===- LaunchTest.cpp - Parameters, specialization, launch checks (CPU) ---===//
#include "kiln/Runtime/Driver.h"
#include "kiln/Runtime/HalfFloat.h"
#include "kiln/Runtime/LayerNorm.h"
#include "kiln/Runtime/Launch.h"
#include "kiln/Runtime/Module.h"
#include "kiln/Target/BuiltinKernels.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <cstring>

using namespace kiln;
using namespace kiln::rt;

namespace {
/// The error text of `e` ("" on success); consumes it.
std::string errorText(llvm::Error e) {
  return e ? llvm::toString(std::move(e)) : std::string();
}
template <typename T> std::string errorText(llvm::Expected<T> &e) {
  return e ? std::string() : llvm::toString(e.takeError());
}

#define EXPECT_ERROR_CONTAINS(text, fragment)                                  \
  do {                                                                         \
    std::string _t = (text);                                                   \
    EXPECT_NE(_t.find(fragment), std::string::npos)                            \
        << "error was: \"" << _t << "\"";                                      \
  } while (0)

const char *kSource = R"py(import triton
import triton.language as tl

@triton.jit
def helper(x):
    return x + 1

@triton.jit
def _layer_norm_fwd_fused(
    X,  # pointer to the input
    Y,  # pointer to the output
    W, B, Mean, Rstd,
    stride,  # how much to increase the pointer when moving by 1 row
    N,  # number of columns in X
    eps,
    BLOCK_SIZE: tl.constexpr,
):
    pass

@triton.jit
def with_default(P, n, EVEN: tl.constexpr = True, K: "tl.constexpr" = 4): pass
)py";

std::vector<KernelParameter> fwdParams() {
  auto p = listKernelParameters(kSource, "ln.py", "_layer_norm_fwd_fused");
  EXPECT_TRUE(bool(p));
  return p ? *p : std::vector<KernelParameter>{};
}

// Device addresses only need the right alignment here: nothing is launched.
constexpr CUdeviceptr kAligned = 0x7f0000000000ull;

std::vector<Arg> fwdArgs(DType t = DType::F16) {
  return {Arg::ptr(kAligned, t),          Arg::ptr(kAligned + 0x1000, t),
          Arg::ptr(kAligned + 0x2000, t), Arg::ptr(kAligned + 0x3000, t),
          Arg::ptr(kAligned + 0x4000, DType::F32),
          Arg::ptr(kAligned + 0x5004, DType::F32),
          Arg::integer(8192),             Arg::integer(8190),
          Arg::f32(1e-5f)};
}

LaunchOptions fwdOptions() {
  LaunchOptions o;
  o.numWarps = 8;
  o.constexprs.emplace("BLOCK_SIZE", 8192);
  return o;
}

KernelInfo fwdInfo() {
  KernelInfo info;
  info.name = "_layer_norm_fwd_fused";
  auto spec = deriveSpec(info.name, fwdParams(), fwdArgs(), fwdOptions(),
                         "sm_90");
  EXPECT_TRUE(bool(spec));
  const char *names[] = {"X", "Y", "W", "B", "Mean", "Rstd", "stride", "N",
                         "eps"};
  for (size_t i = 0; i < 9; ++i)
    info.params.push_back({names[i], spec->signature[i]});
  info.constexprs = spec->constexprs;
  info.numWarps = 8;
  return info;
}
} // namespace

//===----------------------------------------------------------------------===//
// Reading kernel parameters
//===----------------------------------------------------------------------===//

TEST(KernelParams, ReadsMultiLineDefWithComments) {
  std::vector<KernelParameter> p = fwdParams();
  ASSERT_EQ(p.size(), 10u);
  const char *names[] = {"X",      "Y", "W",   "B",         "Mean",
                         "Rstd", "stride", "N", "eps", "BLOCK_SIZE"};
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(p[i].name, names[i]);
    EXPECT_EQ(p[i].isConstexpr, i == 9) << names[i];
  }
}

// The frontend's own tests cover kiln::listKernelParameters in detail; these
// check that Module::kernel takes its parameters (and errors) from it.
TEST(KernelParams, ModuleKernelTakesTheFrontendsParameters) {
  auto direct = listKernelParameters(kSource, "ln.py", "with_default");
  ASSERT_TRUE(bool(direct)) << errorText(direct);
  ASSERT_EQ(direct->size(), 4u);
  EXPECT_EQ((*direct)[2],
            (KernelParameter{"EVEN", true, std::string("True")}));
  Module m = Module::fromSource(kSource, "ln.py");
  auto k = m.kernel("with_default");
  ASSERT_TRUE(bool(k)) << errorText(k);
  EXPECT_EQ(k->params().vec(), *direct);
  // Another Module with the same text (served by the per-process cache) and
  // the same Module again agree.
  Module other = Module::fromSource(kSource, "copy.py");
  for (const Module *mod : {&m, &other}) {
    auto again = mod->kernel("with_default");
    ASSERT_TRUE(bool(again)) << errorText(again);
    EXPECT_EQ(again->params().vec(), *direct);
  }
  auto names = m.kernelNames();
  ASSERT_TRUE(bool(names)) << errorText(names);
  EXPECT_EQ(*names, (std::vector<std::string>{"helper", "_layer_norm_fwd_fused",
                                              "with_default"}));
}

TEST(KernelParams, ModuleKernelReportsFrontendErrors) {
  Module bad = Module::fromSource("@triton.jit\ndef k(a, *):\n  pass\n",
                                  "f.py");
  const char *expected = "f.py:2:10: error: invalid syntax: named arguments "
                         "must follow bare *\ndef k(a, *):\n         ^";
  auto k = bad.kernel("k");
  EXPECT_EQ(errorText(k), expected);
  auto names = bad.kernelNames();
  EXPECT_EQ(errorText(names), expected);
}

TEST(KernelParams, BuiltinLayerNormKernelsHaveTheSpecifiedSignatures) {
  llvm::StringRef src = builtinLayerNormSource();
  struct Expect {
    const char *kernel;
    std::vector<std::string> params;
    std::vector<std::string> constexprs;
  } expects[] = {
      {"_layer_norm_fwd_fused",
       {"X", "Y", "W", "B", "Mean", "Rstd", "stride", "N", "eps"},
       {"BLOCK_SIZE"}},
      {"_layer_norm_bwd_dx_fused",
       {"DX", "DY", "DW", "DB", "X", "W", "Mean", "Rstd", "Lock", "stride",
        "N"},
       {"GROUP_SIZE_M", "BLOCK_SIZE_N"}},
      {"_layer_norm_bwd_dwdb",
       {"DW", "DB", "FINAL_DW", "FINAL_DB", "M", "N"},
       {"BLOCK_SIZE_M", "BLOCK_SIZE_N"}},
  };
  for (const Expect &e : expects) {
    auto p = listKernelParameters(src, kBuiltinLayerNormName, e.kernel);
    ASSERT_TRUE(bool(p)) << errorText(p);
    std::vector<std::string> params, constexprs;
    for (const KernelParameter &k : *p)
      (k.isConstexpr ? constexprs : params).push_back(k.name);
    EXPECT_EQ(params, e.params) << e.kernel;
    EXPECT_EQ(constexprs, e.constexprs) << e.kernel;
  }
}

//===----------------------------------------------------------------------===//
// Specialization
//===----------------------------------------------------------------------===//

TEST(Specialize, DerivedLikeTriton) {
  auto spec = deriveSpec("_layer_norm_fwd_fused", fwdParams(), fwdArgs(),
                         fwdOptions(), "sm_90");
  ASSERT_TRUE(bool(spec)) << errorText(spec);
  std::vector<std::string> sig;
  for (const ParamSpec &p : spec->signature)
    sig.push_back(p.toString());
  EXPECT_EQ(sig, (std::vector<std::string>{"*fp16:16", "*fp16:16", "*fp16:16",
                                           "*fp16:16", "*fp32:16", "*fp32",
                                           "i32:16", "i32", "fp32", "8192"}));
  EXPECT_EQ(spec->signature[9].kind, ParamSpec::Kind::Constexpr);
  EXPECT_EQ(spec->constexprs,
            (std::map<std::string, std::string>{{"BLOCK_SIZE", "8192"}}));
  EXPECT_EQ(spec->numWarps, 8u);
  EXPECT_EQ(spec->arch, "sm_90");
  EXPECT_EQ(spec->kernelName, "_layer_norm_fwd_fused");
}

TEST(Specialize, IntegersWidenToI64AndDefaultsApply) {
  auto params = listKernelParameters(kSource, "ln.py", "with_default");
  ASSERT_TRUE(bool(params));
  LaunchOptions o;
  o.constexprs.emplace("K", 8);
  auto spec = deriveSpec("with_default", *params,
                         {Arg::ptr(kAligned + 2, DType::BF16),
                          Arg::integer(int64_t(1) << 40)},
                         o, "sm_80");
  ASSERT_TRUE(bool(spec)) << errorText(spec);
  EXPECT_EQ(spec->signature[0].toString(), "*bf16");
  EXPECT_EQ(spec->signature[1].toString(), "i64:16");
  EXPECT_EQ(spec->constexprs.at("EVEN"), "True");
  EXPECT_EQ(spec->constexprs.at("K"), "8");
  EXPECT_EQ(Arg::integer(-17).dtype(), DType::I32);
  EXPECT_EQ(Arg::integer(int64_t(INT32_MAX) + 1).dtype(), DType::I64);
}

TEST(Specialize, ErrorsNameTheParameter) {
  auto params = fwdParams();
  auto opts = fwdOptions();
  std::vector<Arg> args = fwdArgs();
  args.pop_back();
  auto r = deriveSpec("_layer_norm_fwd_fused", params, args, opts, "sm_90");
  EXPECT_EQ(errorText(r),
            "kernel `_layer_norm_fwd_fused` takes 9 argument(s) (X, Y, W, B, "
            "Mean, Rstd, stride, N, eps) but 8 were given: missing `eps` "
            "(argument #9)");

  args = fwdArgs();
  args.push_back(Arg::integer(1));
  r = deriveSpec("_layer_norm_fwd_fused", params, args, opts, "sm_90");
  std::string tooMany = errorText(r);
  EXPECT_ERROR_CONTAINS(tooMany, "takes 9 argument(s)");
  EXPECT_ERROR_CONTAINS(tooMany, "but 10 were given");

  args = fwdArgs();
  args[2] = Arg::ptr(0, DType::F16);
  r = deriveSpec("_layer_norm_fwd_fused", params, args, opts, "sm_90");
  EXPECT_EQ(errorText(r), "kernel `_layer_norm_fwd_fused`: argument #3 `W` is "
                          "a null device pointer");
  // Triton specializes a null pointer as 16-byte aligned (0 % 16 == 0).
  LaunchOptions nullOk = opts;
  nullOk.nullPointers = true;
  r = deriveSpec("_layer_norm_fwd_fused", params, args, nullOk, "sm_90");
  ASSERT_TRUE(bool(r)) << errorText(r);
  EXPECT_EQ(r->signature[2].kind, ParamSpec::Kind::Pointer);
  EXPECT_EQ(r->signature[2].divisibility, 16u);

  LaunchOptions noBlock;
  r = deriveSpec("_layer_norm_fwd_fused", params, fwdArgs(), noBlock, "sm_90");
  EXPECT_EQ(errorText(r),
            "kernel `_layer_norm_fwd_fused`: no value for constexpr parameter "
            "`BLOCK_SIZE` (set LaunchOptions::constexprs[\"BLOCK_SIZE\"])");

  LaunchOptions typo = fwdOptions();
  typo.constexprs.emplace("BLOCK", 4);
  r = deriveSpec("_layer_norm_fwd_fused", params, fwdArgs(), typo, "sm_90");
  EXPECT_EQ(errorText(r), "kernel `_layer_norm_fwd_fused` has no parameter "
                          "`BLOCK` (constexpr parameters: BLOCK_SIZE)");

  LaunchOptions notConst = fwdOptions();
  notConst.constexprs.emplace("N", 4);
  r = deriveSpec("_layer_norm_fwd_fused", params, fwdArgs(), notConst,
                 "sm_90");
  EXPECT_ERROR_CONTAINS(errorText(r), "`N` is not a constexpr parameter");

  LaunchOptions warps = fwdOptions();
  warps.numWarps = 3;
  r = deriveSpec("_layer_norm_fwd_fused", params, fwdArgs(), warps, "sm_90");
  EXPECT_EQ(errorText(r), "kernel `_layer_norm_fwd_fused`: num_warps = 3 is "
                          "not a power of two in 1..32");
}

TEST(Specialize, ConstexprLiterals) {
  EXPECT_EQ(ConstexprValue(1024).text(), "1024");
  EXPECT_EQ(ConstexprValue(int64_t(-3)).text(), "-3");
  EXPECT_EQ(ConstexprValue(size_t(7)).text(), "7");
  EXPECT_EQ(ConstexprValue(true).text(), "True");
  EXPECT_EQ(ConstexprValue(false).text(), "False");
  EXPECT_EQ(ConstexprValue(2.0).text(), "2.0");
  EXPECT_EQ(ConstexprValue(1e-5).text(), "1e-05");
  EXPECT_EQ(ConstexprValue(0.1).text(), "0.1");
  EXPECT_EQ(ConstexprValue("tl.float16").text(), "tl.float16");
}

//===----------------------------------------------------------------------===//
// Launch validation against a compiled kernel
//===----------------------------------------------------------------------===//

TEST(Validate, AcceptsMatchingArguments) {
  EXPECT_EQ(errorText(validateLaunch(fwdInfo(), fwdArgs(), Grid(1151), {})),
            "");
  // A zero grid dimension is allowed (nothing runs).
  EXPECT_EQ(errorText(validateLaunch(fwdInfo(), fwdArgs(), Grid(0), {})), "");
}

TEST(Validate, ArgumentCount) {
  std::vector<Arg> args = fwdArgs();
  args.erase(args.begin() + 7, args.end());
  EXPECT_EQ(errorText(validateLaunch(fwdInfo(), args, Grid(1), {})),
            "kernel `_layer_norm_fwd_fused` takes 9 argument(s) (X, Y, W, B, "
            "Mean, Rstd, stride, N, eps) but 7 were given: missing `N` "
            "(argument #8)");
}

TEST(Validate, KindsAndDTypes) {
  KernelInfo info = fwdInfo();
  std::vector<Arg> args = fwdArgs();
  args[2] = Arg::ptr(kAligned, DType::F32);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {})),
            "kernel `_layer_norm_fwd_fused`: argument #3 `W`: expected a "
            "pointer to fp16, got a pointer to fp32");
  args = fwdArgs();
  args[0] = Arg::integer(5);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {})),
            "kernel `_layer_norm_fwd_fused`: argument #1 `X`: expected a "
            "pointer to fp16, got integer 5 (i32)");
  args = fwdArgs();
  args[7] = Arg::f32(3.0f);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {})),
            "kernel `_layer_norm_fwd_fused`: argument #8 `N`: expected an "
            "integer (i32), got float 3 (fp32)");
  args = fwdArgs();
  args[8] = Arg::integer(1);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {})),
            "kernel `_layer_norm_fwd_fused`: argument #9 `eps`: expected a "
            "float (fp32), got integer 1 (i32)");
  args = fwdArgs();
  args[7] = Arg::i64(int64_t(1) << 33);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {})),
            "kernel `_layer_norm_fwd_fused`: argument #8 `N`: value "
            "8589934592 does not fit in i32");
}

TEST(Validate, NullPointersAndSpecializationAssumptions) {
  KernelInfo info = fwdInfo();
  std::vector<Arg> args = fwdArgs();
  args[4] = Arg::ptr(0, DType::F32);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {})),
            "kernel `_layer_norm_fwd_fused`: argument #5 `Mean`: null device "
            "pointer");
  // Triton's rule (the Python layers'): an empty tensor's null pointer passes.
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {},
                                     /*onesAreConstant=*/false,
                                     /*nullPointers=*/true)),
            "");
  args = fwdArgs();
  args[1] = Arg::ptr(kAligned + 2, DType::F16);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {})),
            "kernel `_layer_norm_fwd_fused`: argument #2 `Y`: the kernel was "
            "compiled for a 16-byte aligned pointer but 0x7f0000000002 is not");
  args = fwdArgs();
  args[6] = Arg::integer(8200);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {})),
            "kernel `_layer_norm_fwd_fused`: argument #7 `stride`: the kernel "
            "was compiled for a value divisible by 16 but got 8200");
  // Rstd was compiled without the alignment assumption: any address is fine.
  args = fwdArgs();
  args[5] = Arg::ptr(kAligned + 0x5008, DType::F32);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {})), "");
}

TEST(Validate, GridBlockAndSharedMemoryLimits) {
  KernelInfo info = fwdInfo();
  DeviceLimits lim;
  EXPECT_EQ(errorText(validateLaunch(info, fwdArgs(), Grid(1, 65536), lim)),
            "kernel `_layer_norm_fwd_fused`: grid dimension y is 65536, above "
            "the device limit 65535");
  EXPECT_EQ(errorText(validateLaunch(info, fwdArgs(), Grid(1, 1, 70000), lim)),
            "kernel `_layer_norm_fwd_fused`: grid dimension z is 70000, above "
            "the device limit 65535");
  info.numWarps = 64;
  EXPECT_EQ(errorText(validateLaunch(info, fwdArgs(), Grid(1), lim)),
            "kernel `_layer_norm_fwd_fused`: num_warps = 64 gives 2048 threads "
            "per block; the device allows 32..1024");
  info.numWarps = 8;
  info.sharedBytes = 300 * 1024;
  EXPECT_EQ(errorText(validateLaunch(info, fwdArgs(), Grid(1), lim)),
            "kernel `_layer_norm_fwd_fused` needs 307200 bytes of shared "
            "memory; the device allows at most 232448 per block");
}

TEST(Validate, PackedArgumentsUseTheParameterTypes) {
  KernelInfo info;
  info.name = "k";
  auto param = [](const char *name, ParamSpec::Kind kind, DType t) {
    ParamSpec s;
    s.kind = kind;
    s.dtype = t;
    return KernelInfo::Param{name, s};
  };
  info.params = {param("p", ParamSpec::Kind::Pointer, DType::F16),
                 param("a", ParamSpec::Kind::Scalar, DType::I32),
                 param("b", ParamSpec::Kind::Scalar, DType::I64),
                 param("c", ParamSpec::Kind::Scalar, DType::F32),
                 param("d", ParamSpec::Kind::Scalar, DType::F16),
                 param("e", ParamSpec::Kind::Scalar, DType::F64)};
  std::vector<Arg> args = {Arg::ptr(0x1234560, DType::F16), Arg::integer(-7),
                           Arg::integer(42),  Arg::f32(1.5f),
                           Arg::f32(-2.0f),   Arg::f32(0.25f)};
  ASSERT_EQ(errorText(validateLaunch(info, args, Grid(1), {})), "");
  PackedArgs packed(info, args);
  void **v = packed.data();
  EXPECT_EQ(*static_cast<uint64_t *>(v[0]), 0x1234560u);
  EXPECT_EQ(*static_cast<int32_t *>(v[1]), -7);
  EXPECT_EQ(*static_cast<int64_t *>(v[2]), 42);
  EXPECT_EQ(*static_cast<float *>(v[3]), 1.5f);
  EXPECT_EQ(*static_cast<uint16_t *>(v[4]), floatToHalf(-2.0f));
  EXPECT_EQ(*static_cast<double *>(v[5]), 0.25);
}

//===----------------------------------------------------------------------===//
// Tuple arguments
//===----------------------------------------------------------------------===//

const char *kTupleSource = R"py(import triton
import triton.language as tl

@triton.jit
def k(out, srcs, n, B: tl.constexpr):
    pass
)py";

LaunchOptions tupleOptions() {
  LaunchOptions o;
  o.constexprs.emplace("B", 128);
  return o;
}

TEST(Tuples, SpecializedElementByElementAndPackedFlat) {
  auto params = listKernelParameters(kTupleSource, "t.py", "k");
  ASSERT_TRUE(bool(params)) << errorText(params);
  LaunchOptions o = tupleOptions();
  // srcs = ((p0, p1), 2.5, None, 1): a nested tuple, a float, None and the
  // integer 1 (the constexpr 1, as at the top level).
  std::vector<Arg> args = {Arg::ptr(kAligned, DType::F32),
                           Arg::tupleHeader(4),
                           Arg::tupleHeader(2),
                           Arg::ptr(kAligned + 0x100, DType::F16),
                           Arg::ptr(kAligned + 0x102, DType::F16),
                           Arg::f32(2.5f),
                           Arg::none(),
                           Arg::integer(1),
                           Arg::integer(64)};
  EXPECT_EQ(argSpan(args, 0), 1u);
  EXPECT_EQ(argSpan(args, 1), 7u);
  EXPECT_EQ(argSpan(args, 2), 3u);
  auto spec = deriveSpec("k", *params, args, o, "sm_90");
  ASSERT_TRUE(bool(spec)) << errorText(spec);
  EXPECT_EQ(spec->toString(), "k(*fp32:16,((*fp16:16,*fp16),fp32,None,1),"
                              "i32:16,128)[B=128]num_warps=4,num_stages=3,"
                              "arch=sm_90");
  // The compiled kernel's parameters are the runtime elements, in order.
  auto param = [](const char *name, const char *type) {
    return KernelInfo::Param{name, (*parseSignature(type))[0]};
  };
  KernelInfo info;
  info.name = "k";
  info.params = {param("out", "*fp32:16"), param("srcs.0.0", "*fp16:16"),
                 param("srcs.0.1", "*fp16"), param("srcs.1", "fp32"),
                 param("n", "i32:16")};
  ASSERT_EQ(errorText(validateLaunch(info, args, Grid(1), {}, true)), "");
  PackedArgs packed(info, args, true);
  void **v = packed.data();
  EXPECT_EQ(*static_cast<uint64_t *>(v[1]), kAligned + 0x100);
  EXPECT_EQ(*static_cast<uint64_t *>(v[2]), kAligned + 0x102);
  EXPECT_EQ(*static_cast<float *>(v[3]), 2.5f);
  EXPECT_EQ(*static_cast<int32_t *>(v[4]), 64);
}

TEST(Tuples, ErrorsNameTheElement) {
  auto params = listKernelParameters(kTupleSource, "t.py", "k");
  ASSERT_TRUE(bool(params)) << errorText(params);
  LaunchOptions o = tupleOptions();
  std::vector<Arg> nullElement = {Arg::ptr(kAligned, DType::F32),
                                  Arg::tupleHeader(2),
                                  Arg::ptr(kAligned, DType::F16),
                                  Arg::ptr(0, DType::F16), Arg::integer(3)};
  auto r = deriveSpec("k", *params, nullElement, o, "sm_90");
  EXPECT_EQ(errorText(r), "kernel `k`: argument #2 `srcs`, element 1 is a "
                          "null device pointer");
  // The tuple swallows the last argument: one argument short.
  std::vector<Arg> shortArgs = {Arg::ptr(kAligned, DType::F32),
                                Arg::tupleHeader(2),
                                Arg::ptr(kAligned, DType::F16),
                                Arg::integer(3)};
  r = deriveSpec("k", *params, shortArgs, o, "sm_90");
  EXPECT_ERROR_CONTAINS(errorText(r), "but 2 were given");
  std::vector<Arg> truncated = {Arg::ptr(kAligned, DType::F32),
                                Arg::integer(3), Arg::tupleHeader(3),
                                Arg::ptr(kAligned, DType::F16)};
  EXPECT_EQ(argSpan(truncated, 2), 2u);
  std::vector<Arg> deep = {Arg::ptr(kAligned, DType::F32)};
  for (int d = 0; d < 9; ++d)
    deep.push_back(Arg::tupleHeader(1));
  deep.push_back(Arg::integer(5));
  deep.push_back(Arg::integer(3));
  r = deriveSpec("k", *params, deep, o, "sm_90");
  EXPECT_ERROR_CONTAINS(errorText(r), "tuples nested deeper than 8");
}

// A namedtuple's field names travel with its header into the signature
// (`(x=...,y=...)`), which keys the compiled code: the kernel reads fields
// by name, so another class's fields are another specialization.
TEST(Tuples, NamedTupleFieldsAreInTheSpec) {
  auto params = listKernelParameters(kTupleSource, "t.py", "k");
  ASSERT_TRUE(bool(params)) << errorText(params);
  LaunchOptions o = tupleOptions();
  std::vector<Arg> args = {Arg::ptr(kAligned, DType::F32),
                           Arg::tupleHeader(2, "ptr,stride"),
                           Arg::ptr(kAligned + 0x100, DType::F16),
                           Arg::integer(1), Arg::integer(64)};
  auto spec = deriveSpec("k", *params, args, o, "sm_90");
  ASSERT_TRUE(bool(spec)) << errorText(spec);
  EXPECT_EQ(spec->toString(), "k(*fp32:16,(ptr=*fp16:16,stride=1),i32:16,128)"
                              "[B=128]num_warps=4,num_stages=3,arch=sm_90");
  EXPECT_EQ(args[1].describe(), "namedtuple (ptr,stride)");
  args[1] = Arg::tupleHeader(2, "ptr");
  auto one = deriveSpec("k", *params, args, o, "sm_90");
  EXPECT_EQ(errorText(one),
            "kernel `k`: argument #2 `srcs`: the namedtuple names 1 field(s) "
            "(`ptr`) for 2 element(s)");
  args[1] = Arg::tupleHeader(2, "ptr,ptr");
  auto twice = deriveSpec("k", *params, args, o, "sm_90");
  EXPECT_EQ(errorText(twice),
            "kernel `k`: argument #2 `srcs`: `ptr` is not a namedtuple field "
            "name (or repeats one) in `ptr,ptr`");
  args[1] = Arg::tupleHeader(2, "ptr,1x");
  auto digit = deriveSpec("k", *params, args, o, "sm_90");
  EXPECT_ERROR_CONTAINS(errorText(digit),
                        "`1x` is not a namedtuple field name");
}

// A function passed by value (a tuple element of Triton's closure pattern):
// a constexpr by its spelling, no argument slot, part of the key.
TEST(Tuples, ConstexprTextElements) {
  auto params = listKernelParameters(kTupleSource, "t.py", "k");
  ASSERT_TRUE(bool(params)) << errorText(params);
  LaunchOptions o = tupleOptions();
  std::vector<Arg> args = {Arg::ptr(kAligned, DType::F32),
                           Arg::tupleHeader(2, "fn,scale"),
                           Arg::constexprText("__kiln_def__('/k.py', 'f', 3)"),
                           Arg::f32(2.0f), Arg::integer(64)};
  auto spec = deriveSpec("k", *params, args, o, "sm_90");
  ASSERT_TRUE(bool(spec)) << errorText(spec);
  EXPECT_EQ(spec->toString(),
            "k(*fp32:16,(fn=__kiln_def__('/k.py', 'f', 3),scale=fp32),i32:16,"
            "128)[B=128]num_warps=4,num_stages=3,arch=sm_90");
  EXPECT_TRUE(args[2].isNone());
  EXPECT_EQ(args[2].describe(), "constexpr __kiln_def__('/k.py', 'f', 3)");
  EXPECT_EQ(Arg::none().constexprText(), "");
}

TEST(Validate, UnsignedScalars) {
  KernelInfo info;
  info.name = "k";
  auto param = [](const char *name, DType t) {
    ParamSpec s;
    s.kind = ParamSpec::Kind::Scalar;
    s.dtype = t;
    return KernelInfo::Param{name, s};
  };
  info.params = {param("a", DType::U8), param("b", DType::U16),
                 param("c", DType::U64)};
  std::vector<Arg> args = {Arg::integer(255), Arg::integer(65535),
                           Arg::i64(-1)};
  ASSERT_EQ(errorText(validateLaunch(info, args, Grid(1), {})), "");
  PackedArgs packed(info, args);
  void **v = packed.data();
  EXPECT_EQ(*static_cast<uint8_t *>(v[0]), 255u);
  EXPECT_EQ(*static_cast<uint16_t *>(v[1]), 65535u);
  // A uint64 above INT64_MAX arrives as the int64 with the same bits.
  EXPECT_EQ(*static_cast<uint64_t *>(v[2]), ~uint64_t(0));
  args[0] = Arg::integer(256);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {})),
            "kernel `k`: argument #1 `a`: value 256 does not fit in u8");
  args[0] = Arg::integer(0);
  args[1] = Arg::integer(-1);
  EXPECT_EQ(errorText(validateLaunch(info, args, Grid(1), {})),
            "kernel `k`: argument #2 `b`: value -1 does not fit in u16");
}

//===----------------------------------------------------------------------===//
// LayerNorm heuristics and the 64 KB row limit
//===----------------------------------------------------------------------===//

TEST(LayerNormConfig, TutorialHeuristics) {
  struct Case {
    int64_t n;
    DType t;
    unsigned block, warps, group;
  } cases[] = {
      {1, DType::F16, 1, 1, 256},         {777, DType::F16, 1024, 4, 256},
      {1024, DType::F32, 1024, 4, 256},   {1025, DType::BF16, 2048, 8, 128},
      {3000, DType::F32, 4096, 8, 128},   {4096, DType::F16, 4096, 8, 128},
      {8192, DType::F16, 8192, 8, 96},    {8193, DType::F16, 16384, 8, 64},
      {32768, DType::F16, 32768, 8, 64},  {16384, DType::F32, 16384, 8, 64},
      {300, DType::F16, 512, 2, 256},
  };
  for (const Case &c : cases) {
    auto f = layerNormForwardConfig(c.n, c.t);
    ASSERT_TRUE(bool(f)) << errorText(f);
    EXPECT_EQ(f->blockSize, c.block) << c.n;
    EXPECT_EQ(f->numWarps, c.warps) << c.n;
    auto b = layerNormBackwardConfig(c.n, c.t);
    ASSERT_TRUE(bool(b)) << errorText(b);
    EXPECT_EQ(b->groupSizeM, c.group) << c.n;
    EXPECT_EQ(b->blockSizeN, c.block) << c.n;
    EXPECT_EQ(b->numWarps, c.warps) << c.n;
    EXPECT_EQ(b->dwdbBlockM, 32u);
    EXPECT_EQ(b->dwdbBlockN, 128u);
  }
}

TEST(LayerNormConfig, RowsAbove64KBAreRejected) {
  auto f = layerNormForwardConfig(32769, DType::F16);
  EXPECT_EQ(errorText(f), "layer_norm: N = 32769 is above the limit of 32768 "
                          "fp16 elements (64 KB) per row; larger rows are not "
                          "supported yet");
  auto g = layerNormBackwardConfig(16385, DType::F32);
  EXPECT_EQ(errorText(g), "layer_norm: N = 16385 is above the limit of 16384 "
                          "fp32 elements (64 KB) per row; larger rows are not "
                          "supported yet");
  auto h = layerNormForwardConfig(0, DType::F32);
  EXPECT_EQ(errorText(h), "layer_norm: N = 0; need N >= 1");
  auto i = layerNormForwardConfig(64, DType::I32);
  EXPECT_EQ(errorText(i), "layer_norm: dtype i32 is not supported (fp16, bf16 "
                          "or fp32)");
}

//===----------------------------------------------------------------------===//
// Driver loading
//===----------------------------------------------------------------------===//

TEST(Driver, MissingLibraryIsNoCudaDriverFound) {
  auto d = Driver::load("libkiln-test-no-such-driver.so.1");
  std::string msg = errorText(d);
  EXPECT_EQ(msg.rfind("no CUDA driver found: cannot load "
                      "libkiln-test-no-such-driver.so.1 (",
                      0),
            0u)
      << msg;
}

TEST(Driver, ALibraryWithoutTheEntryPointsIsRejected) {
  // libm exists everywhere and lacks cuInit.
  auto d = Driver::load("libm.so.6");
  EXPECT_EQ(errorText(d), "CUDA driver libm.so.6 lacks cuInit (driver too old "
                          "for Kiln?)");
}

TEST(Module, KernelLookupErrors) {
  Module m = Module::fromSource(kSource, "ln.py");
  auto k = m.kernel("nope");
  EXPECT_EQ(errorText(k), "ln.py:1:1: error: kernel `nope` not found in ln.py; "
                          "kernels here: helper, _layer_norm_fwd_fused, "
                          "with_default\nimport triton\n^");
  auto f = Module::fromFile("/nonexistent/kiln/kernels.py");
  EXPECT_ERROR_CONTAINS(errorText(f),
                        "cannot read kernel file /nonexistent/kiln/kernels.py");
  auto ok = m.kernel("_layer_norm_fwd_fused");
  ASSERT_TRUE(bool(ok)) << errorText(ok);
  EXPECT_EQ(ok->params().size(), 10u);
  auto spec = ok->specialize(fwdArgs(DType::BF16), fwdOptions(), "sm_80");
  ASSERT_TRUE(bool(spec)) << errorText(spec);
  EXPECT_EQ(spec->signature[0].toString(), "*bf16:16");
}

// KILN_DEBUG=1 specializes a debug build (device assertions compiled in);
// unset or "0" does not.
TEST(Module, KilnDebugEnvironmentSetsTheDebugSpec) {
  Module m = Module::fromSource(kSource, "ln.py");
  auto k = m.kernel("_layer_norm_fwd_fused");
  ASSERT_TRUE(bool(k)) << errorText(k);
  const char *old = std::getenv("KILN_DEBUG");
  std::string saved = old ? old : "";
  for (auto [value, want] : {std::pair<const char *, bool>{nullptr, false},
                             {"0", false},
                             {"1", true}}) {
    if (value)
      setenv("KILN_DEBUG", value, 1);
    else
      unsetenv("KILN_DEBUG");
    auto spec = k->specialize(fwdArgs(DType::BF16), fwdOptions(), "sm_80");
    ASSERT_TRUE(bool(spec)) << errorText(spec);
    EXPECT_EQ(spec->debug, want) << (value ? value : "(unset)");
  }
  if (old)
    setenv("KILN_DEBUG", saved.c_str(), 1);
  else
    unsetenv("KILN_DEBUG");
}
