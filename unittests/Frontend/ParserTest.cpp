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
  EXPECT_EQ(errorOf("try:\n    pass\n"),
            "invalid syntax: expected 'except' or 'finally' block");
  EXPECT_EQ(errorOf("try:\n    pass\nexcept* A:\n    pass\nexcept B:\n"
                    "    pass\n"),
            "invalid syntax: cannot have both 'except' and 'except*' on the "
            "same 'try'");
  EXPECT_EQ(errorOf("try:\n    pass\nexcept:\n    pass\nexcept A:\n"
                    "    pass\n"),
            "invalid syntax: default 'except:' must be last");
  EXPECT_EQ(errorOf("if x:\npass\n"),
            "expected an indented block after 'if' statement on line 1");
  EXPECT_EQ(errorOf("  x = 1\n"), "unexpected indent");
  EXPECT_EQ(errorOf("f(a=1, b)\n"),
            "invalid syntax: positional argument follows keyword argument");
  EXPECT_EQ(errorOf("f(**k, *a)\n"),
            "invalid syntax: iterable argument unpacking follows keyword "
            "argument unpacking");
  EXPECT_EQ(errorOf("x = 1 2\n"), "invalid syntax at `2`");
  EXPECT_EQ(errorOf("def f(:):\n    pass\n"),
            "invalid syntax: expected a parameter name");
  EXPECT_EQ(errorOf("for x y:\n    pass\n"),
            "invalid syntax: expected `in` in the `for` statement");
  EXPECT_EQ(errorOf("x = (1,\n"), "'(' was never closed"); // a lexical error
  EXPECT_EQ(errorOf("def f(*, a=1, *b):\n    pass\n"),
            "invalid syntax: * argument may appear only once");
  EXPECT_EQ(errorOf("def f(a, *):\n    pass\n"),
            "invalid syntax: named arguments must follow bare *");
  EXPECT_EQ(errorOf("def f(/, a):\n    pass\n"),
            "invalid syntax: at least one argument must precede /");
  EXPECT_EQ(errorOf("def f(**k, a):\n    pass\n"),
            "invalid syntax: arguments cannot follow var-keyword argument");
  EXPECT_EQ(errorOf("lambda *a=1: 0\n"),
            "invalid syntax: var-positional and var-keyword arguments cannot "
            "have default values");
  EXPECT_EQ(errorOf("x = (*a)\n"),
            "invalid syntax: cannot use starred expression here");
  EXPECT_EQ(errorOf("x = b'a' 'b'\n"),
            "invalid syntax: cannot mix bytes and nonbytes literals");
  EXPECT_EQ(errorOf("f(x for x in y, 1)\n"),
            "invalid syntax: generator expression must be parenthesized");
  EXPECT_EQ(errorOf("x = f'{}'\n"),
            "f-string: valid expression required before '}'");
  EXPECT_EQ(errorOf("x = f'{a!x}'\n"),
            "f-string: invalid conversion character: expected 's', 'r', or "
            "'a'");
  EXPECT_EQ(errorOf("x = f'a}'\n"), "f-string: single '}' is not allowed");
  EXPECT_EQ(errorOf("x = f'{a b}'\n"), "f-string: invalid syntax at `b`");
  EXPECT_EQ(errorOf("match x:\n    pass\n"),
            "invalid syntax: expected `case` in the `match` statement");
  EXPECT_EQ(errorOf("match x:\n    case *a:\n        pass\n"),
            "invalid syntax: a star pattern must be inside a sequence pattern");
  EXPECT_EQ(errorOf("else:\n    pass\n"),
            "invalid syntax: `else` without a matching `if`");
  EXPECT_EQ(errorOf("class:\n    pass\n"),
            "invalid syntax: expected a class name after `class`");
  EXPECT_EQ(errorOf("@d\nx = 1\n"),
            "invalid syntax: expected `def` or `class` after decorators");
}

/// Soft keywords stay names where the line is not their statement.
TEST(Parser, SoftKeywords) {
  std::string d = dumpOf("match = 1\nmatch(x)\nmatch[0] = 2\ntype = 3\n"
                         "type(x)\ncase = 4\n_ = match\n");
  EXPECT_EQ(d.find("Match <"), std::string::npos) << d;
  EXPECT_EQ(d.find("TypeAlias"), std::string::npos) << d;
  EXPECT_NE(d.find("Name match <1:1-1:6>"), std::string::npos) << d;
  d = dumpOf("match (x):\n    case _:\n        pass\ntype T[K] = list[K]\n");
  EXPECT_NE(d.find("Match <1:1-3:13>"), std::string::npos) << d;
  EXPECT_NE(d.find("MatchAs _ <2:10-2:11>"), std::string::npos) << d;
  EXPECT_NE(d.find("TypeAlias T <4:1-4:20>"), std::string::npos) << d;
  EXPECT_NE(d.find("TypeVar K <4:8-4:9>"), std::string::npos) << d;
}

TEST(Parser, FStrings) {
  std::string d = dumpOf("x = f'a{b!r:>{w}}c{d=}' 'e'\n");
  EXPECT_NE(d.find("JoinedStr <1:5-1:28>"), std::string::npos) << d;
  EXPECT_NE(d.find("FormattedValue !r <1:8-1:18>"), std::string::npos) << d;
  EXPECT_NE(d.find("Name w <1:15-1:16>"), std::string::npos) << d;
  EXPECT_NE(d.find("Str \"d=\""), std::string::npos) << d;
  EXPECT_NE(d.find("FormattedValue !r (debug) <1:19-1:23>"), std::string::npos)
      << d;
  EXPECT_NE(d.find("Str \"e\" <1:25-1:28>"), std::string::npos) << d;
  // PEP 701: the same quote inside a field, nested f-strings.
  d = dumpOf("x = f\"{\"a\" + f\"{y}\"}\"\n");
  EXPECT_NE(d.find("Name y <1:17-1:18>"), std::string::npos) << d;
}

TEST(Parser, DeepNestingIsAnErrorNotACrash) {
  std::string src = "x = " + std::string(5000, '-') + "1\n";
  EXPECT_EQ(errorOf(src), "expression or block nested too deeply");
  std::string nots = "x = ";
  for (int i = 0; i < 5000; ++i)
    nots += "not ";
  EXPECT_EQ(errorOf(nots + "y\n"), "expression or block nested too deeply");
  // The new recursive forms are bounded too.
  auto repeat = [](const std::string &piece, int n) {
    std::string out;
    for (int i = 0; i < n; ++i)
      out += piece;
    return out;
  };
  EXPECT_EQ(errorOf("f = " + repeat("lambda: ", 5000) + "0\n"),
            "expression or block nested too deeply");
  EXPECT_EQ(errorOf("x = " + repeat("a if b else ", 5000) + "c\n"),
            "expression or block nested too deeply");
  // Brackets stop at the lexer's limit, f-strings at their own.
  EXPECT_EQ(errorOf("x = " + repeat("{**", 300) + "{}" + repeat("}", 300) +
                    "\n"),
            "too many nested parentheses");
  std::string fs = "x = ";
  for (int i = 0; i < 60; ++i)
    fs += "f'{";
  EXPECT_EQ(errorOf(fs + "\n"), "f-strings nested too deeply");
  std::string cases = "match x:\n    case " + repeat("[", 150) + "a" +
                      repeat("]", 150) + ":\n        pass\n";
  EXPECT_EQ(errorOf(cases), "expression or block nested too deeply");
}

} // namespace
