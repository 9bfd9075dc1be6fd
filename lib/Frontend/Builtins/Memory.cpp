//===- Memory.cpp - tl.load, tl.store, block pointers ---------------------===//
//
// Loads and stores with Triton's argument conventions: masks broadcast to the
// pointer's shape, stored values converted to the pointee type, cache and
// eviction hints validated.
//
//===----------------------------------------------------------------------===//
#include "BlockPtr.h"
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

/// `mask` for a load/store/atomic through `ptr`; null when not given.
FailureOr<mlir::Value> kiln::fe::prepareMask(IRGen &g, ArgReader &rd,
                                             const Arg &a, const Val &ptr) {
  if (rd.isNone(a))
    return mlir::Value();
  FailureOr<Val> m = rd.value(a, "mask");
  if (failed(m))
    return failure();
  if (m->type.isPtr || m->type.dtype != DType::I1)
    return g.fail(a.node, "`mask` of `" + rd.fn +
                              "` must be boolean (int1), got " +
                              g.typeName(*m));
  if (!ptr.type.isTensor() && m->type.isTensor())
    return g.fail(a.node, "`mask` of `" + rd.fn + "` is a tensor (" +
                              g.typeName(*m) + ") but the pointer is a scalar");
  FailureOr<Val> bm = g.broadcastTo(*m, ptr.type.shape, a.node, "`mask`");
  if (failed(bm))
    return failure();
  return bm->value;
}

namespace {
/// `boundary_check` and `padding_option` only apply to block pointers
/// (Triton rejects them for pointer tensors and scalar pointers).
static LogicalResult checkNoBoundaryCheck(IRGen &g, ArgReader &rd,
                                          const Arg &a, const char *what) {
  bool isDefault =
      !a.given || a.v.kind == Val::Kind::None ||
      (a.v.kind == Val::Kind::Tuple && a.v.elems.empty()) ||
      (a.v.kind == Val::Kind::Str && a.v.s.empty());
  if (isDefault)
    return success();
  return g.fail(a.node, "`" + llvm::Twine(what) + "` of `" + rd.fn +
                            "` needs a block pointer (from "
                            "`tl.make_block_ptr`): the compiler does not "
                            "know the bounds of a pointer tensor");
}

/// `cache_modifier`: empty or one of `allowed`.
static FailureOr<std::string>
cacheModifier(IRGen &g, ArgReader &rd, const Arg &a,
              llvm::ArrayRef<llvm::StringRef> allowed) {
  if (!a.given || rd.isNone(a)) // None: Triton's default, no modifier
    return std::string();
  FailureOr<std::string> cm = rd.constStr(a, "cache_modifier");
  if (failed(cm))
    return failure();
  if (cm->empty() || llvm::is_contained(allowed, *cm))
    return *cm;
  std::string expected;
  for (size_t k = 0; k < allowed.size(); ++k)
    expected += (k == 0                    ? ""
                 : k + 1 == allowed.size() ? " or "
                                           : ", ") +
                allowed[k].str();
  return g.fail(a.node, "unknown cache modifier `" + *cm + "` for `" + rd.fn +
                            "` (expected " + expected + ")");
}
} // namespace

/// A value stored or exchanged through `ptr`: broadcast, then cast to the
/// element type (Triton converts implicitly).
FailureOr<Val> kiln::fe::prepareValue(IRGen &g, ArgReader &rd, const Arg &a,
                                      const Val &ptr, llvm::StringRef what) {
  if (a.v.isNumber())
    return g.broadcastTo(*g.constant(a.v, ptr.type.dtype, a.node),
                         ptr.type.shape, a.node, "`" + what.str() + "`");
  FailureOr<Val> v = rd.value(a, what);
  if (failed(v))
    return failure();
  DType elem = ptr.type.dtype;
  if (v->type.isPtr && (elem == DType::I64 || elem == DType::U64)) {
    // Triton casts the value to the element type, and a pointer casts to a
    // 64-bit integer as its address (flashinfer stores the pointers of its
    // grouped GEMM's problems into int64 tensors).
    TType addrType = v->type.withDType(DType::I64);
    v = Val::runtime(tile::PtrCastOp::create(g.b, g.loc(a.node),
                                             toMLIR(&g.ctx, addrType),
                                             v->value),
                     addrType);
  }
  if (v->type.isPtr)
    return g.fail(a.node, "`" + what + "` of `" + rd.fn +
                              "` cannot be a pointer (" + g.typeName(*v) + ")");
  if (!ptr.type.isTensor() && v->type.isTensor())
    return g.fail(a.node, "`" + what + "` of `" + rd.fn + "` is a tensor (" +
                              g.typeName(*v) + ") but the pointer is a scalar");
  FailureOr<Val> bv =
      g.broadcastTo(*v, ptr.type.shape, a.node, "`" + what.str() + "`");
  if (failed(bv))
    return failure();
  return g.cast(*bv, ptr.type.dtype, a.node);
}

