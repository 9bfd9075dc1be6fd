//===- Scan.cpp - tl.reduce, tl.associative_scan, tl.cumsum, tl.cumprod ---===//
//
// Generic reductions and scans with a combiner: a @triton.jit function is
// inlined into the combiner region of tile.reduce / tile.scan, called with
// scalars (accumulated values first, then the values folded in). Also the
// shared builders the named reductions (Reductions.cpp) use.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;
namespace arith = mlir::arith;

namespace {
/// Creates the combiner block of `region` and fills it through `body`.
mlir::LogicalResult fillCombiner(IRGen &g, mlir::Region &region,
                                 llvm::ArrayRef<Val> inputs, CombinerBody body,
                                 mlir::Location l) {
  llvm::SmallVector<mlir::Type> argTypes;
  llvm::SmallVector<TType> scalarTypes;
  for (int twice = 0; twice < 2; ++twice)
    for (const Val &v : inputs) {
      scalarTypes.push_back(v.type.scalar());
      argTypes.push_back(toMLIR(&g.ctx, v.type.scalar()));
    }
  mlir::OpBuilder::InsertionGuard guard(g.b);
  llvm::SmallVector<mlir::Location> locs(argTypes.size(), l);
  mlir::Block *block = g.b.createBlock(&region, {}, argTypes, locs);
  std::vector<Val> args;
  for (auto [arg, t] : llvm::zip(block->getArguments(), scalarTypes))
    args.push_back(Val::runtime(arg, t));
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> out = body(args);
  if (mlir::failed(out))
    return mlir::failure();
  tile::YieldOp::create(g.b, l, *out);
  return mlir::success();
}

/// `inputs` must be tensors of numbers with one shape.
mlir::LogicalResult checkInputs(IRGen &g, llvm::ArrayRef<Val> inputs,
                                llvm::StringRef fn, const CallExpr *e) {
  for (auto [k, v] : llvm::enumerate(inputs)) {
    if (!v.isRuntime() || !v.type.isTensor() || v.type.isPtr)
      return g.fail(e, "`" + fn + "` expects tensors of numbers, got " +
                           g.typeName(v) +
                           (inputs.size() > 1 ? " for input " + std::to_string(k)
                                              : std::string()));
    if (v.type.shape != inputs[0].type.shape)
      return g.fail(e, "inputs of `" + fn + "` must have one shape, got " +
                           shapeStr(inputs[0].type.shape) + " and " +
                           shapeStr(v.type.shape));
  }
  return mlir::success();
}

/// The inputs of tl.reduce / tl.associative_scan: a tensor or a tuple of
/// tensors; `isTuple` tells which, as the result takes the same form.
mlir::FailureOr<std::vector<Val>> readInputs(IRGen &g, const Arg &a,
                                             llvm::StringRef fn, bool &isTuple) {
  isTuple = a.v.kind == Val::Kind::Tuple;
  std::vector<Val> inputs = isTuple ? a.v.elems : std::vector<Val>{a.v};
  if (inputs.empty())
    return g.fail(a.node, "`" + fn + "` needs at least one input tensor");
  return inputs;
}

/// Inlines the user's @triton.jit combiner for `n` inputs.
struct JitCombiner {
  IRGen &g;
  const FunctionDef *fn;
  llvm::StringRef builtin;
  const CallExpr *e;

  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operator()(llvm::ArrayRef<Val> args) {
    size_t n = args.size() / 2;
    CallArgs call;
    for (const Val &v : args) {
      call.pos.push_back(v);
      call.posNodes.push_back(e);
    }
    mlir::FailureOr<Val> r = g.callFunction(fn, call, e);
    if (mlir::failed(r))
      return mlir::failure();
    std::vector<Val> outs =
        r->kind == Val::Kind::Tuple ? r->elems : std::vector<Val>{*r};
    if (outs.size() != n)
      return g.fail(e, "combine_fn `" + fn->name + "` of `" + builtin +
                           "` must return " + std::to_string(n) + " value" +
                           (n == 1 ? "" : "s") + ", one per input, but returns " +
                           std::to_string(outs.size()));
    llvm::SmallVector<mlir::Value> values;
    for (size_t k = 0; k < n; ++k) {
      Val v = outs[k];
      TType want = args[k].type;
      if (v.isNumber()) {
        mlir::FailureOr<Val> c = g.constant(v, want.dtype, e);
        if (mlir::failed(c))
          return mlir::failure();
        v = *c;
      }
      if (!v.isRuntime() || v.type != want)
        return g.fail(e, "combine_fn `" + fn->name + "` of `" + builtin +
                             "` must return " + g.typeName(want) +
                             (n == 1 ? "" : " for input " + std::to_string(k)) +
                             ", got " + g.typeName(v));
      values.push_back(v.value);
    }
    return values;
  }
};

/// The combine_fn argument: a @triton.jit function taking 2 * n arguments.
mlir::FailureOr<const FunctionDef *> readCombiner(IRGen &g, const Arg &a,
                                                 llvm::StringRef fn, size_t n) {
  if (a.v.kind != Val::Kind::Function || !a.v.fn)
    return g.fail(a.node, "`combine_fn` of `" + fn +
                              "` must be a @triton.jit function, got " +
                              g.typeName(a.v));
  const FunctionDef *def = a.v.fn;
  if (!g.isJit(def))
    return g.fail(a.node, "`combine_fn` of `" + fn + "` must be a @triton.jit "
                              "function; `" + def->name + "` is not");
  if (def->params.size() != 2 * n)
    return g.fail(a.node, "combine_fn `" + def->name + "` of `" + fn +
                              "` must take " + std::to_string(2 * n) +
                              " arguments (two per input), it takes " +
                              std::to_string(def->params.size()));
  return def;
}

Val packResults(std::vector<Val> results, bool isTuple) {
  return isTuple ? Val::tuple(std::move(results)) : results[0];
}

FailureOr<Val> reduceBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  bool isTuple = false;
  FailureOr<std::vector<Val>> inputs = readInputs(g, a[0], rd.fn, isTuple);
  if (failed(inputs) || failed(checkInputs(g, *inputs, rd.fn, e)))
    return failure();
  std::optional<unsigned> axis;
  if (!rd.isNone(a[1])) {
    FailureOr<unsigned> ax = rd.axis(a[1], (*inputs)[0].type.shape.size());
    if (failed(ax))
      return failure();
    axis = *ax;
  }
  FailureOr<const FunctionDef *> fn = readCombiner(g, a[2], rd.fn, inputs->size());
  if (failed(fn))
    return failure();
  FailureOr<bool> keep = rd.constBoolOr(a[3], "keep_dims", false);
  if (failed(keep))
    return failure();
  JitCombiner body{g, *fn, rd.fn, e};
  FailureOr<std::vector<Val>> r = reduceWith(g, *inputs, axis, *keep, body, e);
  if (failed(r))
    return failure();
  return packResults(*r, isTuple);
}

