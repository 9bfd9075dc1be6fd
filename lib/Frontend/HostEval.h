//===- HostEval.h - Kiln's evaluator of a kernel file's host Python -*- C++ -*-===//
//
// Decorator arguments (`configs=[triton.Config(...)]`, `key=[...]`) and
// heuristics lambdas are host Python. Kiln evaluates the small subset they
// use itself, without a Python interpreter: literals and displays, lambdas,
// conditionals, boolean and comparison operators, arithmetic, subscripts,
// module-level names (resolved lazily from the file's module-level bindings),
// a few builtins (`min`, `len`, `range`, `triton.cdiv`, `triton.Config`, ...)
// and calls of module-level host `def`s made of simple statements.
//
// Names imported from other modules of the package (`from .configs import
// CONFIGS`) are evaluated in their own module, each file parsed once
// (HostEvalModules.cpp).
//
// Host queries Kiln can answer are modelled (docs/language.md lists them):
// `torch.cuda.current_device()` is 0 and the device properties' `warp_size`
// is 32 (every NVIDIA target). Anything else fails with the exact source
// offset and what cannot be evaluated. Every evaluation is bounded (steps,
// nesting depth, container sizes), so no input hangs or exhausts the stack.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_HOSTEVAL_H
#define KILN_LIB_FRONTEND_HOSTEVAL_H

#include "kiln/Frontend/Syntax/AST.h"
#include "kiln/Frontend/Decorators.h"
#include "kiln/Frontend/Spec.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kiln::host {

struct Env;
struct HostModule;
class ModuleSet;

/// A host Python value.
struct Value {
  enum class Kind {
    None,
    Bool,
    Int,
    Float,
    Str,
    Tuple,
    List,
    Dict,
    Set,
    Function, ///< a lambda or a module-level `def`
    Builtin,  ///< a builtin Kiln evaluates (`s`: canonical name)
    Module,   ///< an imported module (`s`: its dotted name)
    Extern,   ///< anything else of the host (`s`: dotted name)
    DeviceProps, ///< torch.cuda.get_device_properties(...)
    Config,   ///< triton.Config(...)
    DType,    ///< tl.float16, torch.float16, a pointer's `.dtype`
    Pointer,  ///< a launch argument that is a pointer (tensor)
    Method,   ///< `recv.name` bound (elems[0] is the receiver)
  };
  Kind kind = Kind::None;
  int64_t i = 0;
  double f = 0;
  /// Str: the text; Builtin / Module / Extern / Method: the name; Tuple: a
  /// namedtuple launch argument's field names ("ptr,n"), else empty.
  std::string s;
  /// Tuple/List/Set elements; Dict keys (in insertion order); Method receiver.
  std::vector<Value> elems;
  std::vector<Value> vals; ///< Dict values
  /// Extern bound by `from M import NAME` (M as written, `.mod` for a
  /// relative import; `i` is the import's line): a value of a module whose
  /// file Kiln cannot find (any, without a ModuleSet). Kept through
  /// attributes.
  std::string from;
  /// The module a Function is defined in, a Module's file (a module of the
  /// package), the module whose import made an imported Extern; null: the
  /// file the Interp evaluates.
  const HostModule *mod = nullptr;
  kiln::DType dtype = kiln::DType::F32;
  const ast::Node *fn = nullptr;      ///< Function: LambdaExpr or FunctionDef
  std::shared_ptr<const Env> closure; ///< Function: enclosing locals
  std::shared_ptr<const AutotuneConfig> config; ///< Config
  /// How deeply containers nest inside this value (0 for scalars); bounded
  /// so that printing, comparing and destroying values cannot exhaust the
  /// stack.
  unsigned nest = 0;

  /// Records that `child` is now held by this value.
  void adopt(const Value &child) { nest = std::max(nest, child.nest + 1); }

