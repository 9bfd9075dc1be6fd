//===- IRGen.cpp - Module resolution, inlining, kernel entry ------------===//
#include "IRGen.h"
#include "DecoratorsImpl.h"
#include "IRGenImport.h"
#include "kiln/Frontend/Syntax/ChildBlocks.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "kiln/Frontend/Syntax/Parser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include <functional>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

/// Calls nest at most this deep when inlined (recursion is an error).
static constexpr unsigned kMaxInlineDepth = 64;

IRGen::IRGen(mlir::MLIRContext &ctx, llvm::StringRef filename,
             llvm::StringRef source, const Module &module)
    : ctx(ctx), b(&ctx), filename(filename.str()), source(source),
      module(module), lines(source) {
  filenameAttr = mlir::StringAttr::get(&ctx, filename);
}

mlir::Location IRGen::loc(uint32_t offset) const {
  auto [line, col] = lines.lineCol(offset);
  return mlir::FileLineColLoc::get(filenameAttr, line, col);
}

LogicalResult IRGen::fail(uint32_t offset, const llvm::Twine &msg) {
  if (capture) {
    if (!*capture)
      *capture = CapturedError{offset, msg.str()};
    return failure();
  }
  // Only the first error is reported: later ones would be consequences.
  if (!hadError)
    mlir::emitError(loc(offset)) << msg;
  hadError = true;
  return failure();
}

void IRGen::warn(const Node *n, const llvm::Twine &msg) {
  if (capture || !warnedAt.insert(n->range.begin).second)
    return;
  mlir::emitWarning(loc(n)) << msg;
}

llvm::StringRef IRGen::text(const Node *n) const {
  return source.slice(n->range.begin, n->range.end);
}

LogicalResult IRGen::enter(const Node *n) {
  if (++recursion <= 2000)
    return success();
  --recursion;
  return fail(n, "nesting too deep after inlining (more than 2000 levels of "
                 "statements, expressions and calls)");
}

//===----------------------------------------------------------------------===//
// Syntactic helpers
//===----------------------------------------------------------------------===//

const Node *kiln::fe::findReturn(llvm::ArrayRef<const Stmt *> stmts) {
  for (const Stmt *s : stmts) {
    if (llvm::isa<ReturnStmt>(s))
      return s;
    const Node *r = nullptr;
    if (auto *i = llvm::dyn_cast<IfStmt>(s)) {
      if (!(r = findReturn(i->body)))
        r = findReturn(i->orelse);
    } else if (auto *f = llvm::dyn_cast<ForStmt>(s)) {
      r = findReturn(f->body);
    } else if (auto *w = llvm::dyn_cast<WhileStmt>(s)) {
      r = findReturn(w->body);
    }
    if (r)
      return r;
  }
  return nullptr;
}

bool kiln::fe::containsReturn(llvm::ArrayRef<const Stmt *> stmts) {
  return findReturn(stmts) != nullptr;
}

static void targetNames(const Expr *t, std::vector<std::string> &out) {
  if (auto *n = llvm::dyn_cast<NameExpr>(t))
    out.push_back(n->id);
  else if (auto *tu = llvm::dyn_cast<TupleExpr>(t))
    for (const Expr *e : tu->elts)
      targetNames(e, out);
}

void kiln::fe::collectAssignedNames(llvm::ArrayRef<const Stmt *> stmts,
                                    std::vector<std::string> &out) {
  for (const Stmt *s : stmts) {
    if (auto *a = llvm::dyn_cast<AssignStmt>(s)) {
      for (const Expr *t : a->targets)
        targetNames(t, out);
    } else if (auto *a = llvm::dyn_cast<AugAssignStmt>(s)) {
      targetNames(a->target, out);
    } else if (auto *a = llvm::dyn_cast<AnnAssignStmt>(s)) {
      if (a->value)
        targetNames(a->target, out);
    } else if (auto *f = llvm::dyn_cast<ForStmt>(s)) {
      targetNames(f->target, out);
    }
    for (const ast::Block *b : ast::childBlocks(s))
      collectAssignedNames(*b, out);
  }
}

