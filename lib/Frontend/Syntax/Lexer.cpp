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
  bool lexOp();
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

bool Lexer::lexName() {
  size_t b = pos;
  while (!atEnd() && (llvm::isAlnum(peek()) || peek() == '_'))
    ++pos;
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
    return fail(pos, "non-ASCII character " + d +
                         " in an identifier is not supported");
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
    if (!atEnd() && (llvm::isAlnum(peek()) || peek() == '_')) {
      if (peek() == 'j' || peek() == 'J')
        return fail(b, "complex literals are not supported");
      return fail(pos, "invalid decimal literal");
    }
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

bool Lexer::lexString(size_t start, StringRef prefix) {
  std::string lower = prefix.lower();
  if (lower.find('f') != std::string::npos)
    return fail(start, "f-strings are not supported");
  if (lower.find('b') != std::string::npos)
    return fail(start, "bytes literals are not supported");
  bool raw = lower.find('r') != std::string::npos;
  char q = peek();
  bool triple = peek(1) == q && peek(2) == q;
  size_t quoteStart = pos;
  pos += triple ? 3 : 1;
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
      char n = peek(1);
      if (n == '\0' && pos + 1 >= src.size()) {
        ++pos;
        continue; // reported as unterminated next iteration
      }
      if (raw) {
        out += c;
        ++pos;
        // A backslash still protects the next character from ending the
        // literal, including a line break.
        if (size_t nl = newlineLen(pos)) {
          out += src.substr(pos, nl).str();
          pos += nl;
        } else if (!atEnd()) {
          unsigned len;
          describeChar(pos, len);
          out += src.substr(pos, len).str();
          pos += len;
        }
        continue;
      }
      pos += 2;
      switch (n) {
      case '\n':
        continue;
      case '\r':
        if (peek() == '\n')
          ++pos;
        continue;
      case '\\':
        out += '\\';
        continue;
      case '\'':
        out += '\'';
        continue;
      case '"':
        out += '"';
        continue;
      case 'a':
        out += '\a';
        continue;
      case 'b':
        out += '\b';
        continue;
      case 'f':
        out += '\f';
        continue;
      case 'n':
        out += '\n';
        continue;
      case 'r':
        out += '\r';
        continue;
      case 't':
        out += '\t';
        continue;
      case 'v':
        out += '\v';
        continue;
      case 'x':
      case 'u':
      case 'U': {
        unsigned want = n == 'x' ? 2 : n == 'u' ? 4 : 8;
        StringRef hex = src.substr(pos, want);
        uint32_t cp = 0;
        if (hex.size() != want || !llvm::all_of(hex, llvm::isHexDigit) ||
            hex.getAsInteger(16, cp) || cp > 0x10FFFF)
          return fail(pos - 2, std::string("invalid \\") + n + " escape");
        pos += want;
        appendUTF8(out, cp);
        continue;
      }
      case 'N':
        return fail(pos - 2, "\\N{...} escapes are not supported");
      default:
        if (n >= '0' && n <= '7') {
          uint32_t cp = n - '0';
          for (int k = 0; k < 2 && peek() >= '0' && peek() <= '7'; ++k, ++pos)
            cp = cp * 8 + (peek() - '0');
          appendUTF8(out, cp);
          continue;
        }
        // Unknown escapes keep the backslash, as in Python.
        pos -= 1;
        out += '\\';
        continue;
      }
    }
    uint32_t cp;
    unsigned len = decodeUTF8(src, pos, cp);
    if (len == 0)
      return fail(pos, llvm::formatv("invalid UTF-8 byte 0x{0:x-2}",
                                     static_cast<unsigned char>(c))
                           .str());
    if (cp == 0)
      return fail(pos, "source contains a NUL byte");
    out += src.substr(pos, len).str();
    pos += len;
  }
  push(TokKind::String, start, pos, std::move(out));
  return true;
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
    if (llvm::isAlpha(c) || c == '_')
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

LexResult kiln::fe::lex(StringRef source) { return Lexer(source).run(); }
