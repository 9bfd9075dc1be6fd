//===- TensorDescriptor.cpp - tl.make_tensor_descriptor and its accesses --===//
//
// Triton 3.6's tensor descriptors (TMA on Hopper) with the same expansion: a
// descriptor is a BlockPtr Val with `descriptor` set, holding base, shape[r]
// (i32, as Triton types them) and strides[r] (i64), and the constexpr block
// shape; no offsets. An access at `offsets` is the block-pointer access at
// those offsets with every dimension boundary-checked, which is what a TMA
// copy does: elements outside [0, shape) read as the padding (zero or NaN)
// and are not written. Kiln emits vector accesses; a load of a 2-D host
// descriptor's block also records the block (descArg, coords), so that on
// sm_90 the pipeliner may copy it with TMA instead (TmaCopies.h).
//
//===----------------------------------------------------------------------===//
#include "BlockPtr.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include <cmath>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;
using namespace kiln::fe::blockptr;

namespace {
/// An integer scalar of a descriptor's shape (i32) or strides (i64).
static FailureOr<Val> descScalar(IRGen &g, const Val &v, DType want,
                                 const Node *where, llvm::StringRef fn,
                                 llvm::StringRef what) {
  if (v.kind == Val::Kind::Int || v.kind == Val::Kind::Bool)
    return g.constantInt(v.i, want);
  if (!v.isRuntime() || v.type.isTensor() || v.type.isPtr ||
      !isIntDType(v.type.dtype) || v.type.dtype == DType::I1)
    return g.fail(where, "`" + what + "` of `" + fn +
                             "` must hold integer scalars, got " +
                             g.typeName(v));
  return v.type.dtype == want ? FailureOr<Val>(v) : g.cast(v, want, where);
}

/// The descriptor argument of a descriptor access, checked.
static FailureOr<Val> descriptorArg(IRGen &g, const Arg &a,
                                    llvm::StringRef fn) {
  if (a.v.kind != Val::Kind::BlockPtr || !a.v.descriptor)
    return g.fail(a.node, "`" + fn +
                              "` expects a tensor descriptor (from "
                              "`tl.make_tensor_descriptor`), got " +
                              g.typeName(a.v));
  return a.v;
}

/// The dimensions of `desc`'s block an access keeps: all of them, or with
/// `squeeze` those of size above 1 when the rank is 3 or more (the last one
/// if every size is 1).
static std::vector<size_t> keptDims(const Val &desc, bool squeeze) {
  size_t rank = desc.bpRank();
  std::vector<size_t> keep;
  for (size_t d = 0; d < rank; ++d)
    if (!squeeze || rank < 3 || desc.blockShape[d] != 1)
      keep.push_back(d);
  if (keep.empty())
    keep.push_back(rank - 1);
  return keep;
}

/// The descriptor as a block pointer at `offsets`: the pointer tensor of its
/// block and the in-bounds mask of every dimension.
static FailureOr<Expanded> descriptorBlock(IRGen &g, const Val &desc,
                                           const Arg &offsets,
                                           llvm::StringRef fn,
                                           const CallExpr *e,
                                           std::vector<Val> *offsetsOut = nullptr,
                                           bool squeeze = false) {
  size_t rank = desc.bpRank();
  size_t given = listOf(offsets.v).size();
  if (given != rank)
    return g.fail(offsets.node, "expected " + std::to_string(rank) +
                                    " offsets, but got " +
                                    std::to_string(given));
  FailureOr<std::vector<Val>> offs = readOffsets(g, offsets, rank, fn);
  if (failed(offs))
    return failure();
  if (offsetsOut)
    *offsetsOut = *offs;
  // With `squeeze` (loads), blocks of rank 3 or more drop their unit
  // dimensions ([1, BM, BK] of a batched or ragged descriptor): those offsets
  // move the base and test their bounds as scalars, and the load is of the
  // squeezed block (2-D for these), which pipelines as a 2-D one does once
  // the kernel's reshape to 2-D cancels the one back to the block shape.
  // Stores squeeze only a value reshaped up from the squeezed block (a value
  // of the block shape from elsewhere would pay a second layout exchange).
  std::vector<size_t> keep = keptDims(desc, squeeze);
  mlir::Location l = g.loc(e);
  Val base = desc.bpBase();
  Val inBounds; // i1 scalar: every dropped dimension's offset in bounds
  std::vector<Val> shapes, strides, kept;
  std::vector<int64_t> block;
  for (size_t d = 0, k = 0; d < rank; ++d) {
    if (k < keep.size() && keep[k] == d) {
      ++k;
      shapes.push_back(desc.bpShape(d));
      strides.push_back(desc.bpStride(d));
      kept.push_back((*offs)[d]);
      block.push_back(desc.blockShape[d]);
      continue;
    }
    FailureOr<Val> o64 = g.cast((*offs)[d], DType::I64, e);
    FailureOr<Val> shape64 = g.cast(desc.bpShape(d), DType::I64, e);
    if (failed(o64) || failed(shape64))
      return failure();
    FailureOr<Val> step = g.binary(BinOpKind::Mul, *o64, desc.bpStride(d), e);
    FailureOr<Val> moved = failed(step) ? step : g.binary(BinOpKind::Add, base, *step, e);
    FailureOr<Val> lo = g.compare(CmpOpKind::GtE, *o64, g.constantInt(0, DType::I64), e);
    FailureOr<Val> hi = g.compare(CmpOpKind::Lt, *o64, *shape64, e);
    if (failed(moved) || failed(lo) || failed(hi))
      return failure();
    base = *moved;
    FailureOr<Val> in = g.binary(BinOpKind::BitAnd, *lo, *hi, e);
    if (failed(in))
      return failure();
    if (inBounds.isRuntime())
      in = g.binary(BinOpKind::BitAnd, inBounds, *in, e);
    if (failed(in))
      return failure();
    inBounds = *in;
  }
  std::vector<Val> elems{base};
  for (const std::vector<Val> *part : {&shapes, &strides, &kept})
    elems.insert(elems.end(), part->begin(), part->end());
  std::vector<int64_t> order;
  for (size_t d = block.size(); d-- > 0;)
    order.push_back(int64_t(d));
  Val p = Val::blockPtr(std::move(elems), block, std::move(order));
  std::vector<int64_t> all;
  for (size_t d = 0; d < block.size(); ++d)
    all.push_back(int64_t(d));
  FailureOr<Expanded> x = expand(g, p, all, e);
  if (failed(x) || !inBounds.isRuntime())
    return x;
  FailureOr<Val> splat = g.broadcastTo(inBounds, block, e, "boundary mask");
  if (failed(splat))
    return failure();
  if (!x->mask) {
    x->mask = splat->value;
    return x;
  }
  x->mask = mlir::arith::AndIOp::create(g.b, l, x->mask, splat->value);
  return x;
}

/// A squeezed descriptor block `v` reshaped to its block `shape` (they differ
/// by unit dimensions only): through tl.reshape, so that a reshape the kernel
/// writes next cancels it.
static FailureOr<Val> liftToBlock(IRGen &g, const CallExpr *e, const Val &v,
                                  llvm::ArrayRef<int64_t> shape) {
  if (llvm::ArrayRef<int64_t>(v.type.shape) == shape)
    return v;
  std::vector<Val> dims;
  for (int64_t d : shape)
    dims.push_back(Val::integer(d));
  return callWith(g, "tl.reshape", {v, Val::tuple(std::move(dims))}, e);
}

/// The value of a descriptor store or atomic: a tensor of the block shape.
static FailureOr<Val> descriptorValue(IRGen &g, ArgReader &rd, const Arg &a,
                                      const Val &desc, llvm::StringRef fn) {
  FailureOr<Val> v = rd.value(a, "value");
  if (failed(v))
    return failure();
  llvm::ArrayRef<int64_t> block(desc.blockShape);
  if (v->type.isPtr)
    return g.fail(a.node, "`value` of `" + fn + "` cannot be a pointer (" +
                              g.typeName(*v) + ")");
  if (!v->type.isTensor() ||
      llvm::ArrayRef<int64_t>(v->type.shape) != block)
    return g.fail(a.node, "`value` of `" + fn + "` must have the block shape " +
                              shapeStr(block) + ", got " + g.typeName(*v));
  return v;
}

/// Records on a 2-D descriptor block's load or store where the block comes
/// from, for TMA on sm_90 (TmaCopies.h): the offsets as `coords`, and the
/// kernel argument of a host descriptor (`descArg`) or the fields of one
/// made in the kernel (`desc`). A load of a host descriptor's block of rank
/// 3 to 5 that squeezes to 2-D (`[1, BM, BK]`) is recorded too: its tensor
/// map has the descriptor's rank and a box of the block's shape, and so is a
/// store of such a block's squeezed value. Whether it recorded anything.
template <typename AccessOp>
bool recordDescriptorBlock(IRGen &g, AccessOp access, const Val &desc,
                           const std::vector<Val> &offsets) {
  auto base = llvm::dyn_cast<mlir::BlockArgument>(desc.bpBase().value);
  auto kernel = base ? llvm::dyn_cast<mlir::func::FuncOp>(base.getOwner()->getParentOp())
                     : mlir::func::FuncOp();
  bool host = kernel && kernel.getArgAttr(base.getArgNumber(), "tile.descriptor");
  mlir::Value block;
  if constexpr (std::is_same_v<AccessOp, tile::LoadOp>)
    block = access.getResult();
  else
    block = access.getValue();
  bool squeezed = host && llvm::cast<mlir::RankedTensorType>(block.getType()).getRank() == 2 &&
                  keptDims(desc, /*squeeze=*/true).size() == 2;
  if (desc.bpRank() != 2 && !squeezed)
    return false;
  llvm::SmallVector<mlir::Value> coords;
  for (const Val &o : offsets)
    coords.push_back(o.isRuntime() ? o.value
                                   : g.constantInt(o.i, DType::I32).value);
  access.getCoordsMutable().assign(coords);
  if (host) {
    access.setDescArg(int64_t(base.getArgNumber()));
    return true;
  }
  llvm::SmallVector<mlir::Value> fields;
  for (size_t k = 0; k < 4; ++k) {
    const Val &f = desc.elems[k];
    fields.push_back(f.isRuntime() ? f.value
                                   : g.constantInt(f.i, k == 3 ? DType::I64 : DType::I32).value);
  }
  access.getDescMutable().assign(fields);
  return true;
}
} // namespace

