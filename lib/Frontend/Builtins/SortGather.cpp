//===- SortGather.cpp - sort, topk, flip, gather, histogram, softmax ----===//
//
// tl.sort, tl.bitonic_merge, tl.gather and tl.histogram map to tile.sort /
// tile.gather / tile.histogram. tl.flip and tl.topk are compositions of them (a gather
// with reversed coordinates; a descending sort whose first k columns are
// gathered), and tl.swizzle2d / tl.softmax are arithmetic on other
// builtins, as the @jit functions of Triton's standard library are.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

namespace {
/// The tensor of numbers `a` (no pointers, no scalars).
FailureOr<Val> numericTensor(BuiltinCall &c, const Arg &a, llvm::StringRef what) {
  FailureOr<Val> v = c.rd.value(a, what);
  if (failed(v))
    return failure();
  if (!v->type.isTensor() || v->type.isPtr)
    return c.g.fail(a.node, "`" + what + "` of `" + c.rd.fn +
                                "` must be a tensor of numbers, got " +
                                c.g.typeName(*v));
  return v;
}

/// The `dim` of tl.sort / tl.topk: None or the last dimension, the only one
/// Triton 3.6 sorts along ("only minor dimension is currently supported").
LogicalResult checkLastDim(BuiltinCall &c, const Arg &a, unsigned rank) {
  if (c.rd.isNone(a))
    return success();
  FailureOr<int64_t> d = c.rd.constInt(a, "dim");
  if (failed(d))
    return failure();
  if (*d != int64_t(rank) - 1)
    return c.g.fail(a.node, "`" + c.rd.fn +
                                "` only sorts along the last dimension (dim=" +
                                std::to_string(rank - 1) + " for rank " +
                                std::to_string(rank) + "), got dim=" +
                                std::to_string(*d));
  return success();
}

/// An i32 tensor of `shape` whose elements are their coordinate along `axis`
/// (`shape[axis] - 1` minus it when `reversed`).
FailureOr<Val> axisCoordinates(IRGen &g, llvm::ArrayRef<int64_t> shape,
                               unsigned axis, bool reversed, const CallExpr *e) {
  mlir::Location l = g.loc(e);
  int64_t n = shape[axis];
  TType t{DType::I32, false, {n}};
  Val v = Val::runtime(
      tile::ArangeOp::create(g.b, l, toMLIR(&g.ctx, t), 0u, uint32_t(n)), t);
  if (reversed) {
    FailureOr<Val> r = g.binary(BinOpKind::Sub, Val::integer(n - 1), v, e);
    if (failed(r))
      return failure();
    v = *r;
  }
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (d == axis)
      continue;
    llvm::SmallVector<int64_t, 2> s(v.type.shape);
    s.insert(s.begin() + d, 1);
    TType et = v.type.withShape(s);
    v = Val::runtime(
        tile::ExpandDimsOp::create(g.b, l, toMLIR(&g.ctx, et), v.value, d), et);
  }
  return g.broadcastTo(v, shape, e, "index");
}

Val emitSort(IRGen &g, const Val &x, bool descending, mlir::Location l,
             bool mergeOnly = false) {
  DType d = x.type.dtype;
  bool unsignedCompare = isUnsigned(d) || d == DType::I1;
  auto op = tile::SortOp::create(g.b, l, x.value.getType(), x.value, descending,
                                 unsignedCompare, mergeOnly);
  return Val::runtime(op.getResult(), x.type);
}

Val emitGather(IRGen &g, const Val &src, const Val &index, unsigned axis,
               mlir::Location l) {
  TType t = src.type.withShape(index.type.shape);
  return Val::runtime(tile::GatherOp::create(g.b, l, toMLIR(&g.ctx, t), src.value,
                                             index.value, axis),
                      t);
}

/// A constexpr bool given as a bool or an int (`descending=1`).
FailureOr<bool> flagArg(BuiltinCall &c, const Arg &a, llvm::StringRef what) {
  if (c.rd.isNone(a))
    return false;
  return c.rd.constBool(a, what);
}

