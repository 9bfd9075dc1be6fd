//===- BlockPtr.cpp - Block pointers and tensor descriptors ---------------===//
//
// Triton 3.6's block pointers, expanded in the frontend: a block pointer is
// its scalars (base; shape and strides as i64; offsets as i32) plus the
// constexpr block shape and order. A load or store computes, per dimension d,
//   idx_d = offset_d + arange(0, block_shape[d])          (in i64)
//   ptr   = base + sum_d idx_d * stride_d
//   mask  = AND over boundary_check dims of (idx_d >= 0 & idx_d < shape_d)
// as Triton's RewriteTensorPointer does, so the backend's axis info and
// layouts treat it like the equivalent pointer tensor (a stride of 1 on a
// contiguous dimension gives vector accesses). expand() computes the same
// with every offset-dependent term a scalar (see there).
//
//===----------------------------------------------------------------------===//
#include "BlockPtr.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallSet.h"
#include <cmath>
#include <limits>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

namespace {
/// The elements of a list-like argument (a single value is a list of one).
static std::vector<Val> listOf(const Val &v) {
  return v.kind == Val::Kind::Tuple ? v.elems : std::vector<Val>{v};
}

/// One element of `shape`/`strides` (i64) or `offsets` (i32) as a runtime
/// scalar, with Triton's checks.
static FailureOr<Val> blockPtrScalar(IRGen &g, const Val &v, bool wide,
                                     const Node *where, llvm::StringRef fn,
                                     llvm::StringRef what) {
  DType want = wide ? DType::I64 : DType::I32;
  if (v.kind == Val::Kind::Int || v.kind == Val::Kind::Bool) {
    if (!wide && (v.i < std::numeric_limits<int32_t>::min() ||
                  v.i > std::numeric_limits<int32_t>::max()))
      return g.fail(where, "block pointers only support 32-bit `" + what +
                               "`, got " + std::to_string(v.i) +
                               ", which is out of range");
    return g.constantInt(v.i, want);
  }
  if (!v.isRuntime())
    return g.fail(where, "`" + what + "` of `" + fn +
                             "` must hold integers, got " + g.typeName(v));
  if (v.type.isTensor())
    return g.fail(where, "`" + what + "` of `" + fn +
                             "` must hold scalars, got " + g.typeName(v));
  if (v.type.isPtr || !isIntDType(v.type.dtype) || v.type.dtype == DType::I1)
    return g.fail(where, "`" + what + "` of `" + fn +
                             "` must hold integer scalars, got " +
                             g.typeName(v));
  bool is64 = v.type.dtype == DType::I64 || v.type.dtype == DType::U64;
  if (!wide && is64)
    return g.fail(where, "block pointers only support 32-bit `" + what +
                             "`; add a `.to(tl.int32)` or use regular "
                             "indexing for 64-bit support");
  if (v.type.dtype == want)
    return v;
  return g.cast(v, want, where);
}

/// `offsets` of make_block_ptr / advance: `rank` i32 scalars.
static FailureOr<std::vector<Val>> readOffsets(IRGen &g, const Arg &a,
                                               size_t rank,
                                               llvm::StringRef fn) {
  std::vector<Val> in = listOf(a.v);
  if (in.size() != rank)
    return g.fail(a.node, "`offsets` of `" + fn + "` has " +
                              std::to_string(in.size()) +
                              " elements, but the block pointer has rank " +
                              std::to_string(rank));
  std::vector<Val> out;
  for (const Val &v : in) {
    FailureOr<Val> s = blockPtrScalar(g, v, false, a.node, fn, "offsets");
    if (failed(s))
      return failure();
    out.push_back(*s);
  }
  return out;
}

/// Reads a list of constexpr ints (block_shape, order, boundary_check).
static FailureOr<std::vector<int64_t>> constInts(IRGen &g, const Arg &a,
                                                 llvm::StringRef fn,
                                                 llvm::StringRef what) {
  std::vector<int64_t> out;
  for (const Val &v : listOf(a.v)) {
    if (v.kind != Val::Kind::Int)
      return g.fail(a.node, "`" + what + "` of `" + fn +
                                "` must hold constexpr integers, got " +
                                g.typeName(v));
    out.push_back(v.i);
  }
  return out;
}

} // namespace