FailureOr<Val> kiln::fe::makeTensorDescriptorBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef fn = rd.fn;
  std::vector<Val> shape = listOf(a[1].v), strides = listOf(a[2].v);
  size_t rank = shape.size();
  if (rank < 1 || rank > 5)
    return g.fail(a[1].node, "Expected 1 <= ndim <= 5 but got " +
                                 std::to_string(rank) + " dimensions");
  if (strides.size() != rank)
    return g.fail(a[2].node, "Expected " + std::to_string(rank) +
                                 " strides but got " +
                                 std::to_string(strides.size()));
  FailureOr<std::vector<int64_t>> block =
      constInts(g, a[3], fn, "block_shape");
  if (failed(block))
    return failure();
  if (block->size() != rank)
    return g.fail(a[3].node, "Expected block_shape to have " +
                                 std::to_string(rank) +
                                 " dimensions but got " +
                                 std::to_string(block->size()));
  const Val &base = a[0].v;
  if (!base.isRuntime() || !base.type.isPtr || base.type.isTensor())
    return g.fail(a[0].node, "`base` of `" + fn +
                                 "` must be a scalar pointer, got " +
                                 g.typeName(base));
  DType dt = base.type.dtype;
  int64_t elemBytes = bitWidth(dt) / 8, last = block->back();
  if (last * elemBytes < 16)
    return g.fail(a[3].node,
                  "Descriptor block shape must have at least 16 bytes in the "
                  "last dimension, but got " +
                      std::to_string(last) + " * " +
                      std::to_string(elemBytes) + " = " +
                      std::to_string(last * elemBytes) + " bytes");
  const Val &lastStride = strides.back();
  if (lastStride.kind != Val::Kind::Int || lastStride.i != 1)
    return g.fail(a[2].node,
                  "Tensor descriptor last dim must be 1 but got " +
                      (lastStride.kind == Val::Kind::Int
                           ? std::to_string(lastStride.i)
                           : g.typeName(lastStride) +
                                 " (the last stride must be the constant 1)"));
  if (failed(checkBlockShape(g, *block, a[3].node, fn)))
    return failure();
  std::string padding = "zero";
  if (a[4].given) {
    FailureOr<std::string> s = rd.constStr(a[4], "padding_option");
    if (failed(s))
      return failure();
    padding = *s;
    if (padding != "zero" && padding != "nan")
      return g.fail(a[4].node, "unknown padding option `" + padding +
                                   "` (expected \"zero\" or \"nan\")");
    if (padding == "nan" && !isFloat(dt))
      return g.fail(a[4].node, "Padding option `nan` is not supported for "
                               "integer blocks");
  }
  // A descriptor's base is 16-byte aligned and its strides but the last
  // are multiples of 16 bytes (Triton's rule, which a TMA copy needs): the
  // descriptor's own copies say so, for the vector accesses of blocks that
  // are not copied with TMA. Other uses of the values learn nothing.
  auto aligned = [&](const Val &v, int32_t divisor) {
    if (!v.isRuntime() || divisor <= 1)
      return v;
    mlir::Value hinted =
        tile::MultipleOfOp::create(g.b, l, v.value.getType(), v.value,
                                   llvm::ArrayRef<int32_t>{divisor});
    return Val::runtime(hinted, v.type);
  };
  std::vector<Val> scalars{aligned(base, 16)};
  for (int part = 0; part < 2; ++part)
    for (auto [d, v] : llvm::enumerate(part == 0 ? shape : strides)) {
      FailureOr<Val> s =
          descScalar(g, v, part == 0 ? DType::I32 : DType::I64,
                     a[1 + part].node, fn, part == 0 ? "shape" : "strides");
      if (failed(s))
        return failure();
      bool rowStride = part == 1 && d + 1 < rank;
      scalars.push_back(rowStride ? aligned(*s, int32_t(16 / elemBytes)) : *s);
    }
  return Val::tensorDesc(std::move(scalars), std::move(*block),
                         std::move(padding));
}

