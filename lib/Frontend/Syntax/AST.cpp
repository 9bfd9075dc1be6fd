//===- AST.cpp - Syntax tree helpers and the --emit=ast printer ----------===//
#include "kiln/Frontend/Syntax/AST.h"
#include "kiln/Frontend/Syntax/ChildBlocks.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace kiln::ast;

const char *kiln::ast::spelling(BinOpKind k) {
  switch (k) {
  case BinOpKind::Add:
    return "+";
  case BinOpKind::Sub:
    return "-";
  case BinOpKind::Mul:
    return "*";
  case BinOpKind::Div:
    return "/";
  case BinOpKind::FloorDiv:
    return "//";
  case BinOpKind::Mod:
    return "%";
  case BinOpKind::Pow:
    return "**";
  case BinOpKind::MatMul:
    return "@";
  case BinOpKind::LShift:
    return "<<";
  case BinOpKind::RShift:
    return ">>";
  case BinOpKind::BitAnd:
    return "&";
  case BinOpKind::BitOr:
    return "|";
  case BinOpKind::BitXor:
    return "^";
  }
  return "?";
}

const char *kiln::ast::spelling(UnaryOpKind k) {
  switch (k) {
  case UnaryOpKind::Plus:
    return "+";
  case UnaryOpKind::Minus:
    return "-";
  case UnaryOpKind::Invert:
    return "~";
  case UnaryOpKind::Not:
    return "not";
  }
  return "?";
}

const char *kiln::ast::spelling(CmpOpKind k) {
  switch (k) {
  case CmpOpKind::Eq:
    return "==";
  case CmpOpKind::NotEq:
    return "!=";
  case CmpOpKind::Lt:
    return "<";
  case CmpOpKind::LtE:
    return "<=";
  case CmpOpKind::Gt:
    return ">";
  case CmpOpKind::GtE:
    return ">=";
  case CmpOpKind::Is:
    return "is";
  case CmpOpKind::IsNot:
    return "is not";
  case CmpOpKind::In:
    return "in";
  case CmpOpKind::NotIn:
    return "not in";
  }
  return "?";
}

LineTable::LineTable(llvm::StringRef text) {
  starts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' ||
        (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n')))
      starts.push_back(static_cast<uint32_t>(i + 1));
  }
}

std::pair<unsigned, unsigned> LineTable::lineCol(uint32_t offset) const {
  auto it = std::upper_bound(starts.begin(), starts.end(), offset);
  unsigned line = static_cast<unsigned>(it - starts.begin());
  return {line, offset - starts[line - 1] + 1};
}

namespace {
class Printer {
public:
  Printer(const LineTable &lines, llvm::raw_ostream &os)
      : lines(lines), os(os) {}

  void block(const Block &b, unsigned ind) {
    for (const Stmt *s : b)
      node(s, ind);
  }

  void line(unsigned ind, const Node *n, const llvm::Twine &text) {
    os.indent(ind * 2) << text << " ";
    rangeOf(n->range);
    os << "\n";
  }

  void rangeOf(SrcRange r) {
    auto [l0, c0] = lines.lineCol(r.begin);
    auto [l1, c1] = lines.lineCol(r.end);
    os << "<" << l0 << ":" << c0 << "-" << l1 << ":" << c1 << ">";
  }

  void label(unsigned ind, llvm::StringRef text) {
    os.indent(ind * 2) << text << "\n";
  }

  void expr(const Expr *e, unsigned ind) { node(e, ind); }

  void rangedLabel(unsigned ind, const llvm::Twine &text, SrcRange r) {
    os.indent(ind * 2) << text << " ";
    rangeOf(r);
    os << "\n";
  }

  /// `Label` then the expression one level deeper; nothing when e is null.
  void child(unsigned ind, llvm::StringRef text, const Expr *e) {
    if (!e)
      return;
    label(ind, text);
    expr(e, ind + 1);
  }

