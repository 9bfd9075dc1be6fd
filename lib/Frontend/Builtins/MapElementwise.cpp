//===- MapElementwise.cpp - tl.map_elementwise ----------------------------===//
//
// Triton 3.6's map_elementwise(scalar_fn, *args, pack=1): the arguments are
// broadcast to one shape and the @triton.jit `scalar_fn` is inlined into the
// body of a tile.map_elementwise with scalar arguments, so its runtime `if`s
// and loops are per element (scf on scalars) instead of both sides of a
// tl.where. With pack > 1 the function takes `pack` scalars of each argument
// in turn and returns `pack` scalars of each result in turn.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"

using namespace kiln;
using namespace kiln::fe;

FailureOr<Val> kiln::fe::mapElementwiseBuiltin(BuiltinCall &c) {
  IRGen &g = c.g;
  const CallArgs &args = c.args;
  const char *fn = "tl.map_elementwise";
  int64_t pack = 1;
  for (auto [k, kw] : llvm::enumerate(args.kw)) {
    if (kw.first != "pack")
      return g.fail(args.kwNodes[k], std::string("`") + fn +
                                         "` got an unexpected keyword argument `" +
                                         kw.first + "`");
    if (kw.second.kind != Val::Kind::Int || kw.second.i < 1)
      return g.fail(args.kwNodes[k], std::string("`pack` of `") + fn +
                                         "` must be a positive constexpr int, got " +
                                         g.typeName(kw.second));
    pack = kw.second.i;
  }
  if (args.pos.size() < 2)
    return g.fail(c.e, std::string("`") + fn +
                           "` needs a @triton.jit function and at least one tensor");
  const Val &f = args.pos[0];
  if (f.kind != Val::Kind::Function || !f.fn || !g.isJit(f.fn))
    return g.fail(args.posNodes[0], std::string("`scalar_fn` of `") + fn +
                                        "` must be a @triton.jit function, got " +
                                        g.typeName(f));

  // The tensors, broadcast together (no promotion, as Triton).
  std::vector<Val> inputs;
  for (size_t k = 1; k < args.pos.size(); ++k) {
    const Val &v = args.pos[k];
    if (!v.isRuntime() || v.type.isPtr ||
        v.type.dtype == DType::F8E4M3 || v.type.dtype == DType::F8E5M2)
      return g.fail(args.posNodes[k], std::string("`") + fn +
                                          "` maps over tensors of numbers (not fp8), got " +
                                          g.typeName(v));
    inputs.push_back(v);
  }
  if (failed(broadcastTogether(g, inputs, /*allowPtr=*/false, /*arith=*/false, c.e, fn)))
    return failure();
  llvm::SmallVector<int64_t, 2> shape = inputs[0].type.shape;
  if (shape.empty())
    return g.fail(c.e, std::string("`") + fn + "` needs at least one tensor argument");
  int64_t numel = 1;
  for (int64_t d : shape)
    numel *= d;
  if (numel % pack != 0)
    return g.fail(c.e, "the number of elements (" + std::to_string(numel) +
                           ") is not a multiple of `pack` (" + std::to_string(pack) + ")");
  if (f.fn->params.size() != inputs.size() * pack)
    return g.fail(args.posNodes[0],
                  "`" + f.fn->name + "` must take " + std::to_string(inputs.size() * pack) +
                      " arguments (`pack` scalars per tensor), it takes " +
                      std::to_string(f.fn->params.size()));

  // The body: scalar block arguments, the function inlined, its values
  // yielded; the result types come from what it returns.
  llvm::SmallVector<mlir::Value> operands;
  llvm::SmallVector<mlir::Type> argTypes;
  std::vector<TType> scalarTypes;
  for (const Val &v : inputs) {
    operands.push_back(v.value);
    for (int64_t j = 0; j < pack; ++j) {
      scalarTypes.push_back(v.type.scalar());
      argTypes.push_back(toMLIR(&g.ctx, v.type.scalar()));
    }
  }
  auto region = std::make_unique<mlir::Region>();
  std::vector<TType> resultScalars;
  llvm::SmallVector<mlir::Value> yielded;
  {
    mlir::OpBuilder::InsertionGuard guard(g.b);
    llvm::SmallVector<mlir::Location> locs(argTypes.size(), c.loc);
    mlir::Block *block = g.b.createBlock(region.get(), {}, argTypes, locs);
    CallArgs call;
    for (auto [arg, t] : llvm::zip(block->getArguments(), scalarTypes)) {
      call.pos.push_back(Val::runtime(arg, t));
      call.posNodes.push_back(c.e);
    }
    FailureOr<Val> r = g.callFunction(f.fn, call, c.e);
    if (failed(r))
      return failure();
    std::vector<Val> outs = r->kind == Val::Kind::Tuple ? r->elems : std::vector<Val>{*r};
    if (outs.empty() || outs.size() % pack != 0)
      return g.fail(c.e, "`" + f.fn->name + "` must return `pack` (" + std::to_string(pack) +
                             ") scalars per result, it returns " +
                             std::to_string(outs.size()));
    for (auto [k, v] : llvm::enumerate(outs)) {
      if (!v.isRuntime() || v.type.isTensor() || v.type.isPtr)
        return g.fail(c.e, "`" + f.fn->name + "` must return scalars for `" + fn +
                               "`, value " + std::to_string(k) + " is " + g.typeName(v));
      if (k % pack == 0)
        resultScalars.push_back(v.type);
      else if (v.type != resultScalars.back())
        return g.fail(c.e, "`" + f.fn->name + "` returns " + g.typeName(v) +
                               " and " + g.typeName(resultScalars.back()) +
                               " for the packed elements of one result");
      yielded.push_back(v.value);
    }
    tile::YieldOp::create(g.b, c.loc, yielded);
  }
  llvm::SmallVector<mlir::Type> resultTypes;
  for (const TType &t : resultScalars)
    resultTypes.push_back(toMLIR(&g.ctx, TType{t.dtype, false, shape}));
  auto op = tile::MapElementwiseOp::create(g.b, c.loc, resultTypes, operands,
                                           g.b.getI32IntegerAttr(pack));
  op.getBody().takeBody(*region);
  std::vector<Val> results;
  for (auto [res, t] : llvm::zip(op.getResults(), resultScalars))
    results.push_back(Val::runtime(res, TType{t.dtype, false, shape}));
  if (results.size() == 1)
    return results[0];
  return Val::tuple(std::move(results));
}