/// A block shape of powers of two within the maximum tensor size (block
/// pointers and tensor descriptors check it alike, as Triton does).
static LogicalResult checkBlockShape(IRGen &g, llvm::ArrayRef<int64_t> block,
                                     const ast::Node *where, llvm::StringRef fn) {
  int64_t numel = 1;
  for (auto [k, d] : llvm::enumerate(block)) {
    if (d <= 0 || (d & (d - 1)) != 0)
      return g.fail(where, "block_shape element " + std::to_string(k) + " of `" +
                               fn + "` is " + std::to_string(d) +
                               ", which is not a power of two");
    numel *= d;
    if (numel > kMaxTensorNumel)
      return g.fail(where, "block of " + std::to_string(numel) +
                               "+ elements exceeds the maximum tensor size of " +
                               std::to_string(kMaxTensorNumel));
  }
  return success();
}

FailureOr<Val> kiln::fe::makeBlockPtrBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  llvm::StringRef fn = rd.fn;

  const Val &base = a[0].v;
  if (!base.isRuntime() || !base.type.isPtr || base.type.isTensor())
    return g.fail(a[0].node, "`base` of `" + fn +
                                 "` must be a scalar pointer, got " +
                                 g.typeName(base));
  FailureOr<std::vector<int64_t>> block =
      constInts(g, a[4], fn, "block_shape");
  if (failed(block))
    return failure();
  if (failed(checkBlockShape(g, *block, a[4].node, fn)))
    return failure();
  size_t rank = block->size();
  if (rank == 0)
    return g.fail(a[4].node, "`block_shape` of `" + fn + "` is empty");
  FailureOr<std::vector<int64_t>> order = constInts(g, a[5], fn, "order");
  if (failed(order))
    return failure();
  std::vector<int64_t> sorted = *order;
  llvm::sort(sorted);
  for (size_t k = 0; k < sorted.size(); ++k)
    if (sorted[k] != int64_t(k))
      return g.fail(a[5].node, "`order` of `" + fn +
                                   "` must be a permutation of (0, 1, ..., "
                                   "len(order) - 1), got " +
                                   a[5].v.repr());
  std::vector<Val> shape = listOf(a[1].v), strides = listOf(a[2].v),
                   offsets = listOf(a[3].v);
  if (shape.size() != rank || strides.size() != rank ||
      offsets.size() != rank || order->size() != rank)
    return g.fail(e, "`shape`, `strides`, `offsets`, `block_shape` and "
                     "`order` of `" +
                         fn + "` must have the same length (got " +
                         std::to_string(shape.size()) + ", " +
                         std::to_string(strides.size()) + ", " +
                         std::to_string(offsets.size()) + ", " +
                         std::to_string(rank) + ", " +
                         std::to_string(order->size()) + ")");
  std::vector<Val> scalars{base};
  for (int part = 0; part < 2; ++part)
    for (const Val &v : part == 0 ? shape : strides) {
      FailureOr<Val> s = blockPtrScalar(g, v, true, a[1 + part].node, fn,
                                        part == 0 ? "shape" : "strides");
      if (failed(s))
        return failure();
      scalars.push_back(*s);
    }
  FailureOr<std::vector<Val>> offs = readOffsets(g, a[3], rank, fn);
  if (failed(offs))
    return failure();
  scalars.insert(scalars.end(), offs->begin(), offs->end());
  return Val::blockPtr(std::move(scalars), std::move(*block),
                       std::move(*order));
}

