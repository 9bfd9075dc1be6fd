//===- Debug.cpp - device_print, static_print, device_assert, barrier -----===//
//
// Printing (at run time and at compile time), device assertions and
// synchronization. Assertions exist only in debug builds (KernelSpec::debug,
// `@triton.jit(debug=True)`), as Triton's do.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

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
  bool hex = false;
  for (size_t k = 0; k < args.kw.size(); ++k) {
    if (args.kw[k].first != "hex")
      return g.fail(args.kwNodes[k], "`tl.device_print` got an unexpected "
                                     "keyword argument `" +
                                         args.kw[k].first + "`");
    if (!args.kw[k].second.isConstexpr() ||
        args.kw[k].second.kind == Val::Kind::Tuple)
      return g.fail(args.kwNodes[k], "`hex` of `tl.device_print` must be a "
                                     "constexpr bool, got " +
                                         g.typeName(args.kw[k].second));
    hex = args.kw[k].second.truthy();
  }
  llvm::SmallVector<mlir::Value> vals;
  for (size_t k = 1; k < args.pos.size(); ++k) {
    Arg x{args.pos[k], args.posNodes[k], true};
    FailureOr<Val> v = rd.value(x, "value");
    if (failed(v))
      return failure();
    vals.push_back(v->value);
  }
  tile::PrintOp::create(g.b, l, args.pos[0].s, hex, vals);
  return Val::none();
}

/// Python's str() of a value as Triton's static_print shows it: constexprs
/// unwrapped, tensors as `fp32[128]`.
static std::string staticStr(IRGen &g, const Val &v) {
  switch (v.kind) {
  case Val::Kind::Str:
    return v.s;
  case Val::Kind::DType:
    return v.dtPtr ? std::string("pointer<") + tritonName(v.dt) + ">"
                   : tritonName(v.dt);
  case Val::Kind::Runtime: {
    std::string elem = v.type.isPtr
                           ? std::string("pointer<") +
                                 tritonName(v.type.dtype) + ">"
                           : tritonName(v.type.dtype);
    std::string dims;
    for (size_t k = 0; k < v.type.shape.size(); ++k)
      dims += (k ? ", " : "") + std::to_string(v.type.shape[k]);
    return elem + "[" + dims + "]";
  }
  case Val::Kind::BlockPtr:
    return g.typeName(v);
  default:
    return v.repr();
  }
}

static FailureOr<Val> static_printBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  std::string sep = " ", end = "\n";
  for (size_t k = 0; k < args.kw.size(); ++k) {
    const auto &[name, v] = args.kw[k];
    if (name == "file" || name == "flush")
      continue; // Python's print options without effect here
    if (name != "sep" && name != "end")
      return g.fail(args.kwNodes[k], "`tl.static_print` got an unexpected "
                                     "keyword argument `" +
                                         name + "`");
    if (v.kind != Val::Kind::Str && v.kind != Val::Kind::None)
      return g.fail(args.kwNodes[k], "`" + name +
                                         "` of `tl.static_print` must be a "
                                         "string, got " +
                                         g.typeName(v));
    if (v.kind == Val::Kind::Str)
      (name == "sep" ? sep : end) = v.s;
  }
  std::string line;
  for (size_t k = 0; k < args.pos.size(); ++k)
    line += (k ? sep : "") + staticStr(g, args.pos[k]);
  llvm::errs() << line << end;
  llvm::errs().flush();
  return Val::none();
}

static FailureOr<Val> device_assertBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  FailureOr<Val> cond = rd.value(a[0], "cond");
  if (failed(cond))
    return failure();
  std::string msg;
  if (a[1].given) {
    FailureOr<std::string> m = rd.constStr(a[1], "msg");
    if (failed(m))
      return failure();
    msg = *m;
  }
  if (!rd.isNone(a[2])) {
    FailureOr<Val> mask = rd.value(a[2], "mask");
    if (failed(mask))
      return failure();
    // Lanes outside the mask pass: cond | !mask.
    FailureOr<Val> c = g.toBool(*cond, a[0].node);
    FailureOr<Val> m = g.toBool(*mask, a[2].node);
    if (failed(c) || failed(m))
      return failure();
    FailureOr<Val> notM = g.unary(UnaryOpKind::Invert, *m, a[2].node);
    if (failed(notM))
      return failure();
    FailureOr<Val> any = g.binary(BinOpKind::BitOr, *c, *notM, e);
    if (failed(any))
      return failure();
    cond = any;
  }
  if (failed(emitDeviceAssert(g, *cond, msg, e)))
    return failure();
  return Val::none();
}
} // namespace

LogicalResult kiln::fe::emitDeviceAssert(IRGen &g, const Val &cond,
                                         llvm::StringRef msg,
                                         const Node *where) {
  if (cond.type.isPtr || isFloat(cond.type.dtype))
    return g.fail(where, "an assertion condition must be boolean or an "
                         "integer, got " +
                             g.typeName(cond));
  if (!g.debug)
    return success();
  FailureOr<Val> c = g.toBool(cond, where);
  if (failed(c))
    return failure();
  tile::AssertOp::create(g.b, g.loc(where), c->value, msg);
  return success();
}

llvm::ArrayRef<BuiltinDef> kiln::fe::debugBuiltins() {
  static const BuiltinDef defs[] = {
      {"debug_barrier", {}, false, false, debug_barrierBuiltin, false},
      {"device_print", {}, false, false, device_printBuiltin, true},
      {"static_print", {}, false, false, static_printBuiltin, true},
      {"device_assert",
       {"cond", "msg=", "mask=None"},
       false,
       false,
       device_assertBuiltin,
       false},
  };
  return defs;
}
