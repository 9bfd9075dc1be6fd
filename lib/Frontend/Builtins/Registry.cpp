//===- Registry.cpp - Lookup and dispatch of table-driven builtins --------===//
#include "Registry.h"

using namespace kiln;
using namespace kiln::fe;

const BuiltinDef *kiln::fe::findBuiltin(llvm::StringRef name) {
  for (llvm::ArrayRef<BuiltinDef> family : {mathBuiltins(), randomBuiltins()})
    for (const BuiltinDef &d : family)
      if (name == d.name)
        return &d;
  return nullptr;
}

FailureOr<Val> kiln::fe::callRegistered(IRGen &g, const BuiltinDef &def,
                                        const CallArgs &args,
                                        const ast::CallExpr *e) {
  std::string fn = std::string("tl.") + def.name;
  llvm::SmallVector<Arg, 8> bound;
  if (failed(g.bindArgs(fn, def.params, args, e, bound)))
    return failure();
  BuiltinCall c{g, ArgReader{g, fn}, bound, e, g.loc(e)};
  return def.handler(c);
}

FailureOr<Val> kiln::fe::callWith(IRGen &g, llvm::StringRef name,
                                  std::vector<Val> pos,
                                  const ast::CallExpr *e) {
  CallArgs args;
  args.posNodes.assign(pos.size(), e);
  args.pos = std::move(pos);
  return g.callBuiltin(name, args, e);
}
