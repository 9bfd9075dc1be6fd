//===- IRGenHostBinding.cpp - Module-level names the host resolved --------===//
//
// A name bound inside a module-level `if`/`try`/`with`/loop cannot be
// resolved from the source: which branch ran is host code (`if
// compare_version("triton", ...)`). A host that ran the module (Python's
// drop-in triton) knows the value and passes it as a binding `NAME=EXPR`
// (FrontendOptions::hostBindings). EXPR is evaluated here in a module of
// its own, `import triton` then `NAME = EXPR`, so that it sees only
// `triton` and Python's builtins, never the kernel file's names, and that
// messages quote its own text. A @triton.jit function is named by where it
// is defined: `__kiln_def__('PATH', 'NAME', LINE)`.
//
// A binding gives the name's final value, so it is used only when the
// ambiguous binding is the name's last one in the file: a later plain
// assignment is resolved statically, and an earlier read (between the
// `if` and a later assignment) would not see the final value.
//
//===----------------------------------------------------------------------===//
#include "IRGenImport.h"

#include "kiln/Frontend/Syntax/Parser.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;
using mlir::failure;
using mlir::FailureOr;

namespace {
constexpr llvm::StringLiteral kPrelude = "import triton\n";
/// `__kiln_def__('PATH', 'NAME', LINE)`: the `def NAME` of file PATH whose
/// lines (decorators included) span LINE, wherever in the module's compound
/// statements it is (the drop-in's spelling of a @triton.jit function).
constexpr llvm::StringLiteral kDefMarker = "__kiln_def__";

/// `PATH::NAME=EXPR` as given.
std::string spelling(const HostBinding &b) {
  return (b.path.empty() ? "" : b.path + "::") + b.name + "=" + b.expr;
}
} // namespace

std::optional<FailureOr<Val>>
kiln::fe::hostBindingValue(IRGen &g, const NameExpr *use, IRGen::GlobalDef &d,
                           llvm::StringRef where) {
  const HostBinding *hb = findHostBinding(g, use->id);
  if (!hb)
    return std::nullopt;
  std::string what = "host binding `" + spelling(*hb) + "` for `" + use->id +
                     "` (assigned in " + d.container + " at " + where.str() +
                     ")";
  auto error = [&](const llvm::Twine &msg) {
    return std::optional<FailureOr<Val>>(
        FailureOr<Val>(g.fail(use, llvm::Twine(what) + msg)));
  };

  std::string source = std::string(kPrelude) + hb->name + " = " + hb->expr +
                       "\n";
  size_t exprStart = kPrelude.size() + hb->name.size() + 3;
  ParseResult pr = parse(source);
  if (pr.error) {
    int64_t col = int64_t(pr.error->offset) - int64_t(exprStart) + 1;
    std::string at = col >= 1 && size_t(col) <= hb->expr.size()
                         ? " (column " + std::to_string(col) +
                               " of the expression)"
                         : "";
    return error(" does not parse: " + pr.error->message + at);
  }
  // One expression: `a = b` or `1\nimport os` would parse as more.
  const AssignStmt *assign = nullptr;
  if (pr.module->body.size() == 2)
    assign = llvm::dyn_cast<AssignStmt>(pr.module->body[1]);
  if (!assign || assign->targets.size() != 1)
    return error(" is not one expression");

  // A @triton.jit function chosen by host code names its definition.
  if (auto *call = llvm::dyn_cast<CallExpr>(assign->value)) {
    auto *callee = llvm::dyn_cast<NameExpr>(call->func);
    if (callee && callee->id == kDefMarker) {
      const StrExpr *path = nullptr, *fnName = nullptr;
      const IntExpr *line = nullptr;
      if (call->args.size() == 3 && call->keywords.empty()) {
        path = llvm::dyn_cast<StrExpr>(call->args[0]);
        fnName = llvm::dyn_cast<StrExpr>(call->args[1]);
        line = llvm::dyn_cast<IntExpr>(call->args[2]);
      }
      if (!path || !fnName || !line || line->value <= 0 || line->tooLarge)
        return error(" is not " + kDefMarker.str() +
                     "('PATH', 'NAME', LINE)");
      std::string why;
      FailureOr<Val> fn = functionDefinedAt(
          g, path->value, fnName->value, unsigned(line->value), use, why);
      if (failed(fn))
        return error(" names no function: " + why);
      d.how = IRGen::GlobalDef::How::Known;
      d.cached = *fn;
      return std::optional<FailureOr<Val>>(*fn);
    }
  }

  IRGen mini(g.ctx, "<host binding>", source, *pr.module);
  mini.spec = g.spec;
  if (mlir::failed(mini.resolveModule()))
    return error(" cannot be evaluated");
  std::optional<IRGen::CapturedError> captured;
  mini.capture = &captured;
  IRGen::FnState st;
  mini.fs = &st;
  mini.modulePos = 1; // after `import triton`, before NAME itself
  // Only compile-time values survive: anything generated is thrown away.
  mlir::OwningOpRef<mlir::ModuleOp> scratch =
      mlir::ModuleOp::create(mini.b.getUnknownLoc());
  mini.b.setInsertionPointToEnd(scratch->getBody());
  FailureOr<Val> v = mini.eval(assign->value);
  if (failed(v))
    return error(" cannot be evaluated: " +
                 (captured ? captured->message : std::string("it failed")));
  if (!v->isConstexpr() && v->kind != Val::Kind::Module &&
      v->kind != Val::Kind::Builtin)
    return error(" is " + mini.typeName(*v) + ", not a compile-time value");
  d.how = IRGen::GlobalDef::How::Known;
  d.cached = *v;
  return std::optional<FailureOr<Val>>(*v);
}
