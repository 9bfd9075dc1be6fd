//===- ParserExpr.cpp - Expressions with Python precedence ---------------===//
#include "ParserImpl.h"

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

Expr *Parser::parseBareTuple(llvm::function_ref<Expr *()> item,
                             llvm::function_ref<bool()> ends) {
  uint32_t b = cur().begin;
  Expr *first = item();
  if (!first || !cur().isOp(","))
    return first;
  auto *t = m.make<TupleExpr>(SrcRange{b, 0});
  t->elts.push_back(first);
  while (cur().isOp(",")) {
    advance();
    if (ends())
      break;
    Expr *e = item();
    if (!e)
      return nullptr;
    t->elts.push_back(e);
  }
  t->range.end = prevEnd();
  return t;
}

Expr *Parser::parseStarred(llvm::function_ref<Expr *()> operand) {
  uint32_t b = cur().begin;
  advance(); // *
  DepthGuard g(*this);
  if (!g.ok)
    return nullptr;
  Expr *v = operand();
  if (!v)
    return nullptr;
  return m.make<StarredExpr>(range(b), v);
}

Expr *Parser::parseTestList(bool allowStar) {
  auto item = [&]() -> Expr * {
    if (cur().isOp("*")) {
      if (!allowStar)
        return failHere("invalid syntax: starred expression is not allowed "
                        "here");
      return parseStarred([&] { return parseBinary(0); });
    }
    return parseTest();
  };
  return parseBareTuple(item, [&] { return endsTestList(); });
}

bool Parser::endsTestList() const {
  const Token &n = cur();
  if (n.kind == TokKind::Op)
    return n.text == "=" || n.text == ")" || n.text == ";" || n.text == ":" ||
           n.text == "]" || n.text == "}" ||
           (n.text.size() >= 2 && n.text.back() == '=' && n.text != "==" &&
            n.text != "!=" && n.text != "<=" && n.text != ">=");
  return n.is(TokKind::Newline) || n.is(TokKind::End);
}

/// The target of a `for`: no comparisons, so that `in` ends it.
Expr *Parser::parseTargetList() {
  auto item = [&]() -> Expr * {
    if (cur().isOp("*"))
      return parseStarred([&] { return parseBinary(0); });
    return parseBinary(0);
  };
  return parseBareTuple(item, [&] { return cur().isKw("in"); });
}

Expr *Parser::parseYield() {
  uint32_t b = cur().begin;
  advance(); // yield
  if (cur().isKw("from")) {
    advance();
    Expr *v = parseTest();
    if (!v)
      return nullptr;
    return m.make<YieldExpr>(range(b), v, /*isFrom=*/true);
  }
  Expr *v = nullptr;
  if (!endsTestList()) {
    DepthGuard g(*this);
    if (!g.ok || !(v = parseTestList(/*allowStar=*/true)))
      return nullptr;
  }
  return m.make<YieldExpr>(range(b), v, /*isFrom=*/false);
}

Expr *Parser::parseLambda() {
  uint32_t b = cur().begin;
  advance(); // lambda
  auto *l = m.make<LambdaExpr>(SrcRange{b, 0});
  if (!parseParams(l->params, ":", /*annotations=*/false))
    return nullptr;
  if (!expectOp(":", "after the lambda parameters"))
    return nullptr;
  if (!(l->body = parseTest()))
    return nullptr;
  l->range.end = prevEnd();
  return l;
}

