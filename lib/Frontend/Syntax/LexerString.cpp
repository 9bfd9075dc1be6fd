//===- LexerString.cpp - String, bytes and f-string literals --------------===//
#include "LexerImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FormatVariadic.h"

using namespace kiln::fe;
using namespace kiln::fe::detail;

void detail::appendUTF8(std::string &out, uint32_t cp) {
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
  case 'N': {
    if (bytes)
      break;
    // Without Unicode's name table the escape stays as written; only its
    // shape is checked.
    size_t close = src.find('}', pos);
    if (peek() != '{' || close == StringRef::npos ||
        src.slice(pos, close).contains('\n') || close == pos + 1)
      return fail(pos - 2, "malformed \\N character escape");
    out += src.slice(pos - 2, close + 1).str();
    pos = close + 1;
    return true;
  }
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
      // A backslash never escapes a brace: `\{x}` is a backslash and a field.
      if (peek(1) == '{' || peek(1) == '}') {
        lit.text += '\\';
        ++pos;
        continue;
      }
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
    if (c == '#') {
      // A comment may end a line of a multi-line field (PEP 701).
      while (!atEnd() && !isNewlineAt(pos))
        ++pos;
      continue;
    }
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
      for (; p < src.size(); ++p) {
        if (src[p] == '#')
          while (p + 1 < src.size() && !isNewlineAt(p + 1))
            ++p;
        else if (src[p] != ' ' && src[p] != '\t' && !isNewlineAt(p))
          break;
      }
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
      while (peek() == ' ' || peek() == '\t')
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

