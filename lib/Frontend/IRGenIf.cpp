//===- IRGenIf.cpp - Runtime `if` statements ------------------------------===//
//
// Names reassigned in the branches of a runtime `if` are yielded by the
// scf.if (block pointers scalar by scalar); an `if` containing a `return`
// generates the rest of the function in each branch.
//
//===----------------------------------------------------------------------===//
#include "IRGen.h"
#include "IRGenSCF.h"

#include <set>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

//===----------------------------------------------------------------------===//
// If
//===----------------------------------------------------------------------===//

namespace {
/// Merges values that flow out of the two branches of an scf.if: equal
/// compile-time values stay compile-time, everything else is yielded.
struct BranchMerge {
  IRGen &g;
  mlir::scf::IfOp ifOp;
  llvm::SmallVector<mlir::Value> thenVals, elseVals;
  std::vector<TType> ttypes;

  /// Returns the index of the yielded result, or -1 when `t` and `e` are the
  /// same value (nothing to yield). Fails on type mismatches via `mismatch`.
  FailureOr<int>
  add(const Val &tIn, const Val &eIn, const Node *where,
      llvm::function_ref<std::string(const Val &, const Val &)> mismatch) {
    if (tIn.sameAs(eIn))
      return -1;
    Val t = tIn, e = eIn;
    for (int k = 0; k < 2; ++k) {
      Val &v = k == 0 ? t : e;
      if (v.isRuntime())
        continue;
      if (!v.isNumber())
        return g.fail(where, mismatch(tIn, eIn));
      mlir::OpBuilder::InsertionGuard guard(g.b);
      insertAtEnd(g.b, armBlock(ifOp, k));
      FailureOr<Val> rv = g.toRuntime(v, where);
      if (failed(rv))
        return failure();
      v = *rv;
    }
    if (t.type != e.type)
      return g.fail(where, mismatch(t, e));
    thenVals.push_back(t.value);
    elseVals.push_back(e.value);
    ttypes.push_back(t.type);
    return int(ttypes.size() - 1);
  }

  /// Block pointers of the same static type merge scalar by scalar; the
  /// indices of the yielded scalars (-1: kept) go to `parts`.
  FailureOr<bool>
  addBlockPtr(const Val &t, const Val &e, const Node *where,
              llvm::function_ref<std::string(const Val &, const Val &)> mismatch,
              std::vector<int> &parts) {
    if (t.kind != Val::Kind::BlockPtr && e.kind != Val::Kind::BlockPtr)
      return false;
    if (!t.sameBlockPtrType(e))
      return g.fail(where, mismatch(t, e));
    for (size_t k = 0; k < t.elems.size(); ++k) {
      FailureOr<int> i = add(t.elems[k], e.elems[k], where, mismatch);
      if (failed(i))
        return failure();
      parts.push_back(*i);
    }
    return true;
  }
  /// The merged block pointer after finish(): `t` with its yielded scalars
  /// replaced by the results of `res`.
  Val mergedBlockPtr(Val t, llvm::ArrayRef<int> parts, mlir::scf::IfOp res) {
    for (size_t k = 0; k < parts.size(); ++k)
      if (parts[k] >= 0)
        t.elems[k] = Val::runtime(res.getResult(parts[k]), ttypes[parts[k]]);
    return t;
  }

  /// Rebuilds the scf.if with the yielded results.
  mlir::scf::IfOp finish(mlir::Location l) {
    return closeIf(g.b, ifOp, l, thenVals, elseVals);
  }
};
} // namespace

FailureOr<IRGen::IfTest> IRGen::evalIfTest(const Expr *test,
                                           llvm::StringRef what) {
  FailureOr<Val> t = eval(test);
  if (failed(t))
    return failure();
  if (!t->isRuntime()) {
    if (!t->isConstexpr())
      return fail(test, what + " is " + typeName(*t));
    return IfTest{t->truthy(), {}};
  }
  FailureOr<mlir::Value> c = scalarCondition(*t, test, "if");
  if (failed(c))
    return failure();
  return IfTest{std::nullopt, *c};
}

