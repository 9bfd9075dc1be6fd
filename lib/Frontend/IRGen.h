//===- IRGen.h - Triton-language AST to the tile dialect -------*- C++ -*-===//
//
// Generates one func.func for a kernel by abstract interpretation of its AST:
// constexprs are evaluated at compile time (Python semantics), runtime values
// become SSA values typed by Triton's rules, helper @triton.jit functions are
// inlined, Python variables become SSA values with loop-carried and
// if-yielded values threaded through scf.for / scf.while / scf.if.
//
// Errors are reported once, at the first failure, through the MLIRContext's
// diagnostic engine with a FileLineColLoc into the .py file.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_IRGEN_H
#define KILN_LIB_FRONTEND_IRGEN_H

#include "Value.h"
#include "kiln/Frontend/Syntax/AST.h"
#include "kiln/Frontend/Spec.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include <map>
#include <set>
#include <optional>

namespace kiln::fe {

/// Most copies a compile-time unrolling makes (static_range, a loop over a
/// tuple, a comprehension): hostile input cannot exhaust time or memory.
inline constexpr int64_t kMaxStaticUnroll = 4096;

// Nearly every IRGen function returns one of these.
using mlir::failure;
using mlir::FailureOr;
using mlir::LogicalResult;
using mlir::success;

/// Evaluated arguments of a call, with the nodes they came from.
struct CallArgs {
  std::vector<Val> pos;
  std::vector<const ast::Node *> posNodes;
  std::vector<std::pair<std::string, Val>> kw;
  std::vector<const ast::Node *> kwNodes;
};

/// One parameter of a builtin after binding.
struct Arg {
  Val v;
  const ast::Node *node = nullptr; ///< the argument, or the call if defaulted
  bool given = false;
};

class IRGen {
public:
  IRGen(mlir::MLIRContext &ctx, llvm::StringRef filename,
        llvm::StringRef source, const ast::Module &module);

  mlir::OwningOpRef<mlir::ModuleOp> compile(const KernelSpec &spec);

  //===--- Diagnostics ---------------------------------------------------===//
  mlir::Location loc(uint32_t offset) const;
  mlir::Location loc(const ast::Node *n) const { return loc(n->range.begin); }
  mlir::LogicalResult fail(uint32_t offset, const llvm::Twine &msg);
  mlir::LogicalResult fail(const ast::Node *n, const llvm::Twine &msg) {
    return fail(n->range.begin, msg);
  }
  /// A warning at `n` (once per place, however often the code is inlined;
  /// none while an evaluation is only tried). Compiles that succeed return
  /// them in CompiledKernel::warnings.
  void warn(const ast::Node *n, const llvm::Twine &msg);
  /// Source text of a node, for messages.
  llvm::StringRef text(const ast::Node *n) const;
  std::string typeName(const Val &v) const;
  std::string typeName(const TType &t) const;