  static Value none() { return {}; }
  static Value boolean(bool b) { return make(Kind::Bool, b); }
  static Value integer(int64_t v) { return make(Kind::Int, v); }
  static Value flt(double v) {
    Value r;
    r.kind = Kind::Float;
    r.f = v;
    return r;
  }
  static Value str(std::string v) { return named(Kind::Str, std::move(v)); }
  static Value named(Kind k, std::string name) {
    Value r;
    r.kind = k;
    r.s = std::move(name);
    return r;
  }
  static Value seq(Kind k, std::vector<Value> e) {
    Value r;
    r.kind = k;
    r.elems = std::move(e);
    for (const Value &x : r.elems)
      r.adopt(x);
    return r;
  }
  /// `recv.name` as a bound method.
  static Value method(const Value &recv, std::string name) {
    Value m = named(Kind::Method, std::move(name));
    m.elems = {recv};
    m.adopt(recv);
    return m;
  }
  static Value dtypeOf(kiln::DType t) {
    Value r;
    r.kind = Kind::DType;
    r.dtype = t;
    return r;
  }

private:
  static Value make(Kind k, int64_t v) {
    Value r;
    r.kind = k;
    r.i = v;
    return r;
  }
};

/// Python's name of a value's type ("int", "list", "NoneType").
std::string typeName(const Value &v);
/// The same with its article, for messages: "an int", "a list".
std::string aTypeName(const Value &v);
/// Python's repr() ("128", "True", "'s'", "[1, 2]"); dtypes as `tl.float16`.
std::string repr(const Value &v);
/// Python's str(): as repr, but strings bare and dtypes by Triton name (fp16).
std::string str(const Value &v);
bool truthy(const Value &v);
/// Whether Kiln models module `name` itself (triton, torch, math,
/// itertools, logging) rather than reading it as a file of the package.
bool isModelledModule(llvm::StringRef name);
/// A host value Kiln does not model (an attribute of a module it does not
/// know, a name imported from a module it cannot find): its truth,
/// comparisons and arithmetic are unknown, so each is an error
/// (Interp::opaque).
inline bool isOpaque(const Value &v) { return v.kind == Value::Kind::Extern; }
bool equal(const Value &a, const Value &b);

/// Local variables of a host function or lambda call.
struct Env {
  std::map<std::string, Value> vars;
  std::shared_ptr<const Env> parent;
};

/// An evaluation error: where (byte offset into the file) and why.
struct EvalError {
  uint32_t offset = 0;
  std::string message;
};

/// The file's module-level bindings, evaluated lazily: a name's right-hand
/// side is evaluated the first time it is used.
class ModuleScope {
public:
  explicit ModuleScope(const ast::Module &m);
  struct Binding {
    const ast::Node *node = nullptr; ///< AssignStmt, FunctionDef or Import*
    std::string importName;          ///< Import: the dotted name bound
    bool aliased = false;            ///< importName set by alias()
  };
  /// The binding of `name` that Python's top-to-bottom run of the module
  /// has made last before source offset `before` (the last in the file by
  /// default: what code running after the import sees); null if none.
  const Binding *find(llvm::StringRef name, uint32_t before = UINT32_MAX) const;
  /// Names bound by import statements, with the dotted name each binds.
  std::vector<std::pair<std::string, std::string>> imports() const;
  /// Makes the import of `name` bind `importName` instead: a name another
  /// module of the package re-exports from triton (`from vllm.triton_utils
  /// import triton`) as the kernel's own lookup resolved it.
  void alias(llvm::StringRef name, std::string importName);
  /// Whether the file imports `torch` (then torch dtypes are known).
  bool importsTorch() const { return torch; }
  /// The `from M import *` statements before `before`, the last first.
  std::vector<const ast::ImportFromStmt *> starImports(uint32_t before) const;

private:
  /// Every top-level binding of each name, in source order.
  std::map<std::string, std::vector<Binding>, std::less<>> bindings;
  bool torch = false;
};

/// Evaluates host expressions of one file. Not thread-safe (it caches the
/// module-level values it evaluates): use one per thread / evaluation.
class Interp {
public:
  /// Limits that keep every evaluation bounded.
  static constexpr unsigned kMaxDepth = 200;
  static constexpr uint64_t kMaxSteps = 1'000'000;
  static constexpr size_t kMaxElements = 100'000;
  static constexpr unsigned kMaxNest = 100;

  /// `modules` finds and loads the files of imported modules (none: names
  /// imported from user modules stay opaque).
  Interp(const ModuleScope &scope, llvm::StringRef source,
         std::shared_ptr<ModuleSet> modules = nullptr)
      : mainScope(scope), mainSource(source), scope(&scope), source(source),
        modules(std::move(modules)) {}