FailureOr<Val> associativeScanBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  bool isTuple = false;
  FailureOr<std::vector<Val>> inputs = readInputs(g, a[0], rd.fn, isTuple);
  if (failed(inputs) || failed(checkInputs(g, *inputs, rd.fn, e)))
    return failure();
  FailureOr<unsigned> axis = rd.axis(a[1], (*inputs)[0].type.shape.size());
  if (failed(axis))
    return failure();
  FailureOr<const FunctionDef *> fn = readCombiner(g, a[2], rd.fn, inputs->size());
  if (failed(fn))
    return failure();
  FailureOr<bool> reverse = rd.constBoolOr(a[3], "reverse", false);
  if (failed(reverse))
    return failure();
  JitCombiner body{g, *fn, rd.fn, e};
  FailureOr<std::vector<Val>> r = scanWith(g, *inputs, *axis, *reverse, body, e);
  if (failed(r))
    return failure();
  return packResults(*r, isTuple);
}

/// Triton's _pick_sum_dtype: integers narrower than 32 bits widen to int32,
/// or uint32 when unsigned (int1 counts as unsigned in Triton).
std::optional<DType> pickSumDType(DType d) {
  if (!isIntDType(d) || bitWidth(d) >= 32)
    return std::nullopt;
  return isUnsigned(d) || d == DType::I1 ? DType::U32 : DType::I32;
}

/// tl.cumsum / tl.cumprod.
FailureOr<Val> cumulative(BuiltinCall &call, bool product) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<Val> in = rd.value(a[0], "input");
  if (failed(in))
    return failure();
  Val v = *in;
  if (failed(checkInputs(g, {v}, rd.fn, e)))
    return failure();
  // axis=0 by default, as in Triton (`tl.cumsum(x)`).
  FailureOr<unsigned> axis =
      a[1].given ? rd.axis(a[1], v.type.shape.size()) : FailureOr<unsigned>(0u);
  if (failed(axis))
    return failure();
  FailureOr<bool> reverse = rd.constBoolOr(a[2], "reverse", false);
  if (failed(reverse))
    return failure();
  std::optional<DType> target;
  if (v.type.dtype == DType::BF16)
    target = DType::F32;
  if (!product) {
    if (!rd.isNone(a[3])) {
      FailureOr<DType> d = rd.dtype(a[3], "dtype");
      if (failed(d))
        return failure();
      target = *d;
    } else if (std::optional<DType> wide = pickSumDType(v.type.dtype)) {
      target = wide;
    }
  }
  if (target && *target != v.type.dtype) {
    FailureOr<Val> c = g.cast(v, *target, a[0].node);
    if (failed(c))
      return failure();
    v = *c;
  }
  bool isFloatType = isFloat(v.type.dtype);
  auto body = [&](llvm::ArrayRef<Val> xs) -> FailureOr<llvm::SmallVector<mlir::Value>> {
    mlir::Value x = xs[0].value, y = xs[1].value, r;
    if (product)
      r = isFloatType ? arith::MulFOp::create(g.b, l, x, y).getResult()
                      : arith::MulIOp::create(g.b, l, x, y).getResult();
    else
      r = isFloatType ? arith::AddFOp::create(g.b, l, x, y).getResult()
                      : arith::AddIOp::create(g.b, l, x, y).getResult();
    return llvm::SmallVector<mlir::Value>{r};
  };
  FailureOr<std::vector<Val>> r = scanWith(g, {v}, *axis, *reverse, body, e);
  if (failed(r))
    return failure();
  return (*r)[0];
}

