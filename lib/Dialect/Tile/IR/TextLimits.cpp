//===- TextLimits.cpp - What tile-IR text Kiln parses ---------------------===//
#include "kiln/Dialect/Tile/IR/TextLimits.h"

#include <algorithm>

std::optional<std::pair<unsigned, unsigned>> kiln::tile::bracketBeyondDepth(llvm::StringRef text,
                                                                            unsigned limit) {
  unsigned depth = 0, line = 1, column = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++column;
    if (c == '\n') {
      ++line, column = 0;
    } else if (c == '"') { // a string: up to its closing quote, escapes skipped
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i, ++column)
        if (text[i] == '\\')
          ++i, ++column;
      ++column;
      if (i < text.size() && text[i] == '\n')
        ++line, column = 0;
    } else if (c == '/' && text.substr(i).starts_with("//")) {
      i = std::min(text.find('\n', i), text.size()) - 1;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > limit)
        return std::make_pair(line, column);
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth) {
      --depth;
    }
  }
  return std::nullopt;
}

std::optional<std::pair<unsigned, unsigned>> kiln::tile::indexDenseArray(llvm::StringRef text) {
  for (size_t at = text.find("array<"); at != llvm::StringRef::npos;
       at = text.find("array<", at + 1)) {
    size_t i = at + 6;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
                               text[i] == '\r' || text[i] == '\0'))
      ++i;
    if (!text.substr(i).starts_with("index"))
      continue;
    llvm::StringRef before = text.take_front(at);
    size_t lineStart = before.rfind('\n') + 1; // 0 on the first line (npos + 1)
    return std::make_pair(unsigned(1 + before.count('\n')), unsigned(at - lineStart + 1));
  }
  return std::nullopt;
}
