//===- IRGenAnnotations.cpp - What a parameter's annotation says ----------===//
//
// `tl.constexpr` (also `"tl.constexpr"` as a string, and a bare `constexpr`
// after `from triton.language import constexpr`) and `tl.const`, read from
// the annotation as written: the frontend never evaluates annotations.
//
//===----------------------------------------------------------------------===//
#include "IRGen.h"

using namespace kiln;
using namespace kiln::ast;

bool kiln::fe::isConstexprAnnotation(const Expr *a) {
  if (!a)
    return false;
  if (auto *at = llvm::dyn_cast<AttributeExpr>(a))
    return at->attr == "constexpr";
  if (auto *n = llvm::dyn_cast<NameExpr>(a))
    return n->id == "constexpr";
  if (auto *s = llvm::dyn_cast<StrExpr>(a))
    return llvm::StringRef(s->value).ends_with("constexpr");
  return false;
}

bool kiln::fe::isConstPointerAnnotation(const Expr *a) {
  if (auto *at = llvm::dyn_cast_or_null<AttributeExpr>(a))
    return at->attr == "const";
  if (auto *n = llvm::dyn_cast_or_null<NameExpr>(a))
    return n->id == "const";
  return false;
}
