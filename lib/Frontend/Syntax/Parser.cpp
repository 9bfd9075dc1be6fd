//===- Parser.cpp - Statements and the parser entry points ---------------===//
#include "ParserImpl.h"

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::fe;
using namespace kiln::fe::detail;

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool Parser::parseFile() {
  while (!failed() && !cur().is(TokKind::End)) {
    if (cur().is(TokKind::Indent)) {
      failHere("unexpected indent");
      break;
    }
    if (!parseStatement(m.body))
      break;
  }
  return !failed();
}

bool Parser::parseStatement(Block &out) {
  DepthGuard g(*this);
  if (!g.ok)
    return false;
  const Token &t = cur();
  if (t.is(TokKind::Indent)) {
    failHere("unexpected indent");
    return false;
  }
  Stmt *s = nullptr;
  if (t.isKw("def") || t.isOp("@")) {
    s = parseFunctionDef();
  } else if (t.isKw("if")) {
    s = parseIf(false);
  } else if (t.isKw("for")) {
    s = parseFor();
  } else if (t.isKw("while")) {
    s = parseWhile();
  } else if (t.isKw("class")) {
    return failHere("class definitions are not supported"), false;
  } else if (t.isKw("try")) {
    return failHere("`try` statements are not supported"), false;
  } else if (t.isKw("with")) {
    return failHere("`with` statements are not supported"), false;
  } else if (t.isKw("async")) {
    return failHere("`async` is not supported"), false;
  } else if (t.isKw("else") || t.isKw("elif")) {
    return failHere("`" + t.text + "` without a matching `if`"), false;
  } else {
    return parseSimpleStatements(out);
  }
  if (!s)
    return false;
  out.push_back(s);
  return true;
}

bool Parser::parseSimpleStatements(Block &out) {
  for (;;) {
    Stmt *s = parseSmallStatement();
    if (!s)
      return false;
    out.push_back(s);
    if (cur().isOp(";")) {
      advance();
      if (cur().is(TokKind::Newline))
        break;
      continue;
    }
    break;
  }
  if (!cur().is(TokKind::Newline)) {
    invalidSyntax();
    return false;
  }
  advance();
  return true;
}

Stmt *Parser::parseSmallStatement() {
  const Token &t = cur();
  uint32_t b = t.begin;
  if (t.isKw("pass")) {
    advance();
    return m.make<PassStmt>(range(b));
  }
  if (t.isKw("return")) {
    advance();
    Expr *v = nullptr;
    if (!cur().is(TokKind::Newline) && !cur().isOp(";")) {
      v = parseTestList();
      if (!v)
        return nullptr;
    }
    return m.make<ReturnStmt>(range(b), v);
  }
  if (t.isKw("assert")) {
    advance();
    Expr *test = parseTest();
    if (!test)
      return nullptr;
    Expr *msg = nullptr;
    if (cur().isOp(",")) {
      advance();
      if (!(msg = parseTest()))
        return nullptr;
    }
    return m.make<AssertStmt>(range(b), test, msg);
  }
  if (t.isKw("import"))
    return parseImport();
  if (t.isKw("from"))
    return parseFromImport();
  if (t.isKw("global") || t.isKw("nonlocal"))
    return failHere("`" + t.text + "` statements are not supported");
  if (t.isKw("del"))
    return failHere("`del` statements are not supported");
  if (t.isKw("raise"))
    return failHere("`raise` statements are not supported");
  if (t.isKw("break") || t.isKw("continue"))
    return failHere("`" + t.text +
                    "` is not supported (Triton loops have no early exit)");
  return parseExprOrAssign();
}

/// `+=`, `**=`, ...: a binary operator spelling followed by `=` (`==`, `<=`
/// and friends are comparisons, not binary operators, so they never match).
static std::optional<BinOpKind> augOpKind(llvm::StringRef s) {
  if (s.size() < 2 || !s.ends_with("="))
    return std::nullopt;
  return binOpFromSpelling(s.drop_back());
}

Expr *Parser::parseAssignValue() {
  if (cur().isKw("yield"))
    return parseYield();
  return parseTestList(/*allowStar=*/true);
}

