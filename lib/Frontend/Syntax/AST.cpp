//===- AST.cpp - Syntax tree helpers and the --emit=ast printer ----------===//
#include "kiln/Frontend/Syntax/AST.h"

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

  void node(const Node *n, unsigned ind) {
    using K = Node::Kind;
    switch (n->kind) {
    case K::Name:
      line(ind, n, "Name " + llvm::cast<NameExpr>(n)->id);
      break;
    case K::Int:
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
      for (const Keyword &k : c->keywords) {
        os.indent((ind + 1) * 2) << "Keyword " << k.name << " ";
        rangeOf(k.range);
        os << "\n";
        expr(k.value, ind + 2);
      }
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
      line(ind, n, "For");
      label(ind + 1, "Target");
      expr(f->target, ind + 2);
      label(ind + 1, "Iter");
      expr(f->iter, ind + 2);
      label(ind + 1, "Body");
      block(f->body, ind + 2);
      break;
    }
    case K::While: {
      auto *w = llvm::cast<WhileStmt>(n);
      line(ind, n, "While");
      expr(w->test, ind + 1);
      label(ind + 1, "Body");
      block(w->body, ind + 2);
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
      line(ind, n, "FunctionDef " + f->name);
      for (const Expr *d : f->decorators) {
        label(ind + 1, "Decorator");
        expr(d, ind + 2);
      }
      for (const Param &p : f->params) {
        os.indent((ind + 1) * 2) << "Param " << p.name << " ";
        rangeOf(p.range);
        os << "\n";
        if (p.annotation) {
          label(ind + 2, "Annotation");
          expr(p.annotation, ind + 3);
        }
        if (p.defaultValue) {
          label(ind + 2, "Default");
          expr(p.defaultValue, ind + 3);
        }
      }
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
      std::string s = "ImportFrom " + im->module + " import";
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

void kiln::ast::dump(const Module &m, const LineTable &lines,
                     llvm::raw_ostream &os) {
  os << "Module\n";
  Printer(lines, os).block(m.body, 1);
}
