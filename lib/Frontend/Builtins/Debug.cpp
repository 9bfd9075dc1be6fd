//===- Debug.cpp - device_print, debug_barrier ----------------------------===//
//
// Printing and synchronization.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;
namespace arith = mlir::arith;
namespace math = mlir::math;

namespace {
static FailureOr<Val> debug_barrierBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  tile::BarrierOp::create(g.b, l);
  return Val::none();
}

static FailureOr<Val> device_printBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  if (args.pos.empty())
    return g.fail(e, "`tl.device_print` needs a prefix string");
  if (args.pos[0].kind != Val::Kind::Str)
    return g.fail(args.posNodes[0], "the prefix of `tl.device_print` must "
                                    "be a constexpr string, got " +
                                        g.typeName(args.pos[0]));
  for (size_t k = 0; k < args.kw.size(); ++k) {
    if (args.kw[k].first != "hex")
      return g.fail(args.kwNodes[k], "`tl.device_print` got an unexpected "
                                     "keyword argument `" +
                                         args.kw[k].first + "`");
    if (args.kw[k].second.truthy())
      return g.fail(args.kwNodes[k], "`hex=True` is not supported");
  }
  llvm::SmallVector<mlir::Value> vals;
  for (size_t k = 1; k < args.pos.size(); ++k) {
    Arg x{args.pos[k], args.posNodes[k], true};
    FailureOr<Val> v = rd.value(x, "value");
    if (failed(v))
      return failure();
    vals.push_back(v->value);
  }
  tile::PrintOp::create(g.b, l, args.pos[0].s, vals);
  return Val::none();
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::debugBuiltins() {
  static const BuiltinDef defs[] = {
      {"debug_barrier", {}, false, false, debug_barrierBuiltin, false},
      {"device_print", {}, false, false, device_printBuiltin, true},
  };
  return defs;
}
