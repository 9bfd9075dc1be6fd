//===- IRGenSubscript.cpp - Subscripts: tuples, slices, tensor indices ----===//
//
// `t[k]` and `t[a:b:c]` of tuples (constexpr), `x[:, None]` of tensors (a
// unit dimension inserted, `:` keeping one).
//
//===----------------------------------------------------------------------===//
#include "IRGen.h"

#include "kiln/Dialect/Tile/IR/Tile.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

/// `t[lower:upper:step]` of a tuple (Triton's tl.tuple slices, as Python:
/// `x.shape[:-1] + [32]`): constexpr integer or None bounds.
FailureOr<Val> IRGen::sliceTuple(const Val &t, const SliceExpr *sl) {
  int64_t n = t.elems.size();
  auto bound = [&](const Expr *x, const char *what) -> FailureOr<std::optional<int64_t>> {
    if (!x)
      return std::optional<int64_t>();
    FailureOr<Val> v = eval(x);
    if (failed(v))
      return failure();
    if (v->kind == Val::Kind::None)
      return std::optional<int64_t>();
    if (v->kind != Val::Kind::Int)
      return fail(x, std::string("tuple slice ") + what + " must be a constexpr integer or "
                     "None, got " + typeName(*v));
    return std::optional<int64_t>(v->i);
  };
  FailureOr<std::optional<int64_t>> lo = bound(sl->lower, "start"),
                                    hi = bound(sl->upper, "stop"),
                                    st = bound(sl->step, "step");
  if (failed(lo) || failed(hi) || failed(st))
    return failure();
  int64_t step = st->value_or(1);
  if (step == 0)
    return fail(sl->step, "tuple slice step cannot be zero");
  // Python's slice.indices(n).
  auto clampIndex = [&](std::optional<int64_t> i, int64_t dflt) {
    if (!i)
      return dflt;
    int64_t k = *i < 0 ? *i + n : *i;
    return step > 0 ? std::clamp<int64_t>(k, 0, n) : std::clamp<int64_t>(k, -1, n - 1);
  };
  int64_t start = clampIndex(*lo, step > 0 ? 0 : n - 1);
  int64_t stop = clampIndex(*hi, step > 0 ? n : -1);
  std::vector<Val> out;
  for (int64_t k = start; step > 0 ? k < stop : k > stop; k += step)
    out.push_back(t.elems[k]);
  return Val::tuple(std::move(out));
}

FailureOr<Val> IRGen::evalSubscript(const SubscriptExpr *e) {
  FailureOr<Val> base = eval(e->value);
  if (failed(base))
    return failure();
  if (base->kind == Val::Kind::Tuple) {
    if (e->indices.size() != 1)
      return fail(e, "tuples can only be indexed by one constexpr integer or slice");
    if (auto *sl = llvm::dyn_cast<SliceExpr>(e->indices[0]))
      return sliceTuple(*base, sl);
    FailureOr<Val> idx = eval(e->indices[0]);
    if (failed(idx))
      return failure();
    if (idx->kind != Val::Kind::Int)
      return fail(e->indices[0], "tuple index must be a constexpr integer, "
                                 "got " +
                                     typeName(*idx));
    int64_t n = base->elems.size(), k = idx->i < 0 ? idx->i + n : idx->i;
    if (k < 0 || k >= n)
      return fail(e->indices[0], "tuple index " + std::to_string(idx->i) +
                                     " out of range for a tuple of " +
                                     std::to_string(n));
    return base->elems[k];
  }
  if (!base->isRuntime())
    return fail(e, "`" + text(e->value) + "` (" + typeName(*base) +
                       ") is not subscriptable");
  Val v = *base;
  size_t kept = 0;
  for (const Expr *ix : e->indices)
    if (!llvm::isa<ConstExpr>(ix) ||
        llvm::cast<ConstExpr>(ix)->which != ConstExpr::Which::None)
      ++kept;
  // A scalar takes `:` and `None` as Triton's tensor.__getitem__ does: `:`
  // keeps, `None` at position k inserts a 1 at k or at the end
  // (`pid[:, None]` is a 1-element tile; torchao's blockwise fp8 kernels).
  if (kept > v.type.shape.size() && v.type.isTensor())
    return fail(e, "too many indices for a tensor of rank " +
                       std::to_string(v.type.shape.size()));
  for (size_t dim = 0; dim < e->indices.size(); ++dim) {
    const Expr *ix = e->indices[dim];
    if (auto *c = llvm::dyn_cast<ConstExpr>(ix);
        c && c->which == ConstExpr::Which::None) {
      llvm::SmallVector<int64_t, 2> s(v.type.shape);
      s.insert(s.begin() + std::min(dim, s.size()), 1);
      TType t = v.type.withShape(s);
      if (!v.type.isTensor()) {
        FailureOr<Val> sv = broadcastTo(v, s, e, "value");
        if (failed(sv))
          return failure();
        v = *sv;
        continue;
      }
      v = Val::runtime(tile::ExpandDimsOp::create(b, loc(ix), toMLIR(&ctx, t),
                                                  v.value, unsigned(dim)),
                       t);
      continue;
    }
    auto absent = [](const Expr *x) { // `:`, also as `None:`, `:None`
      auto *c = llvm::dyn_cast_or_null<ConstExpr>(x);
      return !x || (c && c->which == ConstExpr::Which::None);
    };
    auto *sl = llvm::dyn_cast<SliceExpr>(ix);
    if (sl && absent(sl->lower) && absent(sl->upper) && absent(sl->step))
      continue;
    if (!base->type.isTensor())
      return fail(e, "`" + text(e->value) + "` (" + typeName(*base) +
                         ") is not subscriptable");
    return fail(ix, "unsupported tensor index `" + text(ix) +
                        "`: only `:` and `None` are supported");
  }
  return v;
}