  /// Module names resolve to their bindings before this offset: a
  /// decorator runs while the module is imported and sees only what was
  /// bound above it (tutorial 06 binds `configs` again, to [], after its
  /// kernels). UINT32_MAX (the default): the module as imported.
  uint32_t visibleBefore = UINT32_MAX;

  /// A fresh evaluator over the same file at the same point of it (its
  /// errors are its own).
  Interp fork() const {
    Interp out(mainScope, mainSource, modules);
    out.visibleBefore = visibleBefore;
    out.opaqueHint = opaqueHint;
    out.targetArch = targetArch;
    out.callSite = callSite;
    return out;
  }

  /// Where in this file a call with no call site (`call(f, ..., nullptr)`)
  /// is written: a heuristic or early_config_prune of another module, run at
  /// launch. Errors inside another module's code are reported at the place
  /// this file reached it, with that module's FILE:LINE:COL in the message.
  uint32_t callSite = 0;

  std::optional<Value> eval(const ast::Expr *e,
                            const std::shared_ptr<Env> &env = nullptr);
  /// Calls a callable value with evaluated arguments; `where` is the call
  /// site for messages.
  std::optional<Value>
  call(const Value &f, std::vector<Value> args,
       std::vector<std::pair<std::string, Value>> kwargs,
       const ast::Node *where);
  /// The value of a module-level name; an error if it has none.
  std::optional<Value> global(llvm::StringRef name, const ast::Node *where);

  /// A Dict whose `s` is this is the `args` of a heuristics lambda: a
  /// missing key names the launch argument (recorded in missingArg).
  static constexpr const char *kLaunchArgs = "launch args";
  std::string missingArg;

  /// Appended to errors about opaque values: what the caller's user can do
  /// instead (decorators: leave them to the host).
  std::string opaqueHint;
  /// The compute capability compiled for (90 for sm_90), which
  /// `triton.language.target_info` answers from; 0 where no compile is
  /// under way (a decorator read ahead of a launch): those calls are errors.
  unsigned targetArch = 0;
  /// Python's truth of `v` as the condition `where`; an error for an opaque
  /// value (Kiln must not guess a branch).
  std::optional<bool> truth(const Value &v, const ast::Node *where);
  /// The error for the opaque `v`, written as `where`: Kiln cannot `use`
  /// it ("tell whether it is true", "compare it").
  /// `shown` names it when `where` is not its own expression.
  std::nullopt_t opaque(const Value &v, const ast::Node *where,
                        const std::string &use, std::string shown = "");

  /// The text of `n` in module `m` (null: this file), e.g. of a function's
  /// decorators (Value::mod is its module).
  llvm::StringRef textIn(const HostModule *m, const ast::Node *n) const;

