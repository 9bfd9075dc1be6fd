//===- AST.h - Syntax tree of a Triton-language file -----------*- C++ -*-===//
//
// A Python 3.12 syntax tree, shaped like CPython's `ast` module. Every node
// carries its byte range in the source buffer. Nodes are owned by the
// ast::Module (an arena); children are plain pointers. The tree knows nothing
// of Triton: deciding what a kernel may use is the IR generator's job.
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
    Bytes,
    Imag,
    JoinedStr,
    FormattedValue,
    Set,
    Dict,
    Lambda,
    ListComp,
    SetComp,
    GeneratorExp,
    DictComp,
    Starred,
    NamedExpr,
    Await,
    Yield,
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
    ClassDef,
    Try,
    With,
    Raise,
    Delete,
    Global,
    Break,
    Continue,
    Match,
    TypeAlias,
    // Patterns (the `case` clauses of `match`).
    MatchValue,
    MatchSingleton,
    MatchSequence,
    MatchMapping,
    MatchClass,
    MatchStar,
    MatchAs,
    MatchOr,
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
  static bool classof(const Node *n) { return n->kind <= Kind::Yield; }
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
  /// The literal does not fit int64 (value is 0): fine in host code, an
  /// error where Kiln evaluates it.
  bool tooLarge = false;
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

/// `name=value` in a call or class header; an empty name is `**value`.
struct Keyword {
  std::string name;
  Expr *value;
  SrcRange range; ///< `name=value`
};

