//===- ParserTest.cpp - Python subset parsing -----------------------------===//
#include "kiln/Frontend/Syntax/Parser.h"

#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::fe;

namespace {

std::string dumpOf(llvm::StringRef src) {
  ParseResult r = parse(src);
  if (r.error)
    return "error@" + std::to_string(r.error->offset) + ": " + r.error->message;
  std::string s;
  llvm::raw_string_ostream os(s);
  ast::dump(*r.module, ast::LineTable(src), os);
  return s;
}

std::string errorOf(llvm::StringRef src) {
  ParseResult r = parse(src);
  EXPECT_TRUE(r.error.has_value()) << src.str();
  return r.error ? r.error->message : "";
}

TEST(Parser, PrecedenceAndRanges) {
  std::string d = dumpOf("x = a + b * -c ** 2 < d & e\n");
  EXPECT_NE(d.find("Compare < <1:5-1:28>"), std::string::npos) << d;
  EXPECT_NE(d.find("BinOp & <1:23-1:28>"), std::string::npos) << d;
  EXPECT_NE(d.find("BinOp + <1:5-1:20>"), std::string::npos) << d;
  // `-c ** 2` is -(c ** 2).
  EXPECT_NE(d.find("UnaryOp - <1:13-1:20>"), std::string::npos) << d;
  EXPECT_NE(d.find("BinOp ** <1:14-1:20>"), std::string::npos) << d;
}

TEST(Parser, KernelShapes) {
  std::string d = dumpOf("@triton.jit\n"
                         "def k(X, N, B: tl.constexpr = 4):\n"
                         "    rows = tl.arange(0, B)[:, None]\n"
                         "    while tl.atomic_cas(X, 0, 1) == 1:\n"
                         "        pass\n"
                         "    if N > 0:\n        a, b = 1, 2\n"
                         "    elif N < 0:\n        a = 2\n"
                         "    else:\n        a += 1\n");
  EXPECT_NE(d.find("FunctionDef k <1:1-11:15>"), std::string::npos) << d;
  EXPECT_NE(d.find("Param B <2:13-2:32>"), std::string::npos) << d;
  EXPECT_NE(d.find("Slice <3:28-3:29>"), std::string::npos) << d;
  EXPECT_NE(d.find("Const None <3:31-3:35>"), std::string::npos) << d;
  EXPECT_NE(d.find("While <4:5-5:13>"), std::string::npos) << d;
  EXPECT_NE(d.find("Elif <8:5-11:15>"), std::string::npos) << d;
  EXPECT_NE(d.find("AugAssign += <11:9-11:15>"), std::string::npos) << d;
}

TEST(Parser, Errors) {
  EXPECT_EQ(errorOf("class A:\n    pass\n"),
            "class definitions are not supported");
  EXPECT_EQ(errorOf("def f(x):\n    global y\n"),
            "`global` statements are not supported");
  EXPECT_EQ(errorOf("try:\n    pass\n"), "`try` statements are not supported");
  EXPECT_EQ(errorOf("with a:\n    pass\n"),
            "`with` statements are not supported");
  EXPECT_EQ(errorOf("if x:\npass\n"),
            "expected an indented block after 'if' statement on line 1");
  EXPECT_EQ(errorOf("  x = 1\n"), "unexpected indent");
  EXPECT_EQ(errorOf("def f(x):\n    def g():\n        pass\n"),
            "nested function definitions are not supported");
  EXPECT_EQ(errorOf("f(a=1, b)\n"),
            "positional argument follows keyword argument");
  EXPECT_EQ(errorOf("x = 1 2\n"), "invalid syntax at `2`");
}

TEST(Parser, DeepNestingIsAnErrorNotACrash) {
  std::string src = "x = " + std::string(5000, '-') + "1\n";
  EXPECT_EQ(errorOf(src), "expression or block nested too deeply");
  std::string nots = "x = ";
  for (int i = 0; i < 5000; ++i)
    nots += "not ";
  EXPECT_EQ(errorOf(nots + "y\n"), "expression or block nested too deeply");
}

} // namespace