Stmt *Parser::parseExprOrAssign() {
  uint32_t b = cur().begin;
  Expr *e = parseAssignValue();
  if (!e)
    return nullptr;
  if (cur().isOp("=")) {
    std::vector<Expr *> targets;
    while (cur().isOp("=")) {
      targets.push_back(e);
      advance();
      e = parseAssignValue();
      if (!e)
        return nullptr;
    }
    auto *s = m.make<AssignStmt>(range(b), e);
    s->targets = std::move(targets);
    return s;
  }
  if (std::optional<BinOpKind> op;
      cur().kind == TokKind::Op && (op = augOpKind(cur().text))) {
    if (llvm::isa<TupleExpr>(e))
      return failHere("augmented assignment to a tuple is not supported");
    SrcRange opR{cur().begin, cur().end};
    advance();
    Expr *v = parseAssignValue();
    if (!v)
      return nullptr;
    return m.make<AugAssignStmt>(range(b), e, *op, v, opR);
  }
  if (cur().isOp(":")) {
    if (!llvm::isa<NameExpr, AttributeExpr, SubscriptExpr>(e))
      return failHere("invalid syntax: only single target (not tuple) can "
                      "be annotated");
    advance();
    Expr *ann = parseTest();
    if (!ann)
      return nullptr;
    Expr *v = nullptr;
    if (cur().isOp("=")) {
      advance();
      if (!(v = parseAssignValue()))
        return nullptr;
    }
    return m.make<AnnAssignStmt>(range(b), e, ann, v);
  }
  return m.make<ExprStmt>(range(b), e);
}

bool Parser::parseSuite(Block &out, const char *what, uint32_t headerBegin) {
  if (!expectOp(":", (std::string("after ") + what).c_str()))
    return false;
  if (!cur().is(TokKind::Newline))
    return parseSimpleStatements(out);
  advance();
  if (!cur().is(TokKind::Indent)) {
    fail(cur().begin, std::string("expected an indented block after ") + what +
                          " on line " + std::to_string(lineOf(headerBegin)));
    return false;
  }
  advance();
  while (!failed() && !cur().is(TokKind::Dedent) && !cur().is(TokKind::End))
    if (!parseStatement(out))
      return false;
  if (cur().is(TokKind::Dedent))
    advance();
  return !failed();
}

Stmt *Parser::parseFunctionDef() {
  uint32_t b = cur().begin;
  std::vector<Expr *> decorators;
  while (cur().isOp("@")) {
    advance();
    Expr *d = parseTest();
    if (!d)
      return nullptr;
    decorators.push_back(d);
    if (!cur().is(TokKind::Newline))
      return invalidSyntax();
    advance();
  }
  if (cur().isKw("class"))
    return failHere("class definitions are not supported");
  if (cur().isKw("async"))
    return failHere("`async` is not supported");
  if (!cur().isKw("def"))
    return failHere("expected `def` after decorators");
  if (funcDepth > 0)
    return failHere("nested function definitions are not supported");
  advance();
  if (!cur().isName())
    return failHere("expected a function name after `def`");
  auto *fn = m.make<FunctionDef>(SrcRange{b, 0}, cur().text,
                                 SrcRange{cur().begin, cur().end});
  fn->decorators = std::move(decorators);
  advance();
  if (!expectOp("(", "after the function name"))
    return nullptr;
  if (!parseParams(fn->params, ")", /*annotations=*/true) ||
      !expectOp(")"))
    return nullptr;
  if (cur().isOp("->")) {
    advance();
    if (!(fn->returns = parseTest()))
      return nullptr;
  }
  ++funcDepth;
  bool ok = parseSuite(fn->body, "function definition", b);
  --funcDepth;
  if (!ok)
    return nullptr;
  fn->range.end = prevEnd();
  return fn;
}