bool IRGen::isConstexprParam(const Param &p) const {
  return isConstexprAnnotation(p.annotation);
}

/// Resolves a decorator-like expression (`triton.jit`, `jit`,
/// `triton.jit(...)`) against the module's globals without generating code.
static std::optional<Val> resolveStatic(const Expr *e,
                                        const std::map<std::string, Val> &g) {
  if (auto *c = llvm::dyn_cast<CallExpr>(e))
    return resolveStatic(c->func, g);
  if (auto *n = llvm::dyn_cast<NameExpr>(e)) {
    auto it = g.find(n->id);
    if (it == g.end())
      return std::nullopt;
    return it->second;
  }
  if (auto *a = llvm::dyn_cast<AttributeExpr>(e)) {
    std::optional<Val> base = resolveStatic(a->value, g);
    if (!base || base->kind != Val::Kind::Module)
      return std::nullopt;
    Val out;
    if (lookupModuleAttr(base->s, a->attr, out) != 0)
      return std::nullopt;
    return out;
  }
  return std::nullopt;
}

std::optional<Val> IRGen::resolveStaticName(const Expr *e) const {
  return resolveStatic(e, globals);
}

bool IRGen::isJit(const FunctionDef *fn) const {
  for (const Expr *d : fn->decorators) {
    std::optional<Val> v = resolveDecorator(d);
    if (v && v->kind == Val::Kind::Builtin && v->s == "triton.jit")
      return true;
  }
  return false;
}

const FunctionDef *IRGen::findFunction(llvm::StringRef name) const {
  auto it = globals.find(name.str());
  if (it == globals.end() || it->second.kind != Val::Kind::Function)
    return nullptr;
  return it->second.fn;
}

std::vector<std::string> IRGen::jitFunctionNames() const {
  std::vector<std::string> names;
  for (const Stmt *s : module.body)
    if (auto *f = llvm::dyn_cast<FunctionDef>(s); f && isJit(f))
      names.push_back(f->name);
  return names;
}

/// Triton functions take plain positional-or-keyword parameters only.
static LogicalResult checkParamKinds(IRGen &g, const FunctionDef *fn) {
  for (const Param &p : fn->params) {
    switch (p.kind) {
    case ParamKind::Normal:
      continue;
    case ParamKind::PositionalOnly:
      return g.fail(p.range.begin, "positional-only parameters (`/`) are not "
                                   "supported in Triton kernels");
    case ParamKind::VarArgs:
      return g.fail(p.range.begin, "`*" + p.name +
                                       "` parameters are not supported in "
                                       "Triton kernels");
    case ParamKind::KeywordOnly:
      return g.fail(p.range.begin, "keyword-only parameters are not "
                                   "supported in Triton kernels");
    case ParamKind::KwArgs:
      return g.fail(p.range.begin, "`**" + p.name +
                                       "` parameters are not supported in "
                                       "Triton kernels");
    }
  }
  if (fn->isAsync)
    return g.fail(fn, "`async def` is not supported in Triton kernels");
  return success();
}

const FunctionDef *IRGen::findKernel(llvm::StringRef name) {
  const FunctionDef *fn = findFunction(name);
  if (fn && isJit(fn))
    return failed(checkParamKinds(*this, fn)) ? nullptr : fn;
  if (fn)
    return (void)fail(fn->nameRange.begin,
                      "`" + name + "` is not a @triton.jit function" +
                          unresolvedDecoratorHint(*this, fn)),
           nullptr;
  // A @triton.jit static method (`Relu.kernel`, trident): callable from
  // kernels; as an entry point, the drop-in compiles it from a source with
  // the def moved out of its class (still "not found" here, which it reads).
  if (auto method = staticMethodKernel(*this, name))
    return (void)fail(method->second->nameRange.begin,
                      "kernel `" + name + "` not found in " + filename + ": `" + method->first +
                              "` is a @triton.jit static method of a class, which kernels "
                              "can call and the Python drop-in can launch; to compile it "
                              "here, define it at module level"),
           nullptr;
  std::vector<std::string> kernels = jitFunctionNames();
  std::string list = kernels.empty()
                         ? "there are no @triton.jit functions in it"
                         : "kernels here: " + llvm::join(kernels, ", ");
  (void)fail(0u, "kernel `" + name + "` not found in " + filename + "; " +
                     list);
  return nullptr;
}

