//===- LexerTest.cpp - Python tokenization edge cases ---------------------===//
#include "kiln/Frontend/Syntax/Lexer.h"

#include "gtest/gtest.h"
#include <string>

using namespace kiln::fe;

namespace {

/// Compact token stream: names/numbers/ops by text, layout tokens by tag.
std::string kinds(llvm::StringRef src) {
  LexResult r = lex(src);
  if (r.error)
    return "error@" + std::to_string(r.error->offset) + ": " + r.error->message;
  std::string out;
  for (const Token &t : r.tokens) {
    if (!out.empty())
      out += " ";
    switch (t.kind) {
    case TokKind::Newline:
      out += "NL";
      break;
    case TokKind::Indent:
      out += "IN";
      break;
    case TokKind::Dedent:
      out += "DE";
      break;
    case TokKind::End:
      out += "END";
      break;
    case TokKind::String:
      out += (t.isBytes ? "B(" : "S(") + t.text + ")";
      break;
    case TokKind::FString:
      out += "F(";
      for (const FStringPart &p : t.fparts)
        out += p.isField ? "{" + src.slice(p.exprBegin, p.exprEnd).str() + "}"
                         : p.text;
      out += ")";
      break;
    case TokKind::Imag:
      out += "J(" + t.text + ")";
      break;
    default:
      out += t.text;
      break;
    }
  }
  return out;
}

LexError errorOf(llvm::StringRef src) {
  LexResult r = lex(src);
  EXPECT_TRUE(r.error.has_value()) << "no error for: " << src.str();
  return r.error.value_or(LexError{});
}

TEST(Lexer, IndentAndDedent) {
  EXPECT_EQ(kinds("if a:\n    b\nc\n"), "if a : NL IN b NL DE c NL END");
  // Several levels close at once.
  EXPECT_EQ(kinds("if a:\n  if b:\n    c\nd\n"),
            "if a : NL IN if b : NL IN c NL DE DE d NL END");
  // Open levels close at end of file, even without a final newline.
  EXPECT_EQ(kinds("if a:\n    b"), "if a : NL IN b NL DE END");
}

TEST(Lexer, BlankAndCommentLinesDoNotChangeIndentation) {
  EXPECT_EQ(kinds("if a:\n    b\n\n  # odd comment\n        \n    c\n"),
            "if a : NL IN b NL c NL DE END");
}

TEST(Lexer, UnindentMustMatchAnOuterLevel) {
  LexError e = errorOf("if a:\n    b\n  c\n");
  EXPECT_EQ(e.message, "unindent does not match any outer indentation level");
  EXPECT_EQ(e.offset, 14u);
}

TEST(Lexer, TabsAreConsistentOrRejected) {
  // Tabs alone are fine (a tab advances to the next multiple of 8).
  EXPECT_EQ(kinds("if a:\n\tb\n\tc\n"), "if a : NL IN b NL c NL DE END");
  // A tab and eight spaces only agree when tabs are 8 wide: ambiguous.
  EXPECT_EQ(errorOf("if a:\n\tb\n        c\n").message,
            "inconsistent use of tabs and spaces in indentation");
  // Space then tab vs. tab: equal at width 8, different at width 1.
  EXPECT_EQ(errorOf("if a:\n \tb\n\tc\n").message,
            "inconsistent use of tabs and spaces in indentation");
}

TEST(Lexer, ImplicitJoiningInsideBrackets) {
  EXPECT_EQ(kinds("x = f(a,\n      b,\n\n  c)\ny\n"),
            "x = f ( a , b , c ) NL y NL END");
  // Indentation inside brackets is irrelevant, comments too.
  EXPECT_EQ(kinds("x = [1,  # one\n2]\n"), "x = [ 1 , 2 ] NL END");
}

TEST(Lexer, BackslashContinuation) {
  EXPECT_EQ(kinds("x = a + \\\n        b\ny\n"), "x = a + b NL y NL END");
  EXPECT_EQ(kinds("x = a + \\\r\n  b\r\n"), "x = a + b NL END");
  EXPECT_EQ(errorOf("x = a \\ b\n").message,
            "unexpected character after line continuation character");
  EXPECT_EQ(errorOf("x = a \\").message,
            "unexpected end of file after line continuation character");
}

TEST(Lexer, CRLFAndLoneCR) {
  EXPECT_EQ(kinds("if a:\r\n    b\r\nc\r\n"), "if a : NL IN b NL DE c NL END");
  EXPECT_EQ(kinds("a\rb\r"), "a NL b NL END");
}

TEST(Lexer, UTF8InCommentsAndStrings) {
  EXPECT_EQ(kinds("x = 1  # 计算均值 (mean)\n"), "x = 1 NL END");
  EXPECT_EQ(kinds("s = \"归一化 ✓\"\n"), "s = S(归一化 ✓) NL END");
  EXPECT_EQ(kinds("# 只有注释\n"), "END");
  LexError e = errorOf("x = 1 # \xff\xfe\n");
  EXPECT_EQ(e.message, "invalid UTF-8 byte 0xff");
  EXPECT_EQ(e.offset, 8u);
  EXPECT_EQ(errorOf("x = €\n").message, "invalid character '€' (U+20AC)");
  // Non-ASCII letters make identifiers, as in Python 3.
  EXPECT_EQ(kinds("é = größe + 名前\n"), "é = größe + 名前 NL END");
}

TEST(Lexer, Numbers) {
  LexResult r = lex("0. 1e-5 0x10 1_000 .5 2.5E+3 0 00 0o17 0b101\n");
  ASSERT_FALSE(r.error) << r.error->message;
  ASSERT_GE(r.tokens.size(), 10u);
  EXPECT_EQ(r.tokens[0].kind, TokKind::Float);
  EXPECT_EQ(r.tokens[0].floatValue, 0.0);
  EXPECT_EQ(r.tokens[1].floatValue, 1e-5);
  EXPECT_EQ(r.tokens[2].kind, TokKind::Int);
  EXPECT_EQ(r.tokens[2].intValue, 16);
  EXPECT_EQ(r.tokens[3].intValue, 1000);
  EXPECT_EQ(r.tokens[4].floatValue, 0.5);
  EXPECT_EQ(r.tokens[5].floatValue, 2500.0);
  EXPECT_EQ(r.tokens[6].intValue, 0);
  EXPECT_EQ(r.tokens[7].intValue, 0);
  EXPECT_EQ(r.tokens[8].intValue, 15);
  EXPECT_EQ(r.tokens[9].intValue, 5);
  EXPECT_EQ(errorOf("x = 0123\n").message,
            "leading zeros in decimal integer literals are not permitted; "
            "use an 0o prefix for octal integers");
  EXPECT_EQ(errorOf("x = 12abc\n").message, "invalid decimal literal");
  EXPECT_EQ(kinds("x = 1j 2.5J 1e3j\n"), "x = J(1j) J(2.5J) J(1e3j) NL END");
  EXPECT_EQ(lex("2.5j\n").tokens[0].floatValue, 2.5);
  EXPECT_EQ(errorOf("x = 99999999999999999999\n").message,
            "integer literal `99999999999999999999` is too large (Kiln's "
            "integers are 64-bit)");
  EXPECT_EQ(errorOf("x = 0x\n").message, "invalid hexadecimal literal");
  // `...` is not a number.
  EXPECT_EQ(kinds("x[...]\n"), "x [ ... ] NL END");
}

TEST(Lexer, Strings) {
  EXPECT_EQ(kinds("'a\\tb' \"q\\\"\" r'\\n'\n"),
            "S(a\tb) S(q\") S(\\n) NL END");
  EXPECT_EQ(kinds("'''multi\nline''' x\n"), "S(multi\nline) x NL END");
  EXPECT_EQ(kinds("'\\x41\\u00e9'\n"), "S(Aé) NL END");
  LexError e = errorOf("x = 'abc\ny = 1\n");
  EXPECT_EQ(e.message, "unterminated string literal");
  EXPECT_EQ(e.offset, 4u);
  EXPECT_EQ(errorOf("x = \"\"\"never closed\n\n").message,
            "unterminated triple-quoted string literal");
  EXPECT_EQ(errorOf("x = 'ends with backslash\\").message,
            "unterminated string literal");
  EXPECT_EQ(kinds("x = b'a\\x00b' rb'\\n'\n"),
            std::string("x = B(a\0b", 9) + ") B(\\n) NL END");
  EXPECT_EQ(errorOf("x = b'é'\n").message,
            "bytes can only contain ASCII literal characters");
}

TEST(Lexer, Brackets) {
  LexError e = errorOf("x = f(a, [b\n");
  EXPECT_EQ(e.message, "'[' was never closed");
  EXPECT_EQ(e.offset, 9u);
  EXPECT_EQ(errorOf("x = (a]\n").message,
            "closing parenthesis ']' does not match opening parenthesis '('");
  EXPECT_EQ(errorOf("x = a)\n").message, "unmatched ')'");
  std::string deep(300, '(');
  EXPECT_EQ(errorOf(deep).message, "too many nested parentheses");
}

TEST(Lexer, OperatorsAndKeywords) {
  LexResult r = lex("a //= b ** -c != d -> e\nnot in is lambda\n");
  ASSERT_FALSE(r.error);
  EXPECT_EQ(r.tokens[1].text, "//=");
  EXPECT_EQ(r.tokens[3].text, "**");
  EXPECT_EQ(r.tokens[6].text, "!=");
  EXPECT_EQ(r.tokens[8].text, "->");
  EXPECT_TRUE(r.tokens[11].isKw("not"));
  EXPECT_TRUE(r.tokens[12].isKw("in"));
  EXPECT_FALSE(r.tokens[0].isKeyword);
  EXPECT_EQ(errorOf("x = a $ b\n").message, "invalid character '$' (U+0024)");
  EXPECT_EQ(errorOf("x = a ! b\n").message, "invalid character '!' (U+0021)");
}

TEST(Lexer, NulBytesAndDeepIndentation) {
  std::string nul = "x = 1\n";
  nul[2] = '\0';
  EXPECT_EQ(errorOf(nul).message, "source contains a NUL byte");
  std::string deep;
  for (int i = 0; i < 120; ++i)
    deep += std::string(i, ' ') + "if a:\n";
  EXPECT_EQ(errorOf(deep).message, "too many levels of indentation");
}

TEST(Lexer, TokenRanges) {
  LexResult r = lex("  \n  foo = 'x'\n");
  ASSERT_FALSE(r.error);
  // Leading blank line is skipped; the first real line is indented, which
  // the parser reports ("unexpected indent").
  EXPECT_EQ(r.tokens[0].kind, TokKind::Indent);
  EXPECT_EQ(r.tokens[1].text, "foo");
  EXPECT_EQ(r.tokens[1].begin, 5u);
  EXPECT_EQ(r.tokens[1].end, 8u);
  EXPECT_EQ(r.tokens[3].begin, 11u);
  EXPECT_EQ(r.tokens[3].end, 14u);
}

} // namespace
