//===- ParserDisplay.cpp - Displays, comprehensions and string literals ---===//
//
// Parenthesized forms, list/set/dict displays and their comprehensions, and
// the concatenation of string, bytes and f-string literals (whose fields are
// lexed and parsed again here).
//
//===----------------------------------------------------------------------===//
#include "ParserImpl.h"

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::fe;
using namespace kiln::fe::detail;

Expr *Parser::parseComprehension(Node::Kind kind, uint32_t b, Expr *elt,
                                 Expr *value) {
  auto *c = m.make<ComprehensionExpr>(kind, SrcRange{b, 0}, elt, value);
  while (cur().isKw("for") || (cur().isKw("async") && ahead().isKw("for"))) {
    DepthGuard g(*this);
    if (!g.ok)
      return nullptr;
    Comprehension gen;
    gen.range.begin = cur().begin;
    if (cur().isKw("async")) {
      gen.isAsync = true;
      advance();
    }
    advance(); // for
    if (!(gen.target = parseTargetList()))
      return nullptr;
    if (!cur().isKw("in"))
      return failHere("expected `in` in the comprehension");
    advance();
    if (!(gen.iter = parseBoolOp(/*isAnd=*/false)))
      return nullptr;
    while (cur().isKw("if")) {
      advance();
      Expr *cond = parseBoolOp(/*isAnd=*/false);
      if (!cond)
        return nullptr;
      gen.ifs.push_back(cond);
    }
    gen.range.end = prevEnd();
    c->generators.push_back(gen);
  }
  return c;
}

/// An element of a list, set or tuple display: `*x` or a named expression.
Expr *Parser::parseDisplayItem() {
  if (cur().isOp("*"))
    return parseStarred([&] { return parseBinary(0); });
  return parseTest();
}

bool Parser::parseDisplayItems(std::vector<Expr *> &out, llvm::StringRef close,
                               const char *missing) {
  return parseDelimited(close, missing, [&] {
    Expr *e = parseDisplayItem();
    if (e)
      out.push_back(e);
    return e != nullptr;
  });
}

Expr *Parser::parseParenAtom() {
  DepthGuard g(*this);
  if (!g.ok)
    return nullptr;
  uint32_t b = cur().begin;
  advance(); // (
  if (cur().isOp(")")) {
    advance();
    return m.make<TupleExpr>(range(b));
  }
  if (cur().isKw("yield")) {
    Expr *y = parseYield();
    if (!y || !expectOp(")", "after the yield expression"))
      return nullptr;
    return y;
  }
  Expr *first = parseDisplayItem();
  if (!first)
    return nullptr;
  if (cur().isKw("for") || cur().isKw("async")) {
    if (llvm::isa<StarredExpr>(first))
      return fail(first->range.begin, "invalid syntax: iterable unpacking "
                                      "cannot be used in comprehension");
    Expr *g = parseComprehension(Node::Kind::GeneratorExp, b, first);
    if (!g || !expectOp(")", "to close the generator expression"))
      return nullptr;
    g->range.end = prevEnd();
    return g;
  }
  if (cur().isOp(")")) {
    if (llvm::isa<StarredExpr>(first))
      return fail(first->range.begin,
                  "invalid syntax: cannot use starred expression here");
    advance();
    return first; // parenthesized expression
  }
  if (!cur().isOp(","))
    return failHere("expected ',' or ')'");
  auto *tup = m.make<TupleExpr>(SrcRange{b, 0});
  tup->elts.push_back(first);
  while (cur().isOp(",")) {
    advance();
    if (cur().isOp(")"))
      break;
    Expr *e = parseDisplayItem();
    if (!e)
      return nullptr;
    tup->elts.push_back(e);
  }
  if (!expectOp(")", "to close the tuple"))
    return nullptr;
  tup->range.end = prevEnd();
  return tup;
}

Expr *Parser::parseListAtom() {
  DepthGuard g(*this);
  if (!g.ok)
    return nullptr;
  uint32_t b = cur().begin;
  advance(); // [
  auto *list = m.make<TupleExpr>(SrcRange{b, 0}, /*isList=*/true);
  if (!cur().isOp("]")) {
    Expr *first = parseDisplayItem();
    if (!first)
      return nullptr;
    if (cur().isKw("for") || cur().isKw("async")) {
      if (llvm::isa<StarredExpr>(first))
        return fail(first->range.begin, "invalid syntax: iterable unpacking "
                                        "cannot be used in comprehension");
      Expr *c = parseComprehension(Node::Kind::ListComp, b, first);
      if (!c || !expectOp("]", "to close the list comprehension"))
        return nullptr;
      c->range.end = prevEnd();
      return c;
    }
    list->elts.push_back(first);
    if (!cur().isOp("]") && !expectOp(",", "or ']' in the list"))
      return nullptr;
  }
  if (!parseDisplayItems(list->elts, "]", "expected ',' or ']'"))
    return nullptr;
  list->range.end = prevEnd();
  return list;
}