  //===--- Module level (IRGenModule.cpp) ---------------------------------===//
  /// Records every module-level binding with its definition site. Host code
  /// is parsed and skipped; a binding is evaluated only when a kernel (or a
  /// default, or a helper) reads it (lookupGlobal).
  mlir::LogicalResult resolveModule();
  /// The truth of a module-level `if` condition evaluated before the
  /// statement at `pos` runs, when it is a compile-time value; std::nullopt
  /// when Kiln cannot evaluate it (nothing is reported).
  std::optional<bool> staticModuleCondition(const ast::Expr *test,
                                            unsigned pos);
  /// The module-level binding of `use->id` visible at `modulePos`, evaluated
  /// on first use; nullopt when the module binds no such name.
  std::optional<FailureOr<Val>> lookupGlobal(const ast::NameExpr *use);
  /// `torch.version.hip` read through the module's import of torch
  /// (IRGenExpr.cpp): None on the CUDA builds Kiln runs beside.
  bool readsTorchVersionHip(const ast::AttributeExpr *e);
  const ast::FunctionDef *findFunction(llvm::StringRef name) const;
  bool isJit(const ast::FunctionDef *fn) const;
  /// Decorated `@triton.constexpr_function`: host Python that kernels call
  /// with compile-time arguments (IRGenConstexprFunction.cpp).
  bool isConstexprFunction(const ast::FunctionDef *fn) const;
  mlir::FailureOr<Val> callConstexprFunction(const ast::FunctionDef *fn,
                                             const CallArgs &args,
                                             const ast::Node *call);
  /// A name or dotted name (`triton.jit`, `tl`) resolved against `globals`
  /// without evaluating anything.
  std::optional<Val> resolveStaticName(const ast::Expr *e) const;
  /// A decorator (`triton.jit`, `triton.jit(...)`) as resolveStaticName
  /// sees it, or else, when it names another module of the package (vLLM's
  /// `from vllm.triton_utils import triton`), as a kernel would read it,
  /// with this file's errors kept quiet: an unknown decorator is host code.
  /// Logically const: resolving an import only caches it. When it cannot
  /// be evaluated, `why` (if given) receives the evaluation's error.
  std::optional<Val> resolveDecorator(const ast::Expr *d,
                                      std::string *why = nullptr) const;
  /// Names of the module's @triton.jit functions, in file order.
  std::vector<std::string> jitFunctionNames() const;
  /// The @triton.jit function `name`; reports an error (listing the
  /// kernels) and returns null when there is none. Call resolveModule first.
  const ast::FunctionDef *findKernel(llvm::StringRef name);
  bool isConstexprParam(const ast::Param &p) const;

  //===--- Statements (IRGen.cpp) ----------------------------------------===//
  mlir::LogicalResult genBlock(llvm::ArrayRef<const ast::Stmt *> stmts);
  mlir::LogicalResult genStmt(const ast::Stmt *s);
  mlir::LogicalResult genStmtImpl(const ast::Stmt *s);
  mlir::LogicalResult genAssign(const ast::AssignStmt *s);
  mlir::LogicalResult genAugAssign(const ast::AugAssignStmt *s);
  mlir::LogicalResult genFor(const ast::ForStmt *s);
  mlir::LogicalResult genTupleFor(const ast::ForStmt *s, const Val &tuple);
  mlir::LogicalResult genStaticFor(const ast::ForStmt *s, const CallArgs &a,
                                   const ast::Node *call);
  mlir::LogicalResult genWhile(const ast::WhileStmt *s);
  /// The test of an `if` statement or expression: a constexpr is decided
  /// now (`known`), a runtime value becomes the i1 `cond` of an scf.if.
  struct IfTest {
    std::optional<bool> known;
    mlir::Value cond;
  };
  /// `what` names the test in the message for a non-constexpr compile-time
  /// value.
  mlir::FailureOr<IfTest> evalIfTest(const ast::Expr *test,
                                     llvm::StringRef what);
  mlir::LogicalResult genIf(const ast::IfStmt *s);
  mlir::LogicalResult genIfWithReturn(const ast::IfStmt *s,
                                      llvm::ArrayRef<const ast::Stmt *> rest);
  mlir::LogicalResult genReturn(const ast::ReturnStmt *s);
  mlir::LogicalResult genAssert(const ast::AssertStmt *s);
  mlir::LogicalResult assign(const ast::Expr *target, const Val &v,
                             const ast::Node *where);
  /// Inlines a call of a @triton.jit function.
  mlir::FailureOr<Val> callFunction(const ast::FunctionDef *fn,
                                    const CallArgs &args,
                                    const ast::Node *call);