FailureOr<Val> cumsumBuiltin(BuiltinCall &call) { return cumulative(call, false); }
FailureOr<Val> cumprodBuiltin(BuiltinCall &call) { return cumulative(call, true); }
} // namespace

FailureOr<std::vector<Val>> kiln::fe::reduceWith(IRGen &g, std::vector<Val> inputs,
                                                 std::optional<unsigned> axis,
                                                 bool keepDims, CombinerBody body,
                                                 const Node *e) {
  mlir::Location l = g.loc(e);
  int64_t rank = inputs[0].type.shape.size();
  llvm::SmallVector<unsigned, 2> axes;
  if (axis)
    axes.push_back(*axis);
  else
    for (int64_t k = rank - 1; k >= 0; --k)
      axes.push_back(unsigned(k));
  for (unsigned ax : axes) {
    llvm::SmallVector<mlir::Value> srcs;
    llvm::SmallVector<mlir::Type> resultTypes;
    std::vector<TType> types;
    for (const Val &v : inputs) {
      llvm::SmallVector<int64_t, 2> s(v.type.shape);
      s.erase(s.begin() + ax);
      types.push_back(v.type.withShape(s));
      resultTypes.push_back(toMLIR(&g.ctx, types.back()));
      srcs.push_back(v.value);
    }
    auto op = tile::ReduceOp::create(g.b, l, resultTypes, srcs, ax);
    if (failed(fillCombiner(g, op.getCombiner(), inputs, body, l)))
      return failure();
    for (auto [k, r] : llvm::enumerate(op.getResults()))
      inputs[k] = Val::runtime(r, types[k]);
  }
  if (keepDims) {
    for (Val &v : inputs) {
      llvm::SmallVector<int64_t, 2> s(v.type.shape);
      for (unsigned ax : llvm::reverse(axes))
        s.insert(s.begin() + std::min<size_t>(ax, s.size()), 1);
      if (!v.type.isTensor()) {
        FailureOr<Val> b = g.broadcastTo(v, s, e, "result");
        if (failed(b))
          return failure();
        v = *b;
        continue;
      }
      TType t = v.type.withShape(s);
      v = Val::runtime(
          tile::ExpandDimsOp::create(g.b, l, toMLIR(&g.ctx, t), v.value, axes[0]), t);
    }
  }
  return inputs;
}

FailureOr<std::vector<Val>> kiln::fe::scanWith(IRGen &g, std::vector<Val> inputs,
                                               unsigned axis, bool reverse,
                                               CombinerBody body,
                                               const CallExpr *e) {
  mlir::Location l = g.loc(e);
  llvm::SmallVector<mlir::Value> srcs;
  llvm::SmallVector<mlir::Type> types;
  for (const Val &v : inputs) {
    srcs.push_back(v.value);
    types.push_back(v.value.getType());
  }
  auto op = tile::ScanOp::create(g.b, l, types, srcs, axis, reverse);
  if (failed(fillCombiner(g, op.getCombiner(), inputs, body, l)))
    return failure();
  for (auto [k, r] : llvm::enumerate(op.getResults()))
    inputs[k] = Val::runtime(r, inputs[k].type);
  return inputs;
}

llvm::ArrayRef<BuiltinDef> kiln::fe::scanBuiltins() {
  static const BuiltinDef defs[] = {
      {"reduce", {"input", "axis", "combine_fn", "keep_dims=False"}, true, false,
       reduceBuiltin, false},
      {"associative_scan", {"input", "axis", "combine_fn", "reverse=False"}, true,
       false, associativeScanBuiltin, false},
      {"cumsum", {"input", "axis=0", "reverse=False", "dtype=None"}, true, false,
       cumsumBuiltin, false},
      {"cumprod", {"input", "axis=0", "reverse=False"}, true, false,
       cumprodBuiltin, false},
  };
  return defs;
}
