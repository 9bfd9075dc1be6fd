//===- Libdevice.cpp - tl.extra.cuda.libdevice.* calls --------------------===//
//
// Triton's extern_elementwise dispatch: the arguments become tensors of
// their default types; when their dtypes match an overload exactly they are
// only broadcast, otherwise they are promoted together (binary arithmetic
// rules) and matched again. The result is a tile.extern_elementwise call of
// the overload's `__nv_*` symbol.
//
//===----------------------------------------------------------------------===//
#include "Libdevice.h"
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"

using namespace kiln;
using namespace kiln::fe;

namespace {
const LibdeviceOverload *match(const LibdeviceFn &fn,
                               llvm::ArrayRef<Val> args) {
  for (const LibdeviceOverload &o : fn.overloads) {
    bool same = true;
    for (size_t k = 0; k < args.size(); ++k)
      same &= !args[k].type.isPtr && args[k].type.dtype == o.args[k];
    if (same)
      return &o;
  }
  return nullptr;
}

std::string signatures(const LibdeviceFn &fn) {
  std::string s;
  for (size_t i = 0; i < fn.overloads.size(); ++i) {
    if (i)
      s += i + 1 == fn.overloads.size() ? " or " : ", ";
    s += "(";
    for (size_t k = 0; k < fn.overloads[i].args.size(); ++k)
      s += std::string(k ? ", " : "") + tritonName(fn.overloads[i].args[k]);
    s += ")";
  }
  return s;
}

FailureOr<Val> libdeviceBuiltin(BuiltinCall &c) {
  IRGen &g = c.g;
  llvm::StringRef name = c.rd.fn;
  const LibdeviceFn *fn = findLibdevice(name.rsplit('.').second);
  std::vector<Val> args;
  for (const Arg &a : c.a) {
    FailureOr<Val> v = c.rd.value(a, "argument");
    if (failed(v))
      return failure();
    if (v->type.isPtr)
      return g.fail(a.node, "`" + name + "` expects numbers, got " +
                                g.typeName(*v));
    args.push_back(*v);
  }
  const LibdeviceOverload *o = match(*fn, args);
  // Broadcast everything to one shape; promote only when no overload
  // matches the dtypes as given.
  if (failed(broadcastTogether(g, args, /*allowPtr=*/false, /*arith=*/!o, c.e, name)))
    return failure();
  if (!o)
    o = match(*fn, args);
  if (!o) {
    std::string got = "(";
    for (size_t k = 0; k < args.size(); ++k)
      got += std::string(k ? ", " : "") + tritonName(args[k].type.dtype);
    return g.fail(c.e, "`" + name + "` expects " + signatures(*fn) +
                           " arguments, got " + got + ")");
  }
  llvm::SmallVector<mlir::Value> operands;
  for (const Val &v : args)
    operands.push_back(v.value);
  TType resultType = args[0].type.withDType(o->result);
  mlir::Value r = tile::ExternElementwiseOp::create(
      g.b, c.loc, toMLIR(&g.ctx, resultType), operands,
      g.b.getStringAttr(o->symbol));
  Val out = Val::runtime(r, resultType);
  if (fn->toBool)
    return g.cast(out, DType::I1, c.e);
  return out;
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::libdeviceBuiltins() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const LibdeviceFn &f : libdeviceFunctions())
      n.push_back("libdevice." + f.name);
    return n;
  }();
  static const std::vector<BuiltinDef> defs = [] {
    static const char *const params[] = {"arg0", "arg1", "arg2", "arg3"};
    std::vector<BuiltinDef> d;
    llvm::ArrayRef<LibdeviceFn> fns = libdeviceFunctions();
    for (size_t i = 0; i < fns.size(); ++i) {
      BuiltinDef def;
      def.name = names[i].c_str();
      def.params.assign(params, params + fns[i].arity);
      def.handler = libdeviceBuiltin;
      d.push_back(std::move(def));
    }
    return d;
  }();
  return defs;
}
