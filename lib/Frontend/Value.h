//===- Value.h - Values the code generator computes with -------*- C++ -*-===//
//
// Evaluating a Triton-language expression yields either a runtime value (an
// MLIR SSA value with its Triton type) or a compile-time value: a constexpr
// (Python int/float/bool/None/str, a dtype, a tuple of those) or a name that
// only means something when called or dereferenced (a module, a builtin, a
// @triton.jit function, a bound method such as `x.to`).
//
// A block pointer (tl.make_block_ptr) is a frontend value, not an MLIR type:
// its base, shape, strides and offsets are runtime scalars kept side by side
// and turned into a pointer tensor and a mask at each load/store, so the
// backend sees ordinary pointer arithmetic (same axis info, same vector
// accesses). Loops, ifs and helper calls carry it as its scalars.
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
    BlockPtr,
    /// A NamedTuple class of the module (`class Point(NamedTuple)`):
    /// calling it makes a Tuple with its fields.
    NamedTupleClass,
  };
  Kind kind = Kind::None;
  mlir::Value value; ///< Runtime
  TType type;        ///< Runtime
  int64_t i = 0;     ///< Int, Bool (0/1)
  /// Int in [2^63, 2^64): `i` holds its 64 bits (Python's ints are unbounded;
  /// `2**63 - 1` and `-(1 << 63)` pass through such values, and Triton makes
  /// one of them a uint64).
  bool wide = false;
  double f = 0;      ///< Float
  /// Str: the text. Module / Builtin / Method: the canonical name
  /// ("triton.language", "tl.load"). Undef: why the name has no value.
  std::string s;
  kiln::DType dt = kiln::DType::I32; ///< DType
  bool dtPtr = false;                ///< DType: pointer to `dt`
  /// DType: a block type (`x.type` of a tensor, shape in `blockShape`):
  /// its `element_ty` / `scalar` is the element's dtype. Everything that
  /// takes a dtype reads `dt` / `dtPtr` (the scalar), as Triton's casts do.
  bool dtBlock = false;
  /// Tuple: the elements. BlockPtr: the runtime scalars `base` (a scalar
  /// pointer), then shape[r] (i64), strides[r] (i64), offsets[r] (i32);
  /// a tensor descriptor has no offsets.
  std::vector<Val> elems;
  /// BlockPtr: the constexpr block shape (powers of two) and order.
  std::vector<int64_t> blockShape, order;
  /// BlockPtr: a tensor descriptor (tl.make_tensor_descriptor), whose
  /// padding option ("zero" or "nan") is in `s`. Loops, ifs and helper
  /// calls carry it as they carry a block pointer: by its scalars.
  bool descriptor = false;
  const ast::FunctionDef *fn = nullptr;
  std::shared_ptr<Val> self; ///< Method receiver
  /// Tuple of a namedtuple (an argument, or a NamedTuple class called in
  /// the kernel) and NamedTupleClass: the field names, in order (`s` holds
  /// the class name, if known). A NamedTupleClass's `elems` are its fields'
  /// defaults (Undef where none).
  std::shared_ptr<const std::vector<std::string>> fields;

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
  static Val blockPtr(std::vector<Val> scalars, std::vector<int64_t> block,
                      std::vector<int64_t> order) {
    Val r;
    r.kind = Kind::BlockPtr;
    r.elems = std::move(scalars);
    r.blockShape = std::move(block);
    r.order = std::move(order);
    return r;
  }
  static Val tensorDesc(std::vector<Val> scalars, std::vector<int64_t> block,
                        std::string padding) {
    std::vector<int64_t> order;
    for (size_t d = block.size(); d-- > 0;)
      order.push_back(int64_t(d));
    Val r = blockPtr(std::move(scalars), std::move(block), std::move(order));
    r.descriptor = true;
    r.s = std::move(padding);
    return r;
  }

  //===--- BlockPtr accessors ---------------------------------------------===//
  size_t bpRank() const { return blockShape.size(); }
  const Val &bpBase() const { return elems[0]; }
  const Val &bpShape(size_t d) const { return elems[1 + d]; }
  const Val &bpStride(size_t d) const { return elems[1 + bpRank() + d]; }
  const Val &bpOffset(size_t d) const { return elems[1 + 2 * bpRank() + d]; }
  Val &bpOffset(size_t d) { return elems[1 + 2 * bpRank() + d]; }
  /// Same block shape, order and element type: the static part of a block
  /// pointer's type, which a loop or an if must keep.
  bool sameBlockPtrType(const Val &o) const {
    return kind == Kind::BlockPtr && o.kind == Kind::BlockPtr &&
           blockShape == o.blockShape && order == o.order &&
           descriptor == o.descriptor && s == o.s &&
           elems.size() == o.elems.size() &&
           elems[0].type == o.elems[0].type;
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
      return i != 0 || wide;
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
  double asDouble() const {
    return kind == Kind::Float ? f : wide ? double(uint64_t(i)) : double(i);
  }
  /// An Int or Bool as a 128-bit integer (wide values are positive).
  __int128 asWide() const {
    return wide ? __int128(uint64_t(i)) : __int128(i);
  }
  /// The Int whose value is `v`, if it is in [-2^63, 2^64).
  static std::optional<Val> fromWide(__int128 v) {
    if (v < -(__int128(1) << 63) || v >= (__int128(1) << 64))
      return std::nullopt;
    Val r = integer(int64_t(uint64_t(v)));
    r.wide = v > __int128(INT64_MAX);
    return r;
  }
  /// Same compile-time value (runtime values: same SSA value).
  bool sameAs(const Val &o) const;
  /// Python repr-like text of a constexpr (`1024`, `True`, `tl.float16`).
  std::string repr() const;
};

} // namespace kiln::fe

#endif
