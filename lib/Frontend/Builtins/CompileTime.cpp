//===- CompileTime.cpp - constexpr, cdiv, static_assert, hints ------------===//
//
// Builtins evaluated (or checked) at compile time, and the compiler hints
// multiple_of / max_contiguous / max_constancy.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

#include <functional>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

namespace {
static FailureOr<Val> constexprBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  if (!a[0].v.isConstexpr())
    return g.fail(a[0].node, "`tl.constexpr` needs a compile-time value, "
                             "got " +
                                 g.typeName(a[0].v));
  return a[0].v;
}

static FailureOr<Val> rangeBuiltin(BuiltinCall &c) {
  return c.g.fail(c.e,
                  "`" + c.rd.fn + "` can only be the iterable of a `for` loop");
}

static FailureOr<Val> cdivBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  // (x + div - 1) // div, with Python semantics on constexprs.
  FailureOr<Val> s = g.binary(BinOpKind::Add, a[0].v, a[1].v, e);
  if (failed(s))
    return failure();
  FailureOr<Val> m = g.binary(BinOpKind::Sub, *s, Val::integer(1), e);
  if (failed(m))
    return failure();
  return g.binary(BinOpKind::FloorDiv, *m, a[1].v, e);
}

static FailureOr<Val> static_assertBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  if (!a[0].v.isConstexpr())
    return g.fail(a[0].node, "`tl.static_assert` needs a constexpr "
                             "condition, got " +
                                 g.typeName(a[0].v));
  if (!a[0].v.truthy()) {
    std::string msg =
        a[1].given && a[1].v.kind == Val::Kind::Str ? ": " + a[1].v.s : "";
    return g.fail(e, "static assertion failed" + msg);
  }
  return Val::none();
}

/// tl.assume(cond): a promise that `cond` holds, which Triton hands to LLVM
/// (llvm.assume) to simplify index arithmetic. Kiln checks the condition is a
/// boolean and does not use the promise yet; a constexpr False is refused.
static FailureOr<Val> assumeBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  const Val &c = a[0].v;
  if (c.isConstexpr()) {
    if (!c.truthy())
      return g.fail(a[0].node, "`tl.assume` of a condition that is false");
    return Val::none();
  }
  if (!c.isRuntime() || c.type.isPtr || c.type.dtype != DType::I1)
    return g.fail(a[0].node, "`tl.assume` expects a boolean condition, got " +
                                 g.typeName(c));
  return Val::none();
}

