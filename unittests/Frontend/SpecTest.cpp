//===- SpecTest.cpp - AOT signatures and constexpr definitions ------------===//
#include "kiln/Frontend/Spec.h"

#include "gtest/gtest.h"

using namespace kiln;

namespace {

std::string errorOf(llvm::StringRef sig) {
  auto r = parseSignature(sig.str());
  if (r)
    return "ok";
  return llvm::toString(r.takeError());
}

TEST(Spec, ParsesTritonAOTSignatures) {
  auto r = parseSignature("*fp16:16, *fp32,i32:16 ,i64,fp32,1024,True,*i1");
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  const auto &s = *r;
  ASSERT_EQ(s.size(), 8u);
  EXPECT_EQ(s[0].kind, ParamSpec::Kind::Pointer);
  EXPECT_EQ(s[0].dtype, DType::F16);
  EXPECT_EQ(s[0].divisibility, 16u);
  EXPECT_EQ(s[1].divisibility, 1u);
  EXPECT_EQ(s[2].kind, ParamSpec::Kind::Scalar);
  EXPECT_EQ(s[2].dtype, DType::I32);
  EXPECT_EQ(s[2].divisibility, 16u);
  EXPECT_EQ(s[3].dtype, DType::I64);
  EXPECT_EQ(s[4].dtype, DType::F32);
  EXPECT_EQ(s[5].kind, ParamSpec::Kind::Constexpr);
  EXPECT_EQ(s[5].constexprValue, "1024");
  EXPECT_EQ(s[6].constexprValue, "True");
  EXPECT_EQ(s[7].dtype, DType::I1);
}

TEST(Spec, RoundTrips) {
  for (const char *text : {"*fp16:16,*bf16,i32:16,u32,fp64,-1,1e-05,False",
                           "*i8,i16,*u32:16,0.5", "*kfp32:16,*kbf16,*fp16"}) {
    auto r = parseSignature(text);
    ASSERT_TRUE(static_cast<bool>(r)) << text;
    std::string joined;
    for (const ParamSpec &p : *r)
      joined += (joined.empty() ? "" : ",") + p.toString();
    EXPECT_EQ(joined, text);
    auto again = parseSignature(joined);
    ASSERT_TRUE(static_cast<bool>(again));
    EXPECT_EQ(*again, *r);
  }
  EXPECT_TRUE(parseSignature("")->empty());
  // `*k<T>`: Triton's spelling of a `tl.const` pointer.
  auto k = parseSignature("*ki32,*i32");
  ASSERT_TRUE(static_cast<bool>(k));
  EXPECT_TRUE((*k)[0].constPointer);
  EXPECT_EQ((*k)[0].dtype, DType::I32);
  EXPECT_FALSE((*k)[1].constPointer);
  EXPECT_NE((*k)[0], (*k)[1]);
  EXPECT_NE(errorOf("*kx32"), "ok");
}

TEST(Spec, IntegerEqualToOneIsTheConstexprOne) {
  // `T:1` for any integer T is the entry a literal `1` gives, dtype and all,
  // so it prints as `1` and parses back equal (a libFuzzer finding: `i64:1`
  // kept its dtype and failed the round trip).
  auto one = parseSignature("1");
  ASSERT_TRUE(static_cast<bool>(one));
  for (const char *text : {"i32:1", "i64:1", "u8:1", "i1:1", " i16 : 1 "}) {
    auto r = parseSignature(text);
    ASSERT_TRUE(static_cast<bool>(r)) << text;
    EXPECT_EQ(*r, *one) << text;
    EXPECT_EQ((*r)[0].toString(), "1") << text;
  }
  // Pointers keep their type: `*i32:1` is a pointer with no known alignment.
  auto ptr = parseSignature("*i64:1");
  ASSERT_TRUE(static_cast<bool>(ptr));
  EXPECT_EQ((*ptr)[0].kind, ParamSpec::Kind::Pointer);
  EXPECT_EQ((*ptr)[0].toString(), "*i64");
}

TEST(Spec, TensorDescriptors) {
  // Triton's spelling (with its ", " inside the list), padding, and the
  // commas inside `<...>` not separating entries.
  auto r = parseSignature("tensordesc<fp16[64, 32]>,*fp32:16,"
                          "tensordesc<bf16[128],nan>,tensordesc<i8[2,4,16],zero>,"
                          "'a,b'");
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  ASSERT_EQ(r->size(), 5u);
  EXPECT_EQ((*r)[0].kind, ParamSpec::Kind::TensorDesc);
  EXPECT_EQ((*r)[0].dtype, DType::F16);
  EXPECT_EQ((*r)[0].blockShape, (std::vector<int64_t>{64, 32}));
  EXPECT_FALSE((*r)[0].nanPadding);
  EXPECT_TRUE((*r)[2].nanPadding);
  EXPECT_EQ((*r)[3].blockShape, (std::vector<int64_t>{2, 4, 16}));
  EXPECT_EQ((*r)[4].constexprValue, "'a,b'");
  std::string joined;
  for (const ParamSpec &p : *r)
    joined += (joined.empty() ? "" : ",") + p.toString();
  EXPECT_EQ(joined, "tensordesc<fp16[64,32]>,*fp32:16,tensordesc<bf16[128],nan>,"
                    "tensordesc<i8[2,4,16]>,'a,b'");
  auto again = parseSignature(joined);
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_EQ(*again, *r);

  // Kiln's shape-divisibility extension; all-1 is the plain entry.
  auto div = parseSignature("tensordesc<fp16[64,64],nan,div=1x16>,"
                            "tensordesc<fp16[64,64],div=1x1>");
  ASSERT_TRUE(static_cast<bool>(div)) << llvm::toString(div.takeError());
  EXPECT_EQ((*div)[0].shapeDivisibility, (std::vector<unsigned>{1, 16}));
  EXPECT_EQ((*div)[0].toString(), "tensordesc<fp16[64,64],nan,div=1x16>");
  EXPECT_TRUE((*div)[1].shapeDivisibility.empty());
  EXPECT_EQ((*div)[1].toString(), "tensordesc<fp16[64,64]>");

  for (auto [text, message] : std::vector<std::pair<const char *, const char *>>{
           {"tensordesc<fp16[64,32]", "signature entry 1 `tensordesc<fp16[64,32]`: missing `>`"},
           {"tensordesc<fp17[64]>", "unknown element type `fp17`"},
           {"tensordesc<fp16[48]>", "block dimension `48` is not a power of two"},
           {"tensordesc<fp16[]>", "block dimension `` is not a power of two"},
           {"tensordesc<i32[64],nan>", "NaN padding needs a floating-point element type, not i32"},
           {"tensordesc<fp16[64],inf>", "unknown padding `inf`"},
           {"tensordesc<fp16[2,2,2,2,2,16]>", "rank 6 is above 5"},
           {"tensordesc<fp16[64,64],div=16>", "`div=16` has 1 entries for rank 2"},
           {"tensordesc<fp16[64,64],div=16x8>", "shape divisibility `8` is not 1 or 16"}}) {
    auto bad = parseSignature(text);
    ASSERT_FALSE(static_cast<bool>(bad)) << text;
    EXPECT_NE(llvm::toString(bad.takeError()).find(message), std::string::npos)
        << text << " should say: " << message;
  }
}

TEST(Spec, NoneEntries) {
  // `none` (Triton's AOT spelling) and `None` pass None for any parameter:
  // a constexpr None, printed back as `None`.
  auto r = parseSignature("*fp16,none,None,i32");
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  for (int k : {1, 2}) {
    EXPECT_EQ((*r)[k].kind, ParamSpec::Kind::Constexpr);
    EXPECT_EQ((*r)[k].constexprValue, "None");
    EXPECT_EQ((*r)[k].toString(), "None");
  }
  auto again = parseSignature("*fp16,None,None,i32");
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_EQ(*again, *r);
  EXPECT_TRUE(llvm::StringRef(errorOf("*none"))
                  .starts_with("signature entry 1 `*none`: unknown type "
                               "`none` (expected *T, T, T:16 or a constexpr "
                               "literal, with T one of i1, i8, "))
      << errorOf("*none");
}

TEST(Spec, Tuples) {
  auto r = parseSignature("*fp16,((*fp16:16,i32:16),fp32,None,1),(),(i64,)");
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  ASSERT_EQ(r->size(), 4u);
  const ParamSpec &t = (*r)[1];
  EXPECT_EQ(t.kind, ParamSpec::Kind::Tuple);
  ASSERT_EQ(t.elements.size(), 4u);
  EXPECT_EQ(t.elements[0].kind, ParamSpec::Kind::Tuple);
  EXPECT_EQ(t.elements[0].elements[1].divisibility, 16u);
  EXPECT_EQ(t.elements[2].constexprValue, "None");
  EXPECT_EQ(t.elements[3].constexprValue, "1");
  EXPECT_TRUE((*r)[2].elements.empty());
  EXPECT_EQ((*r)[3].toString(), "(i64,)");
  std::string text;
  for (const ParamSpec &p : *r)
    text += (text.empty() ? "" : ",") + p.toString();
  EXPECT_EQ(text, "*fp16,((*fp16:16,i32:16),fp32,None,1),(),(i64,)");
  EXPECT_EQ(errorOf("(*fp16,i32"),
            "signature entry 1 `(*fp16,i32`: missing `)` (a tuple entry is "
            "(E0,E1,...))");
  EXPECT_EQ(errorOf("(*fp16,i31)"),
            "signature entry 1 `(*fp16,i31)`: in the tuple: signature entry 2 "
            "`i31`: unknown type `i31` (expected *T, T, T:16 or a constexpr "
            "literal, with T one of i1, i8, i16, i32, i64, u8, u16, u32, u64, "
            "fp16, bf16, fp32, fp64, fp8e4nv, fp8e5)");
  EXPECT_EQ(errorOf("(tensordesc<fp16[16,16]>)"),
            "signature entry 1 `(tensordesc<fp16[16,16]>)`: a tensor "
            "descriptor inside a tuple is not supported");
  EXPECT_NE(errorOf("(((((((((i32)))))))))").find("nested deeper than 8"),
            std::string::npos);
}

TEST(Spec, NamedTuples) {
  auto r = parseSignature("(ptr=*fp16:16, n = i32,inner=(a=1,b=None)),(x=fp32,)");
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].fieldNames, (std::vector<std::string>{"ptr", "n", "inner"}));
  EXPECT_EQ((*r)[0].elements[2].fieldNames,
            (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ((*r)[0].toString(), "(ptr=*fp16:16,n=i32,inner=(a=1,b=None))");
  EXPECT_EQ((*r)[1].toString(), "(x=fp32,)");
  // Fields select code: a namedtuple is not the plain tuple of its elements.
  EXPECT_NE((*r)[1], (*parseSignature("(fp32,)"))[0]);
  EXPECT_EQ(errorOf("(x=i32,i32)"),
            "signature entry 1 `(x=i32,i32)`: in the tuple: a tuple's "
            "elements are all named (a namedtuple: (x=i32,y=*fp16)) or none "
            "are");
  EXPECT_EQ(errorOf("(x=i32,x=i32)"),
            "signature entry 1 `(x=i32,x=i32)`: in the tuple: signature entry "
            "2 `x=i32`: the field `x` is named twice");
  // Only tuple elements have names; a string constexpr may hold `=`.
  EXPECT_NE(errorOf("x=i32").find("unknown type"), std::string::npos);
  // Functions passed by value: their spellings are constexpr literals.
  auto fn = parseSignature(
      "(fn=__kiln_def__('/p/a,b.py', 'f', 12),op=triton.language.maximum,"
      "c=(fp32,))");
  ASSERT_TRUE(static_cast<bool>(fn)) << llvm::toString(fn.takeError());
  EXPECT_EQ((*fn)[0].elements[0].constexprValue,
            "__kiln_def__('/p/a,b.py', 'f', 12)");
  EXPECT_EQ((*fn)[0].elements[1].constexprValue, "triton.language.maximum");
  EXPECT_EQ((*parseSignature((*fn)[0].toString()))[0], (*fn)[0]);
  EXPECT_NE(errorOf("(__kiln_def__('a', 'f', 1)]x),)").find("unknown type"),
            std::string::npos);
  EXPECT_NE(errorOf("tl.1x").find("unknown type"), std::string::npos);
  auto s = parseSignature("(s='a=b',)");
  ASSERT_TRUE(static_cast<bool>(s));
  EXPECT_EQ((*s)[0].elements[0].constexprValue, "'a=b'");
  EXPECT_EQ((*s)[0].fieldNames, (std::vector<std::string>{"s"}));
}

// A string constexpr is one quoted string: brackets and commas inside it do
// not split or nest entries, and text that only looks quoted at both ends
// (`"a" ] "b"`, a fuzzer's finding) is not a string.
TEST(Spec, StringConstexprs) {
  auto r = parseSignature(R"(("a,(b]",'c\'d'),"x\"y")");
  ASSERT_TRUE(static_cast<bool>(r)) << llvm::toString(r.takeError());
  ASSERT_EQ(r->size(), 2u);
  ASSERT_EQ((*r)[0].elements.size(), 2u);
  EXPECT_EQ((*r)[0].elements[0].constexprValue, R"("a,(b]")");
  EXPECT_EQ((*r)[0].elements[1].constexprValue, R"('c\'d')");
  EXPECT_EQ((*r)[1].constexprValue, R"("x\"y")");
  EXPECT_NE(errorOf(R"((("" "(" ] "")))").find("unknown type"),
            std::string::npos);
  EXPECT_NE(errorOf(R"("a\")").find("unknown type"), std::string::npos);
}

TEST(Spec, ErrorsNameTheEntry) {
  EXPECT_EQ(errorOf("*fp16,fp31"),
            "signature entry 2 `fp31`: unknown type `fp31` (expected *T, T, "
            "T:16 or a constexpr literal, with T one of i1, i8, i16, i32, "
            "i64, u8, u16, u32, u64, fp16, bf16, fp32, fp64, fp8e4nv, fp8e5)");
  EXPECT_EQ(errorOf("*fp16,,i32"), "signature entry 2 ``: empty entry");
  EXPECT_EQ(errorOf("i32:3"),
            "signature entry 1 `i32:3`: `:3` is not a divisibility (expected "
            "a power of two such as 16)");
  EXPECT_EQ(errorOf("fp32:16"),
            "signature entry 1 `fp32:16`: divisibility applies to pointers "
            "and integers, not to `fp32`");
  EXPECT_EQ(errorOf("**fp16"),
            "signature entry 1 `**fp16`: unknown type `*fp16` (expected *T, "
            "T, T:16 or a constexpr literal, with T one of i1, i8, i16, i32, "
            "i64, u8, u16, u32, u64, fp16, bf16, fp32, fp64, fp8e4nv, fp8e5)");
}

TEST(Spec, ConstexprDefinitions) {
  auto d = parseConstexprDefinition("BLOCK_SIZE=1024");
  ASSERT_TRUE(static_cast<bool>(d));
  EXPECT_EQ(d->first, "BLOCK_SIZE");
  EXPECT_EQ(d->second, "1024");
  auto e = parseConstexprDefinition(" EPS = 1e-5 ");
  ASSERT_TRUE(static_cast<bool>(e));
  EXPECT_EQ(e->first, "EPS");
  EXPECT_EQ(e->second, "1e-5");
  EXPECT_EQ(llvm::toString(parseConstexprDefinition("BLOCK").takeError()),
            "`BLOCK`: expected NAME=VALUE");
  EXPECT_EQ(llvm::toString(parseConstexprDefinition("1X=2").takeError()),
            "`1X=2`: `1X` is not a valid name");
  EXPECT_EQ(llvm::toString(parseConstexprDefinition("X=").takeError()),
            "`X=`: missing value after `=`");
}

TEST(Spec, DTypeHelpers) {
  EXPECT_STREQ(dtypeName(DType::BF16), "bf16");
  EXPECT_EQ(parseDTypeName("u32"), DType::U32);
  EXPECT_EQ(parseDTypeName("float16"), std::nullopt);
  EXPECT_EQ(dtypeBytes(DType::I1), 1u);
  EXPECT_EQ(dtypeBytes(DType::F64), 8u);
  EXPECT_TRUE(isFloat(DType::BF16));
  EXPECT_FALSE(isFloat(DType::U32));
  EXPECT_EQ(parseDTypeName("u8"), DType::U8);
  EXPECT_EQ(parseDTypeName("u16"), DType::U16);
  EXPECT_EQ(parseDTypeName("u64"), DType::U64);
  EXPECT_STREQ(dtypeName(DType::U64), "u64");
  EXPECT_EQ(dtypeBytes(DType::U8), 1u);
  EXPECT_EQ(dtypeBytes(DType::U16), 2u);
  EXPECT_EQ(dtypeBytes(DType::U64), 8u);
  EXPECT_FALSE(isFloat(DType::U64));
}

TEST(Spec, KernelSpecToStringIsStable) {
  KernelSpec s;
  s.kernelName = "k";
  s.signature = *parseSignature("*fp16:16,i32");
  s.constexprs = {{"B", "128"}, {"A", "True"}};
  s.numWarps = 8;
  EXPECT_EQ(s.toString(),
            "k(*fp16:16,i32)[A=True,B=128]num_warps=8,num_stages=3,arch=sm_90");
}

} // namespace
