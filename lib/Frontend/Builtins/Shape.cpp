//===- Shape.cpp - expand_dims, broadcast_to ------------------------------===//
//
// Shape manipulation.
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
static FailureOr<Val> expand_dimsBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  FailureOr<Val> x = rd.value(a[0], "input");
  if (failed(x))
    return failure();
  std::vector<Val> axes =
      a[1].v.kind == Val::Kind::Tuple ? a[1].v.elems : std::vector<Val>{a[1].v};
  Val v = *x;
  for (const Val &axv : axes) {
    int64_t rank = v.type.shape.size() + 1;
    FailureOr<unsigned> ax = rd.axis(Arg{axv, a[1].node, true}, rank);
    if (failed(ax))
      return failure();
    llvm::SmallVector<int64_t, 2> s(v.type.shape);
    s.insert(s.begin() + *ax, 1);
    if (!v.type.isTensor()) {
      FailureOr<Val> sv = g.broadcastTo(v, s, e, "input");
      if (failed(sv))
        return failure();
      v = *sv;
      continue;
    }
    TType t = v.type.withShape(s);
    v = Val::runtime(
        tile::ExpandDimsOp::create(g.b, l, toMLIR(&g.ctx, t), v.value, *ax), t);
  }
  return v;
}

static FailureOr<Val> broadcast_toBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  if (args.pos.empty())
    return g.fail(e, "`tl.broadcast_to` needs an input");
  FailureOr<Val> x =
      rd.value(Arg{args.pos[0], args.posNodes[0], true}, "input");
  if (failed(x))
    return failure();
  Val shapeV;
  if (args.pos.size() == 2 && args.pos[1].kind == Val::Kind::Tuple)
    shapeV = args.pos[1];
  else
    shapeV = Val::tuple(std::vector<Val>(args.pos.begin() + 1, args.pos.end()));
  FailureOr<llvm::SmallVector<int64_t, 2>> s = rd.shape(Arg{shapeV, e, true});
  if (failed(s))
    return failure();
  return g.broadcastTo(*x, *s, e, "input");
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::shapeBuiltins() {
  static const BuiltinDef defs[] = {
      {"expand_dims",
       {"input", "axis"},
       true,
       false,
       expand_dimsBuiltin,
       false},
      {"broadcast_to", {}, true, false, broadcast_toBuiltin, true},
  };
  return defs;
}
