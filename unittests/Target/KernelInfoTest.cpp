//===- KernelInfoTest.cpp - KernelInfo JSON round trip and errors ---------===//
#include "kiln/Target/Pipeline.h"

#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace kiln;

namespace {

KernelInfo sample() {
  KernelInfo info;
  info.name = "_layer_norm_fwd_fused";
  info.arch = "sm_90";
  info.numWarps = 8;
  info.sharedBytes = 32;
  ParamSpec ptr;
  ptr.kind = ParamSpec::Kind::Pointer;
  ptr.dtype = DType::F16;
  ptr.divisibility = 16;
  ParamSpec n;
  n.kind = ParamSpec::Kind::Scalar;
  n.dtype = DType::I32;
  ParamSpec eps;
  eps.kind = ParamSpec::Kind::Scalar;
  eps.dtype = DType::F32;
  info.params = {{"X", ptr}, {"N", n}, {"eps", eps}};
  info.constexprs = {{"BLOCK_SIZE", "8192"}};
  return info;
}

std::string text(const KernelInfo &info) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << info.toJSON();
  return s;
}

TEST(KernelInfoTest, RoundTrip) {
  KernelInfo info = sample();
  llvm::Expected<KernelInfo> back = KernelInfo::fromJSON(text(info));
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->name, info.name);
  EXPECT_EQ(back->arch, "sm_90");
  EXPECT_EQ(back->numWarps, 8u);
  EXPECT_EQ(back->sharedBytes, 32u);
  ASSERT_EQ(back->params.size(), 3u);
  EXPECT_EQ(back->params[0].name, "X");
  EXPECT_EQ(back->params[0].spec, info.params[0].spec);
  EXPECT_EQ(back->params[2].spec.dtype, DType::F32);
  EXPECT_EQ(back->constexprs, info.constexprs);
  EXPECT_EQ(text(*back), text(info));
}

TEST(KernelInfoTest, Spelling) {
  std::string s = text(sample());
  EXPECT_NE(s.find("\"type\":\"*fp16:16\""), std::string::npos) << s;
  EXPECT_NE(s.find("\"shared_bytes\":32"), std::string::npos) << s;
}

std::string errorOf(llvm::StringRef json) {
  llvm::Expected<KernelInfo> info = KernelInfo::fromJSON(json);
  if (info)
    return "";
  return llvm::toString(info.takeError());
}

TEST(KernelInfoTest, Errors) {
  EXPECT_NE(errorOf("{").find("kernel info: invalid JSON"), std::string::npos);
  EXPECT_EQ(errorOf("[]"), "kernel info: expected a JSON object");
  EXPECT_EQ(errorOf(R"({"arch":"sm_90"})"), "kernel info: missing field 'name'");
  EXPECT_EQ(errorOf(R"({"name":1})"), "kernel info: field 'name' must be a string");
  EXPECT_EQ(errorOf(R"({"name":"k","arch":"sm_90","num_warps":3,"shared_bytes":0,"params":[]})"),
            "kernel info: num_warps must be a power of two in [1, 32], got 3");
  EXPECT_EQ(errorOf(R"({"name":"k","arch":"sm_90","num_warps":4,"shared_bytes":-1,"params":[]})"),
            "kernel info: field 'shared_bytes' must be an integer in [0, 1073741824]");
  EXPECT_EQ(errorOf(R"({"name":"k","arch":"sm_90","num_warps":4,"shared_bytes":0})"),
            "kernel info: missing array 'params'");
  EXPECT_EQ(errorOf(R"({"name":"k","arch":"sm_90","num_warps":4,"shared_bytes":0,"params":[{"name":"X"}]})"),
            "kernel info: params[0]: missing field 'type'");
  EXPECT_EQ(errorOf(R"({"name":"k","arch":"sm_90","num_warps":4,"shared_bytes":0,"params":[{"name":"X","type":"1024"}]})"),
            "kernel info: params[0]: type '1024' is not a pointer or scalar type");
  EXPECT_NE(errorOf(R"({"name":"k","arch":"sm_90","num_warps":4,"shared_bytes":0,"params":[{"name":"X","type":"*fp17"}]})")
                .find("kernel info: params[0]: bad type '*fp17'"),
            std::string::npos);
}

// Tensor maps (a disk cache's metadata): one box entry per dimension of the
// descriptor, 2 to 5, whose base, shapes and strides are parameters.
TEST(KernelInfoTest, TensorMaps) {
  auto with = [](llvm::StringRef params, llvm::StringRef map) {
    return errorOf((R"({"name":"k","arch":"sm_90","num_warps":4,"shared_bytes":0,"params":[)" +
                    params + R"(],"tensor_maps":[)" + map + "]}")
                       .str());
  };
  std::string desc3 = R"({"name":"a","type":"*fp16:16"},{"name":"a.shape0","type":"i32"},)"
                      R"({"name":"a.shape1","type":"i32"},{"name":"a.shape2","type":"i32"},)"
                      R"({"name":"a.stride0","type":"i64"},{"name":"a.stride1","type":"i64"})";
  EXPECT_EQ(with(desc3, R"({"param":0,"box":[1,64,32],"swizzle":64})"), "");
  llvm::Expected<KernelInfo> info = KernelInfo::fromJSON(
      R"({"name":"k","arch":"sm_90","num_warps":4,"shared_bytes":0,"params":[)" + desc3 +
      R"(],"tensor_maps":[{"param":0,"box":[1,64,32],"swizzle":64}]})");
  ASSERT_TRUE(bool(info)) << llvm::toString(info.takeError());
  EXPECT_EQ(info->tensorMaps[0].box, (std::vector<int64_t>{1, 64, 32}));
  EXPECT_EQ(with(desc3, R"({"param":0,"box":[1,1,1,1,64,32],"swizzle":64})"),
            "kernel info: tensor_maps[0]: 'box' must be an array of 2 to 5 integers");
  // A 4-D box needs 4 shapes and 3 strides after the base: 8 parameters.
  EXPECT_EQ(with(desc3, R"({"param":0,"box":[1,1,64,32],"swizzle":64})"),
            "kernel info: tensor_maps[0]: 'param' must index a pointer parameter followed by "
            "the descriptor's 4 shapes and 3 strides");
  EXPECT_EQ(with(desc3, R"({"param":0,"box":[1,64,300],"swizzle":64})"),
            "kernel info: tensor_maps[0]: 'box' entries must be integers in [1, 256]");
}

} // namespace