  //===--- Expressions (IRGenExpr.cpp) -----------------------------------===//
  mlir::FailureOr<Val> eval(const ast::Expr *e);
  mlir::FailureOr<Val> evalImpl(const ast::Expr *e);
  mlir::FailureOr<Val> evalName(const ast::NameExpr *e);
  mlir::FailureOr<Val> evalAttribute(const ast::AttributeExpr *e);
  mlir::FailureOr<Val> attributeOf(const Val &v, const ast::AttributeExpr *e);
  mlir::FailureOr<Val> descriptorAttribute(const Val &desc,
                                           const ast::AttributeExpr *e);
  mlir::FailureOr<Val> evalCall(const ast::CallExpr *e);
  mlir::FailureOr<Val> evalGetattr(const ast::CallExpr *e, bool has);
  mlir::FailureOr<Val> evalSubscript(const ast::SubscriptExpr *e);
  mlir::FailureOr<Val> sliceTuple(const Val &t, const ast::SliceExpr *sl);
  mlir::FailureOr<Val> namedTupleClass(const ast::ClassDef &c);
  mlir::FailureOr<Val> constexprFunction(llvm::StringRef text, uint32_t where,
                                         llvm::StringRef origin);
  mlir::FailureOr<Val> constructNamedTuple(const Val &cls, const CallArgs &args,
                                           const ast::CallExpr *e);
  mlir::FailureOr<Val> evalBoolOp(const ast::BoolOpExpr *e);
  mlir::FailureOr<Val> evalCompare(const ast::CompareExpr *e);
  mlir::FailureOr<Val> evalIfExp(const ast::IfExpExpr *e);
  mlir::FailureOr<Val> evalJoinedStr(const ast::JoinedStrExpr *e);
  mlir::FailureOr<Val> evalComprehension(const ast::ComprehensionExpr *c);
  mlir::FailureOr<std::vector<Val>> comprehensionItems(const ast::Expr *iter);
  /// "lambda expressions are not supported in Triton kernels" and the like,
  /// for host Python reached inside a kernel.
  static std::string hostConstructError(ast::Node::Kind k);
  mlir::FailureOr<Val> evalArgs(const ast::CallExpr *e, CallArgs &out);
  mlir::FailureOr<Val> call(const Val &callee, const CallArgs &args,
                            const ast::CallExpr *e);

  /// `l op r` with Triton's semantics (Python's for two constexprs).
  mlir::FailureOr<Val> binary(ast::BinOpKind op, const Val &l, const Val &r,
                              const ast::Node *where);
  mlir::FailureOr<Val> compare(ast::CmpOpKind op, const Val &l, const Val &r,
                               const ast::Node *where);
  mlir::FailureOr<Val> unary(ast::UnaryOpKind op, const Val &v,
                             const ast::Node *where);
  mlir::FailureOr<Val> foldConstBinary(ast::BinOpKind op, const Val &l,
                                       const Val &r, const ast::Node *where);
  mlir::FailureOr<Val> foldConstCompare(ast::CmpOpKind op, const Val &l,
                                        const Val &r, const ast::Node *where);

  //===--- Typed value helpers (IRGenExpr.cpp) ---------------------------===//
  /// Triton's to_tensor: a numeric constexpr as a runtime scalar of its
  /// default type (bool -> i1, int -> i32/ui32/i64, float -> f32/f64).
  mlir::FailureOr<Val> toRuntime(const Val &v, const ast::Node *where);
  /// A numeric constexpr as a runtime scalar of type `d`.
  mlir::FailureOr<Val> constant(const Val &v, DType d, const ast::Node *where);
  Val constantInt(int64_t v, DType d);
  /// Triton's cast (no bitcasts).
  mlir::FailureOr<Val> cast(const Val &v, DType d, const ast::Node *where);
  /// Splat / broadcast a runtime value to `shape`.
  mlir::FailureOr<Val> broadcastTo(const Val &v, llvm::ArrayRef<int64_t> shape,
                                   const ast::Node *where,
                                   llvm::StringRef what);
  /// Triton's binary_op_type_checking_impl: promotes and broadcasts two
  /// operands (constexprs become constants of the computation type).
  mlir::LogicalResult binaryTypeCheck(Val &l, Val &r, bool allowLPtr,
                                      bool allowRPtr, bool arith, bool divOrMod,
                                      const ast::Node *where,
                                      llvm::StringRef opName);
  mlir::LogicalResult broadcastPair(Val &l, Val &r, const ast::Node *where,
                                    llvm::StringRef opName);
  /// A tensor with size-1 dimensions in front up to `rank`, as Triton aligns
  /// the shapes it broadcasts against each other (scalars unchanged).
  Val withLeadingDims(Val v, size_t rank, const ast::Node *where);
  /// Scalar or tensor i1 for a condition (`x != 0` for other types).
  mlir::FailureOr<Val> toBool(const Val &v, const ast::Node *where);
  /// Runtime value -> i1 scalar usable as an scf condition.
  mlir::FailureOr<mlir::Value>
  scalarCondition(const Val &v, const ast::Node *where, llvm::StringRef stmt);

