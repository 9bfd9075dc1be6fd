//===- ParserStmt.cpp - def, class, try, with, type --------------------===//
#include "ParserImpl.h"

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::fe;
using namespace kiln::fe::detail;

Stmt *Parser::parseDecorated() {
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
    return parseClassDef(b, std::move(decorators));
  if (cur().isKw("def") || (cur().isKw("async") && ahead().isKw("def")))
    return parseFunctionDef(b, std::move(decorators));
  return failHere("invalid syntax: expected `def` or `class` after "
                  "decorators");
}

Stmt *Parser::parseFunctionDef(uint32_t b, std::vector<Expr *> decorators) {
  bool isAsync = cur().isKw("async");
  if (isAsync)
    advance();
  advance(); // def
  if (!cur().isName())
    return failHere("expected a function name after `def`");
  auto *fn = m.make<FunctionDef>(SrcRange{b, 0}, cur().text,
                                 SrcRange{cur().begin, cur().end});
  fn->decorators = std::move(decorators);
  fn->isAsync = isAsync;
  advance();
  if (cur().isOp("[") && !parseTypeParams(fn->typeParams))
    return nullptr;
  if (!expectOp("(", "after the function name"))
    return nullptr;
  if (!parseParams(fn->params, ")", /*annotations=*/true) || !expectOp(")"))
    return nullptr;
  if (cur().isOp("->")) {
    advance();
    if (!(fn->returns = parseTest()))
      return nullptr;
  }
  if (!parseSuite(fn->body, "function definition", b))
    return nullptr;
  fn->range.end = prevEnd();
  return fn;
}

Stmt *Parser::parseClassDef(uint32_t b, std::vector<Expr *> decorators) {
  advance(); // class
  if (!cur().isName())
    return failHere("invalid syntax: expected a class name after `class`");
  SrcRange nameR{cur().begin, cur().end};
  auto *c = m.make<ClassDef>(SrcRange{b, 0}, cur().text, nameR);
  c->decorators = std::move(decorators);
  advance();
  if (cur().isOp("[") && !parseTypeParams(c->typeParams))
    return nullptr;
  if (cur().isOp("(")) {
    // The bases read like call arguments.
    auto *name = m.make<NameExpr>(nameR, c->name);
    auto *call = llvm::dyn_cast_or_null<CallExpr>(parseCallArgs(name));
    if (!call)
      return nullptr;
    c->bases = std::move(call->args);
    c->keywords = std::move(call->keywords);
  }
  if (!parseSuite(c->body, "class definition", b))
    return nullptr;
  c->range.end = prevEnd();
  return c;
}

bool Parser::parseTypeParams(std::vector<TypeParam> &out) {
  advance(); // [
  auto param = [&]() -> bool {
    TypeParam tp;
    tp.range.begin = cur().begin;
    if (cur().isOp("*")) {
      tp.which = TypeParam::Which::TypeVarTuple;
      advance();
    } else if (cur().isOp("**")) {
      tp.which = TypeParam::Which::ParamSpec;
      advance();
    }
    if (!cur().isName())
      return failHere("invalid syntax: expected a type parameter name"),
             false;
    tp.name = cur().text;
    advance();
    if (cur().isOp(":")) {
      if (tp.which != TypeParam::Which::TypeVar)
        return failHere("invalid syntax: only a plain type parameter can "
                        "have a bound"),
               false;
      advance();
      if (!(tp.bound = parseTest()))
        return false;
    }
    tp.range.end = prevEnd();
    out.push_back(tp);
    return true;
  };
  if (cur().isOp("]"))
    return failHere("invalid syntax: expected a type parameter"), false;
  return parseDelimited("]", "expected ',' or ']' in the type parameters",
                        param);
}

Stmt *Parser::parseTypeAlias() {
  uint32_t b = cur().begin;
  advance(); // type
  auto *name =
      m.make<NameExpr>(SrcRange{cur().begin, cur().end}, cur().text);
  advance();
  std::vector<TypeParam> tps;
  if (cur().isOp("[") && !parseTypeParams(tps))
    return nullptr;
  if (!expectOp("=", "in the `type` statement"))
    return nullptr;
  Expr *v = parseTest();
  if (!v)
    return nullptr;
  auto *t = m.make<TypeAliasStmt>(range(b), name, v);
  t->typeParams = std::move(tps);
  return t;
}