Expr *Parser::parseTest() {
  DepthGuard g(*this);
  if (!g.ok)
    return nullptr;
  if (cur().isKw("lambda"))
    return parseLambda();
  uint32_t b = cur().begin;
  if (cur().isName() && ahead().isOp(":=")) {
    auto *target = m.make<NameExpr>(SrcRange{cur().begin, cur().end},
                                    cur().text);
    advance();
    advance();
    Expr *v = parseTest();
    if (!v)
      return nullptr;
    return m.make<NamedExpr>(range(b), target, v);
  }
  Expr *e = parseBoolOp(/*isAnd=*/false);
  if (!e)
    return nullptr;
  if (cur().isOp(":="))
    return failHere("invalid syntax: cannot use assignment expressions "
                    "with this target");
  if (cur().isKw("if")) {
    advance();
    Expr *test = parseBoolOp(/*isAnd=*/false);
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

/// `or` binds looser than `and`; both collect their operands flat, as
/// Python's BoolOp does.
Expr *Parser::parseBoolOp(bool isAnd) {
  const char *kw = isAnd ? "and" : "or";
  auto operand = [&] { return isAnd ? parseNotTest() : parseBoolOp(true); };
  uint32_t b = cur().begin;
  Expr *e = operand();
  if (!e || !cur().isKw(kw))
    return e;
  auto *op = m.make<BoolOpExpr>(SrcRange{b, 0}, isAnd);
  op->values.push_back(e);
  while (cur().isKw(kw)) {
    advance();
    Expr *r = operand();
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
    SrcRange opR{t.begin, t.end};
    std::optional<CmpOpKind> k = comparisonOp();
    if (!k)
      break;
    advance();
    opR.end = prevEnd();
    Expr *r = parseBinary(0);
    if (!r)
      return nullptr;
    if (!cmp)
      cmp = m.make<CompareExpr>(SrcRange{b, 0}, e);
    cmp->ops.push_back(*k);
    cmp->opRanges.push_back(opR);
    cmp->comparators.push_back(r);
  }
  if (!cmp)
    return e;
  cmp->range.end = prevEnd();
  return cmp;
}

/// Python precedence of the binary operators parseBinary handles, loosest
/// first: | ^ & (<< >>) (+ -) (* / // % @). `**` is parsePower's.
static std::optional<int> binaryLevel(BinOpKind k) {
  switch (k) {
  case BinOpKind::BitOr:
    return 0;
  case BinOpKind::BitXor:
    return 1;
  case BinOpKind::BitAnd:
    return 2;
  case BinOpKind::LShift:
  case BinOpKind::RShift:
    return 3;
  case BinOpKind::Add:
  case BinOpKind::Sub:
    return 4;
  case BinOpKind::Mul:
  case BinOpKind::Div:
  case BinOpKind::FloorDiv:
  case BinOpKind::Mod:
  case BinOpKind::MatMul:
    return 5;
  case BinOpKind::Pow:
    return std::nullopt;
  }
  return std::nullopt;
}
static constexpr int kFactorLevel = 6;

std::optional<BinOpKind> detail::binOpFromSpelling(llvm::StringRef s) {
  for (int k = 0; k <= static_cast<int>(BinOpKind::BitXor); ++k)
    if (s == spelling(static_cast<BinOpKind>(k)))
      return static_cast<BinOpKind>(k);
  return std::nullopt;
}

std::optional<CmpOpKind> Parser::comparisonOp() {
  const Token &t = cur();
  if (t.kind == TokKind::Op) {
    for (CmpOpKind k : {CmpOpKind::Eq, CmpOpKind::NotEq, CmpOpKind::Lt,
                        CmpOpKind::LtE, CmpOpKind::Gt, CmpOpKind::GtE})
      if (t.text == spelling(k))
        return k;
    return std::nullopt;
  }
  if (t.isKw("in"))
    return CmpOpKind::In;
  if (t.isKw("is")) {
    if (!ahead().isKw("not"))
      return CmpOpKind::Is;
    advance();
    return CmpOpKind::IsNot;
  }
  if (t.isKw("not") && ahead().isKw("in")) {
    advance();
    return CmpOpKind::NotIn;
  }
  return std::nullopt;
}

/// Precedence climbing over binaryLevel(): each level parses the next
/// tighter one for its operands.
Expr *Parser::parseBinary(int level) {
  if (level == kFactorLevel)
    return parseFactor();
  uint32_t b = cur().begin;
  Expr *lhs = parseBinary(level + 1);
  ChainGuard chain(*this);
  while (lhs) {
    const Token &t = cur();
    if (t.kind != TokKind::Op)
      break;
    std::optional<BinOpKind> k = binOpFromSpelling(t.text);
    if (!k || binaryLevel(*k) != level)
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
  Expr *base;
  if (cur().isKw("await")) {
    advance();
    DepthGuard g(*this);
    if (!g.ok)
      return nullptr;
    Expr *v = parseAtomWithTrailers();
    if (!v)
      return nullptr;
    base = m.make<AwaitExpr>(range(b), v);
  } else {
    base = parseAtomWithTrailers();
  }
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

bool Parser::parseDelimited(llvm::StringRef close, const char *missing,
                            llvm::function_ref<bool()> item) {
  while (!cur().isOp(close)) {
    if (!item())
      return false;
    if (cur().isOp(",")) {
      advance();
      continue;
    }
    if (!cur().isOp(close))
      return failHere(missing), false;
  }
  advance();
  return true;
}

Expr *Parser::parseCallArgs(Expr *func) {
  uint32_t b = func->range.begin;
  advance(); // (
  auto *call = m.make<CallExpr>(SrcRange{b, 0}, func);
  bool sawKwUnpack = false;
  auto arg = [&]() -> bool {
    uint32_t ab = cur().begin;
    if (cur().isOp("**")) {
      Keyword kw;
      kw.range.begin = ab;
      advance();
      if (!(kw.value = parseTest()))
        return false;
      kw.range.end = prevEnd();
      call->keywords.push_back(kw);
      sawKwUnpack = true;
      return true;
    }
    if (cur().isOp("*")) {
      if (sawKwUnpack)
        return failHere("invalid syntax: iterable argument unpacking "
                        "follows keyword argument unpacking"),
               false;
      Expr *a = parseStarred([&] { return parseTest(); });
      if (!a)
        return false;
      call->args.push_back(a);
      return true;
    }
    if (cur().isName() && ahead().isOp("=")) {
      Keyword kw;
      kw.name = cur().text;
      kw.range.begin = cur().begin;
      for (const Keyword &k : call->keywords)
        if (k.name == kw.name)
          return failHere("keyword argument `" + kw.name + "` repeated"),
                 false;
      advance();
      advance();
      if (!(kw.value = parseTest()))
        return false;
      kw.range.end = prevEnd();
      call->keywords.push_back(kw);
      return true;
    }
    Expr *a = parseTest();
    if (!a)
      return false;
    if (cur().isKw("for") || cur().isKw("async")) {
      // A generator expression as the argument.
      a = parseComprehension(Node::Kind::GeneratorExp, ab, a);
      if (!a)
        return false;
      if (!cur().isOp(")") || !call->args.empty() ||
          !call->keywords.empty())
        return fail(ab, "invalid syntax: generator expression must be "
                        "parenthesized"),
               false;
    }
    if (!call->keywords.empty())
      return fail(ab, sawKwUnpack ? "invalid syntax: positional argument "
                                    "follows keyword argument unpacking"
                                  : "positional argument follows keyword "
                                    "argument"),
             false;
    call->args.push_back(a);
    return true;
  };
  if (!parseDelimited(")", "expected ',' or ')' in the argument list", arg))
    return nullptr;
  call->range.end = prevEnd();
  return call;
}

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

Expr *Parser::parseSubscriptItem() {
  uint32_t b = cur().begin;
  Expr *lo = nullptr, *hi = nullptr, *step = nullptr;
  if (cur().isOp("*"))
    return parseStarred([&] { return parseBinary(0); });
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
  case TokKind::String:
  case TokKind::FString:
    return parseStrings();
  case TokKind::Imag: {
    advance();
    return m.make<ImagExpr>(range(b), t.floatValue);
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
        return parseLambda();
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
  if (t.isOp("("))
    return parseParenAtom();
  if (t.isOp("["))
    return parseListAtom();
  if (t.isOp("{"))
    return parseBraceAtom();
  if (t.isOp("*"))
    return failHere("invalid syntax: starred expression is not allowed here");
  if (t.isOp(")") || t.isOp("]") || t.isOp("}") || t.isOp("=") || t.isOp(",") ||
      t.isOp(":"))
    return failHere("expected an expression before `" + t.text + "`");
  return invalidSyntax();
}

/// An element of a list, set or tuple display: `*x` or a named expression.
Expr *Parser::parseDisplayItem() {
  if (cur().isOp("*"))
    return parseStarred([&] { return parseBinary(0); });
  return parseTest();
}

Expr *Parser::parseParenAtom() {
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
  auto elt = [&] {
    Expr *e = parseDisplayItem();
    if (!e)
      return false;
    list->elts.push_back(e);
    return true;
  };
  if (!parseDelimited("]", "expected ',' or ']'", elt))
    return nullptr;
  list->range.end = prevEnd();
  return list;
}

Expr *Parser::parseBraceAtom() {
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
  auto elt = [&] {
    Expr *e = parseDisplayItem();
    if (!e)
      return false;
    set->elts.push_back(e);
    return true;
  };
  if (!parseDelimited("}", "expected ',' or '}'", elt))
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
