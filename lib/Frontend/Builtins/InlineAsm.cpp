//===- InlineAsm.cpp - tl.inline_asm_elementwise --------------------------===//
//
// Triton 3.6's inline_asm_elementwise(asm, constraints, args, dtype, is_pure,
// pack): the arguments are broadcast to one shape (no promotion, pointers
// allowed), `dtype` is one dtype (one result) or a tuple of dtypes (a tuple
// of results), and the constraint string is checked here against the
// registers the lowering will pass (narrow elements packed into 32 bits when
// pack > 1), so a mismatch is an error at the call, not in LLVM.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"

using namespace kiln;
using namespace kiln::fe;

FailureOr<Val> kiln::fe::inlineAsmBuiltin(BuiltinCall &c) {
  IRGen &g = c.g;
  FailureOr<std::string> text = c.rd.constStr(c.a[0], "asm");
  FailureOr<std::string> constraints = c.rd.constStr(c.a[1], "constraints");
  if (failed(text) || failed(constraints))
    return failure();
  FailureOr<bool> pure = c.rd.constBool(c.a[4], "is_pure");
  FailureOr<int64_t> pack = c.rd.constInt(c.a[5], "pack");
  if (failed(pure) || failed(pack))
    return failure();
  if (*pack < 1)
    return g.fail(c.a[5].node, "`pack` of `" + c.rd.fn +
                                   "` must be positive, got " +
                                   std::to_string(*pack));

  // dtype: one dtype, or a tuple of them. A pointer dtype gives pointers
  // (Megatron's signal kernels pass `addrs.dtype`), 64-bit registers.
  const Val &dt = c.a[3].v;
  bool multiple = dt.kind == Val::Kind::Tuple;
  std::vector<TType> dtypes;
  for (const Val &d : multiple ? dt.elems : std::vector<Val>{dt}) {
    if (d.kind != Val::Kind::DType)
      return g.fail(c.a[3].node, "`dtype` of `" + c.rd.fn +
                                     "` must be a dtype or a tuple of dtypes, "
                                     "got " +
                                     g.typeName(d));
    dtypes.push_back(TType{d.dt, d.dtPtr, {}});
  }

  // args: a list or tuple of values, broadcast together.
  const Val &argList = c.a[2].v;
  if (argList.kind != Val::Kind::Tuple)
    return g.fail(c.a[2].node, "`args` of `" + c.rd.fn +
                                   "` must be a list of tensors, got " +
                                   g.typeName(argList));
  std::vector<Val> args;
  for (const Val &v : argList.elems) {
    if (!v.isRuntime() && !v.isNumber())
      return g.fail(c.a[2].node, "`args` of `" + c.rd.fn +
                                     "` must hold tensors or numbers, got " +
                                     g.typeName(v));
    FailureOr<Val> r = g.toRuntime(v, c.a[2].node);
    if (failed(r))
      return failure();
    args.push_back(*r);
  }
  llvm::SmallVector<int64_t, 2> shape;
  if (!args.empty()) {
    if (failed(broadcastTogether(g, args, /*allowPtr=*/true, /*arith=*/false, c.e,
                                 c.rd.fn)))
      return failure();
    shape = args[0].type.shape;
  }
  int64_t numel = 1;
  for (int64_t d : shape)
    numel *= d;
  if (shape.empty() && *pack != 1)
    return g.fail(c.a[5].node, "`pack` must be 1 when `" + c.rd.fn +
                                   "` has no tensor arguments");
  if (numel % *pack != 0)
    return g.fail(c.a[5].node, "the number of elements (" +
                                   std::to_string(numel) +
                                   ") is not a multiple of `pack` (" +
                                   std::to_string(*pack) + ")");

  llvm::SmallVector<mlir::Type> resultTypes;
  llvm::SmallVector<unsigned> outBits, inBits;
  for (TType &d : dtypes) {
    d = d.withShape(shape);
    mlir::Type t = toMLIR(&g.ctx, d);
    resultTypes.push_back(t);
    mlir::Type elem = tile::getElementTypeOrSelf(t);
    outBits.append(tile::inlineAsmRegisterCount(elem, *pack),
                   tile::inlineAsmRegisterBits(elem, *pack));
  }
  llvm::SmallVector<mlir::Value> operands;
  for (const Val &v : args) {
    operands.push_back(v.value);
    mlir::Type elem = tile::getElementTypeOrSelf(v.value.getType());
    if (isa<tile::PtrType>(elem))
      elem = mlir::Type(); // pointers: 64-bit registers
    unsigned count = elem ? tile::inlineAsmRegisterCount(elem, *pack) : *pack;
    unsigned bits = elem ? tile::inlineAsmRegisterBits(elem, *pack) : 64;
    inBits.append(count, bits);
  }
  if (std::optional<std::string> why =
          tile::checkInlineAsmConstraints(*constraints, outBits, inBits))
    return g.fail(c.a[1].node, "bad constraints for `" + c.rd.fn +
                                   "`: " + *why);
  if (std::optional<std::string> why =
          tile::checkInlineAsmTemplate(*text, outBits.size() + inBits.size()))
    return g.fail(c.a[0].node, "bad assembly for `" + c.rd.fn + "`: " + *why);
  auto op = tile::InlineAsmElementwiseOp::create(
      g.b, c.loc, resultTypes, operands, g.b.getStringAttr(*text),
      g.b.getStringAttr(*constraints), g.b.getBoolAttr(*pure),
      g.b.getI32IntegerAttr(*pack));
  std::vector<Val> results;
  for (auto [r, d] : llvm::zip(op.getResults(), dtypes))
    results.push_back(Val::runtime(r, d));
  if (!multiple)
    return results[0];
  return Val::tuple(std::move(results));
}