FailureOr<Val> kiln::fe::advanceBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  if (a[0].v.kind != Val::Kind::BlockPtr || a[0].v.descriptor)
    return g.fail(a[0].node, "`" + rd.fn +
                                 "` expects a block pointer (from "
                                 "`tl.make_block_ptr`), got " +
                                 g.typeName(a[0].v));
  Val p = a[0].v;
  FailureOr<std::vector<Val>> delta = readOffsets(g, a[1], p.bpRank(), rd.fn);
  if (failed(delta))
    return failure();
  for (size_t d = 0; d < p.bpRank(); ++d) {
    // Adding a constant 0 leaves the offset (and its IR) unchanged.
    if (mlir::matchPattern((*delta)[d].value, mlir::m_Zero()))
      continue;
    FailureOr<Val> s = g.binary(BinOpKind::Add, p.bpOffset(d), (*delta)[d], e);
    if (failed(s))
      return failure();
    p.bpOffset(d) = *s;
  }
  return p;
}

namespace {
/// Triton's _canonicalize_boundary_check: distinct dims in [0, rank), sorted.
static FailureOr<std::vector<int64_t>>
boundaryCheck(IRGen &g, const Arg &a, size_t rank, llvm::StringRef fn) {
  if (!a.given || a.v.kind == Val::Kind::None)
    return std::vector<int64_t>{};
  FailureOr<std::vector<int64_t>> dims =
      constInts(g, a, fn, "boundary_check");
  if (failed(dims))
    return failure();
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t d : *dims) {
    if (d < 0 || d >= int64_t(rank))
      return g.fail(a.node, "`boundary_check` dimension " + std::to_string(d) +
                                " is out of range for a block pointer of "
                                "rank " +
                                std::to_string(rank));
    if (!seen.insert(d).second)
      return g.fail(a.node, "duplicate dimension " + std::to_string(d) +
                                " in `boundary_check`");
  }
  llvm::sort(*dims);
  return *dims;
}

/// The pointer tensor of block pointer `p`, and the mask of the dims in
/// `check` (null when empty).
struct Expanded {
  Val ptr;
  mlir::Value mask;
};

/// The i64 scalar clamp(v, 0, n) as i32: the in-tile index range bound that
/// `v` gives (indices r of [0, n) with r < bound / r >= bound).
static Val clampedBound(IRGen &g, mlir::Location l, mlir::Value v, int64_t n) {
  mlir::Value zero = g.constantInt(0, DType::I64).value;
  mlir::Value size = g.constantInt(n, DType::I64).value;
  mlir::Value lo = mlir::arith::MaxSIOp::create(g.b, l, v, zero);
  mlir::Value both = mlir::arith::MinSIOp::create(g.b, l, lo, size);
  mlir::Value narrow = mlir::arith::TruncIOp::create(g.b, l, g.b.getI32Type(), both);
  return Val::runtime(narrow, TType{DType::I32, false, {}});
}

/// `x` ([n]) as a rank-`rank` tensor with n at position d, 1 elsewhere.
static Val alongDim(IRGen &g, mlir::Location l, Val x, size_t d, size_t rank) {
  for (size_t k = 0; k < rank; ++k) {
    if (k == d)
      continue;
    TType t = x.type;
    t.shape.insert(t.shape.begin() + k, 1);
    x = Val::runtime(tile::ExpandDimsOp::create(g.b, l, toMLIR(&g.ctx, t), x.value,
                                                int32_t(k)),
                     t);
  }
  return x;
}

