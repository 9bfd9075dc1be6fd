//===- ParserMatch.cpp - match statements and their patterns -------------===//
#include "ParserImpl.h"

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::fe;
using namespace kiln::fe::detail;

Stmt *Parser::tryParseMatch() {
  size_t save = i;
  uint32_t b = cur().begin;
  const Token &next = ahead();
  if (next.is(TokKind::Newline) || next.is(TokKind::End) ||
      (next.kind == TokKind::Op && next.text != "(" && next.text != "[" &&
       next.text != "{" && next.text != "-" && next.text != "*" &&
       next.text != "~" && next.text != "..."))
    return nullptr;
  advance(); // match
  Expr *subject = parseTestList(/*allowStar=*/true);
  if (!subject || !cur().isOp(":") || !ahead().is(TokKind::Newline)) {
    i = save;
    error.reset();
    return nullptr;
  }
  advance(); // :
  advance(); // NEWLINE
  if (!cur().is(TokKind::Indent))
    return failHere("expected an indented block after 'match' statement on "
                    "line " +
                    std::to_string(lineOf(b)));
  advance();
  auto *ms = m.make<MatchStmt>(SrcRange{b, 0}, subject);
  while (!cur().is(TokKind::Dedent) && !cur().is(TokKind::End)) {
    if (!(cur().isName() && cur().text == "case"))
      return failHere("invalid syntax: expected `case` in the `match` "
                      "statement");
    MatchCase c;
    c.range.begin = cur().begin;
    advance();
    if (!(c.pattern = parsePatterns()))
      return nullptr;
    if (cur().isKw("if")) {
      advance();
      if (!(c.guard = parseTest()))
        return nullptr;
    }
    if (!parseSuite(c.body, "'case' statement", c.range.begin))
      return nullptr;
    c.range.end = prevEnd();
    ms->cases.push_back(std::move(c));
  }
  if (ms->cases.empty())
    return failHere("invalid syntax: expected `case` in the `match` "
                    "statement");
  if (cur().is(TokKind::Dedent))
    advance();
  ms->range.end = prevEnd();
  return ms;
}

Pattern *Parser::parsePatterns() {
  uint32_t b = cur().begin;
  Pattern *first = parseSequenceItemPattern();
  if (!first)
    return nullptr;
  if (!cur().isOp(",")) {
    if (llvm::isa<MatchStarPattern>(first))
      return fail(b, "invalid syntax: a star pattern must be inside a "
                     "sequence pattern");
    return first;
  }
  auto *seq = m.make<MatchSequencePattern>(SrcRange{b, 0});
  seq->patterns.push_back(first);
  while (cur().isOp(",")) {
    advance();
    if (cur().isOp(":") || cur().isKw("if"))
      break;
    Pattern *p = parseSequenceItemPattern();
    if (!p)
      return nullptr;
    seq->patterns.push_back(p);
  }
  seq->range.end = prevEnd();
  return seq;
}

Pattern *Parser::parseSequenceItemPattern() {
  if (!cur().isOp("*"))
    return parsePattern();
  uint32_t b = cur().begin;
  advance();
  if (!cur().isName())
    return failHere("invalid syntax: expected a name after `*` in a "
                    "pattern");
  std::string name = cur().text == "_" ? "" : cur().text;
  advance();
  return m.make<MatchStarPattern>(range(b), std::move(name));
}

Pattern *Parser::parsePattern() {
  DepthGuard g(*this);
  if (!g.ok)
    return nullptr;
  uint32_t b = cur().begin;
  Pattern *p = parseClosedPattern();
  if (!p)
    return nullptr;
  if (cur().isOp("|")) {
    auto *alt = m.make<MatchOrPattern>(SrcRange{b, 0});
    alt->patterns.push_back(p);
    while (cur().isOp("|")) {
      advance();
      Pattern *q = parseClosedPattern();
      if (!q)
        return nullptr;
      alt->patterns.push_back(q);
    }
    alt->range.end = prevEnd();
    p = alt;
  }
  if (cur().isKw("as")) {
    advance();
    if (!cur().isName() || cur().text == "_")
      return failHere("invalid syntax: expected a capture name after `as`");
    std::string name = cur().text;
    advance();
    p = m.make<MatchAsPattern>(range(b), p, std::move(name));
  }
  return p;
}

Expr *Parser::parseLiteralPatternValue() {
  uint32_t b = cur().begin;
  if (cur().is(TokKind::String) || cur().is(TokKind::FString))
    return parseStrings();
  Expr *e;
  if (cur().isOp("-")) {
    advance();
    if (!cur().is(TokKind::Int) && !cur().is(TokKind::Float) &&
        !cur().is(TokKind::Imag))
      return failHere("invalid syntax: expected a number after `-` in a "
                      "pattern");
    Expr *num = parseAtom();
    if (!num)
      return nullptr;
    e = m.make<UnaryOpExpr>(range(b), UnaryOpKind::Minus, num);
  } else {
    if (!(e = parseAtom()))
      return nullptr;
  }
  if ((cur().isOp("+") || cur().isOp("-")) && ahead().is(TokKind::Imag)) {
    SrcRange opR{cur().begin, cur().end};
    BinOpKind k = cur().isOp("+") ? BinOpKind::Add : BinOpKind::Sub;
    advance();
    Expr *imag = parseAtom();
    if (!imag)
      return nullptr;
    e = m.make<BinOpExpr>(range(b), k, e, imag, opR);
  }
  return e;
}