  //===--- Builtins (Builtins/*.cpp) -------------------------------------===//
  mlir::FailureOr<Val> attributeOfModule(const Val &mod,
                                         const ast::AttributeExpr *e);
  mlir::FailureOr<Val> isinstanceOf(const Val &obj, const Val &cls,
                                    const ast::Node *clsNode);
  mlir::FailureOr<Val> callBuiltin(llvm::StringRef name, const CallArgs &args,
                                   const ast::CallExpr *e);
  /// The `tl.*` builtins: the registry in Builtins/Registry.cpp.
  mlir::FailureOr<Val> callTL(llvm::StringRef name, const CallArgs &args,
                              const ast::CallExpr *e);
  mlir::LogicalResult bindArgs(llvm::StringRef fnName,
                               llvm::ArrayRef<const char *> params,
                               const CallArgs &args, const ast::Node *call,
                               llvm::SmallVectorImpl<Arg> &out);
  bool isTensorMethod(llvm::StringRef name) const;

  //===--- State ---------------------------------------------------------===//
  struct Binding {
    Val v;
    uint32_t defOffset = 0; ///< where the name was last assigned
  };
  using Scope = std::map<std::string, Binding>;

  /// State of one (possibly inlined) function activation.
  struct FnState {
    const ast::FunctionDef *fn = nullptr;
    Scope scope;
    bool isKernel = false;
    unsigned loopDepth = 0;
    bool returned = false;
    Val retVal;
    const ast::Node *retNode = nullptr;
  };

  mlir::MLIRContext &ctx;
  mlir::OpBuilder b;
  std::string filename;
  llvm::StringRef source;
  const ast::Module &module;
  ast::LineTable lines;
  mlir::StringAttr filenameAttr;
  KernelSpec spec;
  /// Device assertions are compiled in: spec.debug or the kernel's
  /// `@triton.jit(debug=True)`.
  bool debug = false;

  /// Module-level names bound eagerly (triton imports, functions): what
  /// decorator resolution sees. Everything else is in moduleDefs.
  std::map<std::string, Val> globals;

  /// One module-level binding of a name.
  struct GlobalDef {
    enum class How {
      Known,       ///< value known when recorded (`cached`)
      Value,       ///< `name = value` / `name: ann = value`
      AugValue,    ///< `name op= value`
      Unpack,      ///< element `index` of a tuple assignment
      Class,       ///< `class name`
      HostImport,  ///< a module other than triton, or a name from one
      Unsupported, ///< an unsupported triton import; `message` says why
      Ambiguous,   ///< bound inside a compound statement (`container`)
      Deleted,     ///< `del name`
    };
    How how = How::Known;
    unsigned pos = 0;             ///< order of its statement as the module runs
    const ast::Node *site = nullptr;
    const ast::Expr *value = nullptr;
    ast::BinOpKind augOp = ast::BinOpKind::Add;
    size_t index = 0;
    std::string module, importedName, message;
    const char *container = nullptr;
    std::optional<Val> cached;
    bool evaluating = false;
  };
  std::map<std::string, std::vector<GlobalDef>> moduleDefs;
  /// `from M import *` statements, in module order (`module` is M with its
  /// leading dots): a name no binding of the module defines is looked up in
  /// them, the last one first.
  std::vector<GlobalDef> starImports;
  /// Module-level lookups see the bindings of statements before this one
  /// (Python's order while the module runs); kernels see the final ones.
  unsigned modulePos = ~0u;
  /// The module-level binding of `name` visible at modulePos; null if none.
  GlobalDef *visibleDef(const std::string &name);
  /// The module-level import of torch (`import torch [as t]`,
  /// `from torch import x`) that `name` reads, unless a local shadows it.
  const GlobalDef *torchImportOf(const ast::NameExpr *name);

