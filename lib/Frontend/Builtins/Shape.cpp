//===- Shape.cpp - Shape builtins: expand_dims, trans, reshape, join, ... -===//
//
// Shape manipulation with Triton 3.6's names, defaults and checks: shapes
// and permutations are accepted as one tuple/list or as varargs, like
// Triton's `*shape` / `*dims`. trans/permute, reshape/view/ravel, join,
// split and cat become tile ops; interleave is join + reshape (as in
// Triton's standard library), broadcast and full_like reuse the
// broadcasting and creation helpers.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include <algorithm>

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

namespace {
static FailureOr<Val> expand_dimsBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;

  FailureOr<Val> x = rd.value(a[0], "input");
  if (failed(x))
    return failure();
  std::vector<Val> axes =
      a[1].v.kind == Val::Kind::Tuple ? a[1].v.elems : std::vector<Val>{a[1].v};
  // As Triton: every axis is normalized against the result's rank, then the
  // axes are inserted in increasing order ((-4, 2, -1) on a 1-D tensor is
  // [0, 2, 3]).
  int64_t rank = x->type.shape.size() + axes.size();
  llvm::SmallVector<unsigned, 4> dims;
  for (const Val &axv : axes) {
    FailureOr<unsigned> ax = rd.axis(Arg{axv, a[1].node, true}, rank);
    if (failed(ax))
      return failure();
    dims.push_back(*ax);
  }
  llvm::SmallVector<unsigned, 4> sorted(dims);
  llvm::sort(sorted);
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    std::string list;
    for (unsigned d : dims)
      list += (list.empty() ? "" : ", ") + std::to_string(d);
    return g.fail(a[1].node, "`tl.expand_dims` received duplicate axes, "
                             "normalized axes = [" + list + "]");
  }
  Val v = *x;
  for (unsigned ax : sorted) {
    llvm::SmallVector<int64_t, 2> s(v.type.shape);
    s.insert(s.begin() + ax, 1);
    if (!v.type.isTensor()) {
      FailureOr<Val> sv = g.broadcastTo(v, s, e, "input");
      if (failed(sv))
        return failure();
      v = *sv;
      continue;
    }
    TType t = v.type.withShape(s);
    v = Val::runtime(
        tile::ExpandDimsOp::create(g.b, l, toMLIR(&g.ctx, t), v.value, ax), t);
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

/// Reads a runtime tensor argument; scalars and constexprs are rejected
/// with the builtin's name.
static FailureOr<Val> tensorArg(BuiltinCall &call, const Val &v,
                                const ast::Node *node, llvm::StringRef what) {
  if (!v.isRuntime() || !v.type.isTensor())
    return call.g.fail(node, "`" + what + "` of `" + call.rd.fn.str() +
                                 "` must be a tensor, got " + call.g.typeName(v));
  return v;
}

/// Positional arguments `first..` as one tuple: `f(x, (a, b))`, `f(x, [a, b])`
/// and `f(x, a, b)` are the same (Triton's _unwrap_iterable).
static Val varargTuple(const CallArgs &args, size_t first) {
  if (args.pos.size() == first + 1 && args.pos[first].kind == Val::Kind::Tuple)
    return args.pos[first];
  return Val::tuple(std::vector<Val>(args.pos.begin() + first, args.pos.end()));
}

/// Rejects keyword arguments other than `allowed` (raw-argument builtins).
static LogicalResult checkKeywords(BuiltinCall &call,
                                   llvm::ArrayRef<llvm::StringRef> allowed) {
  for (auto [k, node] : llvm::zip(call.args.kw, call.args.kwNodes))
    if (!llvm::is_contained(allowed, llvm::StringRef(k.first)))
      return call.g.fail(node, "`" + call.rd.fn.str() +
                                   "` got an unexpected keyword argument `" +
                                   k.first + "`");
  return success();
}

static const Val *keyword(BuiltinCall &call, llvm::StringRef name,
                          const ast::Node **node = nullptr) {
  for (auto [k, n] : llvm::zip(call.args.kw, call.args.kwNodes))
    if (k.first == name) {
      if (node)
        *node = n;
      return &k.second;
    }
  return nullptr;
}

static Val emitTrans(IRGen &g, mlir::Location l, const Val &x,
                     llvm::ArrayRef<int32_t> order) {
  bool identity = true;
  for (auto [i, d] : llvm::enumerate(order))
    identity &= int32_t(i) == d;
  if (identity)
    return x;
  llvm::SmallVector<int64_t, 2> shape;
  for (int32_t d : order)
    shape.push_back(x.type.shape[d]);
  TType t = x.type.withShape(shape);
  return Val::runtime(
      tile::TransOp::create(g.b, l, toMLIR(&g.ctx, t), x.value, order), t);
}

static Val emitReshape(IRGen &g, mlir::Location l, const Val &x,
                       llvm::ArrayRef<int64_t> shape, bool canReorder) {
  if (llvm::ArrayRef<int64_t>(x.type.shape) == shape)
    return x;
  TType t = x.type.withShape(shape);
  // Reshapes keep the row-major order, so one of a reshape reshapes its
  // source: `tl.reshape(desc.load(...), [BM, BK])` of a [1, BM, BK]
  // descriptor block is the (squeezed) load itself, which loops pipeline.
  mlir::Value src = x.value;
  if (auto inner = src.getDefiningOp<tile::ReshapeOp>()) {
    src = inner.getSrc();
    if (llvm::cast<mlir::RankedTensorType>(src.getType()).getShape() == shape)
      return Val::runtime(src, t);
  }
  auto op = tile::ReshapeOp::create(g.b, l, toMLIR(&g.ctx, t), src);
  if (canReorder)
    op.setCanReorder(true);
  return Val::runtime(op, t);
}

/// The single element of a one-element tensor as a scalar (Triton's
/// _unsplat: a reduction that keeps its first operand).
static FailureOr<Val> unsplatImpl(IRGen &g, Val x, const ast::Node *e) {
  mlir::Location l = g.loc(e);
  if (x.type.shape.size() > 1)
    x = emitReshape(g, l, x, {1}, false);
  auto first = [&](llvm::ArrayRef<Val> xs) -> FailureOr<llvm::SmallVector<mlir::Value>> {
    return llvm::SmallVector<mlir::Value>{xs[0].value};
  };
  FailureOr<std::vector<Val>> r = reduceWith(g, {x}, 0u, false, first, e);
  if (failed(r))
    return failure();
  return (*r)[0];
}

static FailureOr<Val> permuteImpl(BuiltinCall &call, bool isTrans) {
  auto &[g, rd, a, e, l, args] = call;
  if (failed(checkKeywords(call, {})))
    return failure();
  if (args.pos.empty())
    return g.fail(e, "`" + rd.fn.str() + "` needs an input tensor");
  FailureOr<Val> x = tensorArg(call, args.pos[0], args.posNodes[0], "input");
  if (failed(x))
    return failure();
  Val dims = varargTuple(args, 1);
  if (dims.elems.empty()) {
    if (!isTrans)
      return g.fail(e, "`tl.permute` needs the permutation of the dimensions, "
                       "e.g. tl.permute(x, 1, 0)");
    dims = Val::tuple({Val::integer(1), Val::integer(0)});
  }
  int64_t rank = x->type.shape.size();
  const ast::Node *where = args.pos.size() > 1 ? args.posNodes[1] : e;
  if (int64_t(dims.elems.size()) != rank)
    return g.fail(where, "`" + rd.fn.str() + "` of a rank-" + std::to_string(rank) +
                             " tensor " + shapeStr(x->type.shape) +
                             " needs a permutation of its " + std::to_string(rank) +
                             " dimensions, got " + dims.repr());
  llvm::SmallVector<int32_t, 4> order;
  llvm::SmallVector<bool, 4> seen(rank, false);
  for (const Val &d : dims.elems) {
    if (d.kind != Val::Kind::Int)
      return g.fail(where, "dimensions of `" + rd.fn.str() +
                               "` must be constexpr integers, got " + g.typeName(d));
    if (d.i < 0 || d.i >= rank || seen[d.i])
      return g.fail(where, "dimensions of `" + rd.fn.str() +
                               "` must be a permutation of 0.." +
                               std::to_string(rank - 1) + ", got " + dims.repr());
    seen[d.i] = true;
    order.push_back(int32_t(d.i));
  }
  return emitTrans(g, l, *x, order);
}

static FailureOr<Val> transBuiltin(BuiltinCall &call) { return permuteImpl(call, true); }
static FailureOr<Val> permuteBuiltin(BuiltinCall &call) { return permuteImpl(call, false); }

static FailureOr<Val> reshapeImpl(BuiltinCall &call, bool isView) {
  auto &[g, rd, a, e, l, args] = call;
  if (failed(checkKeywords(call, isView ? llvm::ArrayRef<llvm::StringRef>{}
                                        : llvm::ArrayRef<llvm::StringRef>{"can_reorder"})))
    return failure();
  if (args.pos.empty())
    return g.fail(e, "`" + rd.fn.str() + "` needs an input tensor");
  FailureOr<Val> x = tensorArg(call, args.pos[0], args.posNodes[0], "input");
  if (failed(x))
    return failure();
  bool canReorder = isView;
  const ast::Node *crNode = e;
  if (const Val *cr = keyword(call, "can_reorder", &crNode)) {
    FailureOr<bool> b = rd.constBool(Arg{*cr, crNode, true}, "can_reorder");
    if (failed(b))
      return failure();
    canReorder = *b;
  }
  if (args.pos.size() < 2)
    return g.fail(e, "`" + rd.fn.str() + "` needs the new shape");
  const ast::Node *where = args.posNodes[1];
  FailureOr<llvm::SmallVector<int64_t, 2>> shape =
      rd.shape(Arg{varargTuple(args, 1), where, true});
  if (failed(shape))
    return failure();
  int64_t numel = 1;
  for (int64_t d : *shape)
    numel *= d;
  if (numel != x->type.numel())
    return g.fail(where, "`" + rd.fn.str() + "` cannot change the number of "
                             "elements: " + shapeStr(x->type.shape) + " has " +
                             std::to_string(x->type.numel()) + ", " +
                             shapeStr(*shape) + " has " + std::to_string(numel));
  if (shape->empty())
    return unsplatImpl(g, *x, e);
  return emitReshape(g, l, *x, *shape, canReorder);
}

static FailureOr<Val> reshapeBuiltin(BuiltinCall &call) { return reshapeImpl(call, false); }

/// `x.item()` / `tl.item(x)`: the scalar of a one-element tensor.
static FailureOr<Val> itemBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<Val> x = rd.value(a[0], "input");
  if (failed(x))
    return failure();
  if (!x->type.isTensor())
    return *x;
  if (x->type.numel() != 1)
    return g.fail(a[0].node, "`item` needs a tensor of one element, got " +
                                 g.typeName(*x));
  return unsplatImpl(g, *x, e);
}
static FailureOr<Val> viewBuiltin(BuiltinCall &call) { return reshapeImpl(call, true); }