namespace {
/// `eviction_policy`: empty, evict_first or evict_last.
static FailureOr<std::string> evictionPolicy(IRGen &g, ArgReader &rd,
                                             const Arg &a) {
  if (!a.given || rd.isNone(a))
    return std::string();
  FailureOr<std::string> ev = rd.constStr(a, "eviction_policy");
  if (failed(ev))
    return failure();
  if (!ev->empty() && *ev != "evict_last" && *ev != "evict_first")
    return g.fail(a.node, "unknown eviction policy `" + *ev +
                              "` (expected evict_last or evict_first)");
  return *ev;
}

/// The cache hints of a load or store: set on the op that made `v` (a load)
/// or on `store`.
struct CacheHints {
  std::string cache, evict;
  bool isVolatile = false;

  void applyTo(mlir::Operation *op, mlir::OpBuilder &b) const {
    if (!op)
      return;
    if (!cache.empty())
      op->setAttr("cache", b.getStringAttr(cache));
    if (!evict.empty())
      op->setAttr("evict", b.getStringAttr(evict));
    if (isVolatile)
      op->setAttr("isVolatile", b.getUnitAttr());
  }
};

/// Reads `cache_modifier` (one of `caches`) and `eviction_policy`.
static FailureOr<CacheHints> readHints(IRGen &g, ArgReader &rd, const Arg &cm,
                                       const Arg &ev,
                                       llvm::ArrayRef<llvm::StringRef> caches) {
  FailureOr<std::string> cache = cacheModifier(g, rd, cm, caches);
  if (failed(cache))
    return failure();
  CacheHints h;
  h.cache = *cache;
  FailureOr<std::string> policy = evictionPolicy(g, rd, ev);
  if (failed(policy))
    return failure();
  h.evict = *policy;
  return h;
}

static FailureOr<Val> loadBody(BuiltinCall &call);

static FailureOr<Val> loadBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<CacheHints> hints = readHints(g, rd, a[5], a[6], {".ca", ".cg", ".cv"});
  if (failed(hints))
    return failure();
  if (a[7].given) {
    FailureOr<bool> isVolatile = rd.constBool(a[7], "volatile");
    if (failed(isVolatile))
      return failure();
    hints->isVolatile = *isVolatile;
  }
  FailureOr<Val> v = loadBody(call);
  if (succeeded(v) && v->value)
    hints->applyTo(v->value.getDefiningOp<tile::LoadOp>(), g.b);
  return v;
}

/// Triton's load broadcasts the pointer tensor and `mask`, then `other`,
/// against each other (stores and atomics only broadcast to the pointer):
/// a mask or `other` of a larger shape widens the pointer tensor, one of a
/// lower rank takes size-1 leading dimensions (xformers' scaled_index_add
/// loads a [1, R, C] pointer tile under an [I, R, C] mask).
static LogicalResult broadcastLoadOperands(IRGen &g, ArgReader &rd, Val &ptr,
                                           Arg &mask, Arg &other) {
  if (!ptr.type.isTensor())
    return success();
  // Operands of the wrong kind are left for prepareMask / prepareValue to
  // name as the user wrote them.
  auto takesPart = [&](const Arg &a) {
    return !rd.isNone(a) && a.v.isRuntime() && a.v.type.isTensor() &&
           !a.v.type.isPtr && (&a != &mask || a.v.type.dtype == DType::I1);
  };
  llvm::SmallVector<int64_t, 2> shape(ptr.type.shape);
  for (Arg *a : {&mask, &other}) {
    if (!takesPart(*a))
      continue;
    auto common = broadcastShapes(shape, a->v.type.shape);
    if (!common)
      return g.fail(a->node, "`" + std::string(a == &mask ? "mask" : "other") +
                                 "` of `" + rd.fn + "` has shape " +
                                 shapeStr(a->v.type.shape) +
                                 ", which does not broadcast with the pointer's " +
                                 shapeStr(shape));
    shape = *common;
  }
  for (Arg *a : {&mask, &other})
    if (takesPart(*a))
      a->v = g.withLeadingDims(a->v, shape.size(), a->node);
  if (llvm::ArrayRef<int64_t>(shape) == llvm::ArrayRef<int64_t>(ptr.type.shape))
    return success();
  FailureOr<Val> wide = g.broadcastTo(g.withLeadingDims(ptr, shape.size(), mask.node),
                                      shape, mask.node, "the pointer");
  if (failed(wide))
    return failure();
  ptr = *wide;
  return success();
}