  /// While set, fail() records its first message here instead of reporting
  /// it: lazy module-level evaluation reports it at the kernel's use.
  struct CapturedError {
    uint32_t offset;
    std::string message;
  };
  std::optional<CapturedError> *capture = nullptr;
  /// Runs `body` as module-level code before the statement at `pos` runs,
  /// into a scratch module that is thrown away, with errors captured in
  /// `captured` instead of reported.
  mlir::FailureOr<Val>
  tryAtModuleLevel(unsigned pos, std::optional<CapturedError> &captured,
                   llvm::function_ref<mlir::FailureOr<Val>()> body);
  /// AST nodes made while generating (getattr's `obj.NAME`).
  std::vector<std::unique_ptr<ast::AttributeExpr>> synthesized;
  FnState *fs = nullptr;
  unsigned inlineDepth = 0;
  /// Statements generated so far: a budget against code explosion.
  uint64_t stmtBudget = 0;
  /// How many more times (this one included) the innermost enclosing
  /// `tl.static_range` body will be generated: a lower bound that lets a
  /// nest over the budget fail after one iteration instead of at the end.
  uint64_t staticRepeats = 1;
  bool hadError = false;
  std::set<uint32_t> warnedAt; ///< Offsets warn() has reported.
  /// Active eval/genStmt/inlining frames: bounded so that no input can
  /// exhaust the (enlarged, see Frontend.cpp) stack.
  unsigned recursion = 0;
  /// Increments `recursion`; fails at the limit.
  mlir::LogicalResult enter(const ast::Node *n);
  void leave() { --recursion; }
};

/// A tile.assert of `cond` (i1 or integer: nonzero passes), when `g.debug`;
/// nothing otherwise (Builtins/Debug.cpp).
mlir::LogicalResult emitDeviceAssert(IRGen &g, const Val &cond,
                                     llvm::StringRef msg,
                                     const ast::Node *where);

/// Syntactic helpers.
bool containsReturn(llvm::ArrayRef<const ast::Stmt *> stmts);
const ast::Node *findReturn(llvm::ArrayRef<const ast::Stmt *> stmts);
void collectAssignedNames(llvm::ArrayRef<const ast::Stmt *> stmts,
                          std::vector<std::string> &out);
/// `tl.constexpr` (or `constexpr`) as an annotation.
bool isConstexprAnnotation(const ast::Expr *annotation);
/// `tl.const` (`triton.language.const`): a pointer to constant data.
bool isConstPointerAnnotation(const ast::Expr *annotation);

/// A constexpr given as text (-D, a signature literal): a number, bool,
/// None, string, dtype or `triton.language.<function>`; nullopt otherwise
/// (IRGenConstexprText.cpp).
std::optional<Val> parseConstexprText(llvm::StringRef text);
/// `__kiln_def__(...)`: a @triton.jit function given as a constexpr value.
bool isFunctionSpelling(llvm::StringRef text);
/// `mod.attr` of Triton's modules (Builtins/Names.cpp): 0 with `out` set
/// when found, 1 for a known but unsupported name, 2 when unknown.
int lookupModuleAttr(llvm::StringRef mod, llvm::StringRef attr, Val &out);
/// `triton.__version__` as kernel files see it: the Triton release whose
/// language Kiln compiles.
inline constexpr const char *kTritonLanguageVersion = "3.6.0";
/// Python's `math` module (Builtins/PythonMath.cpp): its constants, and its
/// functions as builtins "math.NAME" that callMath folds on numbers; 0 with
/// `out` set when found, 2 when unknown.
int lookupMathAttr(llvm::StringRef attr, Val &out);
mlir::FailureOr<Val> callMath(IRGen &g, llvm::StringRef name,
                              const CallArgs &args, const ast::CallExpr *e);

} // namespace kiln::fe

#endif