class CallExpr : public Expr {
public:
  CallExpr(SrcRange r, Expr *func) : Expr(Kind::Call, r), func(func) {}
  Expr *func;
  /// Positional arguments; `*x` is a StarredExpr.
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

/// Where a parameter sits in the list: `def f(a, /, b, *c, d, **e)` has one
/// of each, in that order.
enum class ParamKind { Normal, PositionalOnly, VarArgs, KeywordOnly, KwArgs };

struct Param {
  std::string name;
  Expr *annotation = nullptr;
  Expr *defaultValue = nullptr;
  SrcRange range;
  ParamKind kind = ParamKind::Normal;
};

/// A PEP 695 type parameter: `T`, `T: bound`, `*Ts`, `**P`.
struct TypeParam {
  enum class Which { TypeVar, TypeVarTuple, ParamSpec };
  Which which = Which::TypeVar;
  std::string name;
  Expr *bound = nullptr;
  SrcRange range;
};

class BytesExpr : public Expr {
public:
  BytesExpr(SrcRange r, std::string v)
      : Expr(Kind::Bytes, r), value(std::move(v)) {}
  std::string value; ///< raw bytes
  static bool classof(const Node *n) { return n->kind == Kind::Bytes; }
};

/// `2j`: the imaginary part of a complex literal.
class ImagExpr : public Expr {
public:
  ImagExpr(SrcRange r, double v) : Expr(Kind::Imag, r), value(v) {}
  double value;
  static bool classof(const Node *n) { return n->kind == Kind::Imag; }
};

/// An f-string (with any adjacent literals it is concatenated with): StrExpr
/// pieces and FormattedValueExpr fields in order.
class JoinedStrExpr : public Expr {
public:
  explicit JoinedStrExpr(SrcRange r) : Expr(Kind::JoinedStr, r) {}
  std::vector<Expr *> values;
  static bool classof(const Node *n) { return n->kind == Kind::JoinedStr; }
};

/// `{value!conversion:formatSpec}` inside an f-string. `{x=}` is the literal
/// text `x=` (a StrExpr before this node) and `debug` set.
class FormattedValueExpr : public Expr {
public:
  FormattedValueExpr(SrcRange r, Expr *value)
      : Expr(Kind::FormattedValue, r), value(value) {}
  Expr *value;
  char conversion = 0; ///< 0, 'r', 's' or 'a'
  JoinedStrExpr *formatSpec = nullptr;
  bool debug = false;
  static bool classof(const Node *n) {
    return n->kind == Kind::FormattedValue;
  }
};

class SetExpr : public Expr {
public:
  explicit SetExpr(SrcRange r) : Expr(Kind::Set, r) {}
  std::vector<Expr *> elts; ///< `*x` is a StarredExpr
  static bool classof(const Node *n) { return n->kind == Kind::Set; }
};

class DictExpr : public Expr {
public:
  explicit DictExpr(SrcRange r) : Expr(Kind::Dict, r) {}
  /// keys[i] is null for a `**values[i]` entry.
  std::vector<Expr *> keys, values;
  static bool classof(const Node *n) { return n->kind == Kind::Dict; }
};

class LambdaExpr : public Expr {
public:
  LambdaExpr(SrcRange r) : Expr(Kind::Lambda, r) {}
  std::vector<Param> params;
  Expr *body = nullptr;
  static bool classof(const Node *n) { return n->kind == Kind::Lambda; }
};

/// `for target in iter if cond ...` inside a comprehension.
struct Comprehension {
  Expr *target = nullptr, *iter = nullptr;
  std::vector<Expr *> ifs;
  bool isAsync = false;
  SrcRange range;
};

/// List/set/dict comprehensions and generator expressions. A DictComp's key
/// is `elt` and its value `value`.
class ComprehensionExpr : public Expr {
public:
  ComprehensionExpr(Kind k, SrcRange r, Expr *elt, Expr *value = nullptr)
      : Expr(k, r), elt(elt), value(value) {}
  Expr *elt, *value;
  std::vector<Comprehension> generators;
  static bool classof(const Node *n) {
    return n->kind >= Kind::ListComp && n->kind <= Kind::DictComp;
  }
};

/// `*value` in a call, display, or assignment target.
class StarredExpr : public Expr {
public:
  StarredExpr(SrcRange r, Expr *value) : Expr(Kind::Starred, r), value(value) {}
  Expr *value;
  static bool classof(const Node *n) { return n->kind == Kind::Starred; }
};

/// `target := value`.
class NamedExpr : public Expr {
public:
  NamedExpr(SrcRange r, NameExpr *target, Expr *value)
      : Expr(Kind::NamedExpr, r), target(target), value(value) {}
  NameExpr *target;
  Expr *value;
  static bool classof(const Node *n) { return n->kind == Kind::NamedExpr; }
};

class AwaitExpr : public Expr {
public:
  AwaitExpr(SrcRange r, Expr *value) : Expr(Kind::Await, r), value(value) {}
  Expr *value;
  static bool classof(const Node *n) { return n->kind == Kind::Await; }
};

/// `yield [value]` or `yield from value`.
class YieldExpr : public Expr {
public:
  YieldExpr(SrcRange r, Expr *value, bool isFrom)
      : Expr(Kind::Yield, r), value(value), isFrom(isFrom) {}
  Expr *value; ///< may be null for a plain `yield`
  bool isFrom;
  static bool classof(const Node *n) { return n->kind == Kind::Yield; }
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt : public Node {
public:
  using Node::Node;
  static bool classof(const Node *n) {
    return n->kind >= Kind::ExprStmt && n->kind <= Kind::TypeAlias;
  }
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
  Block orelse;           ///< the loop's `else:` block
  uint32_t elseBegin = 0; ///< where its `else` keyword is
  bool isAsync = false;
  static bool classof(const Node *n) { return n->kind == Kind::For; }
};

class WhileStmt : public Stmt {
public:
  WhileStmt(SrcRange r, Expr *test) : Stmt(Kind::While, r), test(test) {}
  Expr *test;
  Block body;
  Block orelse;           ///< the loop's `else:` block
  uint32_t elseBegin = 0; ///< where its `else` keyword is
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

class FunctionDef : public Stmt {
public:
  FunctionDef(SrcRange r, std::string name, SrcRange nameRange)
      : Stmt(Kind::FunctionDef, r), name(std::move(name)),
        nameRange(nameRange) {}
  std::string name;
  SrcRange nameRange;
  std::vector<Expr *> decorators;
  /// Every parameter in source order (see Param::kind).
  std::vector<Param> params;
  Expr *returns = nullptr;
  Block body;
  std::vector<TypeParam> typeParams;
  bool isAsync = false;
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
  std::string module; ///< empty in `from . import x`
  SrcRange moduleRange;
  std::vector<Alias> names; ///< `import *` is one Alias named `*`
  unsigned level = 0;       ///< leading dots of a relative import
  static bool classof(const Node *n) { return n->kind == Kind::ImportFrom; }
};

class ClassDef : public Stmt {
public:
  ClassDef(SrcRange r, std::string name, SrcRange nameRange)
      : Stmt(Kind::ClassDef, r), name(std::move(name)), nameRange(nameRange) {}
  std::string name;
  SrcRange nameRange;
  std::vector<Expr *> decorators;
  std::vector<TypeParam> typeParams;
  std::vector<Expr *> bases; ///< `*x` is a StarredExpr
  std::vector<Keyword> keywords;
  Block body;
  static bool classof(const Node *n) { return n->kind == Kind::ClassDef; }
};

struct ExceptHandler {
  Expr *type = nullptr; ///< null for a bare `except:`
  std::string name;     ///< `as name`, may be empty
  Block body;
  SrcRange range;
};

/// try/except/else/finally; `except*` clauses set isStar.
class TryStmt : public Stmt {
public:
  explicit TryStmt(SrcRange r) : Stmt(Kind::Try, r) {}
  Block body;
  std::vector<ExceptHandler> handlers;
  Block orelse, finalbody;
  bool isStar = false;
  static bool classof(const Node *n) { return n->kind == Kind::Try; }
};

struct WithItem {
  Expr *contextExpr = nullptr;
  Expr *optionalVars = nullptr; ///< the `as` target, may be null
  SrcRange range;
};

class WithStmt : public Stmt {
public:
  explicit WithStmt(SrcRange r) : Stmt(Kind::With, r) {}
  std::vector<WithItem> items;
  Block body;
  bool isAsync = false;
  static bool classof(const Node *n) { return n->kind == Kind::With; }
};

class RaiseStmt : public Stmt {
public:
  RaiseStmt(SrcRange r, Expr *exc, Expr *cause)
      : Stmt(Kind::Raise, r), exc(exc), cause(cause) {}
  Expr *exc, *cause; ///< both may be null
  static bool classof(const Node *n) { return n->kind == Kind::Raise; }
};

class DeleteStmt : public Stmt {
public:
  explicit DeleteStmt(SrcRange r) : Stmt(Kind::Delete, r) {}
  std::vector<Expr *> targets;
  static bool classof(const Node *n) { return n->kind == Kind::Delete; }
};

/// `global a, b` or `nonlocal a, b`.
class GlobalStmt : public Stmt {
public:
  GlobalStmt(SrcRange r, bool isNonlocal)
      : Stmt(Kind::Global, r), isNonlocal(isNonlocal) {}
  std::vector<std::string> names;
  bool isNonlocal;
  static bool classof(const Node *n) { return n->kind == Kind::Global; }
};

class BreakStmt : public Stmt {
public:
  explicit BreakStmt(SrcRange r) : Stmt(Kind::Break, r) {}
  static bool classof(const Node *n) { return n->kind == Kind::Break; }
};

class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(SrcRange r) : Stmt(Kind::Continue, r) {}
  static bool classof(const Node *n) { return n->kind == Kind::Continue; }
};

class Pattern : public Node {
public:
  using Node::Node;
  static bool classof(const Node *n) { return n->kind >= Kind::MatchValue; }
};

struct MatchCase {
  Pattern *pattern = nullptr;
  Expr *guard = nullptr;
  Block body;
  SrcRange range;
};

class MatchStmt : public Stmt {
public:
  MatchStmt(SrcRange r, Expr *subject)
      : Stmt(Kind::Match, r), subject(subject) {}
  Expr *subject;
  std::vector<MatchCase> cases;
  static bool classof(const Node *n) { return n->kind == Kind::Match; }
};

/// `type Name[params] = value`.
class TypeAliasStmt : public Stmt {
public:
  TypeAliasStmt(SrcRange r, NameExpr *name, Expr *value)
      : Stmt(Kind::TypeAlias, r), name(name), value(value) {}
  NameExpr *name;
  std::vector<TypeParam> typeParams;
  Expr *value;
  static bool classof(const Node *n) { return n->kind == Kind::TypeAlias; }
};

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// A literal or dotted-name value pattern: `case 1`, `case Color.RED`.
class MatchValuePattern : public Pattern {
public:
  MatchValuePattern(SrcRange r, Expr *value)
      : Pattern(Kind::MatchValue, r), value(value) {}
  Expr *value;
  static bool classof(const Node *n) { return n->kind == Kind::MatchValue; }
};

/// `case None`, `case True`, `case False`.
class MatchSingletonPattern : public Pattern {
public:
  MatchSingletonPattern(SrcRange r, ConstExpr::Which w)
      : Pattern(Kind::MatchSingleton, r), which(w) {}
  ConstExpr::Which which;
  static bool classof(const Node *n) {
    return n->kind == Kind::MatchSingleton;
  }
};

class MatchSequencePattern : public Pattern {
public:
  explicit MatchSequencePattern(SrcRange r) : Pattern(Kind::MatchSequence, r) {}
  std::vector<Pattern *> patterns;
  static bool classof(const Node *n) { return n->kind == Kind::MatchSequence; }
};

/// `{key: pattern, ..., **rest}`.
class MatchMappingPattern : public Pattern {
public:
  explicit MatchMappingPattern(SrcRange r) : Pattern(Kind::MatchMapping, r) {}
  std::vector<Expr *> keys;
  std::vector<Pattern *> patterns;
  std::string rest; ///< may be empty
  static bool classof(const Node *n) { return n->kind == Kind::MatchMapping; }
};

/// `Cls(p, q, attr=r)`.
class MatchClassPattern : public Pattern {
public:
  MatchClassPattern(SrcRange r, Expr *cls)
      : Pattern(Kind::MatchClass, r), cls(cls) {}
  Expr *cls;
  std::vector<Pattern *> patterns;
  std::vector<std::string> kwdAttrs;
  std::vector<Pattern *> kwdPatterns;
  static bool classof(const Node *n) { return n->kind == Kind::MatchClass; }
};

/// `*name` (or `*_`, name empty) inside a sequence pattern.
class MatchStarPattern : public Pattern {
public:
  MatchStarPattern(SrcRange r, std::string name)
      : Pattern(Kind::MatchStar, r), name(std::move(name)) {}
  std::string name;
  static bool classof(const Node *n) { return n->kind == Kind::MatchStar; }
};

/// `pattern as name`, a capture `name` (pattern null) or the wildcard `_`
/// (both empty).
class MatchAsPattern : public Pattern {
public:
  MatchAsPattern(SrcRange r, Pattern *pattern, std::string name)
      : Pattern(Kind::MatchAs, r), pattern(pattern), name(std::move(name)) {}
  Pattern *pattern;
  std::string name;
  static bool classof(const Node *n) { return n->kind == Kind::MatchAs; }
};

class MatchOrPattern : public Pattern {
public:
  explicit MatchOrPattern(SrcRange r) : Pattern(Kind::MatchOr, r) {}
  std::vector<Pattern *> patterns;
  static bool classof(const Node *n) { return n->kind == Kind::MatchOr; }
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
