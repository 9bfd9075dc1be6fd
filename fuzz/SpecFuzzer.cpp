//===- SpecFuzzer.cpp - Signature and -D parsers --------------------------===//
//
// Input: text for parseSignature and, line by line, parseConstexprDefinition.
// Besides crashes, checks the documented round trip: a parsed signature
// printed with toString() parses back to the same entries.
//
//===----------------------------------------------------------------------===//
#include "kiln/Frontend/Spec.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace kiln;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  auto sig = parseSignature(text);
  if (sig) {
    std::string printed;
    for (size_t i = 0; i < sig->size(); ++i)
      printed += (i ? "," : "") + (*sig)[i].toString();
    auto again = parseSignature(printed);
    if (!again || *again != *sig) {
      fprintf(stderr, "signature round trip failed: `%s` -> `%s`\n",
              text.c_str(), printed.c_str());
      if (!again)
        fprintf(stderr, "%s\n", llvm::toString(again.takeError()).c_str());
      abort();
    }
  } else {
    std::string message = llvm::toString(sig.takeError());
    if (message.empty())
      abort(); // An error must say what is wrong.
  }
  llvm::StringRef rest(text);
  while (!rest.empty()) {
    auto [line, tail] = rest.split('\n');
    rest = tail;
    auto def = parseConstexprDefinition(std::string_view(line));
    if (!def && llvm::toString(def.takeError()).empty())
      abort();
  }
  return 0;
}
