//===- IRGenStmt.cpp - Statements and loops -------------------------------===//
//
// Python variables become SSA values: names reassigned in a loop body are
// threaded through scf.for / scf.while (a block pointer as its scalars).
// Runtime `if` statements are in IRGenIf.cpp.
//
//===----------------------------------------------------------------------===//
#include "IRGen.h"
#include "llvm/ADT/ScopeExit.h"
#include "IRGenSCF.h"

#include <map>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

/// Limits that keep hostile input from exhausting time or memory.
static constexpr uint64_t kMaxStatements = 200000;

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult IRGen::genBlock(llvm::ArrayRef<const Stmt *> stmts) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (fs->returned)
      break; // code after `return` is dead
    const Stmt *s = stmts[i];
    if (auto *is = llvm::dyn_cast<IfStmt>(s); is && containsReturn({s}))
      return genIfWithReturn(is, stmts.drop_front(i + 1));
    if (failed(genStmt(s)))
      return failure();
  }
  return success();
}

LogicalResult IRGen::genStmt(const Stmt *s) {
  if (failed(enter(s)))
    return failure();
  LogicalResult r = genStmtImpl(s);
  leave();
  return r;
}

LogicalResult IRGen::genStmtImpl(const Stmt *s) {
  if (++stmtBudget > kMaxStatements)
    return fail(s, "kernel too large: more than " +
                       std::to_string(kMaxStatements) +
                       " statements after inlining and unrolling");
  switch (s->kind) {
  case Node::Kind::ExprStmt: {
    auto *es = llvm::cast<ExprStmt>(s);
    if (llvm::isa<StrExpr>(es->expr))
      return success(); // docstring
    return failure(failed(eval(es->expr)));
  }
  case Node::Kind::Assign:
    return genAssign(llvm::cast<AssignStmt>(s));
  case Node::Kind::AugAssign:
    return genAugAssign(llvm::cast<AugAssignStmt>(s));
  case Node::Kind::AnnAssign: {
    auto *a = llvm::cast<AnnAssignStmt>(s);
    if (!a->value)
      return success();
    FailureOr<Val> v = eval(a->value);
    if (failed(v))
      return failure();
    // Triton binds whatever the value is (a runtime value stays one:
    // FlagGems' `CTA_TILE_N: tl.constexpr = TILE_N * tiles_n_per_cta`), but
    // a name annotated tl.constexpr is bound once.
    auto *name = llvm::dyn_cast<NameExpr>(a->target);
    if (isConstexprAnnotation(a->annotation) && name &&
        fs->scope.count(name->id))
      return fail(a->target, "`" + name->id +
                                 "` is already defined; a tl.constexpr "
                                 "cannot be reassigned");
    return assign(a->target, *v, s);
  }
  case Node::Kind::For: {
    auto *f = llvm::cast<ForStmt>(s);
    if (f->isAsync)
      return fail(s, "`async for` is not supported in Triton kernels");
    if (!f->orelse.empty())
      return fail(f->elseBegin, "`else` on a `for` loop is not supported in "
                                "Triton kernels");
    return genFor(f);
  }
  case Node::Kind::While: {
    auto *w = llvm::cast<WhileStmt>(s);
    if (!w->orelse.empty())
      return fail(w->elseBegin, "`else` on a `while` loop is not supported "
                                "in Triton kernels");
    return genWhile(w);
  }
  case Node::Kind::If:
    return genIf(llvm::cast<IfStmt>(s));
  case Node::Kind::Pass:
    return success();
  case Node::Kind::Return:
    return genReturn(llvm::cast<ReturnStmt>(s));
  case Node::Kind::Assert:
    return genAssert(llvm::cast<AssertStmt>(s));
  case Node::Kind::FunctionDef:
    return fail(s, "nested function definitions are not supported in "
                   "Triton kernels");
  case Node::Kind::Break:
  case Node::Kind::Continue:
    return fail(s, "`" + text(s) +
                       "` is not supported in Triton kernels (Triton loops "
                       "have no early exit)");
  case Node::Kind::Global:
    return fail(s, llvm::Twine("`") +
                       (llvm::cast<GlobalStmt>(s)->isNonlocal ? "nonlocal"
                                                              : "global") +
                       "` statements are not supported in Triton kernels");
  case Node::Kind::With:
    if (llvm::cast<WithStmt>(s)->isAsync)
      return fail(s, "`async with` is not supported in Triton kernels");
    return fail(s, hostConstructError(s->kind));
  case Node::Kind::Import:
  case Node::Kind::ImportFrom:
    return fail(s, "imports inside functions are not supported");
  default:
    return fail(s, hostConstructError(s->kind));
  }
}