Stmt *Parser::parseTry() {
  uint32_t b = cur().begin;
  advance(); // try
  auto *t = m.make<TryStmt>(SrcRange{b, 0});
  if (!parseSuite(t->body, "'try' statement", b))
    return nullptr;
  bool sawPlain = false, sawBare = false;
  while (cur().isKw("except")) {
    ExceptHandler h;
    h.range.begin = cur().begin;
    advance();
    bool star = cur().isOp("*");
    if (star)
      advance();
    if (sawBare)
      return fail(h.range.begin,
                  "invalid syntax: default 'except:' must be last");
    if (star ? sawPlain : t->isStar)
      return fail(h.range.begin, "invalid syntax: cannot have both 'except' "
                                 "and 'except*' on the same 'try'");
    (star ? t->isStar : sawPlain) = true;
    if (!cur().isOp(":")) {
      if (!(h.type = parseTest()))
        return nullptr;
      if (cur().isOp(",")) {
        // `except A, B:` (a tuple without parentheses) is not Python 3.12.
        return failHere("invalid syntax: multiple exception types must be "
                        "parenthesized");
      }
      if (cur().isKw("as")) {
        advance();
        if (!cur().isName())
          return failHere("invalid syntax: expected a name after `as`");
        h.name = cur().text;
        advance();
      }
    } else if (star) {
      return failHere("invalid syntax: expected one or more exception "
                      "types");
    } else {
      sawBare = true;
    }
    if (!parseSuite(h.body, "'except' statement", h.range.begin))
      return nullptr;
    h.range.end = prevEnd();
    t->handlers.push_back(std::move(h));
  }
  if (cur().isKw("else")) {
    if (t->handlers.empty())
      return failHere("invalid syntax: `else` needs an `except` clause "
                      "before it");
    uint32_t eb = cur().begin;
    advance();
    if (!parseSuite(t->orelse, "'else' statement", eb))
      return nullptr;
  }
  if (cur().isKw("finally")) {
    uint32_t fb = cur().begin;
    advance();
    if (!parseSuite(t->finalbody, "'finally' statement", fb))
      return nullptr;
  }
  if (t->handlers.empty() && t->finalbody.empty())
    return failHere("invalid syntax: expected 'except' or 'finally' block");
  t->range.end = prevEnd();
  return t;
}

bool Parser::parseWithItem(WithItem &item) {
  item.range.begin = cur().begin;
  if (!(item.contextExpr = parseTest()))
    return false;
  if (cur().isKw("as")) {
    advance();
    if (cur().isOp("*"))
      item.optionalVars = parseStarred([&] { return parseBinary(0); });
    else
      item.optionalVars = parseBinary(0);
    if (!item.optionalVars)
      return false;
  }
  item.range.end = prevEnd();
  return true;
}

Stmt *Parser::parseWith() {
  uint32_t b = cur().begin;
  auto *w = m.make<WithStmt>(SrcRange{b, 0});
  if (cur().isKw("async")) {
    w->isAsync = true;
    advance();
  }
  advance(); // with
  if (cur().isOp("(")) {
    // `with (a as b, c):` groups items in parentheses; `with (a, b) as c:`
    // or `with (yield):` are expressions. Try the first reading and fall
    // back to the second.
    size_t save = i;
    advance();
    bool ok = true;
    while (ok && !cur().isOp(")")) {
      WithItem item;
      ok = parseWithItem(item);
      if (ok)
        w->items.push_back(item);
      if (ok && cur().isOp(","))
        advance();
      else if (ok && !cur().isOp(")"))
        ok = false;
    }
    if (ok && !w->items.empty() && cur().isOp(")") && ahead().isOp(":")) {
      advance();
    } else {
      i = save;
      error.reset();
      w->items.clear();
    }
  }
  if (w->items.empty()) {
    for (;;) {
      WithItem item;
      if (!parseWithItem(item))
        return nullptr;
      w->items.push_back(item);
      if (!cur().isOp(","))
        break;
      advance();
    }
  }
  if (!parseSuite(w->body, "'with' statement", b))
    return nullptr;
  w->range.end = prevEnd();
  return w;
}