bool Parser::parseParams(std::vector<Param> &params, llvm::StringRef close,
                         bool annotations) {
  llvm::StringSet<> seen;
  bool sawDefault = false, sawSlash = false, sawStar = false, sawKwargs = false;
  size_t bareStar = SIZE_MAX; // index after a bare `*`
  uint32_t bareStarAt = 0;
  while (!cur().isOp(close)) {
    const Token &t = cur();
    if (sawKwargs)
      return failHere("invalid syntax: arguments cannot follow var-keyword "
                      "argument"),
             false;
    Param p;
    p.range.begin = t.begin;
    if (t.isOp("/")) {
      if (sawSlash || sawStar || params.empty())
        return failHere(params.empty() ? "invalid syntax: at least one "
                                         "argument must precede /"
                                       : "invalid syntax: / must be ahead "
                                         "of *"),
               false;
      sawSlash = true;
      for (Param &q : params)
        q.kind = ParamKind::PositionalOnly;
      advance();
    } else {
      if (t.isOp("*") || t.isOp("**")) {
        bool kw = t.isOp("**");
        if (!kw && sawStar)
          return failHere("invalid syntax: * argument may appear only once"),
                 false;
        advance();
        if (!kw && (cur().isOp(",") || cur().isOp(close))) {
          sawStar = true;
          bareStar = params.size();
          bareStarAt = t.begin;
          if (cur().isOp(","))
            advance();
          continue;
        }
        p.kind = kw ? ParamKind::KwArgs : ParamKind::VarArgs;
        (kw ? sawKwargs : sawStar) = true;
      } else if (sawStar) {
        p.kind = ParamKind::KeywordOnly;
      }
      if (!cur().isName())
        return failHere("expected a parameter name"), false;
      p.name = cur().text;
      if (!seen.insert(p.name).second)
        return failHere("duplicate parameter `" + p.name + "`"), false;
      advance();
      if (annotations && cur().isOp(":")) {
        advance();
        p.annotation = p.kind == ParamKind::VarArgs && cur().isOp("*")
                           ? parseStarred([&] { return parseBinary(0); })
                           : parseTest();
        if (!p.annotation)
          return false;
      }
      if (cur().isOp("=")) {
        if (p.kind == ParamKind::VarArgs || p.kind == ParamKind::KwArgs)
          return failHere("invalid syntax: var-positional and var-keyword "
                          "arguments cannot have default values"),
                 false;
        advance();
        if (!(p.defaultValue = parseTest()))
          return false;
        if (p.kind != ParamKind::KeywordOnly)
          sawDefault = true;
      } else if (sawDefault && !sawStar) {
        return fail(p.range.begin, "parameter `" + p.name +
                                       "` without a default follows a "
                                       "parameter with a default"),
               false;
      }
      p.range.end = prevEnd();
      params.push_back(p);
    }
    if (cur().isOp(",")) {
      advance();
      continue;
    }
    if (!cur().isOp(close))
      return failHere(close == ")"
                          ? "expected ',' or ')' in the parameter list"
                          : "expected ',' or ':' in the lambda parameters"),
             false;
  }
  if (bareStar != SIZE_MAX &&
      (bareStar == params.size() ||
       params[bareStar].kind != ParamKind::KeywordOnly))
    return fail(bareStarAt, "invalid syntax: named arguments must follow "
                            "bare *"),
           false;
  return true;
}

bool Parser::rejectLoopElse(const char *what) {
  if (cur().isKw("else")) {
    fail(cur().begin,
         std::string("`else` on a `") + what + "` loop is not supported");
    return false;
  }
  return true;
}

Stmt *Parser::parseIf(bool isElif) {
  uint32_t b = cur().begin;
  advance(); // if / elif
  Expr *test = parseTest();
  if (!test)
    return nullptr;
  auto *s = m.make<IfStmt>(SrcRange{b, 0}, test, isElif);
  if (!parseSuite(s->body, isElif ? "'elif' statement" : "'if' statement", b))
    return nullptr;
  if (cur().isKw("elif")) {
    Stmt *e = parseIf(true);
    if (!e)
      return nullptr;
    s->orelse.push_back(e);
  } else if (cur().isKw("else")) {
    uint32_t eb = cur().begin;
    advance();
    if (!parseSuite(s->orelse, "'else' statement", eb))
      return nullptr;
  }
  s->range.end = prevEnd();
  return s;
}