LogicalResult IRGen::assign(const Expr *target, const Val &v,
                            const Node *where) {
  if (auto *n = llvm::dyn_cast<NameExpr>(target)) {
    if (v.kind == Val::Kind::Undef)
      return failure();
    fs->scope[n->id] = Binding{v, target->range.begin};
    return success();
  }
  if (auto *t = llvm::dyn_cast<TupleExpr>(target)) {
    for (const Expr *e : t->elts)
      if (llvm::isa<StarredExpr>(e))
        return fail(e, "starred assignment targets are not supported in "
                       "Triton kernels");
    if (v.kind != Val::Kind::Tuple)
      return fail(where, "cannot unpack " + typeName(v) + " into " +
                             std::to_string(t->elts.size()) + " names");
    if (v.elems.size() != t->elts.size())
      return fail(where, "cannot unpack " + std::to_string(v.elems.size()) +
                             " values into " + std::to_string(t->elts.size()) +
                             " names");
    for (size_t k = 0; k < t->elts.size(); ++k)
      if (failed(assign(t->elts[k], v.elems[k], where)))
        return failure();
    return success();
  }
  if (llvm::isa<SubscriptExpr>(target))
    return fail(target, "assignment to `" + text(target) +
                            "` is not supported: tensors are immutable "
                            "(use tl.where)");
  if (llvm::isa<AttributeExpr>(target))
    return fail(target, "assignment to an attribute (`" + text(target) +
                            "`) is not supported");
  return fail(target, "cannot assign to `" + text(target) + "`");
}

LogicalResult IRGen::genAssign(const AssignStmt *s) {
  FailureOr<Val> v = eval(s->value);
  if (failed(v))
    return failure();
  for (const Expr *t : s->targets)
    if (failed(assign(t, *v, s)))
      return failure();
  return success();
}

LogicalResult IRGen::genAugAssign(const AugAssignStmt *s) {
  auto *n = llvm::dyn_cast<NameExpr>(s->target);
  if (!n)
    return assign(s->target, Val::none(), s);
  FailureOr<Val> cur = evalName(n);
  if (failed(cur))
    return failure();
  FailureOr<Val> r = eval(s->value);
  if (failed(r))
    return failure();
  // Errors point at the operator (`+=`).
  ast::BinOpExpr where(SrcRange{s->opRange.begin, s->range.end}, s->op,
                       s->target, s->value, s->opRange);
  FailureOr<Val> res = binary(s->op, *cur, *r, &where);
  if (failed(res))
    return failure();
  return assign(s->target, *res, s);
}

LogicalResult IRGen::genReturn(const ReturnStmt *s) {
  if (fs->loopDepth > 0)
    return fail(s, "`return` inside a loop is not supported");
  Val v = Val::none();
  if (s->value) {
    FailureOr<Val> r = eval(s->value);
    if (failed(r))
      return failure();
    v = *r;
  }
  if (fs->isKernel && v.kind != Val::Kind::None)
    return fail(s, "a kernel cannot return a value");
  fs->returned = true;
  fs->retVal = v;
  fs->retNode = s;
  return success();
}

