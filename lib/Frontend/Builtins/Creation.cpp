//===- Creation.cpp - program_id, arange, zeros, full ---------------------===//
//
// Values a program starts from: its ids, ranges and filled tensors.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

namespace {
static FailureOr<Val> program_idBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;

  FailureOr<int64_t> ax = rd.constInt(a[0], "axis");
  if (failed(ax))
    return failure();
  if (*ax < 0 || *ax > 2)
    return g.fail(a[0].node, "`" + name + "` axis must be 0, 1 or 2, got " +
                                 std::to_string(*ax));
  mlir::Type i32 = g.b.getI32Type();
  mlir::Value v =
      name == "tl.program_id"
          ? mlir::Value(tile::ProgramIdOp::create(g.b, l, i32, unsigned(*ax)))
          : tile::NumProgramsOp::create(g.b, l, i32, unsigned(*ax));
  return Val::runtime(v, TType{DType::I32, false, {}});
}

static FailureOr<Val> arangeBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  for (const Arg &x : a)
    if (x.v.kind != Val::Kind::Int)
      return g.fail(x.node, "`tl.arange` arguments must be constexpr "
                            "integers, got " +
                                g.typeName(x.v));
  int64_t s = a[0].v.i, en = a[1].v.i;
  if (s < 0 || en > INT32_MAX || s > INT32_MAX)
    return g.fail(e, "`tl.arange` bounds must be in [0, 2**31), got " +
                         std::to_string(s) + " and " + std::to_string(en));
  if (en <= s)
    return g.fail(e, "`tl.arange` end (" + std::to_string(en) +
                         ") must be greater than start (" + std::to_string(s) +
                         ")");
  int64_t n = en - s;
  if ((n & (n - 1)) != 0)
    return g.fail(e, "`tl.arange` length " + std::to_string(n) +
                         " is not a power of two");
  if (n > kMaxTensorNumel)
    return g.fail(e, "`tl.arange` length " + std::to_string(n) +
                         " exceeds the maximum tensor size of " +
                         std::to_string(kMaxTensorNumel) + " elements");
  TType t{DType::I32, false, {n}};
  return Val::runtime(tile::ArangeOp::create(g.b, l, toMLIR(&g.ctx, t),
                                             uint32_t(s), uint32_t(en)),
                      t);
}

static FailureOr<Val> zerosBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;
  llvm::SmallVector<int64_t, 2> shape;
  DType d;
  Val value = Val::integer(0);
  const Node *valueNode = e;
  if (name == "tl.zeros_like") {
    if (!a[0].v.isRuntime() || a[0].v.type.isPtr)
      return g.fail(a[0].node, "`tl.zeros_like` expects a tensor of "
                               "numbers, got " +
                                   g.typeName(a[0].v));
    shape.assign(a[0].v.type.shape.begin(), a[0].v.type.shape.end());
    d = a[0].v.type.dtype;
    if (!rd.isNone(a[1])) {
      FailureOr<DType> dd = rd.dtype(a[1], "dtype");
      if (failed(dd))
        return failure();
      d = *dd;
    }
  } else {
    bool full = name == "tl.full";
    FailureOr<llvm::SmallVector<int64_t, 2>> s = rd.shape(a[0]);
    if (failed(s))
      return failure();
    shape = *s;
    const Arg &dArg = full ? a[2] : a[1];
    if (!dArg.given) {
      d = DType::F32; // Triton's default for tl.zeros
    } else {
      FailureOr<DType> dd = rd.dtype(dArg, "dtype");
      if (failed(dd))
        return failure();
      d = *dd;
    }
    if (full) {
      value = a[1].v;
      valueNode = a[1].node;
    }
  }
  FailureOr<Val> scalar;
  if (value.isNumber()) {
    scalar = g.constant(value, d, valueNode);
  } else if (value.isRuntime() && !value.type.isTensor() && !value.type.isPtr) {
    scalar = g.cast(value, d, valueNode);
  } else {
    return g.fail(valueNode, "`value` of `tl.full` must be a scalar, got " +
                                 g.typeName(value));
  }
  if (failed(scalar))
    return failure();
  return g.broadcastTo(*scalar, shape, e, "value");
}

/// tl.to_tensor(x): a Python number as a runtime scalar of its default type
/// (int32, int64 when it does not fit, fp32, int1); tensors unchanged.
static FailureOr<Val> toTensorBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  return g.toRuntime(a[0].v, a[0].node);
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::creationBuiltins() {
  static const BuiltinDef defs[] = {
      {"program_id", {"axis"}, false, false, program_idBuiltin, false},
      {"num_programs", {"axis"}, false, false, program_idBuiltin, false},
      {"arange", {"start", "end"}, false, false, arangeBuiltin, false},
      {"zeros", {"shape", "dtype"}, false, false, zerosBuiltin, false},
      {"full", {"shape", "value", "dtype"}, false, false, zerosBuiltin, false},
      {"to_tensor", {"x"}, false, false, toTensorBuiltin, false},
      {"zeros_like",
       {"input", "dtype=None"},
       false,
       false,
       zerosBuiltin,
       false},
  };
  return defs;
}