static FailureOr<Expanded> expand(IRGen &g, const Val &p,
                                  llvm::ArrayRef<int64_t> check,
                                  const CallExpr *e) {
  // Computed as the tile's first element (scalar) plus in-tile offsets
  // (r_d * stride_d, r_d = arange(0, block_d)), and each dimension's bounds
  // test as r_d >= clamp(-offset_d, 0, block_d) and r_d < clamp(shape_d -
  // offset_d, 0, block_d) in i32: the per-element part no longer depends on
  // the offsets, so it is computed once outside a loop that advances them,
  // and every offset-dependent term is a scalar. Equivalent to testing
  // offset_d + r_d in [0, shape_d) in i64.
  mlir::Location l = g.loc(e);
  size_t rank = p.bpRank();
  Val first;    // i64 scalar: the tile's first element
  Val offset;   // i64 in-tile element offsets, broadcast to the block shape
  Val mask;     // i1, broadcast to the block shape
  for (size_t d = 0; d < rank; ++d) {
    int64_t n = p.blockShape[d];
    FailureOr<Val> o64 = g.cast(p.bpOffset(d), DType::I64, e);
    if (failed(o64))
      return failure();
    FailureOr<Val> start = g.binary(BinOpKind::Mul, *o64, p.bpStride(d), e);
    if (failed(start))
      return failure();
    FailureOr<Val> sum = d == 0 ? *start : g.binary(BinOpKind::Add, first, *start, e);
    if (failed(sum))
      return failure();
    first = *sum;

    TType rt{DType::I32, false, {n}};
    Val range = Val::runtime(tile::ArangeOp::create(g.b, l, toMLIR(&g.ctx, rt),
                                                    0, int32_t(n)),
                             rt);
    FailureOr<Val> r64 = g.cast(range, DType::I64, e);
    if (failed(r64))
      return failure();
    FailureOr<Val> term = g.binary(BinOpKind::Mul, alongDim(g, l, *r64, d, rank),
                                   p.bpStride(d), e);
    if (failed(term))
      return failure();
    if (d == 0) {
      offset = *term;
    } else {
      FailureOr<Val> s = g.binary(BinOpKind::Add, offset, *term, e);
      if (failed(s))
        return failure();
      offset = *s;
    }
    if (!llvm::is_contained(check, int64_t(d)))
      continue;
    Val r = alongDim(g, l, range, d, rank);
    FailureOr<Val> shape64 = g.cast(p.bpShape(d), DType::I64, e);
    FailureOr<Val> above = g.binary(BinOpKind::Sub, *shape64, *o64, e);
    if (failed(shape64) || failed(above))
      return failure();
    FailureOr<Val> in = g.compare(CmpOpKind::Lt, r, clampedBound(g, l, above->value, n), e);
    if (failed(in))
      return failure();
    // An offset known to be >= 0 needs no lower test.
    llvm::APInt known;
    const Val &o = p.bpOffset(d);
    bool nonNegative = (o.kind == Val::Kind::Int && o.i >= 0) ||
                       (o.isRuntime() && matchPattern(o.value, mlir::m_ConstantInt(&known)) &&
                        !known.isNegative());
    if (!nonNegative) {
      FailureOr<Val> below = g.binary(BinOpKind::Sub, g.constantInt(0, DType::I64), *o64, e);
      if (failed(below))
        return failure();
      FailureOr<Val> lo = g.compare(CmpOpKind::GtE, r, clampedBound(g, l, below->value, n), e);
      if (failed(lo))
        return failure();
      in = g.binary(BinOpKind::BitAnd, *lo, *in, e);
      if (failed(in))
        return failure();
    }
    if (!mask.isRuntime()) {
      mask = *in;
    } else {
      FailureOr<Val> m = g.binary(BinOpKind::BitAnd, mask, *in, e);
      if (failed(m))
        return failure();
      mask = *m;
    }
  }
  llvm::SmallVector<int64_t> shape(p.blockShape.begin(), p.blockShape.end());
  FailureOr<Val> off = g.broadcastTo(offset, shape, e, "block offsets");
  if (failed(off))
    return failure();
  FailureOr<Val> tileStart = g.binary(BinOpKind::Add, p.bpBase(), first, e);
  if (failed(tileStart))
    return failure();
  FailureOr<Val> ptr = g.binary(BinOpKind::Add, *tileStart, *off, e);
  if (failed(ptr))
    return failure();
  Expanded out{*ptr, {}};
  if (mask.isRuntime()) {
    FailureOr<Val> m = g.broadcastTo(mask, shape, e, "boundary mask");
    if (failed(m))
      return failure();
    out.mask = m->value;
  }
  return out;
}
} // namespace

