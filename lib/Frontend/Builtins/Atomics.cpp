//===- Atomics.cpp - tl.atomic_* ------------------------------------------===//
//
// Atomic read-modify-write and compare-and-swap, with Triton's `sem`
// (relaxed, acquire, release, acq_rel: the default) and `scope` (cta, gpu:
// the default, sys), which become the PTX `atom`'s ordering and scope.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSwitch.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

namespace {
struct Ordering {
  std::string sem = "acq_rel", scope = "gpu";
};

/// `sem=` and `scope=`: constant strings among Triton's values.
static FailureOr<Ordering> readOrdering(IRGen &g, ArgReader &rd, const Arg &sem,
                                        const Arg &scope) {
  Ordering o;
  if (!rd.isNone(sem)) {
    FailureOr<std::string> s = rd.constStr(sem, "sem");
    if (failed(s))
      return failure();
    if (!llvm::is_contained({"relaxed", "acquire", "release", "acq_rel"}, *s))
      return g.fail(sem.node, "`sem=\"" + *s + "\"` of `" + rd.fn +
                                  "`: expected \"acquire\", \"release\", "
                                  "\"acq_rel\" or \"relaxed\"");
    o.sem = *s;
  }
  if (!rd.isNone(scope)) {
    FailureOr<std::string> s = rd.constStr(scope, "scope");
    if (failed(s))
      return failure();
    if (!llvm::is_contained({"gpu", "cta", "sys"}, *s))
      return g.fail(scope.node, "`scope=\"" + *s + "\"` of `" + rd.fn +
                                    "`: expected \"gpu\", \"cta\" or "
                                    "\"sys\"");
    o.scope = *s;
  }
  return o;
}

static FailureOr<Val> atomic_casBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  FailureOr<Val> ptr = rd.writablePointer(a[0]);
  if (failed(ptr))
    return failure();
  FailureOr<Ordering> order = readOrdering(g, rd, a[3], a[4]);
  if (failed(order))
    return failure();
  unsigned w = bitWidth(ptr->type.dtype);
  if (w != 16 && w != 32 && w != 64)
    return g.fail(a[0].node, "`tl.atomic_cas` supports 16, 32 and 64-bit "
                             "elements, not " +
                                 std::string(tritonName(ptr->type.dtype)));
  FailureOr<Val> cmp = prepareValue(g, rd, a[1], *ptr, "cmp");
  if (failed(cmp))
    return failure();
  FailureOr<Val> val = prepareValue(g, rd, a[2], *ptr, "val");
  if (failed(val))
    return failure();
  TType t = ptr->type.withDType(ptr->type.dtype);
  return Val::runtime(tile::AtomicCASOp::create(g.b, l, toMLIR(&g.ctx, t),
                                                ptr->value, cmp->value,
                                                val->value, order->sem,
                                                order->scope),
                      t);
}

static FailureOr<Val> atomic_rmwBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef name = rd.fn;
  llvm::StringRef op = name.drop_front(strlen("tl.atomic_"));
  std::optional<tile::RMWKind> kind =
      llvm::StringSwitch<std::optional<tile::RMWKind>>(op)
          .Case("xchg", tile::RMWKind::xchg)
          .Case("add", tile::RMWKind::add)
          .Case("max", tile::RMWKind::max)
          .Case("min", tile::RMWKind::min)
          .Case("and", tile::RMWKind::and_)
          .Case("or", tile::RMWKind::or_)
          .Case("xor", tile::RMWKind::xor_)
          .Default(std::nullopt);
  if (!kind)
    return g.fail(e, "`" + name + "` is not supported");
  FailureOr<Val> ptr = rd.writablePointer(a[0]);
  if (failed(ptr))
    return failure();
  FailureOr<Ordering> order = readOrdering(g, rd, a[3], a[4]);
  if (failed(order))
    return failure();
  DType d = ptr->type.dtype;
  bool minMax = *kind == tile::RMWKind::max || *kind == tile::RMWKind::min;
  // fp32 / fp64 max and min as Triton does them: on the bits, by sign.
  bool floatMinMax = minMax && (d == DType::F32 || d == DType::F64);
  bool intOnly = *kind != tile::RMWKind::add && *kind != tile::RMWKind::xchg;
  if (intOnly && isFloat(d) && !floatMinMax)
    return g.fail(a[0].node, "`" + name + "` on floating-point values (" +
                                 tritonName(d) + ") is not supported" +
                                 (minMax ? " (fp32 and fp64 are)" : ""));
  if (minMax && isUnsigned(d))
    kind = *kind == tile::RMWKind::max ? tile::RMWKind::umax
                                       : tile::RMWKind::umin;
  unsigned w = bitWidth(d);
  bool okWidth =
      w == 32 || w == 64 ||
      (*kind == tile::RMWKind::add && (d == DType::F16 || d == DType::BF16));
  if (!okWidth)
    return g.fail(a[0].node, "`" + name + "` does not support " +
                                 tritonName(d) + " elements");
  FailureOr<Val> val = prepareValue(g, rd, a[1], *ptr, "val");
  if (failed(val))
    return failure();
  FailureOr<mlir::Value> mask = prepareMask(g, rd, a[2], *ptr);
  if (failed(mask))
    return failure();
  TType t = ptr->type.withDType(d);
  return Val::runtime(tile::AtomicRMWOp::create(g.b, l, toMLIR(&g.ctx, t),
                                                *kind, ptr->value, val->value,
                                                *mask, order->sem,
                                                order->scope),
                      t);
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::atomicBuiltins() {
  static const BuiltinDef defs[] = {
      {"atomic_cas",
       {"pointer", "cmp", "val", "sem=None", "scope=None"},
       /*tensorMethod=*/true,
       false,
       atomic_casBuiltin,
       false},
      {"atomic_xchg",
       {"pointer", "val", "mask=None", "sem=None", "scope=None"},
       /*tensorMethod=*/true,
       false,
       atomic_rmwBuiltin,
       false},
      {"atomic_add",
       {"pointer", "val", "mask=None", "sem=None", "scope=None"},
       /*tensorMethod=*/true,
       false,
       atomic_rmwBuiltin,
       false},
      {"atomic_max",
       {"pointer", "val", "mask=None", "sem=None", "scope=None"},
       /*tensorMethod=*/true,
       false,
       atomic_rmwBuiltin,
       false},
      {"atomic_min",
       {"pointer", "val", "mask=None", "sem=None", "scope=None"},
       /*tensorMethod=*/true,
       false,
       atomic_rmwBuiltin,
       false},
      {"atomic_and",
       {"pointer", "val", "mask=None", "sem=None", "scope=None"},
       /*tensorMethod=*/true,
       false,
       atomic_rmwBuiltin,
       false},
      {"atomic_or",
       {"pointer", "val", "mask=None", "sem=None", "scope=None"},
       /*tensorMethod=*/true,
       false,
       atomic_rmwBuiltin,
       false},
      {"atomic_xor",
       {"pointer", "val", "mask=None", "sem=None", "scope=None"},
       /*tensorMethod=*/true,
       false,
       atomic_rmwBuiltin,
       false},
  };
  return defs;
}