  /// The first error (valid after a call returned std::nullopt).
  const EvalError &error() const { return err; }
  /// Records an error at `n` (keeps the first) and returns std::nullopt.
  std::nullopt_t fail(const ast::Node *n, const std::string &msg);
  std::nullopt_t fail(uint32_t offset, const std::string &msg);
  llvm::StringRef text(const ast::Node *n) const;

private:
  friend struct Frame;
  /// Evaluation inside module `m` for its lifetime (HostEvalModules.cpp).
  struct Enter;
  /// The value an import binding `b` of the current module binds to
  /// `name`: what Kiln models (triton, torch, math, ...), else (userImport,
  /// HostEvalModules.cpp) a name of a module of the package evaluated
  /// there, or that module.
  std::optional<Value> importBinding(const ModuleScope::Binding &b,
                                     llvm::StringRef name, const ast::Node *where);
  std::optional<Value> userImport(const ModuleScope::Binding &b,
                                  llvm::StringRef name, const ast::Node *where);
  /// An import statement in a host function body: binds its names locally.
  bool importLocally(const ast::Stmt *s, const std::shared_ptr<Env> &env);
  /// `from M import name` of the current module binding `local`, M a
  /// module of the package (or a package's submodule `name`).
  std::optional<Value> importFrom(const ast::ImportFromStmt &from,
                                  const std::string &name,
                                  llvm::StringRef local, const ast::Node *where);
  /// Module-level `name` of `m` as an importer sees it (its last binding),
  /// through its star imports; nullopt without an error if it binds none.
  std::optional<Value> globalIn(const HostModule *m, const std::string &name,
                                const ast::Node *where,
                                llvm::function_ref<std::string()> note,
                                bool &bound);
  /// `base.name`, base a module of the package.
  std::optional<Value> moduleAttr(const Value &base, const std::string &name,
                                  const ast::Node *where);
  /// `name` through the current module's star imports above `before`
  /// (`bound`: one binds it); `where` is the use, in the current module.
  std::optional<Value> starImported(llvm::StringRef name, uint32_t before,
                                    const ast::Node *where, bool &bound);
  /// Why imported Extern `v` is opaque ("imported from module `M` (line
  /// N), which Kiln cannot find (searched: ...)").
  std::string whyOpaqueImport(const Value &v) const;
  /// The error for an import binding reached again while it is evaluated:
  /// the chain of imports that leads back to it.
  std::string importCycle() const;
  std::optional<Value> evalExpr(const ast::Expr *e,
                                const std::shared_ptr<Env> &env);
  /// Dict and set displays, lambdas, comprehensions, f-strings
  /// (HostEvalDisplay.cpp).
  std::optional<Value> evalDisplay(const ast::Expr *e,
                                   const std::shared_ptr<Env> &env);
  bool comprehend(const ast::ComprehensionExpr *c, size_t gen,
                  const std::shared_ptr<Env> &scope, Value &out);
  std::optional<Value> lookup(const ast::NameExpr *n,
                              const std::shared_ptr<Env> &env);
  /// `base.name`; `where` is the attribute expression (for messages).
  std::optional<Value> attribute(const Value &base, const std::string &name,
                                 const ast::Node *where);
  /// `hasattr(obj, name)`, answered for triton.language and its submodules.
  std::optional<Value> hasAttr(const Value &obj, const Value &name,
                               const ast::Node *where);
  std::optional<Value> subscript(const Value &base, const Value &index,
                                 const ast::Node *where);
  std::optional<Value> sliceOf(const Value &base, const ast::SliceExpr *slice,
                               const std::shared_ptr<Env> &env, const ast::Expr *where);
  std::optional<Value> binary(ast::BinOpKind op, const Value &l,
                              const Value &r, const ast::Node *where);
  /// `l OP r`. An opaque operand is named at `lWhere` / `rWhere` (default
  /// `where`) in an error saying Kiln cannot `what` with it.
  std::optional<bool> compare(ast::CmpOpKind op, const Value &l,
                              const Value &r, const ast::Node *where,
                              const ast::Node *lWhere = nullptr,
                              const ast::Node *rWhere = nullptr,
                              const std::string &what = "compare it");
  std::optional<Value> callExpr(const ast::CallExpr *c,
                                const std::shared_ptr<Env> &env);
  std::optional<Value>
  callBuiltin(const std::string &name, std::vector<Value> &args,
              std::vector<std::pair<std::string, Value>> &kwargs,
              const ast::Node *where);
  std::optional<Value>
  makeConfig(std::vector<Value> &args,
             std::vector<std::pair<std::string, Value>> &kwargs,
             const ast::Node *where);
  std::optional<Value> callMethod(const Value &m, std::vector<Value> &args,
                                  const ast::Node *where);
  std::optional<Value>
  callFunction(const Value &f, std::vector<Value> &args,
               std::vector<std::pair<std::string, Value>> &kwargs,
               const ast::Node *where);
  /// Function `f`'s defaults and body over its bound parameters `env`, in
  /// the current module; callIn: in f's own module (HostEvalModules.cpp).
  std::optional<Value> runFunction(const Value &f, const std::shared_ptr<Env> &env);
  std::optional<Value> callIn(const Value &f, const std::shared_ptr<Env> &env,
                              const ast::Node *where);
  /// Iterates a value (list, tuple, set, dict keys, str, range result).
  std::optional<std::vector<Value>> iterate(const Value &v,
                                            const ast::Node *where);

