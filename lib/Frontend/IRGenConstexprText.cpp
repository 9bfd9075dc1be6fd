//===- IRGenConstexprText.cpp - Constexpr values given as text -------------===//
//
// A specialization gives constexprs as text: `-D NAME=VALUE`, a signature's
// literal entries (`1024`, `True`, `'ieee'`, `tl.float16`), and functions
// passed by value, spelled by their definition (`__kiln_def__('PATH',
// 'NAME', LINE)`, a @triton.jit function) or in full (`triton.language.
// maximum`). This file turns that text back into compile-time values.
//
//===----------------------------------------------------------------------===//
#include "IRGen.h"
#include "IRGenImport.h"

#include "kiln/Frontend/Syntax/Parser.h"

#include "llvm/ADT/StringExtras.h"

#include <limits>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;
using mlir::failure;
using mlir::FailureOr;

/// `__kiln_def__('PATH', 'NAME', LINE)` given as a constexpr's value: the
/// @triton.jit function defined there (the drop-in's spelling of a function
/// passed as an argument; its file is loaded like an import).
FailureOr<Val> IRGen::constexprFunction(llvm::StringRef text, uint32_t where,
                                        llvm::StringRef origin) {
  Expr *e = nullptr;
  ParseResult pr = parseExpression(text.trim(), e);
  auto *call = pr.module ? llvm::dyn_cast_or_null<CallExpr>(e) : nullptr;
  const StrExpr *path = nullptr, *name = nullptr;
  const IntExpr *line = nullptr;
  if (call && call->args.size() == 3 && call->keywords.empty()) {
    path = llvm::dyn_cast<StrExpr>(call->args[0]);
    name = llvm::dyn_cast<StrExpr>(call->args[1]);
    line = llvm::dyn_cast<IntExpr>(call->args[2]);
  }
  if (!path || !name || !line || line->value <= 0 || line->tooLarge)
    return fail(where, origin + ": `" + text +
                           "` is not __kiln_def__('PATH', 'NAME', LINE)");
  std::string why;
  FailureOr<Val> fn = functionDefinedAt(*this, path->value, name->value,
                                        unsigned(line->value), nullptr, why);
  if (failed(fn))
    return fail(where, origin + ": `" + text + "` names no function: " + why);
  return fn;
}

/// `__kiln_def__(...)`: a @triton.jit function given as a constexpr value.
bool kiln::fe::isFunctionSpelling(llvm::StringRef text) {
  return text.trim().starts_with("__kiln_def__(");
}

/// Python's float(str) for the spellings of infinity and NaN ('inf',
/// '-Infinity', ' nan ', ...) and decimal numbers.
static std::optional<Val> floatFromText(llvm::StringRef text) {
  llvm::StringRef t = text.trim();
  bool negative = t.consume_front("-");
  if (!negative)
    t.consume_front("+");
  std::string lower = t.lower();
  double v;
  if (lower == "inf" || lower == "infinity")
    v = std::numeric_limits<double>::infinity();
  else if (lower == "nan")
    v = std::numeric_limits<double>::quiet_NaN();
  else if (t.empty() || !llvm::to_float(t, v))
    return std::nullopt;
  return Val::flt(negative ? -v : v);
}

/// Parses a constexpr given as text (-D or an inline signature literal).
std::optional<Val> kiln::fe::parseConstexprText(llvm::StringRef text) {
  Expr *e = nullptr;
  ParseResult pr = parseExpression(text.trim(), e);
  if (!pr.module || !e)
    return std::nullopt;
  std::function<std::optional<Val>(const Expr *)> ev =
      [&](const Expr *x) -> std::optional<Val> {
    if (auto *i = llvm::dyn_cast<IntExpr>(x))
      return Val::integer(i->value);
    if (auto *f = llvm::dyn_cast<FloatExpr>(x))
      return Val::flt(f->value);
    if (auto *s = llvm::dyn_cast<StrExpr>(x))
      return Val::str(s->value);
    if (auto *c = llvm::dyn_cast<ConstExpr>(x)) {
      if (c->which == ConstExpr::Which::True)
        return Val::boolean(true);
      if (c->which == ConstExpr::Which::False)
        return Val::boolean(false);
      if (c->which == ConstExpr::Which::None)
        return Val::none();
      return std::nullopt;
    }
    if (auto *t = llvm::dyn_cast<TupleExpr>(x)) { // a shape: (16, 32)
      std::vector<Val> elems;
      for (const Expr *el : t->elts) {
        std::optional<Val> v = ev(el);
        if (!v)
          return std::nullopt;
        elems.push_back(*v);
      }
      return Val::tuple(std::move(elems));
    }
    if (auto *u = llvm::dyn_cast<UnaryOpExpr>(x)) {
      std::optional<Val> v = ev(u->operand);
      if (!v || (v->kind != Val::Kind::Int && v->kind != Val::Kind::Float))
        return std::nullopt;
      if (u->op == UnaryOpKind::Plus)
        return v;
      if (u->op != UnaryOpKind::Minus)
        return std::nullopt;
      if (v->kind == Val::Kind::Float)
        return Val::flt(-v->f);
      return Val::integer(-v->i);
    }
    // float('inf'), float('-inf'), float('nan'), float(2): how the drop-in
    // (and Python's repr of a float constexpr's spelling) writes the values
    // a float literal cannot (vLLM's MASK_VALUE = -float('inf')).
    if (auto *c = llvm::dyn_cast<CallExpr>(x)) {
      auto *fn = llvm::dyn_cast<NameExpr>(c->func);
      if (!fn || fn->id != "float" || c->args.size() != 1 || !c->keywords.empty())
        return std::nullopt;
      if (auto *s = llvm::dyn_cast<StrExpr>(c->args[0]))
        return floatFromText(s->value);
      std::optional<Val> v = ev(c->args[0]);
      if (v && v->kind == Val::Kind::Int)
        return Val::flt(double(v->i));
      if (v && v->kind == Val::Kind::Float)
        return v;
      return std::nullopt;
    }
    // Dtypes: tl.float16, triton.language.float16, float16, fp16.
    std::string dotted;
    const Expr *cur = x;
    while (auto *a = llvm::dyn_cast<AttributeExpr>(cur)) {
      dotted = "." + a->attr + dotted;
      cur = a->value;
    }
    auto *n = llvm::dyn_cast<NameExpr>(cur);
    if (!n)
      return std::nullopt;
    dotted = n->id + dotted;
    llvm::StringRef d = dotted;
    // math.inf, math.nan, math.pi ...
    if (d.consume_front("math.")) {
      Val m;
      if (lookupMathAttr(d, m) == 0 && (m.kind == Val::Kind::Float || m.kind == Val::Kind::Int))
        return m;
      return std::nullopt;
    }
    bool prefixed = d.consume_front("tl.") || d.consume_front("triton.language.");
    if (!prefixed)
      if (std::optional<DType> dt = parseDTypeName(d.str()))
        return Val::dtype(*dt);
    // A dtype, or (spelled in full) a tl function passed for a constexpr
    // (`REDUCE=tl.maximum`).
    Val out;
    auto [sub, attr] = d.rsplit('.');
    std::string mod = attr.empty() ? "triton.language"
                                   : "triton.language." + sub.str();
    if (attr.empty())
      attr = sub;
    if (lookupModuleAttr(mod, attr, out) == 0 &&
        (out.kind == Val::Kind::DType ||
         (prefixed && out.kind == Val::Kind::Builtin)))
      return out;
    return std::nullopt;
  };
  return ev(e);
}