Pattern *Parser::parseClosedPattern() {
  const Token &t = cur();
  uint32_t b = t.begin;
  if (t.is(TokKind::Int) || t.is(TokKind::Float) || t.is(TokKind::Imag) ||
      t.isOp("-") || t.is(TokKind::String) || t.is(TokKind::FString)) {
    Expr *v = parseLiteralPatternValue();
    if (!v)
      return nullptr;
    return m.make<MatchValuePattern>(range(b), v);
  }
  if (t.isKw("None") || t.isKw("True") || t.isKw("False")) {
    auto w = t.text == "True"    ? ConstExpr::Which::True
             : t.text == "False" ? ConstExpr::Which::False
                                 : ConstExpr::Which::None;
    advance();
    return m.make<MatchSingletonPattern>(range(b), w);
  }
  if (t.isName()) {
    std::string name = t.text;
    Expr *e = m.make<NameExpr>(SrcRange{t.begin, t.end}, name);
    advance();
    bool dotted = false;
    while (cur().isOp(".")) {
      advance();
      if (!cur().isName())
        return failHere("expected an attribute name after '.'");
      SrcRange ar{cur().begin, cur().end};
      e = m.make<AttributeExpr>(range(b), e, cur().text, ar);
      advance();
      dotted = true;
    }
    if (cur().isOp("(")) {
      advance();
      auto *cp = m.make<MatchClassPattern>(SrcRange{b, 0}, e);
      auto arg = [&]() -> bool {
        if (cur().isName() && ahead().isOp("=")) {
          cp->kwdAttrs.push_back(cur().text);
          advance();
          advance();
          Pattern *p = parsePattern();
          if (!p)
            return false;
          cp->kwdPatterns.push_back(p);
          return true;
        }
        if (!cp->kwdAttrs.empty())
          return failHere("invalid syntax: positional patterns follow "
                          "keyword patterns"),
                 false;
        Pattern *p = parsePattern();
        if (!p)
          return false;
        cp->patterns.push_back(p);
        return true;
      };
      if (!parseDelimited(")", "expected ',' or ')' in the class pattern",
                          arg))
        return nullptr;
      cp->range.end = prevEnd();
      return cp;
    }
    if (dotted)
      return m.make<MatchValuePattern>(range(b), e);
    return m.make<MatchAsPattern>(range(b), nullptr,
                                  name == "_" ? "" : name);
  }
  if (t.isOp("(") || t.isOp("[")) {
    bool paren = t.isOp("(");
    llvm::StringRef close = paren ? ")" : "]";
    advance();
    auto *seq = m.make<MatchSequencePattern>(SrcRange{b, 0});
    if (cur().isOp(close)) {
      advance();
      seq->range.end = prevEnd();
      return seq;
    }
    Pattern *first = parseSequenceItemPattern();
    if (!first)
      return nullptr;
    if (paren && cur().isOp(")")) {
      if (llvm::isa<MatchStarPattern>(first))
        return fail(first->range.begin, "invalid syntax: a star pattern must "
                                        "be inside a sequence pattern");
      advance();
      return first; // a group pattern
    }
    seq->patterns.push_back(first);
    if (!cur().isOp(close) && !expectOp(",", "in the sequence pattern"))
      return nullptr;
    auto item = [&]() -> bool {
      Pattern *p = parseSequenceItemPattern();
      if (!p)
        return false;
      seq->patterns.push_back(p);
      return true;
    };
    if (!parseDelimited(close, "expected ',' or the closing bracket in the "
                               "sequence pattern",
                        item))
      return nullptr;
    seq->range.end = prevEnd();
    return seq;
  }
  if (t.isOp("{")) {
    advance();
    auto *mp = m.make<MatchMappingPattern>(SrcRange{b, 0});
    auto entry = [&]() -> bool {
      if (!mp->rest.empty())
        return failHere("invalid syntax: `**` must be the last entry of a "
                        "mapping pattern"),
               false;
      if (cur().isOp("**")) {
        advance();
        if (!cur().isName() || cur().text == "_")
          return failHere("invalid syntax: expected a name after `**`"),
                 false;
        mp->rest = cur().text;
        advance();
        return true;
      }
      Expr *key;
      uint32_t kb = cur().begin;
      if (cur().isKw("None") || cur().isKw("True") || cur().isKw("False")) {
        key = parseAtom();
      } else if (cur().isName()) {
        key = m.make<NameExpr>(SrcRange{cur().begin, cur().end}, cur().text);
        advance();
        if (!cur().isOp("."))
          return fail(kb, "invalid syntax: mapping pattern keys must be "
                          "literals or dotted names"),
                 false;
        while (key && cur().isOp(".")) {
          advance();
          if (!cur().isName())
            return failHere("expected an attribute name after '.'"), false;
          SrcRange ar{cur().begin, cur().end};
          key = m.make<AttributeExpr>(range(kb), key, cur().text, ar);
          advance();
        }
      } else {
        key = parseLiteralPatternValue();
      }
      if (!key || !expectOp(":", "after the mapping pattern key"))
        return false;
      Pattern *p = parsePattern();
      if (!p)
        return false;
      mp->keys.push_back(key);
      mp->patterns.push_back(p);
      return true;
    };
    if (!parseDelimited("}", "expected ',' or '}' in the mapping pattern",
                        entry))
      return nullptr;
    mp->range.end = prevEnd();
    return mp;
  }
  return invalidSyntax(), nullptr;
}