/// tl.sort(x, dim, descending) and tl.bitonic_merge(x, dim, descending): the
/// merge is the sort's last stage alone (Triton's `_bitonic_merge`).
FailureOr<Val> sortOrMerge(BuiltinCall &c, bool mergeOnly) {
  FailureOr<Val> x = numericTensor(c, c.a[0], "x");
  if (failed(x) || failed(checkLastDim(c, c.a[1], x->type.shape.size())))
    return failure();
  FailureOr<bool> desc = flagArg(c, c.a[2], "descending");
  if (failed(desc))
    return failure();
  return emitSort(c.g, *x, *desc, c.loc, mergeOnly);
}

FailureOr<Val> sortBuiltin(BuiltinCall &c) { return sortOrMerge(c, false); }
FailureOr<Val> bitonicMergeBuiltin(BuiltinCall &c) { return sortOrMerge(c, true); }

/// Triton 3.6's topk(x, k, dim=None): the k largest elements along the last
/// dimension, largest first. Triton reduces pairs with tl.max when k < n,
/// which widens narrow types (bf16/fp16 -> fp32, 8/16-bit ints -> int32):
/// the result gets that type too.
FailureOr<Val> topkBuiltin(BuiltinCall &c) {
  auto &g = c.g;
  FailureOr<Val> x = numericTensor(c, c.a[0], "x");
  if (failed(x))
    return failure();
  unsigned rank = x->type.shape.size();
  FailureOr<int64_t> k = c.rd.constInt(c.a[1], "k");
  if (failed(k) || failed(checkLastDim(c, c.a[2], rank)))
    return failure();
  int64_t n = x->type.shape.back();
  if (*k <= 0 || (*k & (*k - 1)) != 0 || *k > n)
    return g.fail(c.a[1].node, "`k` of `" + c.rd.fn +
                                   "` must be a power of two in [1, " +
                                   std::to_string(n) + "], got " +
                                   std::to_string(*k));
  Val sorted = emitSort(g, *x, /*descending=*/true, c.loc);
  if (*k == n)
    return sorted;
  llvm::SmallVector<int64_t, 2> shape(x->type.shape);
  shape.back() = *k;
  FailureOr<Val> index = axisCoordinates(g, shape, rank - 1, false, c.e);
  if (failed(index))
    return failure();
  Val top = emitGather(g, sorted, *index, rank - 1, c.loc);
  DType d = top.type.dtype;
  std::optional<DType> wide;
  if (d == DType::BF16 || d == DType::F16)
    wide = DType::F32;
  else if (isIntDType(d) && bitWidth(d) < 32)
    wide = DType::I32;
  if (!wide)
    return top;
  return g.cast(top, *wide, c.e);
}

FailureOr<Val> flipBuiltin(BuiltinCall &c) {
  FailureOr<Val> x = numericTensor(c, c.a[0], "x");
  if (failed(x))
    return failure();
  unsigned rank = x->type.shape.size();
  unsigned dim = rank - 1;
  if (!c.rd.isNone(c.a[1])) {
    FailureOr<unsigned> d = c.rd.axis(c.a[1], rank);
    if (failed(d))
      return failure();
    dim = *d;
  }
  if (x->type.shape[dim] == 1)
    return *x;
  FailureOr<Val> index = axisCoordinates(c.g, x->type.shape, dim, true, c.e);
  if (failed(index))
    return failure();
  return emitGather(c.g, *x, *index, dim, c.loc);
}

FailureOr<Val> gatherBuiltin(BuiltinCall &c) {
  auto &g = c.g;
  FailureOr<Val> src = numericTensor(c, c.a[0], "src");
  if (failed(src))
    return failure();
  FailureOr<Val> index = c.rd.value(c.a[1], "index");
  if (failed(index))
    return failure();
  if (!index->type.isTensor() || index->type.isPtr || !isIntDType(index->type.dtype))
    return g.fail(c.a[1].node, "`index` of `" + c.rd.fn +
                                   "` must be a tensor of integers, got " +
                                   g.typeName(*index));
  unsigned rank = src->type.shape.size();
  if (index->type.shape.size() != rank)
    return g.fail(c.a[1].node, "source and index tensors of `" + c.rd.fn +
                                   "` must have the same rank, got " +
                                   shapeStr(src->type.shape) + " and " +
                                   shapeStr(index->type.shape));
  FailureOr<unsigned> axis = c.rd.axis(c.a[2], rank);
  if (failed(axis))
    return failure();
  for (unsigned d = 0; d < rank; ++d)
    if (d != *axis && index->type.shape[d] != src->type.shape[d])
      return g.fail(c.a[1].node,
                    "index shape " + shapeStr(index->type.shape) + " of `" +
                        c.rd.fn + "` must match the source shape " +
                        shapeStr(src->type.shape) + " in dimension " +
                        std::to_string(d) + " (all but axis " +
                        std::to_string(*axis) + ")");
  // Narrow indices widen with their signedness, so that the lowering's
  // wrap-around reads the value Triton's type means.
  Val idx = *index;
  if (bitWidth(idx.type.dtype) < 32) {
    FailureOr<Val> w = g.cast(idx, isUnsigned(idx.type.dtype) || idx.type.dtype == DType::I1
                                       ? DType::U32
                                       : DType::I32,
                              c.a[1].node);
    if (failed(w))
      return failure();
    idx = *w;
  }
  return emitGather(g, *src, idx, *axis, c.loc);
}