namespace {
/// The `other` of a padded load: NaN for "nan", else 0, in the block's shape.
static FailureOr<mlir::Value> paddingTensor(IRGen &g, llvm::StringRef padding,
                                            DType dt,
                                            llvm::ArrayRef<int64_t> shape,
                                            const CallExpr *e) {
  Val pad = padding == "nan" ? Val::flt(std::nan(""))
            : isFloat(dt)    ? Val::flt(0)
                             : Val::integer(0);
  FailureOr<Val> c = g.constant(pad, dt, e);
  if (failed(c))
    return failure();
  FailureOr<Val> o = g.broadcastTo(*c, shape, e, "padding");
  if (failed(o))
    return failure();
  return o->value;
}
} // namespace

FailureOr<Val> kiln::fe::loadBlockPtr(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  const Val &p = a[0].v;
  if (p.descriptor)
    return g.fail(a[0].node, "`" + rd.fn +
                                 "` cannot load through a tensor descriptor; "
                                 "use `desc.load(offsets)`");
  if (!rd.isNone(a[1]) || !rd.isNone(a[2]))
    return g.fail(a[!rd.isNone(a[1]) ? 1 : 2].node,
                  "`mask` and `other` cannot be given when loading through a "
                  "block pointer (use `boundary_check` and `padding_option`)");
  DType dt = p.bpBase().type.dtype;
  std::string padding;
  if (a[4].given) {
    FailureOr<std::string> s = rd.constStr(a[4], "padding_option");
    if (failed(s))
      return failure();
    padding = *s;
    if (!padding.empty() && padding != "zero" && padding != "nan")
      return g.fail(a[4].node, "unknown padding option `" + padding +
                                   "` (expected \"zero\" or \"nan\")");
    if (padding == "nan" && !isFloat(dt))
      return g.fail(a[4].node, "padding option `nan` is not supported for "
                               "integer block pointers");
  }
  FailureOr<std::vector<int64_t>> check =
      boundaryCheck(g, a[3], p.bpRank(), rd.fn);
  if (failed(check))
    return failure();
  FailureOr<Expanded> x = expand(g, p, *check, e);
  if (failed(x))
    return failure();
  mlir::Value other;
  TType t = x->ptr.type.withDType(dt);
  if (x->mask && !padding.empty()) {
    FailureOr<mlir::Value> o = paddingTensor(g, padding, dt, t.shape, e);
    if (failed(o))
      return failure();
    other = *o;
  }
  return Val::runtime(tile::LoadOp::create(g.b, l, toMLIR(&g.ctx, t),
                                           x->ptr.value, x->mask, other),
                      t);
}

