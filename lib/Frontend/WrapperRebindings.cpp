//===- WrapperRebindings.cpp - `f = triton.jit(f)` as a decorator ---------===//
//
// Python's `@W def f` is `def f` followed by `f = W(f)`, and libraries write
// the second form (unsloth: `f = triton.jit(f)`, then
// `f = triton.heuristics({...})(f)`). Every reader of a kernel's decorators
// (the kernel lookup, the host evaluator of heuristics and autotune, the
// drop-in's compile of a module's function) reads them from the def, so the
// module is normalized once after parsing: such a statement becomes the
// def's outermost decorator and is dropped. Under a new name, `g = W(f)` of a
// Triton function `f` (unsloth's grouped GEMM: `_autotuned_kernel =
// triton.autotune(...)(_kernel)`) becomes a second def `g`, the same body
// with W outermost, while `f` stays as it was.
//
//===----------------------------------------------------------------------===//
#include "DecoratorsImpl.h"

#include "llvm/ADT/StringMap.h"

using namespace kiln;
using namespace kiln::ast;

namespace {

/// `jit` or `X.jit`: what makes the chain of wrappers a Triton function.
bool namesJit(const Expr *callee) {
  if (auto *n = llvm::dyn_cast<NameExpr>(callee))
    return n->id == "jit";
  auto *a = llvm::dyn_cast<AttributeExpr>(callee);
  return a && a->attr == "jit";
}

/// The name `s` binds at module level, if it is a plain binding of one name.
const std::string *boundName(const Stmt *s) {
  if (auto *f = llvm::dyn_cast<FunctionDef>(s))
    return &f->name;
  if (auto *c = llvm::dyn_cast<ClassDef>(s))
    return &c->name;
  const Expr *target = nullptr;
  if (auto *a = llvm::dyn_cast<AssignStmt>(s); a && a->targets.size() == 1)
    target = a->targets[0];
  else if (auto *a = llvm::dyn_cast<AnnAssignStmt>(s))
    target = a->target;
  else if (auto *a = llvm::dyn_cast<AugAssignStmt>(s))
    target = a->target;
  auto *n = llvm::dyn_cast_or_null<NameExpr>(target);
  return n ? &n->id : nullptr;
}

} // namespace

void kiln::fe::foldWrapperRebindings(Module &module) {
  // The def each name is bound to by the statements seen so far (none when
  // something else rebound it since).
  llvm::StringMap<FunctionDef *> defs;
  Block kept;
  kept.reserve(module.body.size());
  for (const Stmt *s : module.body) {
    auto *assign = llvm::dyn_cast<AssignStmt>(s);
    auto *target = assign && assign->targets.size() == 1
                       ? llvm::dyn_cast<NameExpr>(assign->targets[0])
                       : nullptr;
    auto *call = target ? llvm::dyn_cast<CallExpr>(assign->value) : nullptr;
    auto *arg = call && call->args.size() == 1 && call->keywords.empty()
                    ? llvm::dyn_cast<NameExpr>(call->args[0])
                    : nullptr;
    FunctionDef *def = arg ? defs.lookup(arg->id) : nullptr;
    if (def && arg->id == target->id && (!def->decorators.empty() || namesJit(call->func))) {
      def->decorators.insert(def->decorators.begin(), call->func);
      continue;
    }
    // A new name for a wrapped Triton function (decorated already: a wrapper
    // of a plain def under another name is host code).
    if (def && arg->id != target->id && !def->decorators.empty()) {
      FunctionDef *wrapped = module.make<FunctionDef>(*def);
      wrapped->name = target->id;
      wrapped->nameRange = target->range;
      wrapped->decorators.insert(wrapped->decorators.begin(), call->func);
      defs[target->id] = wrapped;
      kept.push_back(wrapped);
      continue;
    }
    if (const std::string *name = boundName(s)) {
      if (auto *f = llvm::dyn_cast<FunctionDef>(s))
        defs[*name] = const_cast<FunctionDef *>(f); // the module owns it: ours to edit
      else
        defs.erase(*name);
    }
    kept.push_back(s);
  }
  module.body = std::move(kept);
}