FailureOr<Val> histogramBuiltin(BuiltinCall &c) {
  auto &g = c.g;
  FailureOr<Val> in = c.rd.value(c.a[0], "input");
  if (failed(in))
    return failure();
  if (!in->type.isTensor() || in->type.shape.size() != 1)
    return g.fail(c.a[0].node, "`" + c.rd.fn + "` only supports 1-D input, got " +
                                   g.typeName(*in));
  if (in->type.isPtr || !isIntDType(in->type.dtype))
    return g.fail(c.a[0].node, "`" + c.rd.fn +
                                   "` only supports integer input, got " +
                                   g.typeName(*in));
  FailureOr<int64_t> bins = c.rd.constInt(c.a[1], "num_bins");
  if (failed(bins))
    return failure();
  if (*bins <= 0 || (*bins & (*bins - 1)) != 0 || *bins > kMaxTensorNumel)
    return g.fail(c.a[1].node, "`num_bins` of `" + c.rd.fn +
                                   "` must be a power of two (the result is a "
                                   "tensor of that many bins), got " +
                                   std::to_string(*bins));
  mlir::Value mask;
  if (!c.rd.isNone(c.a[2])) {
    FailureOr<Val> m = c.rd.value(c.a[2], "mask");
    if (failed(m))
      return failure();
    if (m->type.isPtr || m->type.dtype != DType::I1)
      return g.fail(c.a[2].node, "`mask` of `" + c.rd.fn +
                                     "` must have boolean scalar type, got " +
                                     g.typeName(*m));
    FailureOr<Val> b = g.broadcastTo(*m, in->type.shape, c.a[2].node, "mask");
    if (failed(b))
      return failure();
    mask = b->value;
  }
  // Bins are the low bits of the value: narrower integers widen to i32 with
  // their signedness (as Triton's casts do), wider ones keep their bits.
  Val v = *in;
  if (bitWidth(v.type.dtype) < 32) {
    FailureOr<Val> w =
        g.cast(v, isUnsigned(v.type.dtype) || v.type.dtype == DType::I1 ? DType::U32
                                                                        : DType::I32,
               c.a[0].node);
    if (failed(w))
      return failure();
    v = *w;
  }
  TType t{DType::I32, false, {*bins}};
  return Val::runtime(
      tile::HistogramOp::create(g.b, c.loc, toMLIR(&g.ctx, t), v.value, mask), t);
}