FailureOr<Val> kiln::fe::storeBlockPtr(BuiltinCall &call, tile::StoreOp *made) {
  auto &[g, rd, a, e, l, args] = call;
  const Val &p = a[0].v;
  if (p.descriptor)
    return g.fail(a[0].node, "`" + rd.fn +
                                 "` cannot store through a tensor descriptor; "
                                 "use `desc.store(offsets, value)`");
  if (p.bpBase().type.isConst)
    return g.fail(a[0].node, rd.constStoreMessage("a block pointer over " +
                                                  g.typeName(p.bpBase())));
  if (!rd.isNone(a[2]))
    return g.fail(a[2].node, "`mask` cannot be given when storing through a "
                             "block pointer (use `boundary_check`)");
  FailureOr<Val> v = rd.value(a[1], "value");
  if (failed(v))
    return failure();
  DType dt = p.bpBase().type.dtype;
  llvm::SmallVector<int64_t> shape(p.blockShape.begin(), p.blockShape.end());
  if (v->type.isPtr)
    return g.fail(a[1].node, "`value` of `" + rd.fn +
                                 "` cannot be a pointer (" + g.typeName(*v) +
                                 ")");
  if (!v->type.isTensor()) {
    FailureOr<Val> bv = g.broadcastTo(*v, shape, a[1].node, "`value`");
    if (failed(bv))
      return failure();
    v = bv;
  }
  if (llvm::ArrayRef<int64_t>(v->type.shape) != llvm::ArrayRef<int64_t>(shape))
    return g.fail(a[1].node, "block shape " + shapeStr(shape) +
                                 " and value shape " +
                                 shapeStr(v->type.shape) + " mismatch");
  if (v->type.dtype != dt)
    return g.fail(a[1].node,
                  std::string("block element type ") + tritonName(dt) +
                      " and value element type " +
                      tritonName(v->type.dtype) + " mismatch");
  FailureOr<std::vector<int64_t>> check =
      boundaryCheck(g, a[3], p.bpRank(), rd.fn);
  if (failed(check))
    return failure();
  FailureOr<Expanded> x = expand(g, p, *check, e);
  if (failed(x))
    return failure();
  auto store = tile::StoreOp::create(g.b, l, x->ptr.value, v->value, x->mask);
  if (made)
    *made = store;
  return Val::none();
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//
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
  std::vector<size_t> keep;
  for (size_t d = 0; d < rank; ++d)
    if (!squeeze || rank < 3 || desc.blockShape[d] != 1)
      keep.push_back(d);
  if (keep.empty())
    keep.push_back(rank - 1);
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
static Val liftToBlock(IRGen &g, const CallExpr *e, const Val &v,
                       llvm::ArrayRef<int64_t> shape) {
  if (llvm::ArrayRef<int64_t>(v.type.shape) == shape)
    return v;
  std::vector<Val> dims;
  for (int64_t d : shape)
    dims.push_back(Val::integer(d));
  // Same element count, power-of-two dims: the reshape cannot fail.
  FailureOr<Val> r = callWith(g, "tl.reshape", {v, Val::tuple(std::move(dims))}, e);
  return succeeded(r) ? *r : v;
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
/// made in the kernel (`desc`). Whether it recorded anything.
template <typename AccessOp>
bool recordDescriptorBlock(IRGen &g, AccessOp access, const Val &desc,
                           const std::vector<Val> &offsets) {
  if (desc.bpRank() != 2)
    return false;
  llvm::SmallVector<mlir::Value> coords;
  for (const Val &o : offsets)
    coords.push_back(o.isRuntime() ? o.value
                                   : g.constantInt(o.i, DType::I32).value);
  access.getCoordsMutable().assign(coords);
  auto base = llvm::dyn_cast<mlir::BlockArgument>(desc.bpBase().value);
  auto kernel = base ? llvm::dyn_cast<mlir::func::FuncOp>(base.getOwner()->getParentOp())
                     : mlir::func::FuncOp();
  if (kernel && kernel.getArgAttr(base.getArgNumber(), "tile.descriptor")) {
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
  // reshapes cancel.
  bool squeeze = false;
  if (auto up = v->value.getDefiningOp<tile::ReshapeOp>()) {
    llvm::SmallVector<int64_t> squeezed;
    for (int64_t d : desc->blockShape)
      if (d != 1)
        squeezed.push_back(d);
    squeeze = desc->bpRank() >= 3 &&
              llvm::cast<mlir::RankedTensorType>(up.getSrc().getType()).getShape() ==
                  llvm::ArrayRef<int64_t>(squeezed);
  }
  std::vector<Val> offsets;
  FailureOr<Expanded> x = descriptorBlock(g, *desc, a[1], rd.fn, e, &offsets, squeeze);
  if (failed(x))
    return failure();
  Val stored = liftToBlock(g, e, *v, x->ptr.type.shape);
  auto store = tile::StoreOp::create(g.b, l, x->ptr.value, stored.value, x->mask);
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