static FailureOr<Val> ravelBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<Val> x = tensorArg(call, a[0].v, a[0].node, "x");
  if (failed(x))
    return failure();
  FailureOr<bool> canReorder =
      rd.constBoolOr(a[1], "can_reorder", false);
  if (failed(canReorder))
    return failure();
  return emitReshape(g, l, *x, {x->type.numel()}, *canReorder);
}

/// `tl.squeeze(x, dim)` / `tl.unsqueeze(x, dim)` (Triton's standard
/// library): drop a size-1 axis, insert one. `dim` is not wrapped (Triton
/// slices the shape with it: unsqueeze(x, -1) inserts before the last axis).
static FailureOr<Val> squeezeImpl(BuiltinCall &call, bool squeeze) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<Val> x = tensorArg(call, a[0].v, a[0].node, "x");
  if (failed(x))
    return failure();
  FailureOr<int64_t> dim = rd.constInt(a[1], "dim");
  if (failed(dim))
    return failure();
  llvm::SmallVector<int64_t, 2> s(x->type.shape);
  int64_t rank = s.size();
  // Python slicing of the shape: shape[:dim] + ... + shape[dim(+1):].
  int64_t at = *dim < 0 ? std::max<int64_t>(0, *dim + rank)
                        : std::min<int64_t>(*dim, rank);
  if (squeeze) {
    if (*dim >= rank || *dim < -rank || s[at] != 1)
      return g.fail(a[1].node,
                    "`tl.squeeze`: axis " + std::to_string(*dim) + " of " +
                        g.typeName(*x) + " does not have size 1");
    s.erase(s.begin() + at);
  } else {
    s.insert(s.begin() + at, 1);
  }
  return emitReshape(g, l, *x, s, false);
}
static FailureOr<Val> squeezeBuiltin(BuiltinCall &call) { return squeezeImpl(call, true); }
static FailureOr<Val> unsqueezeBuiltin(BuiltinCall &call) { return squeezeImpl(call, false); }