LogicalResult IRGen::genAssert(const AssertStmt *s) {
  FailureOr<Val> t = eval(s->test);
  if (failed(t))
    return failure();
  // A constexpr condition is checked now; a runtime one becomes
  // tl.device_assert (compiled in only in debug builds), as in Triton.
  if (t->isConstexpr() && t->truthy())
    return success();
  std::string msg;
  if (s->msg) {
    FailureOr<Val> m = eval(s->msg);
    if (failed(m))
      return failure();
    msg = m->kind == Val::Kind::Str ? m->s : m->repr();
  }
  if (t->isRuntime())
    return emitDeviceAssert(*this, *t, msg, s);
  if (!t->isConstexpr())
    return fail(s->test, "`assert` condition is " + typeName(*t));
  return fail(s, "assertion failed" + (msg.empty() ? "" : ": " + msg));
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

namespace {
/// A Python variable threaded through a loop as an SSA iteration value; a
/// block pointer is threaded as its scalars, one Carried each (`part` is
/// the index into its elems, -1 for a plain runtime value).
struct Carried {
  std::string name;
  Val init;
  int part = -1;
};

/// The names a loop body assigns that hold values before the loop.
struct LoopVars {
  std::vector<Carried> carried;
  /// Block pointers carried: their value before the loop (the static part
  /// the loop must keep).
  std::map<std::string, Val> blockPtrs;
  /// Compile-time values that cannot be carried; they must stay unchanged.
  std::vector<std::pair<std::string, Val>> frozen;

  llvm::SmallVector<mlir::Value> inits() const {
    llvm::SmallVector<mlir::Value> v;
    for (const Carried &c : carried)
      v.push_back(c.init.value);
    return v;
  }
};
} // namespace

/// Numeric constexprs become runtime scalars (as Triton does); other
/// compile-time values are frozen.
static FailureOr<LoopVars> collectLoopVars(IRGen &g,
                                           llvm::ArrayRef<const Stmt *> body,
                                           llvm::StringRef skip,
                                           const Node *where) {
  LoopVars lv;
  std::vector<std::string> names;
  collectAssignedNames(body, names);
  llvm::sort(names);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  for (const std::string &n : names) {
    if (n == skip)
      continue;
    auto it = g.fs->scope.find(n);
    if (it == g.fs->scope.end() || it->second.v.kind == Val::Kind::Undef)
      continue;
    const Val &v = it->second.v;
    if (v.kind == Val::Kind::BlockPtr) {
      lv.blockPtrs[n] = v;
      for (size_t k = 0; k < v.elems.size(); ++k)
        lv.carried.push_back({n, v.elems[k], int(k)});
    } else if (v.isRuntime()) {
      lv.carried.push_back({n, v});
    } else if (v.isNumber()) {
      FailureOr<Val> rv = g.toRuntime(v, where);
      if (failed(rv))
        return failure();
      lv.carried.push_back({n, *rv});
    } else {
      lv.frozen.emplace_back(n, v);
    }
  }
  return lv;
}

/// Binds the carried names to `values`, the block arguments of a loop region.
static void bindCarried(IRGen &g, const LoopVars &lv, mlir::ValueRange values) {
  for (size_t k = 0; k < lv.carried.size(); ++k) {
    const Carried &c = lv.carried[k];
    Val &v = g.fs->scope[c.name].v;
    Val x = Val::runtime(values[k], c.init.type);
    if (c.part < 0) {
      v = x;
      continue;
    }
    if (c.part == 0) // a block pointer's scalars come in order
      v = lv.blockPtrs.at(c.name);
    v.elems[c.part] = x;
  }
}

/// The loop body's final values of the carried names, type-checked.
static FailureOr<llvm::SmallVector<mlir::Value>>
yieldedValues(IRGen &g, const LoopVars &lv, const Node *loop) {
  llvm::SmallVector<mlir::Value> out;
  for (const Carried &c : lv.carried) {
    const IRGen::Binding &bd = g.fs->scope[c.name];
    if (c.part >= 0) {
      const Val &before = lv.blockPtrs.at(c.name);
      if (!bd.v.sameBlockPtrType(before))
        return g.fail(bd.defOffset, "loop-carried `" + c.name +
                                        "` changes type from " +
                                        g.typeName(before) + " to " +
                                        g.typeName(bd.v));
      out.push_back(bd.v.elems[c.part].value);
      continue;
    }
    Val v = bd.v;
    if (v.isNumber()) {
      FailureOr<Val> rv = g.toRuntime(v, loop);
      if (failed(rv))
        return failure();
      v = *rv;
    }
    if (!v.isRuntime())
      return g.fail(bd.defOffset, "loop-carried `" + c.name + "` becomes " +
                                      g.typeName(v) + " inside the loop");
    if (v.type != c.init.type)
      return g.fail(bd.defOffset,
                    "loop-carried `" + c.name + "` changes type from " +
                        g.typeName(c.init) + " to " + g.typeName(v));
    out.push_back(v.value);
  }
  for (const auto &[name, v] : lv.frozen) {
    const IRGen::Binding &bd = g.fs->scope[name];
    if (!bd.v.sameAs(v))
      return g.fail(bd.defOffset, "`" + name + "` holds " + g.typeName(v) +
                                      " before the loop and cannot be "
                                      "reassigned inside it");
  }
  return out;
}

/// Generates the loop body into `blk` and yields the carried names' values.
static LogicalResult genLoopBody(IRGen &g, llvm::ArrayRef<const Stmt *> body,
                                 const LoopVars &lv, const Node *loop,
                                 mlir::Block *blk) {
  ++g.fs->loopDepth;
  LogicalResult r = g.genBlock(body);
  --g.fs->loopDepth;
  if (failed(r))
    return failure();
  FailureOr<llvm::SmallVector<mlir::Value>> ys = yieldedValues(g, lv, loop);
  if (failed(ys))
    return failure();
  finishWithYield(g.b, blk, g.loc(loop), *ys);
  return success();
}

/// After a loop: carried names take the loop results; names first defined
/// inside the body are not visible.
static void finishLoopScope(IRGen &g, const IRGen::Scope &before,
                            const LoopVars &lv, mlir::ValueRange results,
                            const Node *loop, llvm::StringRef kind) {
  IRGen::Scope after = before;
  for (const auto &[name, bd] : g.fs->scope)
    if (!before.count(name))
      after[name] = IRGen::Binding{
          Val::undef("`" + name + "` is only defined inside the `" +
                     kind.str() + "` loop on line " +
                     std::to_string(g.lines.lineCol(loop->range.begin).first)),
          bd.defOffset};
  g.fs->scope = std::move(after);
  bindCarried(g, lv, results);
}

/// `for x in t` over a tuple (a tuple argument, `(a, b)`): unrolled, one
/// copy of the body per element, as static_range is; the target may unpack
/// (`for p, n in pairs`).
LogicalResult IRGen::genTupleFor(const ForStmt *s, const Val &tuple) {
  if (const Node *r = findReturn(s->body))
    return fail(r, "`return` inside a loop is not supported");
  if (tuple.elems.size() > kMaxStaticUnroll)
    return fail(s->iter, "iterating a tuple of " +
                             std::to_string(tuple.elems.size()) +
                             " elements (the unrolling limit is " +
                             std::to_string(kMaxStaticUnroll) + ")");
  llvm::scope_exit restore([&] { --fs->loopDepth; });
  ++fs->loopDepth;
  for (const Val &el : tuple.elems) {
    if (failed(assign(s->target, el, s->target)) || failed(genBlock(s->body)))
      return failure();
  }
  return success();
}

LogicalResult IRGen::genFor(const ForStmt *s) {
  auto *call = llvm::dyn_cast<CallExpr>(s->iter);
  // The callee may be chosen by a constexpr condition:
  // `(tl.static_range if n <= 4 else range)(n)`.
  FailureOr<Val> callee = call && llvm::isa<NameExpr, AttributeExpr, IfExpExpr>(call->func)
                              ? eval(call->func)
                              : FailureOr<Val>(Val());
  if (failed(callee))
    return failure();
  bool isRange = callee->kind == Val::Kind::Builtin &&
                 (callee->s == "range" || callee->s == "tl.range");
  bool isStatic =
      callee->kind == Val::Kind::Builtin && callee->s == "tl.static_range";
  if (!isRange && !isStatic) {
    // A tuple: an argument, a display, a helper's returned `(a, b)`.
    FailureOr<Val> it = eval(s->iter);
    if (failed(it))
      return failure();
    if (it->kind == Val::Kind::Tuple)
      return genTupleFor(s, *it);
    return fail(s->iter, "`for` loops must iterate over `range(...)`, "
                         "`tl.range(...)`, `tl.static_range(...)` or a tuple, "
                         "not " + typeName(*it));
  }
  auto *target = llvm::dyn_cast<NameExpr>(s->target);
  if (!target)
    return fail(s->target, "the loop variable must be a single name");
  if (const Node *r = findReturn(s->body))
    return fail(r, "`return` inside a loop is not supported");
  CallArgs args;
  if (failed(evalArgs(call, args)))
    return failure();
  if (isStatic)
    return genStaticFor(s, args, call);

  llvm::SmallVector<Arg, 8> a;
  std::optional<int64_t> numStages;    // tl.range(..., num_stages=N)
  std::optional<int64_t> unrollFactor; // tl.range(..., loop_unroll_factor=N)
  if (callee->s == "range") {
    // Triton reads only the positional arguments of Python's `range` and
    // drops its keywords (`range(a, b, step=s)` steps by 1); Kiln runs such
    // code as Triton does, and says so.
    for (const Node *kw : args.kwNodes)
      warn(kw, "Triton ignores keyword arguments of `range` (this loop steps "
               "by its positional step, 1 if none), and so does Kiln; for "
               "`step=` or `num_stages=` use `tl.range`");
    if (args.pos.empty() || args.pos.size() > 3)
      return fail(call, "`range` expects 1 to 3 arguments, got " +
                            std::to_string(args.pos.size()));
    for (size_t k = 0; k < args.pos.size(); ++k)
      a.push_back(Arg{args.pos[k], args.posNodes[k], true});
  } else {
    if (failed(bindArgs("tl.range",
                        {"arg1", "arg2=None", "step=None", "num_stages=None",
                         "loop_unroll_factor=None",
                         "disallow_acc_multi_buffer=False", "flatten=False",
                         "warp_specialize=False", "disable_licm=False"},
                        args, call, a)))
      return failure();
    // A scheduling hint of `tl.range`: an integer constant in [lo, hi], or None.
    auto hint = [&](const Arg &arg, const char *name, int64_t lo, int64_t hi,
                    std::optional<int64_t> &out) -> LogicalResult {
      if (!arg.given || arg.v.kind == Val::Kind::None)
        return success();
      if (arg.v.kind != Val::Kind::Int || arg.v.i < lo || arg.v.i > hi)
        return fail(arg.node, "`" + std::string(name) + "` must be an integer constant from " +
                                  std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
                                  (arg.v.kind == Val::Kind::Int ? std::to_string(arg.v.i)
                                                                : typeName(arg.v)));
      out = arg.v.i;
      return success();
    };
    if (failed(hint(a[3], "num_stages", 1, 16, numStages)) ||
        failed(hint(a[4], "loop_unroll_factor", 1, 64, unrollFactor)))
      return failure();
    a.resize(a[2].given ? 3 : a[1].given ? 2 : 1);
  }
  Arg lbA{Val::integer(0), call, true}, ubA, stepA{Val::integer(1), call, true};
  if (a.size() == 1) {
    ubA = a[0];
  } else {
    lbA = a[0];
    ubA = a[1];
    if (a.size() == 3)
      stepA = a[2];
  }
  DType ivType = DType::I32;
  bool first = true;
  for (const Arg *x : {&lbA, &ubA, &stepA}) {
    const Val &v = x->v;
    DType d;
    if (v.kind == Val::Kind::Int || v.kind == Val::Kind::Bool) {
      d = v.i >= INT32_MIN && v.i <= INT32_MAX ? DType::I32 : DType::I64;
    } else if (v.isRuntime() && !v.type.isTensor() && !v.type.isPtr &&
               isIntDType(v.type.dtype)) {
      d = v.type.dtype;
    } else {
      return fail(x->node, "`range` arguments must be integer scalars, got " +
                               typeName(v));
    }
    ivType = first ? d : integerPromote(ivType, d);
    first = false;
  }
  if (stepA.v.isIntLike() && stepA.v.i == 0)
    return fail(stepA.node, "`range` step must not be zero");
  // A constexpr negative step counts down, as Triton does it: the loop runs
  // iv' over [ub, lb) by -step and the body sees lb + ub - iv'.
  bool countDown = stepA.v.isIntLike() && stepA.v.i < 0;
  if (countDown) {
    if (stepA.v.i == INT64_MIN)
      return fail(stepA.node, "`range` step is out of range");
    std::swap(lbA, ubA);
    stepA.v = Val::integer(-stepA.v.i);
  }
  mlir::Value bounds[3];
  const Arg *bArgs[3] = {&lbA, &ubA, &stepA};
  for (int k = 0; k < 3; ++k) {
    FailureOr<Val> v = cast(bArgs[k]->v, ivType, bArgs[k]->node);
    if (failed(v))
      return failure();
    bounds[k] = v->value;
  }

  FailureOr<LoopVars> lv = collectLoopVars(*this, s->body, target->id, s);
  if (failed(lv))
    return failure();
  // uint32 bounds compare unsigned.
  auto forOp =
      mlir::scf::ForOp::create(b, loc(s), bounds[0], bounds[1], bounds[2],
                               lv->inits(), nullptr, isUnsigned(ivType));
  if (numStages)
    forOp->setAttr("tile.num_stages", b.getI32IntegerAttr(int32_t(*numStages)));
  if (unrollFactor && *unrollFactor > 1) // --tile-unroll-loops
    forOp->setAttr("tile.loop_unroll_factor", b.getI32IntegerAttr(int32_t(*unrollFactor)));
  Scope before = fs->scope;
  {
    mlir::OpBuilder::InsertionGuard g(b);
    insertAtEnd(b, forOp.getBody());
    mlir::Value iv = forOp.getInductionVar();
    if (countDown)
      iv = mlir::arith::AddIOp::create(
          b, loc(s), mlir::arith::SubIOp::create(b, loc(s), bounds[1], iv),
          bounds[0]);
    fs->scope[target->id] =
        Binding{Val::runtime(iv, TType{ivType, false, {}}), target->range.begin};
    bindCarried(*this, *lv, forOp.getRegionIterArgs());
    if (failed(genLoopBody(*this, s->body, *lv, s, forOp.getBody())))
      return failure();
  }
  finishLoopScope(*this, before, *lv, forOp.getResults(), s, "for");
  fs->scope[target->id] =
      Binding{Val::undef("the loop variable `" + target->id +
                         "` is not available after its `for` loop"),
              target->range.begin};
  return success();
}

LogicalResult IRGen::genStaticFor(const ForStmt *s, const CallArgs &args,
                                  const Node *call) {
  llvm::SmallVector<Arg, 4> a;
  if (failed(bindArgs("tl.static_range", {"arg1", "arg2=None", "step=None"},
                      args, call, a)))
    return failure();
  for (const Arg &x : a)
    if (x.given && x.v.kind != Val::Kind::Int && x.v.kind != Val::Kind::Bool)
      return fail(x.node, "`tl.static_range` arguments must be constexpr "
                          "integers, got " +
                              typeName(x.v));
  int64_t lb = 0, ub, step = 1;
  if (!a[1].given) {
    ub = a[0].v.i;
  } else {
    lb = a[0].v.i;
    ub = a[1].v.i;
    if (a[2].given)
      step = a[2].v.i;
  }
  if (step == 0)
    return fail(a[2].node, "`tl.static_range` step must not be zero");
  // Trip count without overflow.
  __int128 trips = step > 0 ? ((__int128)ub - lb + step - 1) / step
                            : ((__int128)lb - ub - step - 1) / -step;
  if (trips > kMaxStaticUnroll)
    return fail(call, "`tl.static_range` would unroll " +
                          std::to_string((long long)trips) +
                          " iterations (the limit is " +
                          std::to_string(kMaxStaticUnroll) + ")");
  auto *target = llvm::cast<NameExpr>(s->target);
  const uint64_t repeats = staticRepeats;
  llvm::scope_exit restore([&] {
    staticRepeats = repeats;
    --fs->loopDepth;
  });
  ++fs->loopDepth;
  for (int64_t k = 0; k < trips; ++k) {
    fs->scope[target->id] =
        Binding{Val::integer(lb + k * step), target->range.begin};
    // Each generation of the body takes at least one statement: once the
    // ones still to come exceed the budget, say so now (under ASan a
    // 4000 x 4000 nest took seconds to reach the budget one by one).
    __int128 toCome = (__int128)(trips - k) + ((__int128)repeats - 1) * trips;
    staticRepeats = uint64_t(std::min<__int128>(toCome, kMaxStatements + 1));
    if (k == 1 && stmtBudget + toCome > kMaxStatements && !s->body.empty())
      return fail(s->body.front(), "kernel too large: more than " +
                                       std::to_string(kMaxStatements) +
                                       " statements after inlining and unrolling");
    if (failed(genBlock(s->body)))
      return failure();
  }
  return success();
}

LogicalResult IRGen::genWhile(const WhileStmt *s) {
  if (const Node *r = findReturn(s->body))
    return fail(r, "`return` inside a loop is not supported");
  FailureOr<LoopVars> lv = collectLoopVars(*this, s->body, "", s);
  if (failed(lv))
    return failure();
  llvm::SmallVector<mlir::Value> inits = lv->inits();
  mlir::TypeRange types(inits);
  mlir::Location l = loc(s);
  llvm::SmallVector<mlir::Location> locs(inits.size(), l);
  auto whileOp = mlir::scf::WhileOp::create(b, l, types, inits);
  Scope before = fs->scope;
  {
    mlir::OpBuilder::InsertionGuard g(b);
    mlir::Block *cond = b.createBlock(&whileOp.getBefore(), {}, types, locs);
    bindCarried(*this, *lv, cond->getArguments());
    FailureOr<Val> t = eval(s->test);
    if (failed(t))
      return failure();
    mlir::Value c;
    if (!t->isRuntime()) {
      if (!t->isConstexpr())
        return fail(s->test, "`while` condition is " + typeName(*t));
      if (t->truthy())
        return fail(s->test, "`while` condition is always true; without "
                             "`break` the loop would never end");
      c = constantInt(0, DType::I1).value;
    } else {
      FailureOr<mlir::Value> cv = scalarCondition(*t, s->test, "while");
      if (failed(cv))
        return failure();
      c = *cv;
    }
    mlir::scf::ConditionOp::create(b, l, c, cond->getArguments());

    mlir::Block *body = b.createBlock(&whileOp.getAfter(), {}, types, locs);
    bindCarried(*this, *lv, body->getArguments());
    if (failed(genLoopBody(*this, s->body, *lv, s, body)))
      return failure();
  }
  finishLoopScope(*this, before, *lv, whileOp.getResults(), s, "while");
  return success();
}
