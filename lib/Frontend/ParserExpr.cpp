//===- ParserExpr.cpp - Expressions with Python precedence ---------------===//
#include "ParserImpl.h"

#include "llvm/ADT/StringSet.h"

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::fe;
using namespace kiln::fe::detail;

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Expr *Parser::parseSingleExpression() {
  Expr *e = parseTestList();
  if (!e)
    return nullptr;
  if (cur().is(TokKind::Newline))
    advance();
  if (!cur().is(TokKind::End))
    return invalidSyntax();
  return e;
}

Expr *Parser::parseTestList(bool allowStar) {
  uint32_t b = cur().begin;
  auto item = [&]() -> Expr * {
    if (cur().isOp("*"))
      return failHere(allowStar ? "starred assignment targets are not "
                                  "supported"
                                : "starred expressions are not supported");
    return parseTest();
  };
  Expr *first = item();
  if (!first || !cur().isOp(","))
    return first;
  auto *t = m.make<TupleExpr>(SrcRange{b, 0});
  t->elts.push_back(first);
  while (cur().isOp(",")) {
    advance();
    const Token &n = cur();
    if (n.is(TokKind::Newline) || n.isOp("=") || n.isOp(")") || n.isOp(";") ||
        n.isOp(":") || n.is(TokKind::End))
      break;
    Expr *e = item();
    if (!e)
      return nullptr;
    t->elts.push_back(e);
  }
  t->range.end = prevEnd();
  return t;
}

Expr *Parser::parseTargetList() {
  uint32_t b = cur().begin;
  Expr *first = parseBinary(0);
  if (!first || !cur().isOp(","))
    return first;
  auto *t = m.make<TupleExpr>(SrcRange{b, 0});
  t->elts.push_back(first);
  while (cur().isOp(",")) {
    advance();
    if (cur().isKw("in"))
      break;
    Expr *e = parseBinary(0);
    if (!e)
      return nullptr;
    t->elts.push_back(e);
  }
  t->range.end = prevEnd();
  return t;
}

Expr *Parser::parseTest() {
  DepthGuard g(*this);
  if (!g.ok)
    return nullptr;
  if (cur().isKw("lambda"))
    return failHere("lambda expressions are not supported");
  uint32_t b = cur().begin;
  Expr *e = parseOrTest();
  if (!e)
    return nullptr;
  if (cur().isOp(":="))
    return failHere("assignment expressions (`:=`) are not supported");
  if (cur().isKw("if")) {
    advance();
    Expr *test = parseOrTest();
    if (!test)
      return nullptr;
    if (!cur().isKw("else"))
      return failHere("expected `else` in the conditional expression");
    advance();
    Expr *orelse = parseTest();
    if (!orelse)
      return nullptr;
    return m.make<IfExpExpr>(range(b), test, e, orelse);
  }
  return e;
}

Expr *Parser::parseOrTest() {
  uint32_t b = cur().begin;
  Expr *e = parseAndTest();
  if (!e || !cur().isKw("or"))
    return e;
  auto *op = m.make<BoolOpExpr>(SrcRange{b, 0}, /*isAnd=*/false);
  op->values.push_back(e);
  while (cur().isKw("or")) {
    advance();
    Expr *r = parseAndTest();
    if (!r)
      return nullptr;
    op->values.push_back(r);
  }
  op->range.end = prevEnd();
  return op;
}

Expr *Parser::parseAndTest() {
  uint32_t b = cur().begin;
  Expr *e = parseNotTest();
  if (!e || !cur().isKw("and"))
    return e;
  auto *op = m.make<BoolOpExpr>(SrcRange{b, 0}, /*isAnd=*/true);
  op->values.push_back(e);
  while (cur().isKw("and")) {
    advance();
    Expr *r = parseNotTest();
    if (!r)
      return nullptr;
    op->values.push_back(r);
  }
  op->range.end = prevEnd();
  return op;
}

