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
#include "llvm/ADT/StringRef.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln::host {

struct Env;

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
  /// relative import; `i` is the import's line): a value of another module,
  /// which this evaluator does not run. Kept through attributes.
  std::string from;
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
/// A host value Kiln does not model (an attribute of a module it does not
/// know, a name imported from another module): its truth, comparisons and
/// arithmetic are unknown, so each is an error (Interp::opaque).
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

  Interp(const ModuleScope &scope, llvm::StringRef source)
      : scope(scope), source(source) {}

  /// Module names resolve to their bindings before this offset: a
  /// decorator runs while the module is imported and sees only what was
  /// bound above it (tutorial 06 binds `configs` again, to [], after its
  /// kernels). UINT32_MAX (the default): the module as imported.
  uint32_t visibleBefore = UINT32_MAX;

  /// A fresh evaluator over the same file at the same point of it (its
  /// errors are its own).
  Interp fork() const {
    Interp out(scope, source);
    out.visibleBefore = visibleBefore;
    out.opaqueHint = opaqueHint;
    return out;
  }

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
  /// Python's truth of `v` as the condition `where`; an error for an opaque
  /// value (Kiln must not guess a branch).
  std::optional<bool> truth(const Value &v, const ast::Node *where);
  /// The error for the opaque `v`, written as `where`: Kiln cannot `use`
  /// it ("tell whether it is true", "compare it").
  /// `shown` names it when `where` is not its own expression.
  std::nullopt_t opaque(const Value &v, const ast::Node *where,
                        const std::string &use, std::string shown = "");

  /// The first error (valid after a call returned std::nullopt).
  const EvalError &error() const { return err; }
  /// Records an error at `n` (keeps the first) and returns std::nullopt.
  std::nullopt_t fail(const ast::Node *n, const std::string &msg);
  std::nullopt_t fail(uint32_t offset, const std::string &msg);
  llvm::StringRef text(const ast::Node *n) const;

private:
  friend struct Frame;
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

  const ModuleScope &scope;
  llvm::StringRef source;
  /// Module-level values evaluated so far, by binding.
  std::map<const ast::Node *, Value> globals;
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

/// Module attributes Kiln knows: dtypes of `triton.language` and `torch`.
std::optional<kiln::DType> dtypeAttr(llvm::StringRef module,
                                     llvm::StringRef attr);

} // namespace kiln::host

#endif // KILN_LIB_FRONTEND_HOSTEVAL_H