static FailureOr<Val> hintBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;

  FailureOr<Val> x = rd.value(a[0], "input");
  if (failed(x))
    return failure();
  // Pointers too (attnres-style gathered bases): an address's divisor.
  if (!x->type.isPtr && isFloat(x->type.dtype))
    return g.fail(a[0].node, "`" + name +
                                 "` expects an integer or pointer value, "
                                 "got " +
                                 g.typeName(*x));
  std::vector<Val> vals =
      a[1].v.kind == Val::Kind::Tuple ? a[1].v.elems : std::vector<Val>{a[1].v};
  size_t rank = std::max<size_t>(1, x->type.shape.size());
  if (vals.size() != rank)
    return g.fail(a[1].node, "`" + name +
                                 "` needs one value per dimension: "
                                 "got " +
                                 std::to_string(vals.size()) +
                                 " for a value of rank " +
                                 std::to_string(x->type.shape.size()));
  llvm::SmallVector<int32_t> ints;
  for (const Val &v : vals) {
    if (v.kind != Val::Kind::Int || v.i <= 0 || v.i > INT32_MAX)
      return g.fail(a[1].node, "`values` of `" + name +
                                   "` must be positive constexpr integers, "
                                   "got " +
                                   g.typeName(v));
    ints.push_back(int32_t(v.i));
  }
  // Triton attaches a hint to the value itself (an attribute on its
  // defining op, or on the loop of a loop-carried one), so it holds for every
  // use, even when the call's result is dropped: the grouped GEMM
  // tutorial's `tl.multiple_of(a_ptrs, [16, 16])` statement at the top of
  // its K loop vectorizes the loads of `a_ptrs` that follow. Kiln puts the
  // hint right after the value's definition and gives it every other use.
  mlir::Value orig = x->value;
  mlir::Type t = toMLIR(&g.ctx, x->type);
  mlir::Value r;
  {
    mlir::OpBuilder::InsertionGuard guard(g.b);
    if (mlir::Operation *def = orig.getDefiningOp())
      g.b.setInsertionPointAfter(def);
    else
      g.b.setInsertionPointToStart(mlir::cast<mlir::BlockArgument>(orig).getOwner());
    if (name == "tl.multiple_of")
      r = tile::MultipleOfOp::create(g.b, l, t, orig, ints);
    else if (name == "tl.max_contiguous")
      r = tile::MaxContiguousOp::create(g.b, l, t, orig, ints);
    else
      r = tile::MaxConstancyOp::create(g.b, l, t, orig, ints);
  }
  orig.replaceAllUsesExcept(r, r.getDefiningOp());
  // Names still bound to the unhinted value read the hinted one.
  std::function<void(Val &)> rebind = [&](Val &v) {
    if (v.isRuntime() && v.value == orig)
      v.value = r;
    for (Val &e : v.elems)
      rebind(e);
  };
  if (g.fs)
    for (auto &[n, binding] : g.fs->scope)
      rebind(binding.v);
  return Val::runtime(r, x->type);
}
/// tl.core.get_int_dtype(bitwidth, signed): the integer dtype of that
/// width (Triton's helper, which libraries call to bitcast floats).
static FailureOr<Val> getIntDtypeBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  const Val &bits = a[0].v, &sign = a[1].v;
  if (bits.kind != Val::Kind::Int)
    return g.fail(a[0].node, "`bitwidth` of `tl.core.get_int_dtype` must be "
                             "a constexpr integer, got " +
                                 g.typeName(bits));
  if (!sign.isConstexpr())
    return g.fail(a[1].node, "`signed` of `tl.core.get_int_dtype` must be a "
                             "constexpr, got " +
                                 g.typeName(sign));
  if (std::optional<DType> d = intDType(bits.i, sign.truthy()))
    return Val::dtype(*d);
  return g.fail(a[0].node, "`tl.core.get_int_dtype`: unsupported bitwidth " +
                               std::to_string(bits.i) + " (1, 8, 16, 32 or 64)");
}
/// tl.standard._log2(i): floor(log2(i)) of a constexpr integer (0 for i <= 1).
static FailureOr<Val> log2Builtin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  if (a[0].v.kind != Val::Kind::Int)
    return g.fail(a[0].node, "`tl.standard._log2` needs a constexpr integer, "
                             "got " +
                                 g.typeName(a[0].v));
  int64_t n = a[0].v.i, log2 = 0;
  while (n > 1) {
    n >>= 1;
    ++log2;
  }
  return Val::integer(log2);
}
/// triton.language.target_info: what the compilation targets, as constexpr
/// booleans (`if cuda_capability_geq(10, 0):` guards newer inline asm).
static FailureOr<Val> targetInfoBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef fn = llvm::StringRef(rd.fn).rsplit('.').second;
  if (fn != "cuda_capability_geq")
    return Val::boolean(fn == "is_cuda"); // Kiln targets NVIDIA GPUs only
  const Val &major = a[0].v, &minor = a[1].v;
  if (major.kind != Val::Kind::Int ||
      (minor.kind != Val::Kind::Int && minor.kind != Val::Kind::None))
    return g.fail(e, "`cuda_capability_geq` takes constexpr integers (major, minor=0), got " +
                         g.typeName(major) + " and " + g.typeName(minor));
  int64_t want = major.i * 10 + (minor.kind == Val::Kind::Int ? minor.i : 0);
  return Val::boolean(int64_t(archNumber(g.spec.arch)) >= want);
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::compileTimeBuiltins() {
  static const BuiltinDef defs[] = {
      {"constexpr", {"value"}, false, false, constexprBuiltin, false},
      {"range", {}, false, false, rangeBuiltin, true},
      {"static_range", {}, false, false, rangeBuiltin, true},
      {"cdiv", {"x", "div"}, /*tensorMethod=*/true, true, cdivBuiltin, false},
      {"static_assert",
       {"cond", "msg="},
       false,
       false,
       static_assertBuiltin,
       false},
      {"multiple_of", {"input", "values"}, false, false, hintBuiltin, false},
      {"assume", {"cond"}, false, false, assumeBuiltin, false},
      {"standard._log2", {"i"}, false, false, log2Builtin, false},
      {"core.get_int_dtype",
       {"bitwidth", "signed"},
       false,
       false,
       getIntDtypeBuiltin,
       false},
      {"target_info.cuda_capability_geq", {"major", "minor="}, false, false, targetInfoBuiltin,
       false},
      {"target_info.is_cuda", {}, false, false, targetInfoBuiltin, false},
      {"target_info.is_hip", {}, false, false, targetInfoBuiltin, false},
      {"target_info.is_hip_cdna3", {}, false, false, targetInfoBuiltin, false},
      {"target_info.is_hip_cdna4", {}, false, false, targetInfoBuiltin, false},
      {"max_contiguous", {"input", "values"}, false, false, hintBuiltin, false},
      {"max_constancy", {"input", "values"}, false, false, hintBuiltin, false},
  };
  return defs;
}