Expr *Parser::parseNotTest() {
  if (cur().isKw("not")) {
    DepthGuard g(*this);
    if (!g.ok)
      return nullptr;
    uint32_t b = cur().begin;
    advance();
    Expr *e = parseNotTest();
    if (!e)
      return nullptr;
    return m.make<UnaryOpExpr>(range(b), UnaryOpKind::Not, e);
  }
  return parseComparison();
}

Expr *Parser::parseComparison() {
  uint32_t b = cur().begin;
  Expr *e = parseBinary(0);
  if (!e)
    return nullptr;
  CompareExpr *cmp = nullptr;
  for (;;) {
    const Token &t = cur();
    CmpOpKind k;
    SrcRange opR{t.begin, t.end};
    if (t.isOp("=="))
      k = CmpOpKind::Eq;
    else if (t.isOp("!="))
      k = CmpOpKind::NotEq;
    else if (t.isOp("<"))
      k = CmpOpKind::Lt;
    else if (t.isOp("<="))
      k = CmpOpKind::LtE;
    else if (t.isOp(">"))
      k = CmpOpKind::Gt;
    else if (t.isOp(">="))
      k = CmpOpKind::GtE;
    else if (t.isKw("in"))
      k = CmpOpKind::In;
    else if (t.isKw("is")) {
      if (ahead().isKw("not")) {
        advance();
        k = CmpOpKind::IsNot;
      } else {
        k = CmpOpKind::Is;
      }
    } else if (t.isKw("not") && ahead().isKw("in")) {
      advance();
      k = CmpOpKind::NotIn;
    } else {
      break;
    }
    advance();
    opR.end = prevEnd();
    Expr *r = parseBinary(0);
    if (!r)
      return nullptr;
    if (!cmp)
      cmp = m.make<CompareExpr>(SrcRange{b, 0}, e);
    cmp->ops.push_back(k);
    cmp->opRanges.push_back(opR);
    cmp->comparators.push_back(r);
  }
  if (!cmp)
    return e;
  cmp->range.end = prevEnd();
  return cmp;
}

/// Binary operator levels from loosest to tightest: | ^ & (<< >>) (+ -)
/// (* / // % @).
Expr *Parser::parseBinary(int level) {
  if (level == 6)
    return parseFactor();
  uint32_t b = cur().begin;
  Expr *lhs = parseBinary(level + 1);
  ChainGuard chain(*this);
  while (lhs) {
    const Token &t = cur();
    if (t.kind != TokKind::Op)
      break;
    std::optional<BinOpKind> k;
    const std::string &s = t.text;
    switch (level) {
    case 0:
      if (s == "|")
        k = BinOpKind::BitOr;
      break;
    case 1:
      if (s == "^")
        k = BinOpKind::BitXor;
      break;
    case 2:
      if (s == "&")
        k = BinOpKind::BitAnd;
      break;
    case 3:
      if (s == "<<")
        k = BinOpKind::LShift;
      else if (s == ">>")
        k = BinOpKind::RShift;
      break;
    case 4:
      if (s == "+")
        k = BinOpKind::Add;
      else if (s == "-")
        k = BinOpKind::Sub;
      break;
    case 5:
      if (s == "*")
        k = BinOpKind::Mul;
      else if (s == "/")
        k = BinOpKind::Div;
      else if (s == "//")
        k = BinOpKind::FloorDiv;
      else if (s == "%")
        k = BinOpKind::Mod;
      else if (s == "@")
        k = BinOpKind::MatMul;
      break;
    }
    if (!k)
      break;
    SrcRange opR{t.begin, t.end};
    if (!chain.step())
      return nullptr;
    advance();
    Expr *rhs = parseBinary(level + 1);
    if (!rhs)
      return nullptr;
    lhs = m.make<BinOpExpr>(range(b), *k, lhs, rhs, opR);
  }
  return lhs;
}