  static const char *paramKind(ParamKind k) {
    switch (k) {
    case ParamKind::Normal:
      return "";
    case ParamKind::PositionalOnly:
      return " (positional-only)";
    case ParamKind::VarArgs:
      return " (*args)";
    case ParamKind::KeywordOnly:
      return " (keyword-only)";
    case ParamKind::KwArgs:
      return " (**kwargs)";
    }
    return "";
  }

  void params(const std::vector<Param> &ps, unsigned ind) {
    for (const Param &p : ps) {
      rangedLabel(ind, "Param " + p.name + paramKind(p.kind), p.range);
      child(ind + 1, "Annotation", p.annotation);
      child(ind + 1, "Default", p.defaultValue);
    }
  }

  void typeParams(const std::vector<TypeParam> &tps, unsigned ind) {
    static const char *kinds[] = {"TypeVar", "TypeVarTuple", "ParamSpec"};
    for (const TypeParam &tp : tps) {
      rangedLabel(ind,
                  llvm::Twine(kinds[static_cast<int>(tp.which)]) + " " +
                      tp.name,
                  tp.range);
      child(ind + 1, "Bound", tp.bound);
    }
  }

  void keywords(const std::vector<Keyword> &ks, unsigned ind) {
    for (const Keyword &k : ks) {
      rangedLabel(ind, k.name.empty() ? "Keyword **" : "Keyword " + k.name,
                  k.range);
      expr(k.value, ind + 1);
    }
  }

  void decorators(const std::vector<Expr *> &ds, unsigned ind) {
    for (const Expr *d : ds)
      child(ind, "Decorator", d);
  }

  void pattern(const Pattern *p, unsigned ind) { node(p, ind); }