LogicalResult IRGen::genIf(const IfStmt *s) {
  FailureOr<IfTest> t = evalIfTest(s->test, "`if` condition");
  if (failed(t))
    return failure();
  if (t->known)
    return genBlock(*t->known ? s->body : s->orelse);
  mlir::Location l = loc(s);
  auto ifOp = openIf(b, l, t->cond);
  Scope before = fs->scope;
  Scope branch[2];
  for (int k = 0; k < 2; ++k) {
    mlir::OpBuilder::InsertionGuard g(b);
    insertAtEnd(b, armBlock(ifOp, k));
    fs->scope = before;
    if (failed(genBlock(k == 0 ? s->body : s->orelse)))
      return failure();
    branch[k] = std::move(fs->scope);
  }
  BranchMerge merge{*this, ifOp, {}, {}, {}};
  Scope after = before;
  std::vector<std::pair<std::string, int>> results;
  struct BlockPtrResult {
    std::string name;
    Val thenVal;
    std::vector<int> parts;
  };
  std::vector<BlockPtrResult> bpResults;
  unsigned line = lines.lineCol(s->range.begin).first;
  std::set<std::string> names;
  for (int k = 0; k < 2; ++k)
    for (const auto &[n, bd] : branch[k])
      names.insert(n);
  for (const std::string &n : names) {
    auto ti = branch[0].find(n), ei = branch[1].find(n);
    if (ti == branch[0].end() || ei == branch[1].end()) {
      const Binding &bd = ti != branch[0].end() ? ti->second : ei->second;
      after[n] = Binding{Val::undef("`" + n +
                                    "` is assigned in only one branch of "
                                    "the `if` on line " +
                                    std::to_string(line)),
                         bd.defOffset};
      continue;
    }
    const Val &tv = ti->second.v, &ev = ei->second.v;
    if (tv.kind == Val::Kind::Undef || ev.kind == Val::Kind::Undef) {
      after[n] = tv.kind == Val::Kind::Undef ? ti->second : ei->second;
      continue;
    }
    auto mismatch = [&](const Val &a, const Val &bv) {
      return "`" + n + "` is " + typeName(a) + " after the `if` branch but " +
             typeName(bv) + " after the `else` branch";
    };
    if (tv.sameAs(ev)) {
      after[n] = ti->second;
      continue;
    }
    std::vector<int> parts;
    FailureOr<bool> isBP = merge.addBlockPtr(tv, ev, s, mismatch, parts);
    if (failed(isBP))
      return failure();
    if (*isBP) {
      bpResults.push_back({n, tv, std::move(parts)});
      continue;
    }
    FailureOr<int> idx = merge.add(tv, ev, s, mismatch);
    if (failed(idx))
      return failure();
    if (*idx < 0)
      after[n] = ti->second;
    else
      results.emplace_back(n, *idx);
  }
  auto res = merge.finish(l);
  for (const auto &[n, idx] : results)
    after[n] = Binding{Val::runtime(res.getResult(idx), merge.ttypes[idx]),
                       branch[0][n].defOffset};
  for (const BlockPtrResult &r : bpResults)
    after[r.name] =
        Binding{merge.mergedBlockPtr(r.thenVal, r.parts, res),
                branch[0][r.name].defOffset};
  fs->scope = std::move(after);
  b.setInsertionPointAfter(res);
  return success();
}

/// An `if` containing a `return`: the statements after it (up to the end of
/// the function) are generated in each branch that falls through, so every
/// path ends in a return and the returned values are yielded by an scf.if.
LogicalResult IRGen::genIfWithReturn(const IfStmt *s,
                                     llvm::ArrayRef<const Stmt *> rest) {
  FailureOr<IfTest> t = evalIfTest(s->test, "`if` condition");
  if (failed(t))
    return failure();
  auto concat = [&](const Block &blk) {
    std::vector<const Stmt *> all(blk.begin(), blk.end());
    all.insert(all.end(), rest.begin(), rest.end());
    return all;
  };
  if (t->known)
    return genBlock(concat(*t->known ? s->body : s->orelse));
  mlir::Location l = loc(s);
  auto ifOp = openIf(b, l, t->cond);
  Scope before = fs->scope;
  Val rets[2];
  const Node *retNodes[2] = {nullptr, nullptr};
  for (int k = 0; k < 2; ++k) {
    mlir::OpBuilder::InsertionGuard g(b);
    insertAtEnd(b, armBlock(ifOp, k));
    fs->scope = before;
    fs->returned = false;
    fs->retVal = Val::none();
    fs->retNode = nullptr;
    if (failed(genBlock(concat(k == 0 ? s->body : s->orelse))))
      return failure();
    rets[k] = fs->returned ? fs->retVal : Val::none();
    retNodes[k] = fs->retNode;
  }
  std::string fname = fs->fn ? fs->fn->name : "kernel";
  const Node *where = retNodes[0] ? retNodes[0] : s;
  auto mismatch = [&](const Val &a, const Val &bv) {
    return "`" + fname + "` returns " + typeName(a) + " on one path and " +
           typeName(bv) + " on another";
  };
  BranchMerge merge{*this, ifOp, {}, {}, {}};
  bool tupleRet = rets[0].kind == Val::Kind::Tuple;
  if (tupleRet != (rets[1].kind == Val::Kind::Tuple) ||
      (tupleRet && rets[0].elems.size() != rets[1].elems.size()))
    return fail(where, mismatch(rets[0], rets[1]));
  std::vector<Val> ts = tupleRet ? rets[0].elems : std::vector<Val>{rets[0]};
  std::vector<Val> es = tupleRet ? rets[1].elems : std::vector<Val>{rets[1]};
  std::vector<int> idx;
  std::vector<std::vector<int>> bpParts(ts.size());
  for (size_t k = 0; k < ts.size(); ++k) {
    if (!ts[k].sameAs(es[k])) {
      FailureOr<bool> isBP =
          merge.addBlockPtr(ts[k], es[k], where, mismatch, bpParts[k]);
      if (failed(isBP))
        return failure();
      if (*isBP) {
        idx.push_back(-2);
        continue;
      }
    }
    FailureOr<int> i = merge.add(ts[k], es[k], where, mismatch);
    if (failed(i))
      return failure();
    idx.push_back(*i);
  }
  auto res = merge.finish(l);
  std::vector<Val> out;
  for (size_t k = 0; k < ts.size(); ++k)
    out.push_back(
        idx[k] == -2 ? merge.mergedBlockPtr(ts[k], bpParts[k], res)
        : idx[k] < 0
            ? ts[k]
            : Val::runtime(res.getResult(idx[k]), merge.ttypes[idx[k]]));
  fs->scope = before;
  fs->returned = true;
  fs->retVal = tupleRet ? Val::tuple(out) : out[0];
  fs->retNode = where;
  b.setInsertionPointAfter(res);
  return success();
}