/// Whether `text` uses `name` as a whole identifier.
static bool mentionsName(llvm::StringRef text, llvm::StringRef name) {
  auto isIdent = [](char c) { return std::isalnum((unsigned char)c) || c == '_'; };
  for (size_t at = text.find(name); at != llvm::StringRef::npos;
       at = text.find(name, at + 1)) {
    bool startOk = at == 0 || (!isIdent(text[at - 1]) && text[at - 1] != '.');
    size_t end = at + name.size();
    if (startOk && (end == text.size() || !isIdent(text[end])))
      return true;
  }
  return false;
}

/// @triton.jit, with @triton.autotune / @triton.heuristics above it: their
/// arguments are evaluated here so that bad ones are reported where they are
/// written; the kernel itself is compiled for the explicit specialization.
static LogicalResult checkDecorators(IRGen &g, const FunctionDef *fn) {
  if (hostDecorators(g))
    return success(); // applied by the host (Python's drop-in triton)
  host::ModuleScope scope(g.module);
  // Names the decorators reach through another module of the package
  // (`from vllm.triton_utils import triton`) are, to the host evaluator, the
  // triton names the kernel's own lookup resolves them to.
  std::string decoratorText;
  for (const Expr *d : fn->decorators)
    decoratorText += g.text(d).str() + "\n";
  for (const auto &[name, imported] : scope.imports()) {
    llvm::StringRef root = llvm::StringRef(imported).split('.').first;
    if (root == "triton" || !mentionsName(decoratorText, name))
      continue;
    NameExpr use(fn->range, name);
    std::optional<Val> v = g.resolveDecorator(&use);
    if (v && (v->kind == Val::Kind::Module || v->kind == Val::Kind::Builtin) &&
        (v->s == "triton" || llvm::StringRef(v->s).starts_with("triton.") ||
         v->s == "tl" || llvm::StringRef(v->s).starts_with("tl.")))
      scope.alias(name, v->s == "tl" ? "triton.language" : v->s);
  }
  host::Interp in(scope, g.source, hostModules(g));
  if (!readDecorators(in, fn, [](uint32_t) { return std::string(); }))
    return g.fail(in.error().offset, in.error().message);
  return success();
}