static FailureOr<Val> broadcastBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<Val> x = rd.value(a[0], "input");
  FailureOr<Val> y = failed(x) ? FailureOr<Val>(failure()) : rd.value(a[1], "other");
  if (failed(y))
    return failure();
  Val lhs = *x, rhs = *y;
  if (failed(g.broadcastPair(lhs, rhs, e, "tl.broadcast")))
    return failure();
  return Val::tuple({lhs, rhs});
}

/// Operands of join/cat: runtime values of one dtype (join broadcasts them).
static LogicalResult pairOperands(BuiltinCall &call, Val &lhs, Val &rhs,
                                  bool broadcast) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<Val> x = rd.value(a[0], "first operand");
  if (failed(x))
    return failure();
  FailureOr<Val> y = rd.value(a[1], "second operand");
  if (failed(y))
    return failure();
  lhs = *x, rhs = *y;
  if (lhs.type.dtype != rhs.type.dtype || lhs.type.isPtr != rhs.type.isPtr)
    return g.fail(e, "`" + rd.fn.str() + "` needs operands of one type, got " +
                         g.typeName(lhs) + " and " + g.typeName(rhs));
  if (broadcast)
    return g.broadcastPair(lhs, rhs, e, rd.fn);
  if (lhs.type.shape != rhs.type.shape)
    return g.fail(e, "`" + rd.fn.str() + "` needs operands of one shape, got " +
                         shapeStr(lhs.type.shape) + " and " + shapeStr(rhs.type.shape));
  return success();
}

