//===- KernelParams.cpp - Read a kernel's parameter list from its def -----===//
//
// The runtime must know which parameters are constexpr (named launch options)
// and which take positional arguments before it can build a specialization,
// i.e. before anything is compiled. Only the `def` header is read here; the
// compiler parses and checks the whole file.
//
//===----------------------------------------------------------------------===//
#include "kiln/Runtime/Launch.h"
#include "RuntimeError.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace kiln::rt;

namespace {
bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// Offset of `def <name>(` at the start of a line (after indentation), or npos.
size_t findDef(llvm::StringRef src, llvm::StringRef name) {
  size_t pos = 0;
  while ((pos = src.find("def", pos)) != llvm::StringRef::npos) {
    size_t lineStart = src.rfind('\n', pos);
    lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
    bool atLineStart =
        src.slice(lineStart, pos).find_first_not_of(" \t") ==
        llvm::StringRef::npos;
    size_t p = pos + 3;
    if (atLineStart && p < src.size() && (src[p] == ' ' || src[p] == '\t')) {
      while (p < src.size() && (src[p] == ' ' || src[p] == '\t'))
        ++p;
      if (src.substr(p).starts_with(name)) {
        size_t q = p + name.size();
        while (q < src.size() && (src[q] == ' ' || src[q] == '\t'))
          ++q;
        if (q < src.size() && src[q] == '(')
          return q;
      }
    }
    pos += 3;
  }
  return llvm::StringRef::npos;
}

unsigned lineOf(llvm::StringRef src, size_t offset) {
  return 1 + src.take_front(offset).count('\n');
}
} // namespace

std::vector<std::string> kiln::rt::listJitFunctions(llvm::StringRef source) {
  std::vector<std::string> names;
  llvm::SmallVector<llvm::StringRef> lines;
  source.split(lines, '\n');
  bool sawJit = false;
  for (llvm::StringRef line : lines) {
    llvm::StringRef t = line.trim();
    if (t.starts_with("@")) {
      sawJit |= t.contains("jit");
      continue;
    }
    if (t.starts_with("def ") && sawJit) {
      llvm::StringRef rest = t.drop_front(4).ltrim();
      size_t n = 0;
      while (n < rest.size() && isIdentChar(rest[n]))
        ++n;
      if (n)
        names.push_back(rest.take_front(n).str());
    }
    if (!t.empty() && !t.starts_with("#"))
      sawJit = false;
  }
  return names;
}

llvm::Expected<std::vector<KernelParam>>
kiln::rt::scanKernelParams(llvm::StringRef src, llvm::StringRef filename,
                           llvm::StringRef kernelName) {
  size_t open = findDef(src, kernelName);
  if (open == llvm::StringRef::npos) {
    std::vector<std::string> names = listJitFunctions(src);
    return makeError(llvm::formatv("kernel `{0}` not found in {1}; kernels "
                                   "here: {2}",
                                   kernelName, filename,
                                   names.empty() ? std::string("none")
                                                 : llvm::join(names, ", ")));
  }
  unsigned line = lineOf(src, open);
  auto malformed = [&](const llvm::Twine &why) {
    return makeError(llvm::formatv("{0}:{1}: cannot read the parameters of "
                                   "`{2}`: {3}",
                                   filename, line, kernelName, why.str()));
  };

  // Split the text between the parentheses at top-level commas, skipping
  // strings and comments.
  std::vector<std::string> pieces(1);
  int depth = 0;
  size_t i = open + 1;
  for (; i < src.size(); ++i) {
    char c = src[i];
    if (c == '#') {
      while (i < src.size() && src[i] != '\n')
        ++i;
      pieces.back() += ' ';
      continue;
    }
    if (c == '\'' || c == '"') {
      size_t end = src.find(c, i + 1);
      if (end == llvm::StringRef::npos)
        return malformed("unterminated string");
      pieces.back() += src.slice(i, end + 1).str();
      i = end;
      continue;
    }
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (depth == 0)
        break;
      --depth;
    }
    if (c == ',' && depth == 0) {
      pieces.emplace_back();
      continue;
    }
    pieces.back() += (c == '\n' || c == '\t' || c == '\\') ? ' ' : c;
  }
  if (i >= src.size())
    return malformed("no closing `)`");

  std::vector<KernelParam> params;
  for (std::string &piece : pieces) {
    llvm::StringRef text = llvm::StringRef(piece).trim();
    if (text.empty()) // Trailing comma, or no parameters at all.
      continue;
    if (!isIdentStart(text[0]))
      return malformed("unsupported parameter `" + text + "`");
    size_t n = 0;
    while (n < text.size() && isIdentChar(text[n]))
      ++n;
    KernelParam p;
    p.name = text.take_front(n).str();
    llvm::StringRef rest = text.drop_front(n).ltrim();
    llvm::StringRef annotation, defaultValue;
    if (rest.consume_front(":")) {
      size_t eq = rest.find('=');
      annotation = rest.take_front(eq).trim();
      rest = eq == llvm::StringRef::npos ? llvm::StringRef() : rest.drop_front(eq);
    }
    if (rest.consume_front("="))
      defaultValue = rest.trim();
    else if (!rest.trim().empty())
      return malformed("unsupported parameter `" + text + "`");
    p.isConstexpr = annotation.contains("constexpr");
    p.defaultValue = defaultValue.str();
    for (const KernelParam &q : params)
      if (q.name == p.name)
        return malformed("duplicate parameter `" + p.name + "`");
    params.push_back(std::move(p));
  }
  return params;
}