Stmt *Parser::parseFor() {
  uint32_t b = cur().begin;
  advance();
  Expr *target = parseTargetList();
  if (!target)
    return nullptr;
  if (!cur().isKw("in"))
    return failHere("expected `in` in the `for` statement");
  advance();
  Expr *iter = parseTestList();
  if (!iter)
    return nullptr;
  auto *s = m.make<ForStmt>(SrcRange{b, 0}, target, iter);
  if (!parseSuite(s->body, "'for' statement", b) || !rejectLoopElse("for"))
    return nullptr;
  s->range.end = prevEnd();
  return s;
}

Stmt *Parser::parseWhile() {
  uint32_t b = cur().begin;
  advance();
  Expr *test = parseTest();
  if (!test)
    return nullptr;
  auto *s = m.make<WhileStmt>(SrcRange{b, 0}, test);
  if (!parseSuite(s->body, "'while' statement", b) || !rejectLoopElse("while"))
    return nullptr;
  s->range.end = prevEnd();
  return s;
}

bool Parser::parseDottedTail(std::string &name) {
  while (cur().isOp(".")) {
    advance();
    if (!cur().isName())
      return failHere("expected a name after '.'"), false;
    name += "." + cur().text;
    advance();
  }
  return true;
}

bool Parser::parseAlias(Alias &a, bool dotted, const char *missing) {
  a.range.begin = cur().begin;
  if (!cur().isName())
    return failHere(missing), false;
  a.name = cur().text;
  advance();
  if (dotted && !parseDottedTail(a.name))
    return false;
  if (cur().isKw("as")) {
    advance();
    if (!cur().isName())
      return failHere("expected a name after `as`"), false;
    a.asName = cur().text;
    advance();
  }
  a.range.end = prevEnd();
  return true;
}

Stmt *Parser::parseImport() {
  uint32_t b = cur().begin;
  advance();
  auto *s = m.make<ImportStmt>(SrcRange{b, 0});
  for (;;) {
    Alias a;
    if (!parseAlias(a, /*dotted=*/true,
                    "expected a module name after `import`"))
      return nullptr;
    s->names.push_back(a);
    if (!cur().isOp(","))
      break;
    advance();
  }
  s->range.end = prevEnd();
  return s;
}

Stmt *Parser::parseFromImport() {
  uint32_t b = cur().begin;
  advance();
  if (cur().isOp(".") || cur().isOp("..."))
    return failHere("relative imports are not supported");
  if (!cur().isName())
    return failHere("expected a module name after `from`");
  uint32_t mb = cur().begin;
  std::string module = cur().text;
  advance();
  if (!parseDottedTail(module))
    return nullptr;
  auto *s =
      m.make<ImportFromStmt>(SrcRange{b, 0}, module, SrcRange{mb, prevEnd()});
  if (!cur().isKw("import"))
    return failHere("expected `import`");
  advance();
  if (cur().isOp("*"))
    return failHere("`from " + module + " import *` is not supported");
  bool paren = cur().isOp("(");
  if (paren)
    advance();
  for (;;) {
    if (paren && cur().isOp(")"))
      break;
    Alias a;
    if (!parseAlias(a, /*dotted=*/false, "expected a name to import"))
      return nullptr;
    s->names.push_back(a);
    if (!cur().isOp(","))
      break;
    advance();
  }
  if (paren && !expectOp(")"))
    return nullptr;
  s->range.end = prevEnd();
  return s;
}

/// Lexes `source` and runs `parseWith` on a fresh module; the module is kept
/// only when parsing succeeds.
template <typename Fn>
static ParseResult runParser(llvm::StringRef source, Fn parseWith) {
  ParseResult r;
  LexResult lr = lex(source);
  if (lr.error) {
    r.error = ParseError{lr.error->offset, lr.error->message};
    return r;
  }
  auto module = std::make_unique<Module>();
  Parser p(std::move(lr.tokens), *module, source);
  if (!parseWith(p)) {
    r.error = p.error;
    return r;
  }
  r.module = std::move(module);
  return r;
}

ParseResult kiln::fe::parse(llvm::StringRef source) {
  return runParser(source, [](Parser &p) { return p.parseFile(); });
}

ParseResult kiln::fe::parseExpression(llvm::StringRef source, Expr *&out) {
  out = nullptr;
  return runParser(source, [&](Parser &p) {
    out = p.parseSingleExpression();
    return out != nullptr;
  });
}