  // Statements of host `def` bodies (HostEvalStmt.cpp).
  enum class Flow { Next, Return, Break, Continue, Error };
  Flow execBlock(const ast::Block &body, const std::shared_ptr<Env> &env,
                 Value &ret);
  Flow exec(const ast::Stmt *s, const std::shared_ptr<Env> &env, Value &ret);
  bool assign(const ast::Expr *target, const Value &v,
              const std::shared_ptr<Env> &env);
  /// Counts one step; false (with an error) past kMaxSteps.
  bool step(const ast::Node *n) { return charge(n, 1); }
  /// Counts `n` steps: copying a container costs one step per element, so
  /// quadratic host loops stay within the step limit too.
  bool charge(const ast::Node *n, uint64_t cost);
  /// False (with an error at `n`) when `v` nests deeper than kMaxNest.
  bool checkNest(const Value &v, const ast::Node *n);

  /// The file this Interp evaluates, and the module being evaluated now
  /// (another module's while its code runs; cur null: this file).
  const ModuleScope &mainScope;
  llvm::StringRef mainSource;
  const ModuleScope *scope;
  llvm::StringRef source;
  const HostModule *cur = nullptr;
  std::shared_ptr<ModuleSet> modules;
  /// While another module's code runs: where this file reached it (errors
  /// are reported there), what that was ("in `f` of module `m`: "), and
  /// this file's visibleBefore to return to.
  uint32_t entry = 0;
  std::string entryNote;
  uint32_t mainVisible = UINT32_MAX;
  /// `from M import NAME` evaluations in progress: (importer, NAME, M's
  /// file), for the chain an import cycle is reported with.
  struct Importing {
    const HostModule *importer;
    std::string name, file;
  };
  std::vector<Importing> importing;
  /// Module-level values evaluated so far, by binding and name (one import
  /// statement binds several names).
  std::map<std::pair<const ast::Node *, std::string>, Value, std::less<>> globals;
  std::vector<const ast::Node *> resolving; ///< module bindings being evaluated
  EvalError err;
  bool failed = false;
  unsigned depth = 0;
  uint64_t steps = 0;
};

/// The constexpr literal text of a value ("128", "True", "tl.float16"), or
/// nullopt for values that are not constexprs (lists, pointers, ...).
std::optional<std::string> constexprLiteral(const Value &v);
/// Host value <-> launch value (what heuristics see and compute).
Value fromLaunchValue(const LaunchValue &v);
std::optional<LaunchValue> toLaunchValue(const Value &v);

/// A Python file of the package that host code imports from, parsed.
struct HostModule {
  std::string path;  ///< its file
  std::string name;  ///< as first imported (`.configs`, `mylib.ops`)
  std::string pyName; ///< its `__name__`: dotted from its package root
  std::string source;
  std::unique_ptr<ast::Module> ast;
  std::unique_ptr<ModuleScope> scope;
};

/// The modules host code of one file imports, found as the code generator
/// finds them (ModuleFiles.h) and parsed once; shared by the evaluators of
/// that file (values point into their syntax trees) and safe to use from
/// several threads.
class ModuleSet {
public:
  ModuleSet(std::string mainPath, std::vector<std::string> includeDirs)
      : mainPath(std::move(mainPath)), includeDirs(std::move(includeDirs)) {}
  /// For the file named `filename`, with the calling thread's package roots
  /// (FrontendOptions: -I, the C API's include_dirs, its main file's path).
  static std::shared_ptr<ModuleSet> forFile(llvm::StringRef filename);
  /// The file of module `dotted` (`level` leading dots) that `importer`
  /// (null: the main file) imports.
  std::optional<std::string> find(const HostModule *importer,
                                  llvm::StringRef dotted, unsigned level) const;
  /// Why it is not found: `searched: DIRS` / how to give package roots.
  std::string whyNotFound(const HostModule *importer, llvm::StringRef dotted,
                          unsigned level) const;
  /// The module in file `path` named `name`, parsed once; null when it
  /// cannot be read or parsed (`error` says why, with FILE:LINE:COL).
  const HostModule *load(const std::string &path, const std::string &name,
                         std::string &error);
  const std::string &pathOf(const HostModule *m) const {
    return m ? m->path : mainPath;
  }

private:
  std::string mainPath;
  std::vector<std::string> includeDirs;
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<HostModule>> byPath;
};

/// Module attributes Kiln knows: dtypes of `triton.language` and `torch`.
std::optional<kiln::DType> dtypeAttr(llvm::StringRef module,
                                     llvm::StringRef attr);

} // namespace kiln::host

#endif // KILN_LIB_FRONTEND_HOSTEVAL_H
