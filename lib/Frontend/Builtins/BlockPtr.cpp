//===- BlockPtr.cpp - Block pointers -------------------------------------===//
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
// with every offset-dependent term a scalar (see there). Tensor descriptors
// are accessed through the same expansion (TensorDescriptor.cpp).
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
using namespace kiln::fe::blockptr;

namespace kiln::fe::blockptr {
/// The elements of a list-like argument (a single value is a list of one).
std::vector<Val> listOf(const Val &v) {
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
FailureOr<std::vector<Val>> readOffsets(IRGen &g, const Arg &a,
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
FailureOr<std::vector<int64_t>> constInts(IRGen &g, const Arg &a,
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

} // namespace kiln::fe::blockptr

/// A block shape of powers of two within the maximum tensor size (block
/// pointers and tensor descriptors check it alike, as Triton does).
LogicalResult kiln::fe::blockptr::checkBlockShape(IRGen &g, llvm::ArrayRef<int64_t> block,
                                                   const ast::Node *where,
                                                   llvm::StringRef fn) {
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

namespace kiln::fe::blockptr {
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

FailureOr<Expanded> expand(IRGen &g, const Val &p,
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
} // namespace kiln::fe::blockptr

namespace kiln::fe::blockptr {
/// The `other` of a padded load: NaN for "nan", else 0, in the block's shape.
FailureOr<mlir::Value> paddingTensor(IRGen &g, llvm::StringRef padding,
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
} // namespace kiln::fe::blockptr

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