static FailureOr<Val> loadBody(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  if (a[0].v.kind == Val::Kind::BlockPtr)
    return loadBlockPtr(call);
  FailureOr<Val> ptr = rd.pointer(a[0]);
  if (failed(ptr))
    return failure();
  if (!rd.isNone(a[2]) && rd.isNone(a[1]))
    return g.fail(a[2].node, "`other` given without `mask`");
  if (failed(checkNoBoundaryCheck(g, rd, a[3], "boundary_check")) ||
      failed(checkNoBoundaryCheck(g, rd, a[4], "padding_option")))
    return failure();
  Arg maskArg = a[1], otherArg = a[2];
  if (failed(broadcastLoadOperands(g, rd, *ptr, maskArg, otherArg)))
    return failure();
  FailureOr<mlir::Value> mask = prepareMask(g, rd, maskArg, *ptr);
  if (failed(mask))
    return failure();
  mlir::Value other;
  if (!rd.isNone(otherArg)) {
    FailureOr<Val> o = prepareValue(g, rd, otherArg, *ptr, "other");
    if (failed(o))
      return failure();
    other = o->value;
  }
  TType t = ptr->type.withDType(ptr->type.dtype);
  return Val::runtime(
      tile::LoadOp::create(g.b, l, toMLIR(&g.ctx, t), ptr->value, *mask, other),
      t);
}

static FailureOr<Val> storeBody(BuiltinCall &call, const CacheHints &hints);

static FailureOr<Val> storeBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<CacheHints> hints =
      readHints(g, rd, a[4], a[5], {".wb", ".cg", ".cs", ".wt"});
  if (failed(hints))
    return failure();
  if (a[0].v.kind != Val::Kind::BlockPtr)
    return storeBody(call, *hints);
  tile::StoreOp store;
  FailureOr<Val> v = storeBlockPtr(call, &store);
  if (succeeded(v))
    hints->applyTo(store, g.b);
  return v;
}

static FailureOr<Val> storeBody(BuiltinCall &call, const CacheHints &hints) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<Val> ptr = rd.writablePointer(a[0]);
  if (failed(ptr))
    return failure();
  if (failed(checkNoBoundaryCheck(g, rd, a[3], "boundary_check")))
    return failure();
  FailureOr<Val> v = prepareValue(g, rd, a[1], *ptr, "value");
  if (failed(v))
    return failure();
  FailureOr<mlir::Value> mask = prepareMask(g, rd, a[2], *ptr);
  if (failed(mask))
    return failure();
  hints.applyTo(tile::StoreOp::create(g.b, l, ptr->value, v->value, *mask), g.b);
  return Val::none();
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::memoryBuiltins() {
  static const BuiltinDef defs[] = {
      {"load",
       {"pointer", "mask=None", "other=None", "boundary_check=()",
        "padding_option=", "cache_modifier=", "eviction_policy=",
        "volatile=False"},
       false,
       false,
       loadBuiltin,
       false},
      {"store",
       {"pointer", "value", "mask=None", "boundary_check=()",
        "cache_modifier=", "eviction_policy="},
       /*tensorMethod=*/true,
       false,
       storeBuiltin,
       false},
      {"make_block_ptr",
       {"base", "shape", "strides", "offsets", "block_shape", "order"},
       false,
       false,
       makeBlockPtrBuiltin,
       false},
      {"advance", {"base", "offsets"}, false, false, advanceBuiltin, false},
      {"make_tensor_descriptor",
       {"base", "shape", "strides", "block_shape", "padding_option="},
       false,
       false,
       makeTensorDescriptorBuiltin,
       false},
      {"load_tensor_descriptor",
       {"desc", "offsets", "cache_modifier=", "eviction_policy="},
       false,
       false,
       loadTensorDescriptorBuiltin,
       false},
      {"store_tensor_descriptor",
       {"desc", "offsets", "value"},
       false,
       false,
       storeTensorDescriptorBuiltin,
       false},
      // `desc.atomic_<op>(offsets, value)`: methods only (a dotted name is
      // not reachable as `tl.<name>`).
      {"tensor_descriptor.atomic_add", {"desc", "offsets", "value"}, false,
       false, descriptorAtomicBuiltin, false},
      {"tensor_descriptor.atomic_min", {"desc", "offsets", "value"}, false,
       false, descriptorAtomicBuiltin, false},
      {"tensor_descriptor.atomic_max", {"desc", "offsets", "value"}, false,
       false, descriptorAtomicBuiltin, false},
      {"tensor_descriptor.atomic_and", {"desc", "offsets", "value"}, false,
       false, descriptorAtomicBuiltin, false},
      {"tensor_descriptor.atomic_or", {"desc", "offsets", "value"}, false,
       false, descriptorAtomicBuiltin, false},
      {"tensor_descriptor.atomic_xor", {"desc", "offsets", "value"}, false,
       false, descriptorAtomicBuiltin, false},
  };
  return defs;
}
