//===- Value.h - Values the code generator computes with -------*- C++ -*-===//
//
// Evaluating a Triton-language expression yields either a runtime value (an
// MLIR SSA value with its Triton type) or a compile-time value: a constexpr
// (Python int/float/bool/None/str, a dtype, a tuple of those) or a name that
// only means something when called or dereferenced (a module, a builtin, a
// @triton.jit function, a bound method such as `x.to`).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_VALUE_H
#define KILN_LIB_FRONTEND_VALUE_H

#include "Types.h"
#include "kiln/Frontend/Syntax/AST.h"
#include "mlir/IR/Value.h"
#include <memory>
#include <string>
#include <vector>

namespace kiln::fe {

struct Val {
  enum class Kind {
    Runtime,
    Int,
    Float,
    Bool,
    None,
    Str,
    DType,
    Tuple,
    Module,
    Function,
    Builtin,
    Method,
    Undef,
  };
  Kind kind = Kind::None;
  mlir::Value value; ///< Runtime
  TType type;        ///< Runtime
  int64_t i = 0;     ///< Int, Bool (0/1)
  double f = 0;      ///< Float
  /// Str: the text. Module / Builtin / Method: the canonical name
  /// ("triton.language", "tl.load"). Undef: why the name has no value.
  std::string s;
  kiln::DType dt = kiln::DType::I32; ///< DType
  bool dtPtr = false;                ///< DType: pointer to `dt`
  std::vector<Val> elems;            ///< Tuple
  const ast::FunctionDef *fn = nullptr;
  std::shared_ptr<Val> self; ///< Method receiver

  static Val runtime(mlir::Value v, TType t) {
    Val r;
    r.kind = Kind::Runtime;
    r.value = v;
    r.type = std::move(t);
    return r;
  }
  static Val integer(int64_t v) {
    Val r;
    r.kind = Kind::Int;
    r.i = v;
    return r;
  }
  static Val flt(double v) {
    Val r;
    r.kind = Kind::Float;
    r.f = v;
    return r;
  }
  static Val boolean(bool v) {
    Val r;
    r.kind = Kind::Bool;
    r.i = v;
    return r;
  }
  static Val none() { return Val(); }
  static Val str(std::string s) {
    Val r;
    r.kind = Kind::Str;
    r.s = std::move(s);
    return r;
  }
  static Val dtype(kiln::DType d, bool ptr = false) {
    Val r;
    r.kind = Kind::DType;
    r.dt = d;
    r.dtPtr = ptr;
    return r;
  }
  static Val tuple(std::vector<Val> e) {
    Val r;
    r.kind = Kind::Tuple;
    r.elems = std::move(e);
    return r;
  }
  static Val named(Kind k, std::string name) {
    Val r;
    r.kind = k;
    r.s = std::move(name);
    return r;
  }
  static Val function(const ast::FunctionDef *f) {
    Val r;
    r.kind = Kind::Function;
    r.fn = f;
    return r;
  }
  static Val method(std::string name, Val receiver) {
    Val r;
    r.kind = Kind::Method;
    r.s = std::move(name);
    r.self = std::make_shared<Val>(std::move(receiver));
    return r;
  }
  static Val undef(std::string why) {
    return named(Kind::Undef, std::move(why));
  }

  bool isRuntime() const { return kind == Kind::Runtime; }
  bool isNumber() const {
    return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool;
  }
  bool isIntLike() const { return kind == Kind::Int || kind == Kind::Bool; }
  /// A compile-time constant in Triton's sense (tl.constexpr).
  bool isConstexpr() const {
    switch (kind) {
    case Kind::Int:
    case Kind::Float:
    case Kind::Bool:
    case Kind::None:
    case Kind::Str:
    case Kind::DType:
      return true;
    case Kind::Tuple:
      for (const Val &e : elems)
        if (!e.isConstexpr())
          return false;
      return true;
    default:
      return false;
    }
  }
  /// Python truthiness of a constexpr.
  bool truthy() const {
    switch (kind) {
    case Kind::Int:
    case Kind::Bool:
      return i != 0;
    case Kind::Float:
      return f != 0;
    case Kind::None:
      return false;
    case Kind::Str:
      return !s.empty();
    case Kind::Tuple:
      return !elems.empty();
    default:
      return true;
    }
  }
  double asDouble() const { return kind == Kind::Float ? f : double(i); }
  /// Same compile-time value (runtime values: same SSA value).
  bool sameAs(const Val &o) const;
  /// Python repr-like text of a constexpr (`1024`, `True`, `tl.float16`).
  std::string repr() const;
};

} // namespace kiln::fe

#endif