Expr *Parser::parseBraceAtom() {
  DepthGuard g(*this);
  if (!g.ok)
    return nullptr;
  uint32_t b = cur().begin;
  advance(); // {
  if (cur().isOp("}")) {
    advance();
    return m.make<DictExpr>(range(b));
  }
  // The first entry decides between a dict and a set.
  Expr *key = nullptr, *value = nullptr;
  if (cur().isOp("**")) {
    advance();
    if (!(value = parseBinary(0)))
      return nullptr;
  } else {
    if (!(key = parseDisplayItem()))
      return nullptr;
    if (cur().isOp(":")) {
      if (llvm::isa<StarredExpr>(key))
        return failHere("invalid syntax: cannot use a starred expression in "
                        "a dictionary key");
      advance();
      if (!(value = parseTest()))
        return nullptr;
    }
  }
  if (value) {
    if (key && (cur().isKw("for") || cur().isKw("async"))) {
      Expr *c = parseComprehension(Node::Kind::DictComp, b, key, value);
      if (!c || !expectOp("}", "to close the dict comprehension"))
        return nullptr;
      c->range.end = prevEnd();
      return c;
    }
    auto *d = m.make<DictExpr>(SrcRange{b, 0});
    d->keys.push_back(key);
    d->values.push_back(value);
    if (!cur().isOp("}") && !expectOp(",", "or '}' in the dict"))
      return nullptr;
    auto entry = [&]() -> bool {
      Expr *k = nullptr, *v = nullptr;
      if (cur().isOp("**")) {
        advance();
        if (!(v = parseBinary(0)))
          return false;
      } else {
        if (!(k = parseTest()))
          return false;
        if (!expectOp(":", "after the dict key"))
          return false;
        if (!(v = parseTest()))
          return false;
      }
      d->keys.push_back(k);
      d->values.push_back(v);
      return true;
    };
    if (!parseDelimited("}", "expected ',' or '}'", entry))
      return nullptr;
    d->range.end = prevEnd();
    return d;
  }
  if (cur().isKw("for") || cur().isKw("async")) {
    if (llvm::isa<StarredExpr>(key))
      return fail(key->range.begin, "invalid syntax: iterable unpacking "
                                    "cannot be used in comprehension");
    Expr *c = parseComprehension(Node::Kind::SetComp, b, key);
    if (!c || !expectOp("}", "to close the set comprehension"))
      return nullptr;
    c->range.end = prevEnd();
    return c;
  }
  auto *set = m.make<SetExpr>(SrcRange{b, 0});
  set->elts.push_back(key);
  if (!cur().isOp("}") && !expectOp(",", "or '}' in the set"))
    return nullptr;
  if (!parseDisplayItems(set->elts, "}", "expected ',' or '}'"))
    return nullptr;
  set->range.end = prevEnd();
  return set;
}

/// Adjacent string literals concatenate; any f-string among them makes the
/// whole a JoinedStrExpr, any bytes literal a BytesExpr.
Expr *Parser::parseStrings() {
  uint32_t b = cur().begin;
  bool anyF = false, anyBytes = false, anyStr = false;
  for (size_t k = i; toks[k].is(TokKind::String) || toks[k].is(TokKind::FString);
       ++k) {
    anyF |= toks[k].is(TokKind::FString);
    (toks[k].isBytes ? anyBytes : anyStr) |= true;
  }
  if (anyBytes && (anyStr || anyF))
    return failHere("invalid syntax: cannot mix bytes and nonbytes literals");
  if (!anyF) {
    std::string v;
    while (cur().is(TokKind::String)) {
      v += cur().text;
      advance();
    }
    if (anyBytes)
      return m.make<BytesExpr>(range(b), std::move(v));
    return m.make<StrExpr>(range(b), std::move(v));
  }
  auto *j = m.make<JoinedStrExpr>(SrcRange{b, 0});
  while (cur().is(TokKind::String) || cur().is(TokKind::FString)) {
    const Token &t = cur();
    if (t.is(TokKind::String)) {
      if (!t.text.empty())
        j->values.push_back(
            m.make<StrExpr>(SrcRange{t.begin, t.end}, t.text));
    } else if (!appendFStringParts(t.fparts, *j)) {
      return nullptr;
    }
    advance();
  }
  j->range.end = prevEnd();
  return j;
}

bool Parser::appendFStringParts(const std::vector<FStringPart> &parts,
                                JoinedStrExpr &out) {
  DepthGuard g(*this);
  if (!g.ok)
    return false;
  for (const FStringPart &p : parts) {
    if (!p.isField) {
      out.values.push_back(m.make<StrExpr>(SrcRange{p.begin, p.end}, p.text));
      continue;
    }
    LexResult lr = lexExpression(src, p.exprBegin, p.exprEnd);
    if (lr.error)
      return fail(lr.error->offset, lr.error->message), false;
    Parser sub(std::move(lr.tokens), m, src);
    sub.depth = depth;
    Expr *value = sub.cur().isKw("yield") ? sub.parseYield()
                                          : sub.parseTestList(true);
    if (value && !sub.cur().is(TokKind::End))
      sub.invalidSyntax();
    if (sub.error)
      return fail(sub.error->offset, "f-string: " + sub.error->message),
             false;
    if (p.debug)
      out.values.push_back(m.make<StrExpr>(
          SrcRange{p.exprBegin, p.exprBegin + uint32_t(p.text.size())},
          p.text));
    auto *fv = m.make<FormattedValueExpr>(SrcRange{p.begin, p.end}, value);
    fv->debug = p.debug;
    fv->conversion = p.conversion;
    if (p.debug && !p.conversion && !p.hasSpec)
      fv->conversion = 'r';
    if (p.hasSpec) {
      uint32_t sb = p.spec.empty() ? p.end - 1 : p.spec.front().begin;
      uint32_t se = p.spec.empty() ? p.end - 1 : p.spec.back().end;
      fv->formatSpec = m.make<JoinedStrExpr>(SrcRange{sb, se});
      if (!appendFStringParts(p.spec, *fv->formatSpec))
        return false;
    }
    out.values.push_back(fv);
  }
  return true;
}
