//===- Lexer.h - Python tokenizer for Triton-language sources --*- C++ -*-===//
//
// Tokenizes a kernel file with Python's lexical rules: INDENT/DEDENT from
// leading whitespace (tabs to multiples of 8, rejecting indentation whose
// meaning depends on the tab size, as CPython does), implicit line joining
// inside brackets, backslash continuation, numeric and string literals, UTF-8
// text in comments and strings. Positions are byte offsets into the buffer.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_SYNTAX_LEXER_H
#define KILN_FRONTEND_SYNTAX_LEXER_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::fe {

enum class TokKind {
  Name,    ///< identifier or keyword (see Token::isKeyword)
  Int,     ///< integer literal; value in Token::intValue
  Float,   ///< float literal; value in Token::floatValue
  String,  ///< string or bytes literal; decoded text in Token::text
  FString, ///< f-string literal; its pieces in Token::fparts
  Imag,    ///< imaginary literal (`2j`); value in Token::floatValue
  Op,      ///< operator or delimiter; spelling in Token::text
  Newline, ///< end of a logical line
  Indent,
  Dedent,
  End,
};

/// One piece of an f-string: decoded literal text, or a replacement field
/// `{expr!conv:spec}` whose expression is the byte range
/// [exprBegin, exprEnd) of the buffer (lexed again by the parser).
struct FStringPart {
  bool isField = false;
  std::string text; ///< literal text; for a `{x=}` field, the `x=` text
  uint32_t begin = 0, end = 0; ///< the piece, braces included
  uint32_t exprBegin = 0, exprEnd = 0;
  char conversion = 0; ///< 0, 'r', 's' or 'a'
  bool debug = false;  ///< `{x=}`
  bool hasSpec = false;
  std::vector<FStringPart> spec; ///< the format spec after `:`
};

struct Token {
  TokKind kind = TokKind::End;
  uint32_t begin = 0, end = 0; ///< byte range in the buffer
  std::string text;
  int64_t intValue = 0;
  double floatValue = 0;
  bool isKeyword = false;
  bool isBytes = false; ///< a String token with a `b` prefix
  std::vector<FStringPart> fparts;

  bool is(TokKind k) const { return kind == k; }
  bool isOp(llvm::StringRef s) const {
    return kind == TokKind::Op && text == s;
  }
  bool isKw(llvm::StringRef s) const { return isKeyword && text == s; }
  bool isName() const { return kind == TokKind::Name && !isKeyword; }
};

/// A lexical error: where and why.
struct LexError {
  uint32_t offset = 0;
  std::string message;
};

/// Tokenizes `source`. On success the token list ends with End; on error the
/// first error is returned (lexing stops there).
struct LexResult {
  std::vector<Token> tokens;
  std::optional<LexError> error;
};
LexResult lex(llvm::StringRef source);

/// Tokenizes the bytes [begin, end) of `source` as one expression inside
/// implicit parentheses (an f-string field): offsets stay those of `source`,
/// line breaks are ignored, and the tokens end with End (no NEWLINE).
LexResult lexExpression(llvm::StringRef source, uint32_t begin, uint32_t end);

/// Python's keyword list.
bool isPythonKeyword(llvm::StringRef s);

/// Decodes one UTF-8 code point starting at `s[i]`; returns its length in
/// bytes (1..4) and sets `cp`, or returns 0 for an invalid sequence.
unsigned decodeUTF8(llvm::StringRef s, size_t i, uint32_t &cp);

} // namespace kiln::fe

#endif // KILN_FRONTEND_SYNTAX_LEXER_H
