//===- AST.h - Syntax tree of a Triton-language file -----------*- C++ -*-===//
//
// A Python-shaped syntax tree restricted to what the parser accepts. Every
// node carries its byte range in the source buffer. Nodes are owned by the
// ast::Module (an arena); children are plain pointers.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_SYNTAX_AST_H
#define KILN_FRONTEND_SYNTAX_AST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace kiln::ast {

/// Half-open byte range [begin, end) in the source buffer.
struct SrcRange {
  uint32_t begin = 0, end = 0;
};

class Node {
public:
  enum class Kind {
    // Expressions.
    Name,
    Int,
    Float,
    Str,
    Const,
    Attribute,
    Call,
    Subscript,
    Slice,
    BinOp,
    UnaryOp,
    BoolOp,
    Compare,
    IfExp,
    Tuple,
    List,
    // Statements.
    ExprStmt,
    Assign,
    AugAssign,
    AnnAssign,
    For,
    While,
    If,
    Pass,
    Return,
    Assert,
    FunctionDef,
    Import,
    ImportFrom,
  };
  Node(Kind k, SrcRange r) : kind(k), range(r) {}
  virtual ~Node() = default;
  Kind getKind() const { return kind; }
  const Kind kind;
  SrcRange range;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class Expr : public Node {
public:
  using Node::Node;
  static bool classof(const Node *n) { return n->kind <= Kind::List; }
};

class NameExpr : public Expr {
public:
  NameExpr(SrcRange r, std::string id)
      : Expr(Kind::Name, r), id(std::move(id)) {}
  std::string id;
  static bool classof(const Node *n) { return n->kind == Kind::Name; }
};

class IntExpr : public Expr {
public:
  IntExpr(SrcRange r, int64_t v) : Expr(Kind::Int, r), value(v) {}
  int64_t value;
  static bool classof(const Node *n) { return n->kind == Kind::Int; }
};

class FloatExpr : public Expr {
public:
  FloatExpr(SrcRange r, double v) : Expr(Kind::Float, r), value(v) {}
  double value;
  static bool classof(const Node *n) { return n->kind == Kind::Float; }
};

class StrExpr : public Expr {
public:
  StrExpr(SrcRange r, std::string v)
      : Expr(Kind::Str, r), value(std::move(v)) {}
  std::string value;
  static bool classof(const Node *n) { return n->kind == Kind::Str; }
};

/// True, False, None and `...`.
class ConstExpr : public Expr {
public:
  enum class Which { True, False, None, Ellipsis };
  ConstExpr(SrcRange r, Which w) : Expr(Kind::Const, r), which(w) {}
  Which which;
  static bool classof(const Node *n) { return n->kind == Kind::Const; }
};

class AttributeExpr : public Expr {
public:
  AttributeExpr(SrcRange r, Expr *value, std::string attr, SrcRange attrRange)
      : Expr(Kind::Attribute, r), value(value), attr(std::move(attr)),
        attrRange(attrRange) {}
  Expr *value;
  std::string attr;
  SrcRange attrRange; ///< the name after the dot
  static bool classof(const Node *n) { return n->kind == Kind::Attribute; }
};

struct Keyword {
  std::string name;
  Expr *value;
  SrcRange range; ///< `name=value`
};

class CallExpr : public Expr {
public:
  CallExpr(SrcRange r, Expr *func) : Expr(Kind::Call, r), func(func) {}
  Expr *func;
  std::vector<Expr *> args;
  std::vector<Keyword> keywords;
  static bool classof(const Node *n) { return n->kind == Kind::Call; }
};

/// `lower:upper:step` inside a subscript; any part may be null.
class SliceExpr : public Expr {
public:
  SliceExpr(SrcRange r, Expr *lo, Expr *hi, Expr *step)
      : Expr(Kind::Slice, r), lower(lo), upper(hi), step(step) {}
  Expr *lower, *upper, *step;
  static bool classof(const Node *n) { return n->kind == Kind::Slice; }
};

class SubscriptExpr : public Expr {
public:
  SubscriptExpr(SrcRange r, Expr *value)
      : Expr(Kind::Subscript, r), value(value) {}
  Expr *value;
  /// One entry per comma-separated index (`x[:, None]` has two).
  std::vector<Expr *> indices;
  static bool classof(const Node *n) { return n->kind == Kind::Subscript; }
};

enum class BinOpKind {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  Pow,
  MatMul,
  LShift,
  RShift,
  BitAnd,
  BitOr,
  BitXor
};
const char *spelling(BinOpKind k);

class BinOpExpr : public Expr {
public:
  BinOpExpr(SrcRange r, BinOpKind op, Expr *l, Expr *rhs, SrcRange opRange)
      : Expr(Kind::BinOp, r), op(op), lhs(l), rhs(rhs), opRange(opRange) {}
  BinOpKind op;
  Expr *lhs, *rhs;
  SrcRange opRange;
  static bool classof(const Node *n) { return n->kind == Kind::BinOp; }
};

enum class UnaryOpKind { Plus, Minus, Invert, Not };
const char *spelling(UnaryOpKind k);

class UnaryOpExpr : public Expr {
public:
  UnaryOpExpr(SrcRange r, UnaryOpKind op, Expr *operand)
      : Expr(Kind::UnaryOp, r), op(op), operand(operand) {}
  UnaryOpKind op;
  Expr *operand;
  static bool classof(const Node *n) { return n->kind == Kind::UnaryOp; }
};

class BoolOpExpr : public Expr {
public:
  BoolOpExpr(SrcRange r, bool isAnd) : Expr(Kind::BoolOp, r), isAnd(isAnd) {}
  bool isAnd;
  std::vector<Expr *> values;
  static bool classof(const Node *n) { return n->kind == Kind::BoolOp; }
};

enum class CmpOpKind { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };
const char *spelling(CmpOpKind k);

class CompareExpr : public Expr {
public:
  CompareExpr(SrcRange r, Expr *left) : Expr(Kind::Compare, r), left(left) {}
  Expr *left;
  std::vector<CmpOpKind> ops;
  std::vector<SrcRange> opRanges;
  std::vector<Expr *> comparators;
  static bool classof(const Node *n) { return n->kind == Kind::Compare; }
};

class IfExpExpr : public Expr {
public:
  IfExpExpr(SrcRange r, Expr *test, Expr *body, Expr *orelse)
      : Expr(Kind::IfExp, r), test(test), body(body), orelse(orelse) {}
  Expr *test, *body, *orelse;
  static bool classof(const Node *n) { return n->kind == Kind::IfExp; }
};

class TupleExpr : public Expr {
public:
  TupleExpr(SrcRange r, bool isList = false)
      : Expr(isList ? Kind::List : Kind::Tuple, r) {}
  std::vector<Expr *> elts;
  bool isList() const { return kind == Kind::List; }
  static bool classof(const Node *n) {
    return n->kind == Kind::Tuple || n->kind == Kind::List;
  }
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt : public Node {
public:
  using Node::Node;
  static bool classof(const Node *n) { return n->kind >= Kind::ExprStmt; }
};
using Block = std::vector<const Stmt *>;

class ExprStmt : public Stmt {
public:
  ExprStmt(SrcRange r, Expr *e) : Stmt(Kind::ExprStmt, r), expr(e) {}
  Expr *expr;
  static bool classof(const Node *n) { return n->kind == Kind::ExprStmt; }
};

/// `a = b = value` has two targets.
class AssignStmt : public Stmt {
public:
  AssignStmt(SrcRange r, Expr *value) : Stmt(Kind::Assign, r), value(value) {}
  std::vector<Expr *> targets;
  Expr *value;
  static bool classof(const Node *n) { return n->kind == Kind::Assign; }
};

class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(SrcRange r, Expr *target, BinOpKind op, Expr *value,
                SrcRange opRange)
      : Stmt(Kind::AugAssign, r), target(target), op(op), value(value),
        opRange(opRange) {}
  Expr *target;
  BinOpKind op;
  Expr *value;
  SrcRange opRange;
  static bool classof(const Node *n) { return n->kind == Kind::AugAssign; }
};

class AnnAssignStmt : public Stmt {
public:
  AnnAssignStmt(SrcRange r, Expr *target, Expr *ann, Expr *value)
      : Stmt(Kind::AnnAssign, r), target(target), annotation(ann),
        value(value) {}
  Expr *target, *annotation;
  Expr *value; ///< may be null
  static bool classof(const Node *n) { return n->kind == Kind::AnnAssign; }
};

class ForStmt : public Stmt {
public:
  ForStmt(SrcRange r, Expr *target, Expr *iter)
      : Stmt(Kind::For, r), target(target), iter(iter) {}
  Expr *target, *iter;
  Block body;
  static bool classof(const Node *n) { return n->kind == Kind::For; }
};

class WhileStmt : public Stmt {
public:
  WhileStmt(SrcRange r, Expr *test) : Stmt(Kind::While, r), test(test) {}
  Expr *test;
  Block body;
  static bool classof(const Node *n) { return n->kind == Kind::While; }
};

/// `elif` is an IfStmt alone in `orelse`, marked isElif.
class IfStmt : public Stmt {
public:
  IfStmt(SrcRange r, Expr *test, bool isElif = false)
      : Stmt(Kind::If, r), test(test), isElif(isElif) {}
  Expr *test;
  Block body, orelse;
  bool isElif;
  static bool classof(const Node *n) { return n->kind == Kind::If; }
};

class PassStmt : public Stmt {
public:
  explicit PassStmt(SrcRange r) : Stmt(Kind::Pass, r) {}
  static bool classof(const Node *n) { return n->kind == Kind::Pass; }
};

class ReturnStmt : public Stmt {
public:
  ReturnStmt(SrcRange r, Expr *value) : Stmt(Kind::Return, r), value(value) {}
  Expr *value; ///< may be null
  static bool classof(const Node *n) { return n->kind == Kind::Return; }
};

class AssertStmt : public Stmt {
public:
  AssertStmt(SrcRange r, Expr *test, Expr *msg)
      : Stmt(Kind::Assert, r), test(test), msg(msg) {}
  Expr *test, *msg; ///< msg may be null
  static bool classof(const Node *n) { return n->kind == Kind::Assert; }
};

struct Param {
  std::string name;
  Expr *annotation = nullptr;
  Expr *defaultValue = nullptr;
  SrcRange range;
};

class FunctionDef : public Stmt {
public:
  FunctionDef(SrcRange r, std::string name, SrcRange nameRange)
      : Stmt(Kind::FunctionDef, r), name(std::move(name)),
        nameRange(nameRange) {}
  std::string name;
  SrcRange nameRange;
  std::vector<Expr *> decorators;
  std::vector<Param> params;
  Expr *returns = nullptr;
  Block body;
  static bool classof(const Node *n) { return n->kind == Kind::FunctionDef; }
};

struct Alias {
  std::string name; ///< dotted module name, or the imported name
  std::string asName;
  SrcRange range;
};

class ImportStmt : public Stmt {
public:
  explicit ImportStmt(SrcRange r) : Stmt(Kind::Import, r) {}
  std::vector<Alias> names;
  static bool classof(const Node *n) { return n->kind == Kind::Import; }
};

class ImportFromStmt : public Stmt {
public:
  ImportFromStmt(SrcRange r, std::string module, SrcRange moduleRange)
      : Stmt(Kind::ImportFrom, r), module(std::move(module)),
        moduleRange(moduleRange) {}
  std::string module;
  SrcRange moduleRange;
  std::vector<Alias> names;
  static bool classof(const Node *n) { return n->kind == Kind::ImportFrom; }
};

/// A parsed file; owns every node.
class Module {
public:
  Block body;

  template <typename T, typename... Args> T *make(Args &&...args) {
    auto node = std::make_unique<T>(std::forward<Args>(args)...);
    T *raw = node.get();
    nodes.push_back(std::move(node));
    return raw;
  }

private:
  std::vector<std::unique_ptr<Node>> nodes;
};

/// Maps byte offsets to 1-based line and column numbers.
class LineTable {
public:
  explicit LineTable(llvm::StringRef text);
  std::pair<unsigned, unsigned> lineCol(uint32_t offset) const;

private:
  std::vector<uint32_t> starts;
};

/// Prints the tree, one node per line with its `line:col-line:col` range.
void dump(const Module &m, const LineTable &lines, llvm::raw_ostream &os);

} // namespace kiln::ast

#endif // KILN_FRONTEND_SYNTAX_AST_H