/// Triton's swizzle2d(i, j, size_i, size_j, size_g): row-major indices into
/// indices that are column-major within groups of size_g rows.
FailureOr<Val> swizzle2dBuiltin(BuiltinCall &c) {
  auto &g = c.g;
  const CallExpr *e = c.e;
  std::vector<Val> in;
  for (const Arg &a : c.a) {
    if (!a.v.isRuntime() && !a.v.isNumber())
      return g.fail(a.node, "arguments of `" + c.rd.fn +
                                "` must be integers or integer tensors, got " +
                                g.typeName(a.v));
    in.push_back(a.v);
  }
  auto op = [&](BinOpKind k, const Val &x, const Val &y) { return g.binary(k, x, y, e); };
  // ij = i * size_j + j;  size_gj = size_g * size_j;  group_id = ij // size_gj
  FailureOr<Val> ij = op(BinOpKind::Mul, in[0], in[3]);
  if (failed(ij) || failed(ij = op(BinOpKind::Add, *ij, in[1])))
    return failure();
  FailureOr<Val> sizeGJ = op(BinOpKind::Mul, in[4], in[3]);
  if (failed(sizeGJ))
    return failure();
  FailureOr<Val> group = op(BinOpKind::FloorDiv, *ij, *sizeGJ);
  if (failed(group))
    return failure();
  // off_i = group_id * size_g;  size_g = minimum(size_i - off_i, size_g)
  FailureOr<Val> offI = op(BinOpKind::Mul, *group, in[4]);
  if (failed(offI))
    return failure();
  FailureOr<Val> rows = op(BinOpKind::Sub, in[2], *offI);
  if (failed(rows))
    return failure();
  FailureOr<Val> sizeG = rows->isRuntime() || in[4].isRuntime()
                             ? callWith(g, "tl.minimum", {*rows, in[4]}, e)
                             : FailureOr<Val>(rows->i < in[4].i ? *rows : in[4]);
  if (failed(sizeG))
    return failure();
  // ij = ij % size_gj;  new_i = off_i + ij % size_g;  new_j = ij // size_g
  if (failed(ij = op(BinOpKind::Mod, *ij, *sizeGJ)))
    return failure();
  FailureOr<Val> inGroup = op(BinOpKind::Mod, *ij, *sizeG);
  if (failed(inGroup))
    return failure();
  FailureOr<Val> newI = op(BinOpKind::Add, *offI, *inGroup);
  FailureOr<Val> newJ = op(BinOpKind::FloorDiv, *ij, *sizeG);
  if (failed(newI) || failed(newJ))
    return failure();
  return Val::tuple({*newI, *newJ});
}
/// Triton's softmax(x, dim=None, keep_dims=False, ieee_rounding=False):
/// exp(x - max) / sum, along `dim` (0 when None). Triton's tl.fdiv ignores
/// ieee_rounding (it is a plain divf), so the division is `/`.
FailureOr<Val> softmaxBuiltin(BuiltinCall &c) {
  auto &g = c.g;
  const CallExpr *e = c.e;
  FailureOr<Val> x = numericTensor(c, c.a[0], "x");
  if (failed(x))
    return failure();
  int64_t dim = 0;
  if (!c.rd.isNone(c.a[1])) {
    FailureOr<int64_t> d = c.rd.constInt(c.a[1], "dim");
    if (failed(d))
      return failure();
    dim = *d;
  }
  FailureOr<bool> keep = flagArg(c, c.a[2], "keep_dims");
  FailureOr<bool> ieee = flagArg(c, c.a[3], "ieee_rounding");
  if (failed(keep) || failed(ieee))
    return failure();
  Val axis = Val::integer(dim), keepV = Val::boolean(*keep);
  FailureOr<Val> m = callWith(g, "tl.max", {*x, axis, Val::boolean(false),
                                            Val::boolean(true), keepV}, e);
  if (failed(m))
    return failure();
  FailureOr<Val> z = g.binary(BinOpKind::Sub, *x, *m, e);
  if (failed(z))
    return failure();
  FailureOr<Val> num = callWith(g, "tl.exp", {*z}, e);
  if (failed(num))
    return failure();
  FailureOr<Val> den = callWith(g, "tl.sum", {*num, axis, keepV}, e);
  if (failed(den))
    return failure();
  return g.binary(BinOpKind::Div, *num, *den, e);
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::sortGatherBuiltins() {
  static const BuiltinDef defs[] = {
      {"sort", {"x", "dim=None", "descending=0"}, false, false, sortBuiltin, false},
      {"topk", {"x", "k", "dim=None"}, false, false, topkBuiltin, false},
      {"bitonic_merge", {"x", "dim=None", "descending=0"}, false, false,
       bitonicMergeBuiltin, false},
      {"flip", {"x", "dim=None"}, true, false, flipBuiltin, false},
      {"gather", {"src", "index", "axis"}, true, false, gatherBuiltin, false},
      {"histogram", {"input", "num_bins", "mask=None"}, true, false,
       histogramBuiltin, false},
      {"softmax", {"x", "dim=None", "keep_dims=False", "ieee_rounding=False"}, true,
       false, softmaxBuiltin, false},
      {"swizzle2d", {"i", "j", "size_i", "size_j", "size_g"}, false, false,
       swizzle2dBuiltin, false},
  };
  return defs;
}