FailureOr<Val> kiln::fe::loadTensorDescriptorBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<Val> desc = descriptorArg(g, a[0], rd.fn);
  if (failed(desc))
    return failure();
  for (int k : {2, 3})
    if (a[k].given && failed(rd.constStr(a[k], k == 2 ? "cache_modifier"
                                                      : "eviction_policy")))
      return failure();
  std::vector<Val> offsets;
  FailureOr<Expanded> x =
      descriptorBlock(g, *desc, a[1], rd.fn, e, &offsets, /*squeeze=*/true);
  if (failed(x))
    return failure();
  DType dt = desc->bpBase().type.dtype;
  TType t = x->ptr.type.withDType(dt);
  mlir::Value other;
  auto tensorType = llvm::cast<mlir::RankedTensorType>(toMLIR(&g.ctx, t));
  auto floatType = llvm::dyn_cast<mlir::FloatType>(tensorType.getElementType());
  if (desc->s == "nan" && floatType && floatType.getWidth() >= 16) {
    // The NaN a TMA load fills in (measured on the H100): 0x7FF7 in every
    // 16-bit half of the element, so fp32 padding is 0x7FF77FF7.
    unsigned width = floatType.getWidth();
    llvm::APInt bits(width, 0);
    for (unsigned k = 0; k < width; k += 16)
      bits.insertBits(llvm::APInt(16, 0x7FF7), k);
    llvm::APFloat nan(floatType.getFloatSemantics(), bits);
    other = mlir::arith::ConstantOp::create(
        g.b, l, mlir::DenseElementsAttr::get(tensorType, nan));
  } else {
    FailureOr<mlir::Value> o = paddingTensor(g, desc->s, dt, t.shape, e);
    if (failed(o))
      return failure();
    other = *o;
  }
  auto load = tile::LoadOp::create(g.b, l, toMLIR(&g.ctx, t), x->ptr.value,
                                   x->mask, other);
  if (recordDescriptorBlock(g, load, *desc, offsets) && desc->s == "nan" &&
      !load.getDesc().empty())
    load.setDescNan(true);
  return liftToBlock(g, e, Val::runtime(load, t), desc->blockShape);
}

