//===- BuiltinArgs.h - Reading bound builtin arguments ---------*- C++ -*-===//
//
// Helpers that read the arguments of a builtin call after binding, with
// messages naming the builtin and the argument.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_BUILTINARGS_H
#define KILN_LIB_FRONTEND_BUILTINARGS_H

#include "IRGen.h"

namespace kiln::fe {

/// `x.to(d, bitcast=True)`: reinterprets the bits of a value as `d`, which
/// must have the same width (IRGenOps.cpp).
mlir::FailureOr<Val> bitcastValue(IRGen &g, const Val &v, DType d,
                                  const ast::Node *where);

/// Reads bound arguments of the builtin `fn`.
struct ArgReader {
  IRGen &g;
  llvm::StringRef fn;

  bool isNone(const Arg &a) const {
    return !a.given || a.v.kind == Val::Kind::None;
  }
  mlir::FailureOr<int64_t> constInt(const Arg &a, llvm::StringRef what) {
    if (a.v.kind != Val::Kind::Int && a.v.kind != Val::Kind::Bool)
      return g.fail(a.node, "`" + what + "` of `" + fn +
                                "` must be a constexpr integer, got " +
                                g.typeName(a.v));
    return a.v.i;
  }
  mlir::FailureOr<bool> constBool(const Arg &a, llvm::StringRef what) {
    if (!a.v.isConstexpr() || a.v.kind == Val::Kind::Tuple)
      return g.fail(a.node, "`" + what + "` of `" + fn +
                                "` must be a constexpr bool, got " +
                                g.typeName(a.v));
    return a.v.truthy();
  }
  /// A constexpr bool, or `dflt` where the argument is None or not given
  /// (unbound parameters are None: a builtin's defaults are applied here).
  mlir::FailureOr<bool> constBoolOr(const Arg &a, llvm::StringRef what, bool dflt) {
    return isNone(a) ? mlir::FailureOr<bool>(dflt) : constBool(a, what);
  }
  /// A dtype, or `dflt` where the argument is None or not given.
  mlir::FailureOr<DType> dtypeOr(const Arg &a, llvm::StringRef what, DType dflt) {
    return isNone(a) ? mlir::FailureOr<DType>(dflt) : dtype(a, what);
  }
  mlir::FailureOr<DType> dtype(const Arg &a, llvm::StringRef what) {
    if (a.v.kind != Val::Kind::DType || a.v.dtPtr)
      return g.fail(a.node, "`" + what + "` of `" + fn +
                                "` must be a dtype such as tl.float32, got " +
                                g.typeName(a.v));
    return a.v.dt;
  }
  mlir::FailureOr<std::string> constStr(const Arg &a, llvm::StringRef what) {
    if (a.v.kind != Val::Kind::Str)
      return g.fail(a.node, "`" + what + "` of `" + fn +
                                "` must be a constexpr string, got " +
                                g.typeName(a.v));
    return a.v.s;
  }
  mlir::FailureOr<llvm::SmallVector<int64_t, 2>> shape(const Arg &a) {
    if (a.v.kind != Val::Kind::Tuple)
      return g.fail(a.node, "shape of `" + fn +
                                "` must be a list or tuple of constexpr "
                                "integers, e.g. [BLOCK], got " +
                                g.typeName(a.v));
    llvm::SmallVector<int64_t, 2> s;
    int64_t numel = 1;
    for (size_t k = 0; k < a.v.elems.size(); ++k) {
      const Val &d = a.v.elems[k];
      if (d.kind != Val::Kind::Int)
        return g.fail(a.node, "shape element " + std::to_string(k) + " of `" +
                                  fn + "` must be a constexpr integer, got " +
                                  g.typeName(d));
      if (d.i <= 0 || (d.i & (d.i - 1)) != 0)
        return g.fail(a.node, "shape element " + std::to_string(k) + " of `" +
                                  fn + "` is " + std::to_string(d.i) +
                                  ", which is not a power of two");
      numel *= d.i;
      if (numel > kMaxTensorNumel)
        return g.fail(a.node,
                      "tensor of shape " + a.v.repr() + " has more than " +
                          std::to_string(kMaxTensorNumel) + " elements");
      s.push_back(d.i);
    }
    return s;
  }
  /// A runtime value (constexpr numbers become scalars of default type).
  mlir::FailureOr<Val> value(const Arg &a, llvm::StringRef what) {
    if (a.v.isRuntime())
      return a.v;
    if (a.v.isNumber())
      return g.toRuntime(a.v, a.node);
    return g.fail(a.node, "`" + what + "` of `" + fn +
                              "` must be a tensor or a number, got " +
                              g.typeName(a.v));
  }
  mlir::FailureOr<Val> pointer(const Arg &a) {
    if (!a.v.isRuntime() || !a.v.type.isPtr)
      return g.fail(a.node, "`" + fn +
                                "` expects a pointer or a tensor of "
                                "pointers, got " +
                                g.typeName(a.v));
    return a.v;
  }
  /// A pointer written through (stores, atomics): not a `tl.const` one.
  mlir::FailureOr<Val> writablePointer(const Arg &a) {
    mlir::FailureOr<Val> p = pointer(a);
    if (mlir::succeeded(p) && p->type.isConst)
      return g.fail(a.node, constStoreMessage(g.typeName(*p)));
    return p;
  }
  /// Triton's words first, so a search for its message finds this one.
  std::string constStoreMessage(const std::string &type) const {
    return "Cannot store to a constant pointer: `" + fn.str() +
           "` writes through " + type + " (from a `tl.const` parameter)";
  }
  /// Normalized reduction / expansion axis.
  mlir::FailureOr<unsigned> axis(const Arg &a, int64_t rank) {
    mlir::FailureOr<int64_t> ax = constInt(a, "axis");
    if (failed(ax))
      return mlir::failure();
    int64_t n = *ax < 0 ? *ax + rank : *ax;
    if (n < 0 || n >= rank)
      return g.fail(a.node, "axis " + std::to_string(*ax) +
                                " is out of range for a tensor of rank " +
                                std::to_string(rank));
    return unsigned(n);
  }
};
} // namespace kiln::fe

#endif