static FailureOr<Val> joinValues(IRGen &g, mlir::Location l, Val lhs, Val rhs,
                                 const ast::Node *where) {
  bool scalars = !lhs.type.isTensor();
  if (scalars) {
    FailureOr<Val> x = g.broadcastTo(lhs, {1}, where, "a");
    FailureOr<Val> y = g.broadcastTo(rhs, {1}, where, "b");
    if (failed(x) || failed(y))
      return failure();
    lhs = *x, rhs = *y;
  }
  llvm::SmallVector<int64_t, 2> shape(lhs.type.shape);
  shape.push_back(2);
  TType t = lhs.type.withShape(shape);
  Val joined = Val::runtime(
      tile::JoinOp::create(g.b, l, toMLIR(&g.ctx, t), lhs.value, rhs.value), t);
  if (scalars)
    return emitReshape(g, l, joined, {2}, false);
  return joined;
}

static FailureOr<Val> joinBuiltin(BuiltinCall &call) {
  Val lhs, rhs;
  if (failed(pairOperands(call, lhs, rhs, /*broadcast=*/true)))
    return failure();
  return joinValues(call.g, call.loc, lhs, rhs, call.e);
}

static FailureOr<Val> interleaveBuiltin(BuiltinCall &call) {
  Val lhs, rhs;
  if (failed(pairOperands(call, lhs, rhs, /*broadcast=*/true)))
    return failure();
  FailureOr<Val> c = joinValues(call.g, call.loc, lhs, rhs, call.e);
  if (failed(c) || c->type.shape.size() == 1)
    return c;
  llvm::SmallVector<int64_t, 2> shape(c->type.shape.begin(), c->type.shape.end() - 2);
  shape.push_back(2 * c->type.shape[c->type.shape.size() - 2]);
  return emitReshape(call.g, call.loc, *c, shape, false);
}

static FailureOr<Val> splitBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<Val> x = tensorArg(call, a[0].v, a[0].node, "a");
  if (failed(x))
    return failure();
  if (x->type.shape.back() != 2)
    return g.fail(a[0].node, "`tl.split` needs a last dimension of size 2, got "
                             "a tensor of shape " + shapeStr(x->type.shape));
  Val v = *x;
  bool rank1 = v.type.shape.size() == 1;
  if (rank1) {
    TType t = v.type.withShape({1, 2});
    v = Val::runtime(
        tile::ExpandDimsOp::create(g.b, l, toMLIR(&g.ctx, t), v.value, 0), t);
  }
  llvm::SmallVector<int64_t, 2> shape(v.type.shape.begin(), v.type.shape.end() - 1);
  TType t = v.type.withShape(shape);
  mlir::Type mt = toMLIR(&g.ctx, t);
  auto op = tile::SplitOp::create(g.b, l, mt, mt, v.value);
  Val lhs = Val::runtime(op.getLhs(), t), rhs = Val::runtime(op.getRhs(), t);
  if (rank1) {
    FailureOr<Val> x0 = unsplatImpl(g, lhs, e);
    FailureOr<Val> x1 = failed(x0) ? FailureOr<Val>(failure()) : unsplatImpl(g, rhs, e);
    if (failed(x1))
      return failure();
    lhs = *x0, rhs = *x1;
  }
  return Val::tuple({lhs, rhs});
}