/// `v` (of a descriptor's block shape) as the `squeezed` block, when it is
/// a reshape up from a value of that shape, or a one-operand elementwise op
/// (a cast) of one: the op is made again on the squeezed value.
static std::optional<Val> squeezedValue(IRGen &g, const Val &v,
                                        llvm::ArrayRef<int64_t> squeezed) {
  auto isSqueezed = [&](mlir::Value x) {
    return llvm::cast<mlir::RankedTensorType>(x.getType()).getShape() == squeezed;
  };
  mlir::Operation *def = v.value.getDefiningOp();
  if (auto up = llvm::dyn_cast_or_null<tile::ReshapeOp>(def)) {
    if (!isSqueezed(up.getSrc()))
      return std::nullopt;
    return Val::runtime(up.getSrc(), v.type.withShape(squeezed));
  }
  if (!def || def->getNumOperands() != 1 || def->getNumResults() != 1 ||
      def->getNumRegions() != 0 || !def->hasTrait<mlir::OpTrait::Elementwise>())
    return std::nullopt;
  auto up = def->getOperand(0).getDefiningOp<tile::ReshapeOp>();
  if (!up || !isSqueezed(up.getSrc()))
    return std::nullopt;
  auto resultType = llvm::cast<mlir::RankedTensorType>(def->getResult(0).getType());
  mlir::OperationState state(def->getLoc(), def->getName());
  state.addOperands(up.getSrc());
  state.addTypes(mlir::RankedTensorType::get(squeezed, resultType.getElementType()));
  state.addAttributes(def->getAttrs());
  // The op of the block shape stays for any other use (a name may hold
  // it); unused, the pipeline's clean-up removes it.
  mlir::Operation *flat = g.b.create(state);
  return Val::runtime(flat->getResult(0), v.type.withShape(squeezed));
}