/// `@triton.jit(debug=True)` on the kernel turns device assertions on.
static LogicalResult readJitDebug(IRGen &g, const FunctionDef *fn) {
  g.debug = g.spec.debug;
  for (const Expr *d : fn->decorators) {
    const auto *call = llvm::dyn_cast<CallExpr>(d);
    if (!call)
      continue;
    std::optional<Val> f = g.resolveStaticName(call->func);
    if (!f || f->kind != Val::Kind::Builtin || f->s != "triton.jit")
      continue;
    for (const Keyword &k : call->keywords) {
      if (k.name != "debug")
        continue;
      const auto *c = llvm::dyn_cast<ConstExpr>(k.value);
      if (!c || c->which == ConstExpr::Which::Ellipsis)
        return g.fail(k.value, "`debug` of @triton.jit must be True, False "
                               "or None");
      g.debug = g.debug || c->which == ConstExpr::Which::True;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Calls of @triton.jit functions
//===----------------------------------------------------------------------===//

/// `@triton.jit(noinline=True)`.
static bool isNoinline(const ast::FunctionDef *fn) {
  for (const ast::Expr *d : fn->decorators)
    if (auto *c = llvm::dyn_cast<ast::CallExpr>(d))
      for (const ast::Keyword &k : c->keywords)
        if (k.name == "noinline")
          if (auto *v = llvm::dyn_cast<ast::ConstExpr>(k.value))
            return v->which == ast::ConstExpr::Which::True;
  return false;
}

FailureOr<Val> IRGen::callFunction(const FunctionDef *fn, const CallArgs &args,
                                   const Node *call) {
  if (IRGen *owner = ownerOf(*this, fn); owner && owner != this)
    return callForeign(*this, *owner, fn, args, call); // another file's
  if (isConstexprFunction(fn))
    return callConstexprFunction(fn, args, call);
  if (!isJit(fn))
    return fail(call, "`" + fn->name +
                          "` is not a @triton.jit function; kernels can "
                          "only call @triton.jit functions");
  if (failed(checkDecorators(*this, fn)) || failed(checkParamKinds(*this, fn)))
    return failure();
  if (inlineDepth >= kMaxInlineDepth)
    return fail(call, "inlining `" + fn->name +
                          "` exceeds the call depth "
                          "limit of " +
                          std::to_string(kMaxInlineDepth) +
                          " (is it recursive?)");
  size_t n = fn->params.size();
  std::vector<std::optional<Val>> bound(n);
  if (args.pos.size() > n)
    return fail(args.posNodes[n],
                "`" + fn->name + "` takes " + std::to_string(n) + " argument" +
                    (n == 1 ? "" : "s") + " but " +
                    std::to_string(args.pos.size()) + " were given");
  std::vector<const Node *> nodes(n, call);
  for (size_t k = 0; k < args.pos.size(); ++k) {
    bound[k] = args.pos[k];
    nodes[k] = args.posNodes[k];
  }
  for (size_t k = 0; k < args.kw.size(); ++k) {
    const std::string &name = args.kw[k].first;
    auto it = llvm::find_if(fn->params,
                            [&](const Param &p) { return p.name == name; });
    if (it == fn->params.end())
      return fail(args.kwNodes[k], "`" + fn->name +
                                       "` got an unexpected keyword "
                                       "argument `" +
                                       name + "`");
    size_t idx = it - fn->params.begin();
    if (bound[idx])
      return fail(args.kwNodes[k], "`" + fn->name +
                                       "` got multiple values for argument "
                                       "`" +
                                       name + "`");
    bound[idx] = args.kw[k].second;
    nodes[idx] = args.kwNodes[k];
  }
  FnState st;
  st.fn = fn;
  for (size_t k = 0; k < n; ++k) {
    const Param &p = fn->params[k];
    if (!bound[k]) {
      if (!p.defaultValue)
        return fail(call,
                    "`" + fn->name + "` is missing argument `" + p.name + "`");
      // Defaults are evaluated with module-level names only.
      FnState tmp;
      FnState *saved = fs;
      fs = &tmp;
      FailureOr<Val> d = eval(p.defaultValue);
      fs = saved;
      if (failed(d))
        return failure();
      bound[k] = *d;
    }
    // Triton inlines helpers, so a `tl.constexpr` annotation on a helper's
    // parameter does not stop a runtime value (the fused-attention tutorial
    // passes `offs_m` tensors that way); only a noinline function needs
    // constexpr arguments there.
    if (isConstexprParam(p) && !bound[k]->isConstexpr() && isNoinline(fn))
      return fail(nodes[k], "`" + fn->name +
                                "` is marked noinline, but was called with "
                                "non-constexpr argument `" +
                                p.name + "` (" + typeName(*bound[k]) + ")");
    if (bound[k]->kind == Val::Kind::Undef)
      return failure();
    st.scope[p.name] = Binding{*bound[k], p.range.begin};
  }
  FnState *saved = fs;
  fs = &st;
  ++inlineDepth;
  LogicalResult r = genBlock(fn->body);
  --inlineDepth;
  fs = saved;
  if (failed(r))
    return failure();
  return st.returned ? st.retVal : Val::none();
}

//===----------------------------------------------------------------------===//
// Kernel entry
//===----------------------------------------------------------------------===//

mlir::OwningOpRef<mlir::ModuleOp> IRGen::compile(const KernelSpec &sp) {
  spec = sp;
  if (failed(resolveModule()))
    return nullptr;
  const FunctionDef *fn = findKernel(spec.kernelName);
  if (!fn)
    return nullptr;
  if (failed(checkDecorators(*this, fn)))
    return nullptr;
  if (failed(readJitDebug(*this, fn)))
    return nullptr;

  // Match the signature to the parameters: either one entry per parameter
  // (constexprs as literals) or one per non-constexpr parameter.
  size_t nAll = fn->params.size(), nRuntime = 0;
  for (const Param &p : fn->params)
    nRuntime += !isConstexprParam(p);
  bool full = spec.signature.size() == nAll;
  if (!full && spec.signature.size() != nRuntime) {
    std::string extra = nAll != nRuntime
                            ? " (" + std::to_string(nAll) +
                                  " counting its constexpr parameters)"
                            : "";
    (void)fail(fn->nameRange.begin,
               "signature has " + std::to_string(spec.signature.size()) +
                   " entries but `" + fn->name + "` takes " +
                   std::to_string(nRuntime) + " parameters" + extra);
    return nullptr;
  }
  for (const auto &[name, value] : spec.constexprs) {
    auto it = llvm::find_if(fn->params,
                            [&](const Param &p) { return p.name == name; });
    if (it == fn->params.end())
      return (void)fail(fn->nameRange.begin, "-D " + name + ": `" + fn->name +
                                                 "` has no parameter named `" +
                                                 name + "`"),
             nullptr;
    if (!isConstexprParam(*it))
      return (void)fail(it->range.begin, "-D " + name + ": parameter `" + name +
                                             "` of `" + fn->name +
                                             "` is not tl.constexpr"),
             nullptr;
  }

  mlir::Location fnLoc = loc(fn->nameRange.begin);
  mlir::OwningOpRef<mlir::ModuleOp> mod = mlir::ModuleOp::create(fnLoc);
  (*mod)->setAttr(tile::kNumWarpsAttr, b.getI32IntegerAttr(spec.numWarps));
  (*mod)->setAttr("tile.num_stages", b.getI32IntegerAttr(spec.numStages));
  (*mod)->setAttr("tile.arch", b.getStringAttr(spec.arch));
  b.setInsertionPointToEnd(mod->getBody());

  FnState st;
  st.fn = fn;
  st.isKernel = true;
  llvm::SmallVector<mlir::Type> argTypes;
  llvm::SmallVector<std::pair<std::string, TType>> runtimeParams;
  llvm::SmallVector<unsigned> divisibility;
  // Tensor-descriptor parameters: their entry and first function argument
  // (base, then rank i32 shapes, then rank - 1 i64 strides).
  llvm::SmallVector<std::pair<const ParamSpec *, size_t>> descriptors;
  // Each constexpr's specialized value as text, for the backend's KernelInfo.
  llvm::SmallVector<mlir::NamedAttribute> constexprTexts;
  // Tuple parameters: their entry and first function argument.
  llvm::SmallVector<std::tuple<const Param *, const ParamSpec *, size_t>>
      tuples;
  // A tuple argument's runtime elements become consecutive function
  // arguments (`res.0`, `res.1.0`, ...), depth first; its constant elements
  // (None, the integer 1) take none.
  std::function<bool(const ParamSpec &, const std::string &, uint32_t)>
      addTupleElements = [&](const ParamSpec &e, const std::string &name,
                             uint32_t at) {
        for (size_t k = 0; k < e.elements.size(); ++k) {
          const ParamSpec &el = e.elements[k];
          std::string elName = name + "." + std::to_string(k);
          switch (el.kind) {
          case ParamSpec::Kind::Tuple:
            if (!addTupleElements(el, elName, at))
              return false;
            break;
          case ParamSpec::Kind::Constexpr:
            if (isFunctionSpelling(el.constexprValue)) {
              // A @triton.jit function element (Triton's closure tuples).
              if (failed(constexprFunction(el.constexprValue, at,
                                           "element " + elName)))
                return false;
            } else if (!parseConstexprText(el.constexprValue)) {
              return (void)fail(at, "element " + elName + " of the tuple is `" +
                                        el.constexprValue +
                                        "`, not a constexpr literal"),
                     false;
            }
            constexprTexts.push_back(
                b.getNamedAttr(elName, b.getStringAttr(el.constexprValue)));
            break;
          case ParamSpec::Kind::TensorDesc:
            return (void)fail(at, "element " + elName +
                                      " of the tuple: a tensor descriptor "
                                      "inside a tuple is not supported"),
                   false;
          case ParamSpec::Kind::Pointer:
          case ParamSpec::Kind::Scalar: {
            TType t{el.dtype, el.kind == ParamSpec::Kind::Pointer, {}};
            argTypes.push_back(toMLIR(&ctx, t));
            runtimeParams.emplace_back(elName, t);
            divisibility.push_back(el.divisibility);
            break;
          }
          }
        }
        return true;
      };
  size_t sigIdx = 0;
  for (const Param &p : fn->params) {
    bool isCx = isConstexprParam(p);
    const ParamSpec *entry = nullptr;
    if (full || !isCx)
      entry = &spec.signature[sigIdx++];
    if (isCx) {
      std::string text, origin;
      auto d = spec.constexprs.find(p.name);
      if (entry && entry->kind != ParamSpec::Kind::Constexpr)
        return (void)fail(p.range.begin,
                          "signature entry " + std::to_string(sigIdx) + " (`" +
                              entry->toString() +
                              "`) is a type, "
                              "but `" +
                              p.name +
                              "` is tl.constexpr: give its value "
                              "instead"),
               nullptr;
      if (entry && d != spec.constexprs.end() &&
          d->second != entry->constexprValue)
        return (void)fail(p.range.begin, "constexpr `" + p.name + "` is " +
                                             entry->constexprValue +
                                             " in the signature but " +
                                             d->second + " in -D"),
               nullptr;
      if (entry) {
        text = entry->constexprValue;
        origin = "signature entry " + std::to_string(sigIdx);
      } else if (d != spec.constexprs.end()) {
        text = d->second;
        origin = "-D " + p.name;
      }
      Val v;
      if (!text.empty() && isFunctionSpelling(text)) {
        // A @triton.jit function passed for the constexpr (Triton's
        // `ACTIVATION_FN=my_activation`), named by its definition.
        FailureOr<Val> f = constexprFunction(text, p.range.begin, origin);
        if (failed(f))
          return nullptr;
        v = *f;
      } else if (!text.empty()) {
        std::optional<Val> pv = parseConstexprText(text);
        if (!pv)
          return (void)fail(p.range.begin,
                            origin + ": `" + text +
                                "` is not a constexpr literal (expected an "
                                "integer, a float such as 2.5 or "
                                "float('inf'), True/False, None, a string or "
                                "a dtype such as tl.float16)"),
                 nullptr;
        v = *pv;
      } else if (p.defaultValue) {
        fs = &st;
        FailureOr<Val> dv = eval(p.defaultValue);
        fs = nullptr;
        if (failed(dv))
          return nullptr;
        if (!dv->isConstexpr())
          return (void)fail(p.defaultValue,
                            "default of constexpr `" + p.name +
                                "` is not a compile-time value"),
                 nullptr;
        v = *dv;
        text = v.repr();
      } else {
        return (void)fail(p.range.begin,
                          "no value for constexpr `" + p.name + "`; pass -D " +
                              p.name + "=<value> or put it in the signature"),
               nullptr;
      }
      st.scope[p.name] = Binding{v, p.range.begin};
      constexprTexts.push_back(b.getNamedAttr(
          p.name, b.getStringAttr(llvm::StringRef(text).trim())));
      continue;
    }
    // A `none` entry: the parameter is the constexpr None (Triton specializes
    // a None argument), so `if X is not None:` code is never generated.
    if (entry->kind == ParamSpec::Kind::Constexpr &&
        entry->constexprValue == "None") {
      st.scope[p.name] = Binding{Val::none(), p.range.begin};
      constexprTexts.push_back(
          b.getNamedAttr(p.name, b.getStringAttr("None")));
      continue;
    }
    // An integer literal (`1`, or `i32:1`): the argument is that constant,
    // as Triton specializes an integer equal to 1 (and as its AOT signatures
    // pass constants); the kernel has no such parameter.
    if (entry->kind == ParamSpec::Kind::Constexpr) {
      // A function passed by value (Triton specializes a JITFunction
      // argument whether or not the parameter says tl.constexpr).
      if (isFunctionSpelling(entry->constexprValue)) {
        FailureOr<Val> f = constexprFunction(
            entry->constexprValue, p.range.begin,
            "signature entry " + std::to_string(sigIdx));
        if (failed(f))
          return nullptr;
        st.scope[p.name] = Binding{*f, p.range.begin};
        constexprTexts.push_back(b.getNamedAttr(
            p.name, b.getStringAttr(llvm::StringRef(entry->constexprValue).trim())));
        continue;
      }
      std::optional<Val> pv = parseConstexprText(entry->constexprValue);
      // An integer constant, or a tl function spelled in full
      // (`triton.language.maximum`).
      if (!pv || (pv->kind != Val::Kind::Int && pv->kind != Val::Kind::Builtin))
        return (void)fail(p.range.begin,
                          "parameter `" + p.name +
                              "` is not tl.constexpr, so its "
                              "signature entry must be a type such "
                              "as i32 or *fp16, none, an integer "
                              "constant such as 1 or a function, not `" +
                              entry->constexprValue + "`"),
               nullptr;
      st.scope[p.name] = Binding{*pv, p.range.begin};
      constexprTexts.push_back(b.getNamedAttr(
          p.name, b.getStringAttr(llvm::StringRef(entry->constexprValue).trim())));
      continue;
    }
    if (entry->kind == ParamSpec::Kind::Tuple) {
      tuples.emplace_back(&p, entry, runtimeParams.size());
      if (!addTupleElements(*entry, p.name, p.range.begin))
        return nullptr;
      continue;
    }
    if (entry->kind == ParamSpec::Kind::TensorDesc) {
      // A host TensorDescriptor: 16-byte aligned base (Triton asserts it),
      // shapes, and strides whose every element but the last (1, a
      // constant) is a multiple of 16 bytes, also asserted by Triton.
      size_t rank = entry->blockShape.size();
      unsigned elemBytes = std::max(1u, bitWidth(entry->dtype) / 8);
      if (entry->blockShape.back() * elemBytes < 16)
        return (void)fail(p.range.begin,
                          "signature entry " + std::to_string(sigIdx) +
                              " (`" + entry->toString() +
                              "`): a descriptor block must have at least 16 "
                              "bytes in its last dimension"),
               nullptr;
      descriptors.emplace_back(entry, runtimeParams.size());
      TType pt{entry->dtype, true, {}};
      argTypes.push_back(toMLIR(&ctx, pt));
      runtimeParams.emplace_back(p.name, pt);
      divisibility.push_back(16);
      for (size_t d = 0; d < rank; ++d) {
        TType it{DType::I32, false, {}};
        argTypes.push_back(toMLIR(&ctx, it));
        runtimeParams.emplace_back(p.name + ".shape" + std::to_string(d), it);
        divisibility.push_back(d < entry->shapeDivisibility.size()
                                   ? entry->shapeDivisibility[d]
                                   : 1);
      }
      for (size_t d = 0; d + 1 < rank; ++d) {
        TType it{DType::I64, false, {}};
        argTypes.push_back(toMLIR(&ctx, it));
        runtimeParams.emplace_back(p.name + ".stride" + std::to_string(d), it);
        divisibility.push_back(std::max(1u, 16 / elemBytes));
      }
      continue;
    }
    TType t{entry->dtype, entry->kind == ParamSpec::Kind::Pointer, {}};
    t.isConst = t.isPtr && (entry->constPointer ||
                            isConstPointerAnnotation(p.annotation));
    // A scalar annotated with a dtype (`stride: tl.int64`, torchao's guard
    // against 32-bit offsets) takes that type, as in Triton, whatever the
    // value's range gave the signature; the launch packs the value so.
    if (std::optional<Val> ann =
            !t.isPtr && p.annotation ? resolveStaticName(p.annotation) : std::nullopt;
        ann && ann->kind == Val::Kind::DType && !ann->dtPtr &&
        isFloat(ann->dt) == isFloat(t.dtype) && ann->dt != DType::I1 && t.dtype != DType::I1)
      t.dtype = ann->dt;
    argTypes.push_back(toMLIR(&ctx, t));
    runtimeParams.emplace_back(p.name, t);
    divisibility.push_back(entry->divisibility);
  }

  if (!constexprTexts.empty())
    (*mod)->setAttr("tile.constexprs", b.getDictionaryAttr(constexprTexts));
  auto func = mlir::func::FuncOp::create(b, fnLoc, spec.kernelName,
                                         b.getFunctionType(argTypes, {}));
  mlir::Block *entryBlock = func.addEntryBlock();
  for (size_t k = 0; k < runtimeParams.size(); ++k) {
    func.setArgAttr(k, "tile.name", b.getStringAttr(runtimeParams[k].first));
    if (divisibility[k] > 1)
      func.setArgAttr(k, "tile.divisibility",
                      b.getI32IntegerAttr(divisibility[k]));
    auto p = llvm::find_if(fn->params, [&](const Param &q) {
      return q.name == runtimeParams[k].first;
    });
    if (p == fn->params.end())
      continue; // A descriptor's shape or stride, bound below.
    st.scope[p->name] = Binding{
        Val::runtime(entryBlock->getArgument(k), runtimeParams[k].second),
        p->range.begin};
  }
  b.setInsertionPointToStart(entryBlock);
  for (auto [entry, first] : descriptors) {
    size_t rank = entry->blockShape.size();
    // The base of a host descriptor, marked with its block shape: its shapes
    // and strides follow it (a tile.load of its block may be copied with TMA
    // from them, TmaCopies.h).
    func.setArgAttr(first, "tile.descriptor", b.getDenseI64ArrayAttr(entry->blockShape));
    Binding &bound = st.scope[runtimeParams[first].first];
    std::vector<Val> scalars{bound.v};
    for (size_t k = 1; k < 2 * rank; ++k)
      scalars.push_back(Val::runtime(entryBlock->getArgument(first + k),
                                     runtimeParams[first + k].second));
    scalars.push_back(constantInt(1, DType::I64)); // the last stride
    bound.v = Val::tensorDesc(std::move(scalars), entry->blockShape,
                              entry->nanPadding ? "nan" : "zero");
  }
  // A tuple parameter is the tuple of its elements: function arguments and
  // constants, nested as the argument was.
  for (auto [param, entry, first] : tuples) {
    size_t next = first;
    std::function<Val(const ParamSpec &)> build = [&](const ParamSpec &e) {
      if (e.kind == ParamSpec::Kind::Tuple) {
        std::vector<Val> elems;
        for (const ParamSpec &el : e.elements)
          elems.push_back(build(el));
        Val t = Val::tuple(std::move(elems));
        if (!e.fieldNames.empty())
          t.fields = std::make_shared<const std::vector<std::string>>(e.fieldNames);
        return t;
      }
      if (e.kind == ParamSpec::Kind::Constexpr) // checked above
        return isFunctionSpelling(e.constexprValue)
                   ? *constexprFunction(e.constexprValue, param->range.begin, "")
                   : *parseConstexprText(e.constexprValue);
      Val v = Val::runtime(entryBlock->getArgument(next),
                           runtimeParams[next].second);
      ++next;
      return v;
    };
    st.scope[param->name] = Binding{build(*entry), param->range.begin};
  }
  fs = &st;
  LogicalResult r = genBlock(fn->body);
  fs = nullptr;
  if (failed(r))
    return nullptr;
  b.setInsertionPointToEnd(entryBlock);
  mlir::func::ReturnOp::create(b,
                               loc(fn->range.end > 0 ? fn->range.end - 1 : 0));
  // Constants materialized for splats or never used are dropped here, once
  // nothing can refer to them any more.
  llvm::SmallVector<mlir::Operation *> dead;
  func.walk([&](mlir::arith::ConstantOp c) {
    if (c->use_empty())
      dead.push_back(c);
  });
  for (mlir::Operation *op : dead)
    op->erase();
  if (failed(mlir::verify(*mod)))
    return nullptr;
  return mod;
}