Expr *Parser::parseFactor() {
  const Token &t = cur();
  if (t.isOp("-") || t.isOp("+") || t.isOp("~")) {
    DepthGuard g(*this);
    if (!g.ok)
      return nullptr;
    uint32_t b = t.begin;
    UnaryOpKind k = t.isOp("-")   ? UnaryOpKind::Minus
                    : t.isOp("+") ? UnaryOpKind::Plus
                                  : UnaryOpKind::Invert;
    advance();
    Expr *e = parseFactor();
    if (!e)
      return nullptr;
    return m.make<UnaryOpExpr>(range(b), k, e);
  }
  return parsePower();
}

Expr *Parser::parsePower() {
  uint32_t b = cur().begin;
  if (cur().isKw("await"))
    return failHere("`await` is not supported");
  Expr *base = parseAtomWithTrailers();
  if (!base || !cur().isOp("**"))
    return base;
  SrcRange opR{cur().begin, cur().end};
  advance();
  DepthGuard g(*this);
  if (!g.ok)
    return nullptr;
  Expr *exp = parseFactor(); // right-associative, binds unary minus
  if (!exp)
    return nullptr;
  return m.make<BinOpExpr>(range(b), BinOpKind::Pow, base, exp, opR);
}

Expr *Parser::parseAtomWithTrailers() {
  uint32_t b = cur().begin;
  Expr *e = parseAtom();
  ChainGuard chain(*this);
  while (e) {
    if ((cur().isOp("(") || cur().isOp("[") || cur().isOp(".")) &&
        !chain.step())
      return nullptr;
    if (cur().isOp("(")) {
      e = parseCallArgs(e);
    } else if (cur().isOp("[")) {
      e = parseSubscript(e);
    } else if (cur().isOp(".")) {
      advance();
      if (!cur().isName())
        return failHere("expected an attribute name after '.'");
      SrcRange ar{cur().begin, cur().end};
      std::string attr = cur().text;
      advance();
      e = m.make<AttributeExpr>(range(b), e, attr, ar);
    } else {
      break;
    }
  }
  return e;
}

Expr *Parser::parseCallArgs(Expr *func) {
  uint32_t b = func->range.begin;
  advance(); // (
  auto *call = m.make<CallExpr>(SrcRange{b, 0}, func);
  llvm::StringSet<> seen;
  while (!cur().isOp(")")) {
    if (cur().isOp("*"))
      return failHere("unpacking arguments with `*` is not supported");
    if (cur().isOp("**"))
      return failHere("unpacking keyword arguments with `**` is not "
                      "supported");
    if (cur().isName() && ahead().isOp("=")) {
      Keyword kw;
      kw.name = cur().text;
      kw.range.begin = cur().begin;
      if (!seen.insert(kw.name).second)
        return failHere("keyword argument `" + kw.name + "` repeated");
      advance();
      advance();
      if (!(kw.value = parseTest()))
        return nullptr;
      kw.range.end = prevEnd();
      call->keywords.push_back(kw);
    } else {
      uint32_t ab = cur().begin;
      Expr *a = parseTest();
      if (!a)
        return nullptr;
      if (cur().isKw("for"))
        return failHere("comprehensions are not supported");
      if (!call->keywords.empty())
        return fail(ab, "positional argument follows keyword argument");
      call->args.push_back(a);
    }
    if (cur().isOp(",")) {
      advance();
      continue;
    }
    if (!cur().isOp(")"))
      return failHere("expected ',' or ')' in the argument list");
  }
  advance();
  call->range.end = prevEnd();
  return call;
}

Expr *Parser::parseSubscriptItem() {
  uint32_t b = cur().begin;
  Expr *lo = nullptr, *hi = nullptr, *step = nullptr;
  if (!cur().isOp(":")) {
    lo = parseTest();
    if (!lo || !cur().isOp(":"))
      return lo;
  }
  advance(); // first ':'
  if (!cur().isOp(":") && !cur().isOp(",") && !cur().isOp("]"))
    if (!(hi = parseTest()))
      return nullptr;
  if (cur().isOp(":")) {
    advance();
    if (!cur().isOp(",") && !cur().isOp("]"))
      if (!(step = parseTest()))
        return nullptr;
  }
  return m.make<SliceExpr>(range(b), lo, hi, step);
}