FailureOr<Val> kiln::fe::storeTensorDescriptorBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<Val> desc = descriptorArg(g, a[0], rd.fn);
  if (failed(desc))
    return failure();
  FailureOr<Val> v = descriptorValue(g, rd, a[2], *desc, rd.fn);
  if (failed(v))
    return failure();
  DType dt = desc->bpBase().type.dtype;
  if (v->type.dtype != dt) { // Triton casts to the descriptor's type.
    v = g.cast(*v, dt, a[2].node);
    if (failed(v))
      return failure();
  }
  // A value reshaped up from the squeezed block (store_ragged's, or a
  // kernel's `tl.reshape(acc, [1, BM, BN])`) is stored squeezed: the two
  // reshapes cancel. So is a cast of one (`tl.reshape(acc, [1, BM, BN])
  // .to(dtype)`, Liger's epilogues), cast before the reshape instead.
  llvm::SmallVector<int64_t> squeezed;
  for (size_t d : keptDims(*desc, /*squeeze=*/true))
    squeezed.push_back(desc->blockShape[d]);
  bool squeeze = false;
  if (squeezed.size() < desc->blockShape.size()) {
    if (std::optional<Val> flat = squeezedValue(g, *v, squeezed)) {
      v = *flat;
      squeeze = true;
    }
  }
  std::vector<Val> offsets;
  FailureOr<Expanded> x = descriptorBlock(g, *desc, a[1], rd.fn, e, &offsets, squeeze);
  if (failed(x))
    return failure();
  FailureOr<Val> stored = liftToBlock(g, e, *v, x->ptr.type.shape);
  if (failed(stored))
    return failure();
  auto store = tile::StoreOp::create(g.b, l, x->ptr.value, stored->value, x->mask);
  recordDescriptorBlock(g, store, *desc, offsets);
  return Val::none();
}

FailureOr<Val> kiln::fe::descriptorAtomicBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef op = llvm::StringRef(rd.fn).rsplit('.').second;
  FailureOr<Val> desc = descriptorArg(g, a[0], rd.fn);
  if (failed(desc))
    return failure();
  FailureOr<Val> v = descriptorValue(g, rd, a[2], *desc, rd.fn);
  if (failed(v))
    return failure();
  // Triton's dtype sets for descriptor reductions.
  DType dt = desc->bpBase().type.dtype;
  bool ok;
  if (op == "atomic_add")
    ok = llvm::is_contained({DType::U32, DType::I32, DType::U64, DType::F32,
                             DType::F16, DType::BF16},
                            dt);
  else if (op == "atomic_min" || op == "atomic_max")
    ok = llvm::is_contained({DType::U32, DType::I32, DType::U64, DType::I64,
                             DType::F16, DType::BF16},
                            dt);
  else
    ok = llvm::is_contained({DType::U32, DType::I32, DType::U64, DType::I64},
                            dt);
  if (!ok)
    return g.fail(a[0].node, "`" + op + "` of a tensor descriptor does not "
                                        "support " +
                                 Val::dtype(dt).repr());
  if ((op == "atomic_min" || op == "atomic_max") &&
      (dt == DType::F16 || dt == DType::BF16))
    return g.fail(a[0].node, "`" + op + "` of a " + Val::dtype(dt).repr() +
                                 " tensor descriptor (a TMA reduction) is not "
                                 "supported by Kiln yet");
  FailureOr<Expanded> x = descriptorBlock(g, *desc, a[1], rd.fn, e);
  if (failed(x))
    return failure();
  TType maskType{DType::I1, false, x->ptr.type.shape};
  FailureOr<Val> r = callWith(g, ("tl." + op).str(),
                              {x->ptr, *v, Val::runtime(x->mask, maskType)}, e);
  if (failed(r))
    return failure();
  return Val::none();
}
