//===- Lexer.cpp - Python tokenizer for Triton-language sources ----------===//
#include "kiln/Frontend/Syntax/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FormatVariadic.h"
#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace kiln::fe;
using llvm::StringRef;

bool kiln::fe::isPythonKeyword(StringRef s) {
  return llvm::StringSwitch<bool>(s)
      .Cases({"False", "None", "True", "and", "as", "assert", "async"}, true)
      .Cases({"await", "break", "class", "continue", "def", "del", "elif"},
             true)
      .Cases({"else", "except", "finally", "for", "from", "global", "if"}, true)
      .Cases({"import", "in", "is", "lambda", "nonlocal", "not", "or"}, true)
      .Cases({"pass", "raise", "return", "try", "while", "with", "yield"}, true)
      .Default(false);
}

unsigned kiln::fe::decodeUTF8(StringRef s, size_t i, uint32_t &cp) {
  auto byte = [&](size_t k) -> unsigned char {
    return k < s.size() ? static_cast<unsigned char>(s[k]) : 0;
  };
  unsigned char c = byte(i);
  unsigned len;
  if (c < 0x80) {
    cp = c;
    return 1;
  } else if ((c & 0xE0) == 0xC0) {
    len = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size())
    return 0;
  for (unsigned k = 1; k < len; ++k) {
    unsigned char cc = byte(i + k);
    if ((cc & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  // Reject overlong encodings, surrogates and out-of-range code points.
  static const uint32_t minForLen[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < minForLen[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return len;
}

namespace {

constexpr unsigned kMaxIndentLevels = 100;
constexpr unsigned kMaxBracketDepth = 200;

class Lexer {
public:
  explicit Lexer(StringRef src) : src(src) {}
  LexResult run();

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

public:
  /// Lexes one expression in implicit parentheses starting at `begin`.
  LexResult runExpression(size_t begin);

private:

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

std::string Lexer::describeChar(size_t p, unsigned &len) {
  uint32_t cp = 0;
  len = decodeUTF8(src, p, cp);
  if (len == 0) {
    len = 1;
    return llvm::formatv("byte 0x{0:x-2}", static_cast<unsigned char>(src[p]))
        .str();
  }
  return llvm::formatv("'{0}' (U+{1:X-4})", src.substr(p, len), cp).str();
}

bool Lexer::checkUTF8(size_t b, size_t e) {
  for (size_t p = b; p < e;) {
    uint32_t cp;
    unsigned len = decodeUTF8(src, p, cp);
    if (len == 0)
      return fail(p, llvm::formatv("invalid UTF-8 byte 0x{0:x-2}",
                                   static_cast<unsigned char>(src[p]))
                         .str());
    if (cp == 0)
      return fail(p, "source contains a NUL byte");
    p += len;
  }
  return true;
}

bool Lexer::skipComment() {
  size_t b = pos;
  while (!atEnd() && !isNewlineAt(pos))
    ++pos;
  return checkUTF8(b, pos);
}

/// At the start of a physical line outside brackets: measure indentation and
/// emit INDENT/DEDENT unless the line is blank or only a comment.
bool Lexer::lineStart() {
  for (;;) {
    unsigned col8 = 0, col1 = 0;
    size_t p = pos;
    for (; p < src.size(); ++p) {
      char c = src[p];
      if (c == ' ') {
        ++col8;
        ++col1;
      } else if (c == '\t') {
        col8 = (col8 / 8 + 1) * 8;
        ++col1;
      } else if (c == '\f') {
        col8 = col1 = 0;
      } else {
        break;
      }
    }
    pos = p;
    if (atEnd())
      return true;
    if (src[p] == '#') {
      if (!skipComment())
        return false;
    }
    if (size_t n = newlineLen(pos)) { // blank or comment-only line
      pos += n;
      continue;
    }
    if (atEnd())
      return true;

    const Level &top = indents.back();
    if (col8 == top.col8) {
      if (col1 != top.col1)
        return fail(pos, "inconsistent use of tabs and spaces in indentation");
    } else if (col8 > top.col8) {
      if (col1 <= top.col1)
        return fail(pos, "inconsistent use of tabs and spaces in indentation");
      if (indents.size() > kMaxIndentLevels)
        return fail(pos, "too many levels of indentation");
      indents.push_back({col8, col1});
      push(TokKind::Indent, pos, pos);
    } else {
      while (indents.size() > 1 && col8 < indents.back().col8) {
        indents.pop_back();
        push(TokKind::Dedent, pos, pos);
      }
      if (col8 != indents.back().col8)
        return fail(pos, "unindent does not match any outer indentation level");
      if (col1 != indents.back().col1)
        return fail(pos, "inconsistent use of tabs and spaces in indentation");
    }
    return true;
  }
}

/// Python identifiers are XID_Start XID_Continue*. Without Unicode tables
/// Kiln takes ASCII letters, digits and `_`, plus non-ASCII letters: every
/// code point from U+00C0 up except the symbol and punctuation blocks.
bool Lexer::identifierChar(size_t p, unsigned &len) const {
  if (p >= src.size())
    return false;
  unsigned char c = static_cast<unsigned char>(src[p]);
  if (c < 0x80) {
    len = 1;
    return llvm::isAlnum(c) || c == '_';
  }
  uint32_t cp;
  len = decodeUTF8(src, p, cp);
  if (len == 0)
    return false;
  if (cp == 0xAA || cp == 0xB5 || cp == 0xBA)
    return true;
  if (cp < 0xC0 || cp == 0xD7 || cp == 0xF7)
    return false;
  auto in = [&](uint32_t lo, uint32_t hi) { return cp >= lo && cp <= hi; };
  return !(in(0x2000, 0x206F) || in(0x20A0, 0x20CF) || in(0x2190, 0x2BFF) ||
           in(0x3000, 0x303F) || in(0xFE00, 0xFE0F) || in(0xFF00, 0xFF0F) ||
           in(0x1F000, 0x1FAFF));
}

bool Lexer::lexName() {
  size_t b = pos;
  unsigned len;
  while (identifierChar(pos, len))
    pos += len;
  StringRef word = src.slice(b, pos);
  // String prefixes: r, u, b, f and their combinations.
  if (!atEnd() && (peek() == '"' || peek() == '\'') && word.size() <= 2) {
    std::string lower = word.lower();
    if (lower == "r" || lower == "u" || lower == "b" || lower == "f" ||
        lower == "rb" || lower == "br" || lower == "fr" || lower == "rf")
      return lexString(b, word);
  }
  if (!atEnd() && static_cast<unsigned char>(peek()) >= 0x80) {
    unsigned len;
    std::string d = describeChar(pos, len);
    if (d.rfind("byte", 0) == 0)
      return fail(pos, "invalid UTF-8 " + d);
    return fail(pos, "invalid character " + d + " in identifier");
  }
  push(TokKind::Name, b, pos, word.str());
  toks.back().isKeyword = isPythonKeyword(word);
  return true;
}

bool Lexer::lexNumber() {
  size_t b = pos;
  auto digitsWithUnderscores = [&](auto isDigit, std::string &out) -> bool {
    // Python allows single underscores between digits.
    bool any = false;
    while (!atEnd()) {
      char c = peek();
      if (isDigit(c)) {
        out += c;
        ++pos;
        any = true;
      } else if (c == '_' && any && isDigit(peek(1))) {
        ++pos;
      } else {
        break;
      }
    }
    return any;
  };
  auto finish = [&]() -> bool {
    if (!atEnd() && (llvm::isAlnum(peek()) || peek() == '_'))
      return fail(pos, "invalid decimal literal");
    return true;
  };
  // An Int token for the literal b..pos whose digits are `digits`.
  auto pushInt = [&](StringRef digits, unsigned radix) -> bool {
    uint64_t v = 0;
    if (digits.getAsInteger(radix, v) || v > static_cast<uint64_t>(INT64_MAX))
      return fail(b, "integer literal `" + src.slice(b, pos).str() +
                         "` is too large (Kiln's integers are 64-bit)");
    push(TokKind::Int, b, pos, src.slice(b, pos).str());
    toks.back().intValue = static_cast<int64_t>(v);
    return true;
  };

  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'o' ||
                        peek(1) == 'O' || peek(1) == 'b' || peek(1) == 'B')) {
    char kind = static_cast<char>(llvm::toLower(peek(1)));
    pos += 2;
    if (peek() == '_')
      ++pos;
    std::string digits;
    unsigned radix = kind == 'x' ? 16 : kind == 'o' ? 8 : 2;
    auto isDigit = [&](char c) {
      if (radix == 16)
        return llvm::isHexDigit(c);
      if (radix == 8)
        return c >= '0' && c <= '7';
      return c == '0' || c == '1';
    };
    if (!digitsWithUnderscores(isDigit, digits))
      return fail(b, kind == 'x'   ? "invalid hexadecimal literal"
                     : kind == 'o' ? "invalid octal literal"
                                   : "invalid binary literal");
    return finish() && pushInt(digits, radix);
  }

  std::string text;
  bool isFloat = false;
  digitsWithUnderscores(llvm::isDigit, text);
  if (peek() == '.' && !(peek(1) == '.' && peek(2) == '.')) {
    isFloat = true;
    text += '.';
    ++pos;
    if (peek() == '_')
      return fail(pos, "invalid decimal literal");
    digitsWithUnderscores(llvm::isDigit, text);
  }
  if (peek() == 'e' || peek() == 'E') {
    size_t save = pos;
    std::string exp = "e";
    ++pos;
    if (peek() == '+' || peek() == '-') {
      exp += peek();
      ++pos;
    }
    if (!digitsWithUnderscores(llvm::isDigit, exp)) {
      pos = save;
      return fail(pos, "invalid decimal literal");
    }
    text += exp;
    isFloat = true;
  }
  if (peek() == 'j' || peek() == 'J') {
    ++pos;
    if (!finish())
      return false;
    push(TokKind::Imag, b, pos, src.slice(b, pos).str());
    toks.back().floatValue = std::strtod(text.c_str(), nullptr);
    return true;
  }
  if (!finish())
    return false;
  if (isFloat) {
    errno = 0;
    double v = std::strtod(text.c_str(), nullptr);
    push(TokKind::Float, b, pos, src.slice(b, pos).str());
    toks.back().floatValue = v; // overflow gives inf, as in Python
    return true;
  }
  if (text.size() > 1 && text[0] == '0' &&
      text.find_first_not_of('0') != std::string::npos)
    return fail(b, "leading zeros in decimal integer literals are not "
                   "permitted; use an 0o prefix for octal integers");
  return pushInt(text, 10);
}

static void appendUTF8(std::string &out, uint32_t cp) {
  char buf[4];
  char *p = buf;
  llvm::ConvertCodePointToUTF8(cp, p);
  out.append(buf, p);
}

bool Lexer::lexChar(std::string &out) {
  uint32_t cp;
  unsigned len = decodeUTF8(src, pos, cp);
  if (len == 0)
    return fail(pos, llvm::formatv("invalid UTF-8 byte 0x{0:x-2}",
                                   static_cast<unsigned char>(peek()))
                         .str());
  if (cp == 0)
    return fail(pos, "source contains a NUL byte");
  out += src.substr(pos, len).str();
  pos += len;
  return true;
}

bool Lexer::lexEscape(std::string &out, bool raw, bool bytes) {
  char n = peek(1);
  if (n == '\0' && pos + 1 >= src.size()) {
    ++pos;
    return true; // reported as unterminated by the caller
  }
  if (raw) {
    out += '\\';
    ++pos;
    // A backslash still protects the next character from ending the
    // literal, including a line break.
    if (size_t nl = newlineLen(pos)) {
      out += src.substr(pos, nl).str();
      pos += nl;
      return true;
    }
    return atEnd() || lexChar(out);
  }
  pos += 2;
  switch (n) {
  case '\n':
    return true;
  case '\r':
    if (peek() == '\n')
      ++pos;
    return true;
  case '\\':
  case '\'':
  case '"':
    out += n;
    return true;
  case 'a':
    out += '\a';
    return true;
  case 'b':
    out += '\b';
    return true;
  case 'f':
    out += '\f';
    return true;
  case 'n':
    out += '\n';
    return true;
  case 'r':
    out += '\r';
    return true;
  case 't':
    out += '\t';
    return true;
  case 'v':
    out += '\v';
    return true;
  case 'x':
  case 'u':
  case 'U': {
    if (bytes && n != 'x')
      break; // not an escape in bytes: kept with its backslash
    unsigned want = n == 'x' ? 2 : n == 'u' ? 4 : 8;
    StringRef hex = src.substr(pos, want);
    uint32_t cp = 0;
    if (hex.size() != want || !llvm::all_of(hex, llvm::isHexDigit) ||
        hex.getAsInteger(16, cp) || cp > 0x10FFFF)
      return fail(pos - 2, std::string("invalid \\") + n + " escape");
    pos += want;
    if (bytes)
      out += static_cast<char>(cp);
    else
      appendUTF8(out, cp);
    return true;
  }
  case 'N':
    if (bytes)
      break;
    return fail(pos - 2, "\\N{...} escapes are not supported");
  default:
    if (n >= '0' && n <= '7') {
      uint32_t cp = n - '0';
      for (int k = 0; k < 2 && peek() >= '0' && peek() <= '7'; ++k, ++pos)
        cp = cp * 8 + (peek() - '0');
      if (bytes)
        out += static_cast<char>(cp & 0xFF);
      else
        appendUTF8(out, cp);
      return true;
    }
    break;
  }
  // Unknown escapes keep the backslash, as in Python.
  pos -= 1;
  out += '\\';
  return true;
}

bool Lexer::lexString(size_t start, StringRef prefix) {
  std::string lower = prefix.lower();
  bool raw = lower.find('r') != std::string::npos;
  bool bytes = lower.find('b') != std::string::npos;
  bool fstring = lower.find('f') != std::string::npos;
  char q = peek();
  bool triple = peek(1) == q && peek(2) == q;
  size_t quoteStart = pos;
  pos += triple ? 3 : 1;
  if (fstring) {
    if (fstringDepth >= kMaxBracketDepth / 4)
      return fail(start, "f-strings nested too deeply");
    ++fstringDepth;
    std::vector<FStringPart> parts;
    bool ok = scanFStringBody(q, triple, raw, /*inSpec=*/false, quoteStart,
                              parts);
    --fstringDepth;
    if (!ok)
      return false;
    pos += triple ? 3 : 1;
    push(TokKind::FString, start, pos);
    toks.back().fparts = std::move(parts);
    return true;
  }
  std::string out;
  for (;;) {
    if (atEnd())
      return fail(quoteStart, triple ? "unterminated triple-quoted string "
                                       "literal"
                                     : "unterminated string literal");
    char c = peek();
    if (c == q) {
      if (!triple) {
        ++pos;
        break;
      }
      if (peek(1) == q && peek(2) == q) {
        pos += 3;
        break;
      }
      out += c;
      ++pos;
      continue;
    }
    if (isNewlineAt(pos) && !triple)
      return fail(quoteStart, "unterminated string literal");
    if (c == '\\') {
      if (!lexEscape(out, raw, bytes))
        return false;
      continue;
    }
    if (bytes && static_cast<unsigned char>(c) >= 0x80)
      return fail(pos, "bytes can only contain ASCII literal characters");
    if (!lexChar(out))
      return false;
  }
  push(TokKind::String, start, pos, std::move(out));
  toks.back().isBytes = bytes;
  return true;
}

bool Lexer::scanFStringBody(char q, bool triple, bool raw, bool inSpec,
                            size_t quoteStart,
                            std::vector<FStringPart> &parts) {
  FStringPart lit;
  lit.begin = static_cast<uint32_t>(pos);
  auto flush = [&] {
    lit.end = static_cast<uint32_t>(pos);
    if (!lit.text.empty())
      parts.push_back(std::move(lit));
    lit = FStringPart();
    lit.begin = static_cast<uint32_t>(pos);
  };
  for (;;) {
    if (atEnd())
      return fail(quoteStart, triple ? "unterminated triple-quoted f-string "
                                       "literal"
                                     : "unterminated f-string literal");
    char c = peek();
    if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
      if (inSpec)
        return fail(pos, "f-string: expecting '}'");
      flush();
      return true;
    }
    if (isNewlineAt(pos) && !triple)
      return fail(quoteStart, "unterminated f-string literal");
    if (c == '{') {
      if (peek(1) == '{' && !inSpec) {
        lit.text += '{';
        pos += 2;
        continue;
      }
      flush();
      if (!scanFStringField(q, triple, raw, quoteStart, parts))
        return false;
      lit.begin = static_cast<uint32_t>(pos);
      continue;
    }
    if (c == '}') {
      if (inSpec) {
        flush();
        return true;
      }
      if (peek(1) != '}')
        return fail(pos, "f-string: single '}' is not allowed");
      lit.text += '}';
      pos += 2;
      continue;
    }
    if (c == '\\') {
      if (!lexEscape(lit.text, raw, /*bytes=*/false))
        return false;
      continue;
    }
    if (!lexChar(lit.text))
      return false;
  }
}

bool Lexer::scanFStringField(char q, bool triple, bool raw, size_t quoteStart,
                             std::vector<FStringPart> &parts) {
  FStringPart f;
  f.isField = true;
  f.begin = static_cast<uint32_t>(pos);
  ++pos; // '{'
  f.exprBegin = static_cast<uint32_t>(pos);
  std::vector<char> nest;
  auto endExpr = [&] {
    f.exprEnd = static_cast<uint32_t>(pos);
    if (src.slice(f.exprBegin, f.exprEnd).trim().empty())
      return fail(pos, std::string("f-string: valid expression required "
                                   "before '") +
                           peek() + "'");
    return true;
  };
  for (;;) {
    if (atEnd())
      return fail(f.begin, "f-string: expecting '}'");
    char c = peek();
    if (c == '"' || c == '\'') {
      // A string inside the field (PEP 701 lets it reuse the quote).
      size_t n = toks.size();
      if (!lexString(pos, ""))
        return false;
      toks.resize(n);
      continue;
    }
    unsigned len;
    if (identifierChar(pos, len) && !llvm::isDigit(c)) {
      size_t b = pos;
      while (identifierChar(pos, len))
        pos += len;
      std::string lower = src.slice(b, pos).lower();
      if ((peek() == '"' || peek() == '\'') &&
          (lower == "r" || lower == "u" || lower == "b" || lower == "f" ||
           lower == "rb" || lower == "br" || lower == "fr" || lower == "rf")) {
        size_t n = toks.size();
        if (!lexString(b, src.slice(b, pos)))
          return false;
        toks.resize(n);
      }
      continue;
    }
    if (c == '#')
      return fail(pos, "f-string expression part cannot include '#'");
    if (c == '(' || c == '[' || c == '{') {
      if (nest.size() >= kMaxBracketDepth)
        return fail(pos, "too many nested parentheses");
      nest.push_back(c);
      ++pos;
      continue;
    }
    if (c == ')' || c == ']' || (c == '}' && !nest.empty())) {
      if (nest.empty())
        return fail(pos, std::string("f-string: unmatched '") + c + "'");
      nest.pop_back();
      ++pos;
      continue;
    }
    if (!nest.empty()) {
      if (c == '\\' && !triple && isNewlineAt(pos + 1)) {
        pos += 1 + newlineLen(pos + 1);
        continue;
      }
      ++pos;
      continue;
    }
    // At the top level of the field.
    if (c == '=' && peek(1) != '=') {
      char prev = pos > f.exprBegin ? src[pos - 1] : '\0';
      size_t p = pos + 1;
      while (p < src.size() && (src[p] == ' ' || src[p] == '\t'))
        ++p;
      char next = p < src.size() ? src[p] : '\0';
      if (!StringRef("=!<>").contains(prev) &&
          (next == '}' || next == '!' || next == ':')) {
        f.debug = true;
        ++pos;
        if (!endExpr())
          return false;
        f.text = src.slice(f.exprBegin, p).str();
        f.exprEnd = static_cast<uint32_t>(pos - 1);
        pos = p;
        c = peek();
      } else {
        ++pos;
        continue;
      }
    }
    if (c == '!' && peek(1) != '=') {
      if (!f.debug && !endExpr())
        return false;
      ++pos;
      char conv = peek();
      if (conv != 'r' && conv != 's' && conv != 'a')
        return fail(pos, "f-string: invalid conversion character: expected "
                         "'s', 'r', or 'a'");
      f.conversion = conv;
      ++pos;
      c = peek();
      if (c != ':' && c != '}')
        return fail(pos, "f-string: expecting '}'");
    }
    if (c == ':') {
      if (!f.debug && !f.conversion && !endExpr())
        return false;
      ++pos;
      f.hasSpec = true;
      if (!scanFStringBody(q, triple, raw, /*inSpec=*/true, quoteStart,
                           f.spec))
        return false;
      c = peek();
    }
    if (c == '}') {
      if (!f.debug && !f.conversion && !f.hasSpec && !endExpr())
        return false;
      ++pos;
      f.end = static_cast<uint32_t>(pos);
      parts.push_back(std::move(f));
      return true;
    }
    if (f.debug || f.conversion || f.hasSpec)
      return fail(pos, "f-string: expecting '}'");
    ++pos;
  }
}

bool Lexer::lexOp() {
  static const char *const ops3[] = {"**=", "//=", ">>=", "<<=", "..."};
  static const char *const ops2[] = {
      "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", "+=",
      "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":="};
  StringRef rest = src.substr(pos);
  for (const char *op : ops3)
    if (rest.starts_with(op)) {
      push(TokKind::Op, pos, pos + 3, op);
      pos += 3;
      return true;
    }
  for (const char *op : ops2)
    if (rest.starts_with(op)) {
      push(TokKind::Op, pos, pos + 2, op);
      pos += 2;
      return true;
    }
  char c = peek();
  if (StringRef("+-*/%@&|^~<>()[]{},:.;=").contains(c)) {
    if (c == '(' || c == '[' || c == '{') {
      if (brackets.size() >= kMaxBracketDepth)
        return fail(pos, "too many nested parentheses");
      brackets.push_back({c, static_cast<uint32_t>(pos)});
    } else if (c == ')' || c == ']' || c == '}') {
      if (brackets.empty())
        return fail(pos, std::string("unmatched '") + c + "'");
      char open = brackets.back().c;
      char want = open == '(' ? ')' : open == '[' ? ']' : '}';
      if (c != want)
        return fail(pos, std::string("closing parenthesis '") + c +
                             "' does not match opening parenthesis '" + open +
                             "'");
      brackets.pop_back();
    }
    push(TokKind::Op, pos, pos + 1, std::string(1, c));
    ++pos;
    return true;
  }
  return badChar();
}

bool Lexer::badChar() {
  if (peek() == '\0' && !atEnd())
    return fail(pos, "source contains a NUL byte");
  unsigned len;
  std::string d = describeChar(pos, len);
  if (static_cast<unsigned char>(peek()) >= 0x80 && d.rfind("byte", 0) == 0)
    return fail(pos, "invalid UTF-8 " + d);
  return fail(pos, "invalid character " + d);
}

LexResult Lexer::run() {
  bool atLineStart = true;
  while (!error) {
    if (atLineStart && brackets.empty()) {
      if (!lineStart())
        break;
      atLineStart = false;
    }
    // Skip intra-line whitespace.
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\f'))
      ++pos;
    if (atEnd())
      break;
    char c = peek();
    if (c == '#') {
      if (!skipComment())
        break;
      continue;
    }
    if (size_t n = newlineLen(pos)) {
      if (brackets.empty()) {
        if (lineHasTokens)
          push(TokKind::Newline, pos, pos + n);
        lineHasTokens = false;
        atLineStart = true;
      }
      pos += n;
      continue;
    }
    if (c == '\\') {
      if (size_t n = newlineLen(pos + 1)) {
        pos += 1 + n;
        continue;
      }
      if (pos + 1 >= src.size()) {
        fail(pos, "unexpected end of file after line continuation character");
        break;
      }
      fail(pos, "unexpected character after line continuation character");
      break;
    }
    lineHasTokens = true;
    bool ok;
    unsigned len;
    if ((llvm::isAlpha(c) || c == '_' ||
         (static_cast<unsigned char>(c) >= 0x80 && identifierChar(pos, len))))
      ok = lexName();
    else if (llvm::isDigit(c) || (c == '.' && llvm::isDigit(peek(1))))
      ok = lexNumber();
    else if (c == '"' || c == '\'')
      ok = lexString(pos, "");
    else
      ok = lexOp();
    if (!ok)
      break;
  }
  if (!error) {
    if (!brackets.empty()) {
      char c = brackets.back().c;
      fail(brackets.back().offset, std::string("'") + c + "' was never closed");
    }
  }
  LexResult r;
  if (error) {
    r.error = error;
    return r;
  }
  size_t e = src.size();
  if (lineHasTokens)
    push(TokKind::Newline, e, e);
  while (indents.size() > 1) {
    indents.pop_back();
    push(TokKind::Dedent, e, e);
  }
  push(TokKind::End, e, e);
  r.tokens = std::move(toks);
  return r;
}

} // namespace

LexResult Lexer::runExpression(size_t begin) {
  pos = begin;
  brackets.push_back({'(', static_cast<uint32_t>(begin)});
  while (!error) {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\f' ||
                        isNewlineAt(pos)))
      ++pos;
    if (atEnd())
      break;
    char c = peek();
    bool ok;
    unsigned len;
    if (c == '\\' && newlineLen(pos + 1)) {
      pos += 1 + newlineLen(pos + 1);
      continue;
    }
    if (llvm::isAlpha(c) || c == '_' ||
        (static_cast<unsigned char>(c) >= 0x80 && identifierChar(pos, len)))
      ok = lexName();
    else if (llvm::isDigit(c) || (c == '.' && llvm::isDigit(peek(1))))
      ok = lexNumber();
    else if (c == '"' || c == '\'')
      ok = lexString(pos, "");
    else
      ok = lexOp();
    if (!ok)
      break;
  }
  if (!error && brackets.size() > 1)
    fail(brackets.back().offset,
         std::string("'") + brackets.back().c + "' was never closed");
  LexResult r;
  if (error) {
    r.error = error;
    return r;
  }
  push(TokKind::End, pos, pos);
  r.tokens = std::move(toks);
  return r;
}

LexResult kiln::fe::lex(StringRef source) { return Lexer(source).run(); }

LexResult kiln::fe::lexExpression(StringRef source, uint32_t begin,
                                  uint32_t end) {
  return Lexer(source.take_front(end)).runExpression(begin);
}