static FailureOr<Val> catBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  FailureOr<bool> canReorder =
      rd.constBoolOr(a[2], "can_reorder", false);
  if (failed(canReorder))
    return failure();
  if (!*canReorder)
    return g.fail(a[2].given ? a[2].node : e,
                  "`tl.cat` requires can_reorder=True (Triton 3.6 may reorder "
                  "the elements of a concatenation)");
  Val lhs, rhs;
  if (failed(pairOperands(call, lhs, rhs, /*broadcast=*/false)))
    return failure();
  if (lhs.type.shape.size() != 1)
    return g.fail(e, "`tl.cat` concatenates 1-D tensors, got shape " +
                         shapeStr(lhs.type.shape));
  TType t = lhs.type.withShape({2 * lhs.type.shape[0]});
  return Val::runtime(
      tile::CatOp::create(g.b, l, toMLIR(&g.ctx, t), lhs.value, rhs.value), t);
}

static FailureOr<Val> full_likeBuiltin(BuiltinCall &call) {
  auto &[g, rd, a, e, l, args] = call;
  const Val &in = a[0].v;
  if (!in.isRuntime())
    return g.fail(a[0].node, "`input` of `tl.full_like` must be a tensor or a "
                             "scalar value, got " + g.typeName(in));
  DType d = in.type.dtype;
  bool ptr = in.type.isPtr && rd.isNone(a[2]);
  if (!rd.isNone(a[2])) {
    FailureOr<DType> dd = rd.dtype(a[2], "dtype");
    if (failed(dd))
      return failure();
    d = *dd;
  }
  if (ptr)
    return g.fail(a[0].node, "`tl.full_like` of a pointer tensor needs a "
                             "numeric `dtype`, got " + g.typeName(in));
  FailureOr<Val> scalar;
  const Val &value = a[1].v;
  if (value.isNumber())
    scalar = g.constant(value, d, a[1].node);
  else if (value.isRuntime() && !value.type.isTensor() && !value.type.isPtr)
    scalar = g.cast(value, d, a[1].node);
  else
    return g.fail(a[1].node, "`value` of `tl.full_like` must be a scalar, got " +
                                 g.typeName(value));
  if (failed(scalar) || !in.type.isTensor())
    return scalar;
  return g.broadcastTo(*scalar, in.type.shape, e, "value");
}
} // namespace

FailureOr<Val> kiln::fe::unsplat(IRGen &g, Val x, const ast::Node *e) {
  return unsplatImpl(g, std::move(x), e);
}

llvm::ArrayRef<BuiltinDef> kiln::fe::shapeBuiltins() {
  static const BuiltinDef defs[] = {
      {"expand_dims",
       {"input", "axis"},
       true,
       false,
       expand_dimsBuiltin,
       false},
      {"broadcast_to", {}, true, false, broadcast_toBuiltin, true},
      {"trans", {}, true, false, transBuiltin, true},
      {"permute", {}, true, false, permuteBuiltin, true},
      {"reshape", {}, true, false, reshapeBuiltin, true},
      {"view", {}, true, false, viewBuiltin, true},
      {"ravel", {"x", "can_reorder=False"}, true, false, ravelBuiltin, false},
      {"item", {"input"}, true, false, itemBuiltin, false},
      {"squeeze", {"x", "dim"}, false, false, squeezeBuiltin, false},
      {"unsqueeze", {"x", "dim"}, false, false, unsqueezeBuiltin, false},
      {"broadcast", {"input", "other"}, false, false, broadcastBuiltin, false},
      {"join", {"a", "b"}, false, false, joinBuiltin, false},
      {"interleave", {"a", "b"}, false, false, interleaveBuiltin, false},
      {"split", {"a"}, true, false, splitBuiltin, false},
      {"cat", {"input", "other", "can_reorder=False"}, false, false, catBuiltin,
       false},
      {"full_like",
       {"input", "value", "dtype=None"},
       false,
       false,
       full_likeBuiltin,
       false},
  };
  return defs;
}