Expr *Parser::parseSubscript(Expr *value) {
  advance(); // [
  auto *s = m.make<SubscriptExpr>(SrcRange{value->range.begin, 0}, value);
  if (cur().isOp("]"))
    return failHere("expected an index inside '[]'");
  for (;;) {
    Expr *item = parseSubscriptItem();
    if (!item)
      return nullptr;
    s->indices.push_back(item);
    if (!cur().isOp(","))
      break;
    advance();
    if (cur().isOp("]"))
      break;
  }
  if (!expectOp("]", "to close the subscript"))
    return nullptr;
  s->range.end = prevEnd();
  return s;
}

Expr *Parser::parseAtom() {
  const Token &t = cur();
  uint32_t b = t.begin;
  switch (t.kind) {
  case TokKind::Int: {
    advance();
    return m.make<IntExpr>(range(b), t.intValue);
  }
  case TokKind::Float: {
    advance();
    return m.make<FloatExpr>(range(b), t.floatValue);
  }
  case TokKind::String: {
    std::string v;
    while (cur().is(TokKind::String)) {
      v += cur().text;
      advance();
    }
    return m.make<StrExpr>(range(b), std::move(v));
  }
  case TokKind::Name: {
    if (t.isKeyword) {
      if (t.text == "True" || t.text == "False" || t.text == "None") {
        auto w = t.text == "True"    ? ConstExpr::Which::True
                 : t.text == "False" ? ConstExpr::Which::False
                                     : ConstExpr::Which::None;
        advance();
        return m.make<ConstExpr>(range(b), w);
      }
      if (t.text == "lambda")
        return failHere("lambda expressions are not supported");
      if (t.text == "yield")
        return failHere("`yield` is not supported");
      if (t.text == "await")
        return failHere("`await` is not supported");
      return invalidSyntax();
    }
    std::string id = t.text;
    advance();
    return m.make<NameExpr>(range(b), std::move(id));
  }
  case TokKind::Op:
    break;
  default:
    if (t.is(TokKind::Newline) || t.is(TokKind::End) || t.is(TokKind::Dedent))
      return failHere("expected an expression");
    return invalidSyntax();
  }
  if (t.isOp("...")) {
    advance();
    return m.make<ConstExpr>(range(b), ConstExpr::Which::Ellipsis);
  }
  if (t.isOp("(")) {
    advance();
    if (cur().isOp(")")) {
      advance();
      return m.make<TupleExpr>(range(b));
    }
    if (cur().isKw("yield"))
      return failHere("`yield` is not supported");
    Expr *first = parseTest();
    if (!first)
      return nullptr;
    if (cur().isKw("for"))
      return failHere("comprehensions are not supported");
    if (cur().isOp(")")) {
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
      Expr *e = parseTest();
      if (!e)
        return nullptr;
      tup->elts.push_back(e);
    }
    if (!expectOp(")", "to close the tuple"))
      return nullptr;
    tup->range.end = prevEnd();
    return tup;
  }
  if (t.isOp("[")) {
    advance();
    auto *list = m.make<TupleExpr>(SrcRange{b, 0}, /*isList=*/true);
    while (!cur().isOp("]")) {
      Expr *e = parseTest();
      if (!e)
        return nullptr;
      if (cur().isKw("for"))
        return failHere("comprehensions are not supported");
      list->elts.push_back(e);
      if (cur().isOp(",")) {
        advance();
        continue;
      }
      if (!cur().isOp("]"))
        return failHere("expected ',' or ']'");
    }
    advance();
    list->range.end = prevEnd();
    return list;
  }
  if (t.isOp("{"))
    return failHere("dict and set displays are not supported");
  if (t.isOp("*"))
    return failHere("starred expressions are not supported");
  if (t.isOp(")") || t.isOp("]") || t.isOp("}") || t.isOp("=") || t.isOp(",") ||
      t.isOp(":"))
    return failHere("expected an expression before `" + t.text + "`");
  return invalidSyntax();
}
