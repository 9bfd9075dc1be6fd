//===- LexerImpl.h - The tokenizer's state (internal) ----------*- C++ -*-===//
//
// Shared by Lexer.cpp (layout, names, numbers, operators) and LexerString.cpp
// (string, bytes and f-string literals).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_SYNTAX_LEXERIMPL_H
#define KILN_LIB_FRONTEND_SYNTAX_LEXERIMPL_H

#include "kiln/Frontend/Syntax/Lexer.h"

namespace kiln::fe::detail {

using llvm::StringRef;

constexpr unsigned kMaxIndentLevels = 100;
constexpr unsigned kMaxBracketDepth = 200;

class Lexer {
public:
  explicit Lexer(StringRef src) : src(src) {}
  LexResult run();
  /// Lexes one expression in implicit parentheses starting at `begin`.
  LexResult runExpression(size_t begin);

private:
  StringRef src;
  size_t pos = 0;
  std::vector<Token> toks;
  std::optional<LexError> error;
  /// Indentation levels measured with tabs to multiples of 8 and with tabs
  /// as one column: CPython rejects a line when the two disagree.
  struct Level {
    unsigned col8, col1;
  };
  std::vector<Level> indents{{0, 0}};
  struct Open {
    char c;
    uint32_t offset;
  };
  std::vector<Open> brackets;
  bool lineHasTokens = false;
  unsigned fstringDepth = 0;


  char peek(size_t k = 0) const {
    return pos + k < src.size() ? src[pos + k] : '\0';
  }
  bool atEnd() const { return pos >= src.size(); }
  bool fail(size_t offset, std::string msg) {
    if (!error)
      error = LexError{static_cast<uint32_t>(offset), std::move(msg)};
    return false;
  }
  void push(TokKind k, size_t b, size_t e, std::string text = "") {
    Token t;
    t.kind = k;
    t.begin = static_cast<uint32_t>(b);
    t.end = static_cast<uint32_t>(e);
    t.text = std::move(text);
    toks.push_back(std::move(t));
  }
  bool isNewlineAt(size_t p) const {
    return p < src.size() && (src[p] == '\n' || src[p] == '\r');
  }
  /// Length of the line break at `p` (CRLF counts as one), or 0.
  size_t newlineLen(size_t p) const {
    if (p >= src.size())
      return 0;
    if (src[p] == '\r')
      return (p + 1 < src.size() && src[p + 1] == '\n') ? 2 : 1;
    return src[p] == '\n' ? 1 : 0;
  }

  bool lineStart();
  bool skipComment();
  bool lexName();
  bool lexNumber();
  bool lexString(size_t start, StringRef prefix);
  /// Decodes the escape sequence at `pos` (a backslash) into `out`.
  bool lexEscape(std::string &out, bool raw, bool bytes);
  /// Appends the UTF-8 character at `pos` to `out`.
  bool lexChar(std::string &out);
  /// The text of an f-string up to its closing quote (or, in a format spec,
  /// up to the `}` ending the field), as literal pieces and fields.
  bool scanFStringBody(char q, bool triple, bool raw, bool inSpec,
                       size_t quoteStart, std::vector<FStringPart> &parts);
  bool scanFStringField(char q, bool triple, bool raw, size_t quoteStart,
                        std::vector<FStringPart> &parts);
  bool lexOp();
  bool identifierChar(size_t p, unsigned &len) const;
  bool badChar();
  bool checkUTF8(size_t b, size_t e);
  std::string describeChar(size_t p, unsigned &len);
};

/// Appends code point `cp` to `out` as UTF-8.
void appendUTF8(std::string &out, uint32_t cp);

} // namespace kiln::fe::detail

#endif
