//===- Registry.cpp - Lookup and dispatch of table-driven builtins --------===//
#include "Registry.h"

using namespace kiln;
using namespace kiln::fe;

const BuiltinDef *kiln::fe::findBuiltin(llvm::StringRef name) {
  for (llvm::ArrayRef<BuiltinDef> family :
       {memoryBuiltins(), atomicBuiltins(), creationBuiltins(), mathBuiltins(),
        reductionBuiltins(), shapeBuiltins(), debugBuiltins(),
        compileTimeBuiltins(), randomBuiltins(), scanBuiltins(),
        sortGatherBuiltins(), libdeviceBuiltins(), dotBuiltins(), dotScaledBuiltins(),
        cudaExtraBuiltins(), raggedTmaBuiltins()})
    for (const BuiltinDef &d : family)
      if (name == d.name)
        return &d;
  return nullptr;
}

FailureOr<Val> kiln::fe::callRegistered(IRGen &g, const BuiltinDef &def,
                                        llvm::StringRef calledAs,
                                        const CallArgs &args,
                                        const ast::CallExpr *e) {
  llvm::SmallVector<Arg, 8> bound;
  if (!def.rawArgs && failed(g.bindArgs(calledAs, def.params, args, e, bound)))
    return failure();
  BuiltinCall c{g, ArgReader{g, calledAs}, bound, e, g.loc(e), args};
  return def.handler(c);
}

FailureOr<Val> IRGen::callTL(llvm::StringRef name, const CallArgs &args,
                             const ast::CallExpr *e) {
  // `x.to(...)` is tl.cast with the tensor as `input`.
  llvm::StringRef key = name == "to" ? "cast" : name;
  key.consume_front("tl.");
  if (const BuiltinDef *def = findBuiltin(key))
    return callRegistered(*this, *def, name, args, e);
  return fail(e, "`" + name + "` is not supported");
}

FailureOr<Val> kiln::fe::callWith(IRGen &g, llvm::StringRef name,
                                  std::vector<Val> pos,
                                  const ast::CallExpr *e) {
  CallArgs args;
  args.posNodes.assign(pos.size(), e);
  args.pos = std::move(pos);
  return g.callBuiltin(name, args, e);
}

mlir::LogicalResult kiln::fe::broadcastTogether(IRGen &g, std::vector<Val> &vals,
                                                bool allowPtr, bool arith,
                                                const ast::Node *where,
                                                llvm::StringRef fn) {
  if (vals.empty())
    return mlir::success();
  Val common = vals[0];
  for (const Val &v : vals) {
    Val x = v;
    if (mlir::failed(g.binaryTypeCheck(x, common, allowPtr, allowPtr, arith, false,
                                       where, fn)))
      return mlir::failure();
  }
  for (Val &v : vals) {
    Val other = common;
    if (mlir::failed(g.binaryTypeCheck(v, other, allowPtr, allowPtr, arith, false,
                                       where, fn)))
      return mlir::failure();
  }
  return mlir::success();
}