  void node(const Node *n, unsigned ind) {
    using K = Node::Kind;
    switch (n->kind) {
    case K::Name:
      line(ind, n, "Name " + llvm::cast<NameExpr>(n)->id);
      break;
    case K::Int:
      if (llvm::cast<IntExpr>(n)->tooLarge)
        line(ind, n, "Int (beyond int64)");
      else
        line(ind, n, "Int " + llvm::Twine(llvm::cast<IntExpr>(n)->value));
      break;
    case K::Float: {
      std::string s;
      llvm::raw_string_ostream ss(s);
      ss << llvm::cast<FloatExpr>(n)->value;
      line(ind, n, "Float " + s);
      break;
    }
    case K::Str: {
      std::string s;
      llvm::raw_string_ostream ss(s);
      ss << "Str \"";
      ss.write_escaped(llvm::cast<StrExpr>(n)->value);
      ss << "\"";
      line(ind, n, s);
      break;
    }
    case K::Const: {
      static const char *names[] = {"True", "False", "None", "Ellipsis"};
      line(ind, n,
           llvm::Twine("Const ") +
               names[static_cast<int>(llvm::cast<ConstExpr>(n)->which)]);
      break;
    }
    case K::Attribute: {
      auto *a = llvm::cast<AttributeExpr>(n);
      line(ind, n, "Attribute ." + a->attr);
      expr(a->value, ind + 1);
      break;
    }
    case K::Call: {
      auto *c = llvm::cast<CallExpr>(n);
      line(ind, n, "Call");
      expr(c->func, ind + 1);
      for (const Expr *a : c->args)
        expr(a, ind + 1);
      keywords(c->keywords, ind + 1);
      break;
    }
    case K::Subscript: {
      auto *s = llvm::cast<SubscriptExpr>(n);
      line(ind, n, "Subscript");
      expr(s->value, ind + 1);
      for (const Expr *i : s->indices)
        expr(i, ind + 1);
      break;
    }
    case K::Slice: {
      auto *s = llvm::cast<SliceExpr>(n);
      line(ind, n, "Slice");
      for (const Expr *p : {s->lower, s->upper, s->step})
        if (p)
          expr(p, ind + 1);
        else
          label(ind + 1, "<none>");
      break;
    }
    case K::BinOp: {
      auto *b = llvm::cast<BinOpExpr>(n);
      line(ind, n, llvm::Twine("BinOp ") + spelling(b->op));
      expr(b->lhs, ind + 1);
      expr(b->rhs, ind + 1);
      break;
    }
    case K::UnaryOp: {
      auto *u = llvm::cast<UnaryOpExpr>(n);
      line(ind, n, llvm::Twine("UnaryOp ") + spelling(u->op));
      expr(u->operand, ind + 1);
      break;
    }
    case K::BoolOp: {
      auto *b = llvm::cast<BoolOpExpr>(n);
      line(ind, n, b->isAnd ? "BoolOp and" : "BoolOp or");
      for (const Expr *v : b->values)
        expr(v, ind + 1);
      break;
    }
    case K::Compare: {
      auto *c = llvm::cast<CompareExpr>(n);
      std::string ops;
      for (CmpOpKind k : c->ops)
        ops += std::string(" ") + spelling(k);
      line(ind, n, "Compare" + ops);
      expr(c->left, ind + 1);
      for (const Expr *e : c->comparators)
        expr(e, ind + 1);
      break;
    }
    case K::IfExp: {
      auto *i = llvm::cast<IfExpExpr>(n);
      line(ind, n, "IfExp");
      expr(i->test, ind + 1);
      expr(i->body, ind + 1);
      expr(i->orelse, ind + 1);
      break;
    }
    case K::Tuple:
    case K::List: {
      auto *t = llvm::cast<TupleExpr>(n);
      line(ind, n, t->isList() ? "List" : "Tuple");
      for (const Expr *e : t->elts)
        expr(e, ind + 1);
      break;
    }
    case K::Bytes: {
      std::string s;
      llvm::raw_string_ostream ss(s);
      ss << "Bytes b\"";
      ss.write_escaped(llvm::cast<BytesExpr>(n)->value, /*UseHexEscapes=*/true);
      ss << "\"";
      line(ind, n, s);
      break;
    }
    case K::Imag: {
      std::string s;
      llvm::raw_string_ostream ss(s);
      ss << "Imag " << llvm::cast<ImagExpr>(n)->value << "j";
      line(ind, n, s);
      break;
    }
    case K::JoinedStr:
      line(ind, n, "JoinedStr");
      for (const Expr *v : llvm::cast<JoinedStrExpr>(n)->values)
        expr(v, ind + 1);
      break;
    case K::FormattedValue: {
      auto *f = llvm::cast<FormattedValueExpr>(n);
      std::string s = "FormattedValue";
      if (f->conversion)
        s += std::string(" !") + f->conversion;
      if (f->debug)
        s += " (debug)";
      line(ind, n, s);
      expr(f->value, ind + 1);
      child(ind + 1, "FormatSpec", f->formatSpec);
      break;
    }
    case K::Set:
      line(ind, n, "Set");
      for (const Expr *e : llvm::cast<SetExpr>(n)->elts)
        expr(e, ind + 1);
      break;
    case K::Dict: {
      auto *d = llvm::cast<DictExpr>(n);
      line(ind, n, "Dict");
      for (size_t k = 0; k < d->keys.size(); ++k) {
        if (d->keys[k]) {
          child(ind + 1, "Key", d->keys[k]);
          child(ind + 1, "Value", d->values[k]);
        } else {
          child(ind + 1, "Unpack **", d->values[k]);
        }
      }
      break;
    }
    case K::Lambda: {
      auto *l = llvm::cast<LambdaExpr>(n);
      line(ind, n, "Lambda");
      params(l->params, ind + 1);
      child(ind + 1, "Body", l->body);
      break;
    }
    case K::ListComp:
    case K::SetComp:
    case K::GeneratorExp:
    case K::DictComp: {
      auto *c = llvm::cast<ComprehensionExpr>(n);
      const char *name = n->kind == K::ListComp  ? "ListComp"
                         : n->kind == K::SetComp ? "SetComp"
                         : n->kind == K::DictComp ? "DictComp"
                                                  : "GeneratorExp";
      line(ind, n, name);
      if (c->value) {
        child(ind + 1, "Key", c->elt);
        child(ind + 1, "Value", c->value);
      } else {
        child(ind + 1, "Element", c->elt);
      }
      for (const Comprehension &g : c->generators) {
        rangedLabel(ind + 1, g.isAsync ? "AsyncGenerator" : "Generator",
                    g.range);
        child(ind + 2, "Target", g.target);
        child(ind + 2, "Iter", g.iter);
        for (const Expr *cond : g.ifs)
          child(ind + 2, "If", cond);
      }
      break;
    }
    case K::Starred:
      line(ind, n, "Starred");
      expr(llvm::cast<StarredExpr>(n)->value, ind + 1);
      break;
    case K::NamedExpr: {
      auto *w = llvm::cast<NamedExpr>(n);
      line(ind, n, "NamedExpr");
      expr(w->target, ind + 1);
      expr(w->value, ind + 1);
      break;
    }
    case K::Await:
      line(ind, n, "Await");
      expr(llvm::cast<AwaitExpr>(n)->value, ind + 1);
      break;
    case K::Yield: {
      auto *y = llvm::cast<YieldExpr>(n);
      line(ind, n, y->isFrom ? "YieldFrom" : "Yield");
      if (y->value)
        expr(y->value, ind + 1);
      break;
    }
    case K::ClassDef: {
      auto *c = llvm::cast<ClassDef>(n);
      line(ind, n, "ClassDef " + c->name);
      decorators(c->decorators, ind + 1);
      typeParams(c->typeParams, ind + 1);
      for (const Expr *b : c->bases)
        child(ind + 1, "Base", b);
      keywords(c->keywords, ind + 1);
      label(ind + 1, "Body");
      block(c->body, ind + 2);
      break;
    }
    case K::Try: {
      auto *t = llvm::cast<TryStmt>(n);
      line(ind, n, t->isStar ? "TryStar" : "Try");
      label(ind + 1, "Body");
      block(t->body, ind + 2);
      for (const ExceptHandler &h : t->handlers) {
        rangedLabel(ind + 1,
                    h.name.empty() ? llvm::Twine("ExceptHandler")
                                   : "ExceptHandler as " + h.name,
                    h.range);
        child(ind + 2, "Type", h.type);
        label(ind + 2, "Body");
        block(h.body, ind + 3);
      }
      if (!t->orelse.empty()) {
        label(ind + 1, "Else");
        block(t->orelse, ind + 2);
      }
      if (!t->finalbody.empty()) {
        label(ind + 1, "Finally");
        block(t->finalbody, ind + 2);
      }
      break;
    }
    case K::With: {
      auto *w = llvm::cast<WithStmt>(n);
      line(ind, n, w->isAsync ? "AsyncWith" : "With");
      for (const WithItem &item : w->items) {
        rangedLabel(ind + 1, "WithItem", item.range);
        expr(item.contextExpr, ind + 2);
        child(ind + 2, "As", item.optionalVars);
      }
      label(ind + 1, "Body");
      block(w->body, ind + 2);
      break;
    }
    case K::Raise: {
      auto *r = llvm::cast<RaiseStmt>(n);
      line(ind, n, "Raise");
      if (r->exc)
        expr(r->exc, ind + 1);
      child(ind + 1, "From", r->cause);
      break;
    }
    case K::Delete:
      line(ind, n, "Delete");
      for (const Expr *t : llvm::cast<DeleteStmt>(n)->targets)
        expr(t, ind + 1);
      break;
    case K::Global: {
      auto *g = llvm::cast<GlobalStmt>(n);
      std::string s = g->isNonlocal ? "Nonlocal" : "Global";
      for (const std::string &name : g->names)
        s += " " + name;
      line(ind, n, s);
      break;
    }
    case K::Break:
      line(ind, n, "Break");
      break;
    case K::Continue:
      line(ind, n, "Continue");
      break;
    case K::Match: {
      auto *mt = llvm::cast<MatchStmt>(n);
      line(ind, n, "Match");
      expr(mt->subject, ind + 1);
      for (const MatchCase &c : mt->cases) {
        rangedLabel(ind + 1, "Case", c.range);
        pattern(c.pattern, ind + 2);
        child(ind + 2, "Guard", c.guard);
        label(ind + 2, "Body");
        block(c.body, ind + 3);
      }
      break;
    }
    case K::TypeAlias: {
      auto *t = llvm::cast<TypeAliasStmt>(n);
      line(ind, n, "TypeAlias " + t->name->id);
      typeParams(t->typeParams, ind + 1);
      expr(t->value, ind + 1);
      break;
    }
    case K::MatchValue:
      line(ind, n, "MatchValue");
      expr(llvm::cast<MatchValuePattern>(n)->value, ind + 1);
      break;
    case K::MatchSingleton: {
      static const char *names[] = {"True", "False", "None", "Ellipsis"};
      line(ind, n,
           llvm::Twine("MatchSingleton ") +
               names[static_cast<int>(
                   llvm::cast<MatchSingletonPattern>(n)->which)]);
      break;
    }
    case K::MatchSequence:
      line(ind, n, "MatchSequence");
      for (const Pattern *p : llvm::cast<MatchSequencePattern>(n)->patterns)
        pattern(p, ind + 1);
      break;
    case K::MatchMapping: {
      auto *mm = llvm::cast<MatchMappingPattern>(n);
      line(ind, n,
           mm->rest.empty() ? llvm::Twine("MatchMapping")
                            : "MatchMapping **" + mm->rest);
      for (size_t k = 0; k < mm->keys.size(); ++k) {
        child(ind + 1, "Key", mm->keys[k]);
        pattern(mm->patterns[k], ind + 2);
      }
      break;
    }
    case K::MatchClass: {
      auto *mc = llvm::cast<MatchClassPattern>(n);
      line(ind, n, "MatchClass");
      expr(mc->cls, ind + 1);
      for (const Pattern *p : mc->patterns)
        pattern(p, ind + 1);
      for (size_t k = 0; k < mc->kwdAttrs.size(); ++k) {
        label(ind + 1, "Keyword " + mc->kwdAttrs[k]);
        pattern(mc->kwdPatterns[k], ind + 2);
      }
      break;
    }
    case K::MatchStar: {
      auto *ms = llvm::cast<MatchStarPattern>(n);
      line(ind, n, "MatchStar " + (ms->name.empty() ? "_" : ms->name));
      break;
    }
    case K::MatchAs: {
      auto *ma = llvm::cast<MatchAsPattern>(n);
      line(ind, n, "MatchAs " + (ma->name.empty() ? "_" : ma->name));
      if (ma->pattern)
        pattern(ma->pattern, ind + 1);
      break;
    }
    case K::MatchOr:
      line(ind, n, "MatchOr");
      for (const Pattern *p : llvm::cast<MatchOrPattern>(n)->patterns)
        pattern(p, ind + 1);
      break;
    case K::ExprStmt:
      line(ind, n, "ExprStmt");
      expr(llvm::cast<ExprStmt>(n)->expr, ind + 1);
      break;
    case K::Assign: {
      auto *a = llvm::cast<AssignStmt>(n);
      line(ind, n, "Assign");
      for (const Expr *t : a->targets) {
        label(ind + 1, "Target");
        expr(t, ind + 2);
      }
      label(ind + 1, "Value");
      expr(a->value, ind + 2);
      break;
    }
    case K::AugAssign: {
      auto *a = llvm::cast<AugAssignStmt>(n);
      line(ind, n, llvm::Twine("AugAssign ") + spelling(a->op) + "=");
      expr(a->target, ind + 1);
      expr(a->value, ind + 1);
      break;
    }
    case K::AnnAssign: {
      auto *a = llvm::cast<AnnAssignStmt>(n);
      line(ind, n, "AnnAssign");
      expr(a->target, ind + 1);
      label(ind + 1, "Annotation");
      expr(a->annotation, ind + 2);
      if (a->value) {
        label(ind + 1, "Value");
        expr(a->value, ind + 2);
      }
      break;
    }
    case K::For: {
      auto *f = llvm::cast<ForStmt>(n);
      line(ind, n, f->isAsync ? "AsyncFor" : "For");
      label(ind + 1, "Target");
      expr(f->target, ind + 2);
      label(ind + 1, "Iter");
      expr(f->iter, ind + 2);
      label(ind + 1, "Body");
      block(f->body, ind + 2);
      if (!f->orelse.empty()) {
        label(ind + 1, "Else");
        block(f->orelse, ind + 2);
      }
      break;
    }
    case K::While: {
      auto *w = llvm::cast<WhileStmt>(n);
      line(ind, n, "While");
      expr(w->test, ind + 1);
      label(ind + 1, "Body");
      block(w->body, ind + 2);
      if (!w->orelse.empty()) {
        label(ind + 1, "Else");
        block(w->orelse, ind + 2);
      }
      break;
    }
    case K::If: {
      auto *i = llvm::cast<IfStmt>(n);
      line(ind, n, i->isElif ? "Elif" : "If");
      expr(i->test, ind + 1);
      label(ind + 1, "Then");
      block(i->body, ind + 2);
      if (!i->orelse.empty()) {
        label(ind + 1, "Else");
        block(i->orelse, ind + 2);
      }
      break;
    }
    case K::Pass:
      line(ind, n, "Pass");
      break;
    case K::Return: {
      auto *r = llvm::cast<ReturnStmt>(n);
      line(ind, n, "Return");
      if (r->value)
        expr(r->value, ind + 1);
      break;
    }
    case K::Assert: {
      auto *a = llvm::cast<AssertStmt>(n);
      line(ind, n, "Assert");
      expr(a->test, ind + 1);
      if (a->msg)
        expr(a->msg, ind + 1);
      break;
    }
    case K::FunctionDef: {
      auto *f = llvm::cast<FunctionDef>(n);
      line(ind, n, (f->isAsync ? "AsyncFunctionDef " : "FunctionDef ") +
                       f->name);
      decorators(f->decorators, ind + 1);
      typeParams(f->typeParams, ind + 1);
      params(f->params, ind + 1);
      if (f->returns) {
        label(ind + 1, "Returns");
        expr(f->returns, ind + 2);
      }
      label(ind + 1, "Body");
      block(f->body, ind + 2);
      break;
    }
    case K::Import: {
      auto *im = llvm::cast<ImportStmt>(n);
      std::string s = "Import";
      for (const Alias &a : im->names)
        s += " " + a.name + (a.asName.empty() ? "" : " as " + a.asName);
      line(ind, n, s);
      break;
    }
    case K::ImportFrom: {
      auto *im = llvm::cast<ImportFromStmt>(n);
      std::string s =
          "ImportFrom " + std::string(im->level, '.') + im->module + " import";
      for (const Alias &a : im->names)
        s += " " + a.name + (a.asName.empty() ? "" : " as " + a.asName);
      line(ind, n, s);
      break;
    }
    }
  }

private:
  const LineTable &lines;
  llvm::raw_ostream &os;
};
} // namespace

std::vector<const Block *> kiln::ast::childBlocks(const Stmt *s) {
  if (auto *i = llvm::dyn_cast<IfStmt>(s))
    return {&i->body, &i->orelse};
  if (auto *f = llvm::dyn_cast<ForStmt>(s))
    return {&f->body, &f->orelse};
  if (auto *w = llvm::dyn_cast<WhileStmt>(s))
    return {&w->body, &w->orelse};
  if (auto *w = llvm::dyn_cast<WithStmt>(s))
    return {&w->body};
  std::vector<const Block *> out;
  if (auto *t = llvm::dyn_cast<TryStmt>(s)) {
    out.push_back(&t->body);
    for (const ExceptHandler &h : t->handlers)
      out.push_back(&h.body);
    out.push_back(&t->orelse);
    out.push_back(&t->finalbody);
  } else if (auto *m = llvm::dyn_cast<MatchStmt>(s)) {
    for (const MatchCase &c : m->cases)
      out.push_back(&c.body);
  }
  return out;
}

void kiln::ast::dump(const Module &m, const LineTable &lines,
                     llvm::raw_ostream &os) {
  os << "Module\n";
  Printer(lines, os).block(m.body, 1);
}
