//===- ParserImpl.h - The recursive-descent parser (internal) --*- C++ -*-===//
//
// Shared by Parser.cpp (simple statements, if/for/while, imports, entry
// points), ParserStmt.cpp (def, class, try, with, type), ParserMatch.cpp
// (match and patterns), ParserExpr.cpp (operators, calls, subscripts, lambda)
// and ParserDisplay.cpp (displays, comprehensions, strings and f-strings).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_SYNTAX_PARSERIMPL_H
#define KILN_LIB_FRONTEND_SYNTAX_PARSERIMPL_H

#include "kiln/Frontend/Syntax/Lexer.h"
#include "kiln/Frontend/Syntax/Parser.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

namespace kiln::fe::detail {

using namespace kiln::ast;

/// Nesting limit for expressions and statements, so hostile input cannot
/// exhaust the stack.
inline constexpr unsigned kMaxDepth = 150;

/// The binary operator spelled `s` (`+`, `//`, `**`, ...), if any.
std::optional<BinOpKind> binOpFromSpelling(llvm::StringRef s);

class Parser {
public:
  Parser(std::vector<Token> toks, Module &m, llvm::StringRef src)
      : toks(std::move(toks)), m(m), src(src) {}

  bool parseFile();
  Expr *parseSingleExpression();
  std::optional<ParseError> error;

private:
  std::vector<Token> toks;
  size_t i = 0;
  Module &m;
  llvm::StringRef src;
  unsigned depth = 0;

  struct DepthGuard {
    Parser &p;
    bool ok;
    explicit DepthGuard(Parser &p) : p(p), ok(++p.depth <= kMaxDepth) {
      if (!ok)
        p.fail(p.cur().begin, "expression or block nested too deeply");
    }
    ~DepthGuard() { --p.depth; }
  };
  /// Left-associative chains (`a + b + c`, `f(x)[i].y`) build deep trees
  /// without recursing in the parser; each link counts as one level so that
  /// later tree walks stay bounded too.
  struct ChainGuard {
    Parser &p;
    unsigned links = 0;
    explicit ChainGuard(Parser &p) : p(p) {}
    bool step() {
      ++links;
      if (++p.depth <= kMaxDepth)
        return true;
      p.fail(p.cur().begin, "expression or block nested too deeply");
      return false;
    }
    ~ChainGuard() { p.depth -= links; }
  };

  const Token &cur() const { return toks[i]; }
  const Token &ahead(size_t k = 1) const {
    return toks[std::min(i + k, toks.size() - 1)];
  }
  void advance() {
    if (i + 1 < toks.size())
      ++i;
  }
  /// End of the last consumed token that is not NEWLINE/INDENT/DEDENT, so a
  /// compound statement ends with its last body statement.
  uint32_t prevEnd() const {
    for (size_t k = i; k > 0; --k) {
      const Token &t = toks[k - 1];
      if (!t.is(TokKind::Newline) && !t.is(TokKind::Indent) &&
          !t.is(TokKind::Dedent))
        return t.end;
    }
    return 0;
  }
  bool failed() const { return error.has_value(); }
  std::nullptr_t fail(uint32_t offset, std::string msg) {
    if (!error)
      error = ParseError{offset, withSyntaxPrefix(std::move(msg))};
    return nullptr;
  }
  /// Every grammar error reads `invalid syntax[: detail]`, except the
  /// indentation errors and nesting limits CPython reports by their own
  /// names.
  static std::string withSyntaxPrefix(std::string msg) {
    for (const char *keep :
         {"invalid syntax", "unexpected indent", "expected an indented block",
          "expression or block nested too deeply", "f-string: "})
      if (msg.rfind(keep, 0) == 0)
        return msg;
    return "invalid syntax: " + msg;
  }
  std::nullptr_t failHere(std::string msg) { return fail(cur().begin, msg); }
  std::nullptr_t invalidSyntax() {
    const Token &t = cur();
    if (t.is(TokKind::Indent))
      return failHere("unexpected indent");
    if (t.is(TokKind::Newline) || t.is(TokKind::End))
      return failHere("invalid syntax: unexpected end of line");
    if (t.is(TokKind::Dedent))
      return failHere("invalid syntax: unexpected end of block");
    return failHere("invalid syntax at `" + src.slice(t.begin, t.end).str() +
                    "`");
  }
  bool expectOp(llvm::StringRef op, const char *context = nullptr) {
    if (cur().isOp(op)) {
      advance();
      return true;
    }
    std::string msg = "expected '" + op.str() + "'";
    if (context)
      msg += std::string(" ") + context;
    fail(cur().begin, msg);
    return false;
  }
  unsigned lineOf(uint32_t offset) const {
    return 1 + static_cast<unsigned>(
                   std::count(src.begin(), src.begin() + offset, '\n'));
  }

