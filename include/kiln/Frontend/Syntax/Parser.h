//===- Parser.h - Triton-language source to AST ----------------*- C++ -*-===//
//
// A recursive-descent parser for the Python subset that Triton kernels use.
// Python that Kiln does not support (classes, lambdas, comprehensions,
// `*args`, `global`, `try`, `with`, ...) is rejected with a message saying so.
// Parsing stops at the first error.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_SYNTAX_PARSER_H
#define KILN_FRONTEND_SYNTAX_PARSER_H

#include "kiln/Frontend/Syntax/AST.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <string>

namespace kiln::fe {

struct ParseError {
  uint32_t offset = 0;
  std::string message;
};

struct ParseResult {
  std::unique_ptr<ast::Module> module; ///< null on error
  std::optional<ParseError> error;
};

/// Lexes and parses a whole file.
ParseResult parse(llvm::StringRef source);

/// Parses `source` as one expression (used for -D values and signature
/// literals).
ParseResult parseExpression(llvm::StringRef source, ast::Expr *&out);

} // namespace kiln::fe

#endif // KILN_FRONTEND_SYNTAX_PARSER_H