  // Statements.
  bool parseStatement(Block &out);
  bool parseSimpleStatements(Block &out);
  Stmt *parseSmallStatement();
  bool parseSuite(Block &out, const char *what, uint32_t headerBegin);
  /// Decorators, then a def, async def or class.
  Stmt *parseDecorated();
  Stmt *parseFunctionDef(uint32_t b, std::vector<Expr *> decorators);
  Stmt *parseClassDef(uint32_t b, std::vector<Expr *> decorators);
  bool parseTypeParams(std::vector<TypeParam> &out);
  Stmt *parseTypeAlias();
  Stmt *parseTry();
  Stmt *parseWith();
  bool parseWithItem(WithItem &item);
  /// A `match` statement at cur(), or null (error state untouched) when the
  /// line is not one and `match` is an ordinary name.
  Stmt *tryParseMatch();
  Pattern *parsePatterns(); ///< a case's patterns: an open sequence allowed
  Pattern *parsePattern();  ///< as/or pattern
  Pattern *parseClosedPattern();
  Pattern *parseSequenceItemPattern();
  Expr *parseLiteralPatternValue();
  Stmt *parseIf(bool isElif);
  Stmt *parseFor();
  Stmt *parseWhile();
  Stmt *parseImport();
  Stmt *parseFromImport();
  /// `.b.c` after a module name, appended to `name`.
  bool parseDottedTail(std::string &name);
  /// `name [as other]`; `missing` is the error when no name starts it.
  bool parseAlias(Alias &a, bool dotted, const char *missing);
  Stmt *parseExprOrAssign();
  /// The right of `=`: a yield expression or a starred tuple.
  Expr *parseAssignValue();
  bool parseLoopElse(Block &orelse, uint32_t &elseBegin);

  // Expressions.
  Expr *parseTestList(bool allowStar = false);
  Expr *parseTest();
  Expr *parseBoolOp(bool isAnd);
  Expr *parseNotTest();
  Expr *parseComparison();
  /// Consumes all but the last token of a comparison operator.
  std::optional<CmpOpKind> comparisonOp();
  Expr *parseBinary(int level);
  Expr *parseFactor();
  Expr *parsePower();
  Expr *parseAtomWithTrailers();
  Expr *parseAtom();
  /// `item`s separated by commas (a trailing one allowed) up to and
  /// including `close`; `missing` is the error for anything else.
  bool parseDelimited(llvm::StringRef close, const char *missing,
                      llvm::function_ref<bool()> item);
  Expr *parseCallArgs(Expr *func);
  /// `*operand`, the star at cur().
  Expr *parseStarred(llvm::function_ref<Expr *()> operand);
  /// True where a bare tuple may end after a trailing comma.
  bool endsTestList() const;
  Expr *parseYield();
  Expr *parseLambda();
  /// The `for ... in ... if ...` clauses after `elt` (and a DictComp's
  /// `value`); `b` is where the whole starts.
  Expr *parseComprehension(Node::Kind kind, uint32_t b, Expr *elt,
                           Expr *value = nullptr);
  Expr *parseDisplayItem();
  /// Display items up to and including `close` (after the first ones).
  bool parseDisplayItems(std::vector<Expr *> &out, llvm::StringRef close,
                         const char *missing);
  Expr *parseParenAtom();
  Expr *parseListAtom();
  Expr *parseBraceAtom();
  Expr *parseStrings();
  bool appendFStringParts(const std::vector<FStringPart> &parts,
                          JoinedStrExpr &out);
  /// A parameter list up to (not including) `close`, for `def` (with
  /// annotations) and `lambda`.
  bool parseParams(std::vector<Param> &params, llvm::StringRef close,
                   bool annotations);
  Expr *parseSubscript(Expr *value);
  Expr *parseSubscriptItem();
  Expr *parseTargetList();
  /// `item, item, ...` without brackets: a TupleExpr when there is a comma;
  /// after a trailing comma the list stops where `ends()` holds.
  Expr *parseBareTuple(llvm::function_ref<Expr *()> item,
                       llvm::function_ref<bool()> ends);
  SrcRange range(uint32_t b) const { return {b, prevEnd()}; }
};

} // namespace kiln::fe::detail

#endif
