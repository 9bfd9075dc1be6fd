//===- IRGenModule.cpp - Module-level names, resolved lazily -------------===//
//
// A kernel file is a Python module: it may import torch, define classes,
// run benchmarks. Kiln parses all of it but evaluates only what a kernel
// reaches: resolveModule records each module-level binding with its site,
// and lookupGlobal evaluates one when a kernel, a default or a helper reads
// it. A binding Kiln cannot evaluate is an error at that read, naming the
// definition and why.
//
//===----------------------------------------------------------------------===//
#include "IRGen.h"
#include "IRGenImport.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "kiln/Frontend/Syntax/ChildBlocks.h"
#include "llvm/ADT/ScopeExit.h"
#include <functional>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

using How = IRGen::GlobalDef::How;

static constexpr llvm::StringLiteral kBindHint =
    "; give its value as a host binding (ln-compile --bind ";

/// How the value Python computes for module-level `name` of `g`'s file can
/// be given: xformers' `rsqrt = libdevice_find("rsqrt")`, a name bound in an
/// `if`; in a file the kernel imports, --bind names that file (vLLM's
/// `triton`, bound in triton_utils under `if HAS_TRITON:`).
static std::string bindTarget(const IRGen &g, llvm::StringRef name) {
  return isImportedModule(g) ? g.filename + "::" + name.str() : name.str();
}

static std::string bindHint(const IRGen &g, llvm::StringRef name) {
  return (kBindHint + bindTarget(g, name) +
          "=EXPR; the Python drop-in binds it from the loaded module)")
      .str();
}

/// `why` (a nested definition's failure) with its bind hint for a deeper
/// name merged into the one for `name` (`BLOCK = 64 if USE_X else 128`:
/// either binding does), instead of two hints one after the other.
static std::string withBindHint(const IRGen &g, std::string why, llvm::StringRef name) {
  size_t at = why.find(kBindHint.data());
  size_t end = at == std::string::npos ? at : why.find("=EXPR", at);
  if (end == std::string::npos)
    return why + bindHint(g, name);
  std::string inner = why.substr(at + kBindHint.size(), end - at - kBindHint.size());
  std::string outer = bindTarget(g, name);
  return why.substr(0, at) + "; give the value of `" + inner + "` or of `" + outer +
         "` as a host binding (ln-compile --bind " + inner + "=EXPR or --bind " + outer +
         "=EXPR; the Python drop-in binds them from the loaded module)";
}

/// `if __name__ == "__main__":`, the script entry point.
static bool isMainGuard(const IfStmt *is, llvm::StringRef text) {
  std::string t = text.str();
  t.erase(std::remove_if(t.begin(), t.end(),
                         [](char c) { return c == ' ' || c == '\t'; }),
          t.end());
  return t == "__name__==\"__main__\"" || t == "__name__=='__main__'";
}

/// Names a target binds (`a`, `a, (b, *c)`); attribute and subscript
/// targets bind none.
static void boundNames(const Expr *t, std::vector<std::string> &out) {
  if (auto *n = llvm::dyn_cast<NameExpr>(t))
    out.push_back(n->id);
  else if (auto *tu = llvm::dyn_cast<TupleExpr>(t))
    for (const Expr *e : tu->elts)
      boundNames(e, out);
  else if (auto *s = llvm::dyn_cast<StarredExpr>(t))
    boundNames(s->value, out);
}

static void patternNames(const Pattern *p, std::vector<std::string> &out) {
  if (!p)
    return;
  if (auto *as = llvm::dyn_cast<MatchAsPattern>(p)) {
    if (!as->name.empty())
      out.push_back(as->name);
    patternNames(as->pattern, out);
  } else if (auto *st = llvm::dyn_cast<MatchStarPattern>(p)) {
    if (!st->name.empty())
      out.push_back(st->name);
  } else if (auto *sq = llvm::dyn_cast<MatchSequencePattern>(p)) {
    for (const Pattern *q : sq->patterns)
      patternNames(q, out);
  } else if (auto *o = llvm::dyn_cast<MatchOrPattern>(p)) {
    for (const Pattern *q : o->patterns)
      patternNames(q, out);
  } else if (auto *mm = llvm::dyn_cast<MatchMappingPattern>(p)) {
    for (const Pattern *q : mm->patterns)
      patternNames(q, out);
    if (!mm->rest.empty())
      out.push_back(mm->rest);
  } else if (auto *c = llvm::dyn_cast<MatchClassPattern>(p)) {
    for (const Pattern *q : c->patterns)
      patternNames(q, out);
    for (const Pattern *q : c->kwdPatterns)
      patternNames(q, out);
  }
}

static void importNames(const Stmt *s, std::vector<std::string> &out) {
  if (auto *im = llvm::dyn_cast<ImportStmt>(s)) {
    for (const Alias &a : im->names)
      out.push_back(a.asName.empty()
                        ? llvm::StringRef(a.name).split('.').first.str()
                        : a.asName);
  } else if (auto *im = llvm::dyn_cast<ImportFromStmt>(s)) {
    for (const Alias &a : im->names)
      if (a.name != "*")
        out.push_back(a.asName.empty() ? a.name : a.asName);
  }
}

/// Every name a block binds in its own scope (not inside nested defs or
/// classes, whose names are their own).
static void blockNames(llvm::ArrayRef<const Stmt *> stmts,
                       std::vector<std::string> &out) {
  for (const Stmt *s : stmts) {
    if (auto *a = llvm::dyn_cast<AssignStmt>(s)) {
      for (const Expr *t : a->targets)
        boundNames(t, out);
    } else if (auto *a = llvm::dyn_cast<AugAssignStmt>(s)) {
      boundNames(a->target, out);
    } else if (auto *a = llvm::dyn_cast<AnnAssignStmt>(s)) {
      if (a->value)
        boundNames(a->target, out);
    } else if (auto *f = llvm::dyn_cast<FunctionDef>(s)) {
      out.push_back(f->name);
    } else if (auto *c = llvm::dyn_cast<ClassDef>(s)) {
      out.push_back(c->name);
    } else if (llvm::isa<ImportStmt, ImportFromStmt>(s)) {
      importNames(s, out);
    } else if (auto *d = llvm::dyn_cast<DeleteStmt>(s)) {
      for (const Expr *t : d->targets)
        boundNames(t, out);
    } else if (auto *f = llvm::dyn_cast<ForStmt>(s)) {
      boundNames(f->target, out);
    } else if (auto *t = llvm::dyn_cast<TryStmt>(s)) {
      for (const ExceptHandler &h : t->handlers)
        if (!h.name.empty())
          out.push_back(h.name);
    } else if (auto *w = llvm::dyn_cast<WithStmt>(s)) {
      for (const WithItem &item : w->items)
        if (item.optionalVars)
          boundNames(item.optionalVars, out);
    } else if (auto *m = llvm::dyn_cast<MatchStmt>(s)) {
      for (const MatchCase &c : m->cases)
        patternNames(c.pattern, out);
    } else if (auto *t = llvm::dyn_cast<TypeAliasStmt>(s)) {
      out.push_back(t->name->id);
    }
    for (const Block *b : childBlocks(s))
      blockNames(*b, out);
  }
}

/// What a compound statement is called in messages.
static const char *containerName(const Stmt *s) {
  switch (s->kind) {
  case Node::Kind::If:
    return "an `if` statement";
  case Node::Kind::Try:
    return "a `try` statement";
  case Node::Kind::With:
    return "a `with` statement";
  case Node::Kind::For:
    return "a `for` loop";
  case Node::Kind::While:
    return "a `while` loop";
  case Node::Kind::Match:
    return "a `match` statement";
  default:
    return "a compound statement";
  }
}

LogicalResult IRGen::resolveModule() {
  globals.clear();
  moduleDefs.clear();
  auto add = [&](const std::string &name, GlobalDef d) {
    moduleDefs[name].push_back(std::move(d));
  };
  // `value` as a triton name Kiln knows (`triton.jit`, `tl.maximum`, a
  // module; with `dtypes`, also `tl.float16`).
  auto knownTritonName = [&](const Expr *value, bool dtypes) -> std::optional<Val> {
    if (!llvm::isa<NameExpr, AttributeExpr>(value))
      return std::nullopt;
    std::optional<Val> v = resolveStaticName(value);
    if (v && (v->kind == Val::Kind::Builtin || v->kind == Val::Kind::Module ||
              (dtypes && v->kind == Val::Kind::DType)))
      return v;
    return std::nullopt;
  };
  // Statements in the order Python runs them: the module's, and in a
  // module-level `if` whose condition Kiln can evaluate, the taken branch's.
  // `seq` orders them for lookups (a binding is visible after it).
  unsigned seq = 0;
  std::function<void(const Stmt *)> visit = [&](const Stmt *s) {
    unsigned pos = seq++;
    auto def = [&](How how, const Node *site) {
      GlobalDef d;
      d.how = how;
      d.pos = pos;
      d.site = site;
      return d;
    };
    // Imports, also those of a `try:` whose imports all resolve (its
    // handlers do not run then) or else of its first handler that does.
    auto recordImport = [&](const Stmt *st) -> bool {
      if (auto *im = llvm::dyn_cast<ImportStmt>(st)) {
        for (const Alias &a : im->names) {
          llvm::StringRef n = a.name;
          std::string bound =
              a.asName.empty() ? n.split('.').first.str() : a.asName;
          GlobalDef d = def(How::HostImport, st);
          d.module = a.asName.empty() ? bound : n.str();
          if (isTritonModuleName(n)) {
            d.how = How::Known;
            d.cached = Val::named(Val::Kind::Module, d.module);
            globals[bound] = *d.cached;
          }
          add(bound, std::move(d));
        }
        return true;
      }
      if (auto *im = llvm::dyn_cast<ImportFromStmt>(st)) {
        std::string m = std::string(im->level, '.') + im->module;
        for (const Alias &a : im->names) {
          if (a.name == "*") {
            // Names the module does not bind are looked up there.
            GlobalDef d = def(How::HostImport, st);
            d.module = m;
            d.importedName = "*";
            starImports.push_back(std::move(d));
            continue;
          }
          std::string bound = a.asName.empty() ? a.name : a.asName;
          GlobalDef d = def(How::HostImport, st);
          d.module = m;
          d.importedName = a.name;
          if (im->level == 0 && isTritonModuleName(m)) {
            Val out;
            int found = lookupModuleAttr(m, a.name, out);
            if (found == 0) {
              d.how = How::Known;
              d.cached = out;
              globals[bound] = out;
            } else {
              d.how = How::Unsupported;
              d.message = found == 1
                              ? "`" + m + "." + a.name + "` is not supported"
                              : "cannot import `" + a.name + "` from `" + m +
                                    "`";
            }
          }
          add(bound, std::move(d));
        }
        return true;
      }
      return false;
    };
    if (recordImport(s))
      return;
    if (auto *t = llvm::dyn_cast<TryStmt>(s); t && t->orelse.empty() &&
                                              t->finalbody.empty()) {
      // The try body runs when each of its statements is an import Kiln
      // resolves or an alias of a triton name it knows
      // (`f = tl.uint_to_uniform_float`, the fallback `def` in the
      // `except`); else the first handler made only of resolvable imports.
      auto tritonAlias = [&](const Stmt *st) -> std::optional<Val> {
        auto *a = llvm::dyn_cast<AssignStmt>(st);
        if (!a || a->targets.size() != 1 || !llvm::isa<NameExpr>(a->targets[0]))
          return std::nullopt;
        return knownTritonName(a->value, /*dtypes=*/true);
      };
      auto resolves = [&](llvm::ArrayRef<const Stmt *> body) {
        return !body.empty() && llvm::all_of(body, [&](const Stmt *st) {
          return importsResolve(*this, {st}) || tritonAlias(st);
        });
      };
      // A handler that is itself such a `try` (FBGEMM's chain of libdevice
      // locations, `from triton.language.libdevice import pow` first) runs
      // its own choice, as Python falls through the nested ImportErrors.
      std::function<llvm::ArrayRef<const Stmt *>(const TryStmt *, unsigned)>
          choose = [&](const TryStmt *tr,
                       unsigned depth) -> llvm::ArrayRef<const Stmt *> {
        if (resolves(tr->body))
          return tr->body;
        for (const ExceptHandler &h : tr->handlers) {
          if (!h.name.empty())
            continue;
          if (importsResolve(*this, h.body))
            return h.body;
          auto *inner = h.body.size() == 1
                            ? llvm::dyn_cast<TryStmt>(h.body[0])
                            : nullptr;
          if (inner && inner->orelse.empty() && inner->finalbody.empty() &&
              depth < 8)
            if (llvm::ArrayRef<const Stmt *> b = choose(inner, depth + 1);
                !b.empty())
              return b;
        }
        return {};
      };
      llvm::ArrayRef<const Stmt *> taken = choose(t, 0);
      if (!taken.empty()) {
        for (const Stmt *st : taken) {
          if (recordImport(st))
            continue;
          std::optional<Val> v = tritonAlias(st);
          const std::string &name =
              llvm::cast<NameExpr>(llvm::cast<AssignStmt>(st)->targets[0])->id;
          GlobalDef d = def(How::Known, st);
          d.cached = *v;
          globals[name] = *v;
          add(name, std::move(d));
        }
        return;
      }
    }
    if (auto *fn = llvm::dyn_cast<FunctionDef>(s)) {
      GlobalDef d = def(How::Known, s);
      d.cached = Val::function(fn);
      globals[fn->name] = *d.cached;
      // A host decorator may have replaced the def (FlagGems' use_tl_extra
      // returns libdevice's function of that name when there is one): the
      // host that ran the module binds the name only then.
      if (!fn->decorators.empty() && findHostBinding(*this, fn->name)) {
        d.how = How::Ambiguous;
        d.container = "a decorated `def`";
        d.cached.reset();
      }
      add(fn->name, std::move(d));
      return;
    }
    if (auto *c = llvm::dyn_cast<ClassDef>(s)) {
      add(c->name, def(How::Class, s));
      return;
    }
    if (auto *t = llvm::dyn_cast<TypeAliasStmt>(s)) {
      add(t->name->id, def(How::Class, s));
      return;
    }
    if (llvm::isa<AssignStmt, AnnAssignStmt>(s)) {
      const Expr *value;
      std::vector<const Expr *> targets;
      if (auto *a = llvm::dyn_cast<AssignStmt>(s)) {
        value = a->value;
        targets.assign(a->targets.begin(), a->targets.end());
      } else {
        auto *ann = llvm::cast<AnnAssignStmt>(s);
        if (!ann->value)
          return; // an annotation alone binds nothing
        value = ann->value;
        targets.push_back(ann->target);
      }
      for (const Expr *t : targets) {
        if (auto *n = llvm::dyn_cast<NameExpr>(t)) {
          GlobalDef d = def(How::Value, s);
          d.value = value;
          // Aliases of triton names (`jit = triton.jit`) are known at once:
          // decorators are resolved through `globals`.
          if (std::optional<Val> alias = knownTritonName(value, /*dtypes=*/false)) {
            d.how = How::Known;
            d.cached = *alias;
            globals[n->id] = *alias;
          }
          add(n->id, std::move(d));
          continue;
        }
        auto *tu = llvm::dyn_cast<TupleExpr>(t);
        bool flat = tu && llvm::all_of(tu->elts, [](const Expr *e) {
                      return llvm::isa<NameExpr>(e);
                    });
        std::vector<std::string> names;
        boundNames(t, names);
        for (size_t k = 0; k < names.size(); ++k) {
          GlobalDef d = def(flat ? How::Unpack : How::Ambiguous, s);
          d.value = value;
          d.index = k;
          d.container = "an unpacking assignment";
          add(names[k], std::move(d));
        }
      }
      return;
    }
    if (auto *a = llvm::dyn_cast<AugAssignStmt>(s)) {
      if (auto *n = llvm::dyn_cast<NameExpr>(a->target)) {
        GlobalDef d = def(How::AugValue, s);
        d.value = a->value;
        d.augOp = a->op;
        add(n->id, std::move(d));
      }
      return;
    }
    if (auto *d = llvm::dyn_cast<DeleteStmt>(s)) {
      std::vector<std::string> names;
      for (const Expr *t : d->targets)
        boundNames(t, names);
      for (const std::string &n : names)
        add(n, def(How::Deleted, s));
      return;
    }
    if (auto *is = llvm::dyn_cast<IfStmt>(s);
        is && isMainGuard(is, text(is->test)))
      return; // the script's entry point: never kernel code
    // A condition Kiln evaluates (`if TRITON3:` after `TRITON3 =
    // version.parse(triton.__version__) >= version.parse("3.0.0")`,
    // `if triton.__version__ >= "2.1.0":`) runs its taken branch as Python
    // would; else every name the `if` binds is ambiguous (below).
    if (auto *is = llvm::dyn_cast<IfStmt>(s)) {
      if (std::optional<bool> taken = staticModuleCondition(is->test, seq)) {
        for (const Stmt *st : *taken ? is->body : is->orelse)
          visit(st);
        return;
      }
    }
    if (llvm::isa<IfStmt, TryStmt, WithStmt, ForStmt, WhileStmt, MatchStmt>(
            s)) {
      std::vector<std::string> names;
      blockNames({s}, names);
      for (const std::string &n : names) {
        GlobalDef d = def(How::Ambiguous, s);
        d.container = containerName(s);
        add(n, std::move(d));
      }
      return;
    }
    // Expression statements, asserts, raises, ...: host code, skipped.
  };
  for (const Stmt *s : module.body)
    visit(s);
  return success();
}

FailureOr<Val>
IRGen::tryAtModuleLevel(unsigned pos, std::optional<CapturedError> &captured,
                        llvm::function_ref<FailureOr<Val>()> body) {
  std::optional<CapturedError> *savedCapture = capture;
  FnState *savedFs = fs;
  unsigned savedPos = modulePos;
  FnState st;
  mlir::OwningOpRef<mlir::ModuleOp> scratch =
      mlir::ModuleOp::create(b.getUnknownLoc());
  FailureOr<Val> v = failure();
  {
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(scratch->getBody());
    capture = &captured;
    fs = &st;
    modulePos = pos;
    v = body();
  }
  capture = savedCapture;
  fs = savedFs;
  modulePos = savedPos;
  return v;
}

std::optional<Val> IRGen::resolveDecorator(const Expr *d, std::string *why) const {
  if (auto *c = llvm::dyn_cast<CallExpr>(d))
    d = c->func;
  if (std::optional<Val> v = resolveStaticName(d))
    return v;
  if (!followsImports(*this) || !llvm::isa<NameExpr, AttributeExpr>(d))
    return std::nullopt;
  auto &self = const_cast<IRGen &>(*this);
  std::optional<CapturedError> captured;
  FailureOr<Val> v = self.tryAtModuleLevel(~0u, captured, [&] { return self.eval(d); });
  if (failed(v)) {
    if (why && captured)
      *why = captured->message;
    return std::nullopt;
  }
  return *v;
}

std::optional<bool> IRGen::staticModuleCondition(const Expr *test,
                                                 unsigned pos) {
  std::optional<CapturedError> captured;
  FailureOr<Val> v =
      tryAtModuleLevel(pos, captured, [&] { return eval(test); });
  if (failed(v) || !v->isConstexpr())
    return std::nullopt;
  return v->truthy();
}

/// `k.py:12`, where a binding is.
static std::string siteOf(const IRGen &g, const Node *n) {
  if (!n) // bound by host code only (an injected name)
    return g.filename;
  return g.filename + ":" + std::to_string(g.lines.lineCol(n->range.begin).first);
}

/// Source text for a message, shortened when long.
static std::string shortText(llvm::StringRef t) {
  std::string s = t.str();
  std::replace(s.begin(), s.end(), '\n', ' ');
  if (s.size() > 60)
    s = s.substr(0, 57) + "...";
  return s;
}

/// For a module Kiln did not find as a file: how to make it find one.
/// The hint after "which kernels cannot use" for a name from `module`:
/// where to find it when it may be the user's own file; none for the
/// standard library and the libraries every Triton user has.
static std::string packageRootHint(const IRGen &g, llvm::StringRef module) {
  llvm::StringRef top = module.split('.').first;
  if (top == "torch")
    return " (of torch, kernels may read `torch.version.hip`: None, as Kiln "
           "runs beside CUDA builds of PyTorch, and dtypes such as `torch.float16`, "
           "which equal no tl dtype)";
  if (llvm::is_contained({"numpy", "os", "sys", "functools", "itertools",
                          "operator", "enum", "dataclasses", "warnings",
                          "logging", "inspect", "re", "abc"},
                         top))
    return "";
  if (!followsImports(g) || hasPackageRoots(g))
    return "";
  return "; if it is a Python file of your package, give the package root "
         "(ln-compile -I DIR, the C API's include_dirs)";
}

/// `class P(NamedTuple)` / `(typing.NamedTuple)`: Triton's kernels build
/// and read such tuples (its `_is_namedtuple`).
static bool isNamedTuple(const ClassDef &c) {
  if (c.bases.size() != 1)
    return false;
  if (auto *n = llvm::dyn_cast<NameExpr>(c.bases[0]))
    return n->id == "NamedTuple";
  if (auto *a = llvm::dyn_cast<AttributeExpr>(c.bases[0]))
    return a->attr == "NamedTuple";
  return false;
}

/// The class's fields (its annotated names, in order) and their defaults,
/// which must be compile-time values.
FailureOr<Val> IRGen::namedTupleClass(const ClassDef &c) {
  std::vector<std::string> fields;
  Val cls = Val::named(Val::Kind::NamedTupleClass, c.name);
  for (const Stmt *s : c.body) {
    auto *a = llvm::dyn_cast<AnnAssignStmt>(s);
    if (!a)
      continue; // docstrings, `pass`, methods (not callable in kernels)
    auto *target = llvm::dyn_cast<NameExpr>(a->target);
    if (!target)
      continue;
    fields.push_back(target->id);
    if (!a->value) {
      cls.elems.push_back(Val::undef("no default"));
      continue;
    }
    FailureOr<Val> v = eval(a->value);
    if (failed(v))
      return failure();
    if (v->isRuntime())
      return fail(a->value, "the default of the field `" + target->id + "` of `" +
                                c.name + "` must be a compile-time value");
    cls.elems.push_back(*v);
  }
  cls.fields = std::make_shared<const std::vector<std::string>>(std::move(fields));
  return cls;
}

IRGen::GlobalDef *IRGen::visibleDef(const std::string &name) {
  auto it = moduleDefs.find(name);
  if (it == moduleDefs.end())
    return nullptr;
  GlobalDef *d = nullptr;
  for (GlobalDef &cand : it->second)
    if (cand.pos < modulePos)
      d = &cand;
  return d;
}

std::optional<FailureOr<Val>> IRGen::lookupGlobal(const NameExpr *use) {
  GlobalDef *d = visibleDef(use->id);
  if (!d) {
    if (std::optional<FailureOr<Val>> star =
            starImportedName(*this, use->id, use))
      return star;
    // A name the file never binds that host code put in the module's
    // namespace (FlagGems' generated modules get their scalar @triton.jit
    // function as `m.__dict__[name] = fn`): only a host binding knows it.
    if (!moduleDefs.count(use->id) && findHostBinding(*this, use->id)) {
      GlobalDef &injected = moduleDefs[use->id].emplace_back();
      injected.how = How::Ambiguous;
      injected.container = "the module's namespace by host code";
      return hostBindingValue(*this, use, injected, filename);
    }
    return std::nullopt;
  }
  auto it = moduleDefs.find(use->id); // d's list: is d its last binding?
  if (d->how == How::Known)
    return FailureOr<Val>(*d->cached); // the common case: `tl`, helpers
  const std::string &name = use->id;
  std::string where = siteOf(*this, d->site);
  switch (d->how) {
  case How::Known:
    return FailureOr<Val>(*d->cached);
  case How::Class:
    if (auto *c = llvm::dyn_cast<ClassDef>(d->site); c && isNamedTuple(*c)) {
      FailureOr<Val> cls = namedTupleClass(*c);
      if (succeeded(cls)) {
        d->how = How::Known;
        d->cached = *cls;
      }
      return cls;
    }
    // Another class: a namespace of @triton.jit static methods
    // (`Linear.forward(...)`, trident); its other uses stay errors.
    if (auto *c = llvm::dyn_cast<ClassDef>(d->site))
      return FailureOr<Val>(userClassValue(*this, *c));
    return FailureOr<Val>(fail(
        use, "`" + name + "` is a type alias defined at " + where +
                 ", which kernels cannot use"));
  case How::HostImport:
    // Another Python file (relative, or found in the package roots).
    if (auto *from = llvm::dyn_cast<ImportFromStmt>(d->site);
        followsImports(*this) &&
        ((from && (from->level > 0 ||
                   findModuleFile(*this, from->module, 0))) ||
         (!from && findModuleFile(*this, d->module, 0)))) {
      // Modules that import each other's names in a circle.
      if (d->evaluating)
        return FailureOr<Val>(fail(use, "`" + name + "` (imported at " + where +
                                            ") is imported in a circle: the modules import it from each other"));
      d->evaluating = true;
      FailureOr<Val> v = resolveUserImport(*this, *d);
      d->evaluating = false;
      if (succeeded(v)) {
        d->how = How::Known;
        d->cached = *v;
      }
      return v;
    }
    // Python modules Kiln models (Builtins/Names.cpp): `math` folded on
    // numbers, `collections.namedtuple`, `packaging.version` for version
    // guards, `typing.TYPE_CHECKING` (False when the module runs), Inductor's
    // re-exports of libdevice and tl.math.
    if (llvm::is_contained({"math", "collections", "packaging",
                            "packaging.version", "typing", "importlib",
                            "importlib.util", "torch.utils._triton", "torch._inductor.runtime",
                            "torch._inductor.runtime.triton_helpers"},
                           d->module)) {
      if (d->importedName.empty())
        return FailureOr<Val>(Val::named(Val::Kind::Module, d->module));
      Val out;
      if (lookupModuleAttr(d->module, d->importedName, out) == 0)
        return FailureOr<Val>(out);
      return FailureOr<Val>(fail(use, "`" + d->module + "." + d->importedName +
                                          "` is not supported (imported at " +
                                          where + ")"));
    }
    // A from-import of a module not found in the package roots given.
    if (auto *from = llvm::dyn_cast<ImportFromStmt>(d->site);
        from && hasPackageRoots(*this))
      return FailureOr<Val>(fail(from->moduleRange.begin,
                                 cannotFindModule(*this, from->module, 0)));
    if (d->importedName.empty())
      return FailureOr<Val>(fail(use, "`" + name + "` is the module `" +
                                          d->module +
                                          "`, which kernels cannot use" +
                                          packageRootHint(*this, d->module)));
    return FailureOr<Val>(
        fail(use, "`" + name + "` is `" + d->importedName + "` from module `" +
                      d->module + "` (imported at " + where +
                      "), which kernels cannot use" +
                      packageRootHint(*this, d->module)));
  case How::Unsupported:
    return FailureOr<Val>(
        fail(use, d->message + " (imported at " + where + ")"));
  case How::Ambiguous:
    // Python ran the module and knows the final value: a host binding
    // gives it, for the name's last binding only.
    if (d == &it->second.back())
      if (std::optional<FailureOr<Val>> v =
              hostBindingValue(*this, use, *d, where))
        return v;
    return FailureOr<Val>(fail(use, "`" + name + "` is assigned in " +
                                        d->container + " at " + where +
                                        "; Kiln cannot tell which "
                                        "assignment runs" + bindHint(*this, name)));
  case How::Deleted:
    return FailureOr<Val>(
        fail(use, "`" + name + "` is deleted at " + where));
  case How::Value:
  case How::AugValue:
  case How::Unpack:
    break;
  }
  if (d->cached)
    return FailureOr<Val>(*d->cached);
  if (d->evaluating)
    return FailureOr<Val>(
        fail(use, "`" + name + "` at " + where + " is defined in terms of "
                                                 "itself"));

  // Evaluate the definition as the module would when it runs; only
  // compile-time values survive.
  d->evaluating = true;
  std::optional<CapturedError> captured;
  FailureOr<Val> v = tryAtModuleLevel(d->pos, captured, [&]() -> FailureOr<Val> {
    FailureOr<Val> v = eval(d->value);
    if (succeeded(v) && d->how == How::AugValue) {
      // The binding before this statement, combined with the new value.
      auto *self = llvm::cast<AugAssignStmt>(d->site);
      FailureOr<Val> prev = eval(self->target);
      v = failed(prev) ? prev : binary(d->augOp, *prev, *v, d->site);
    }
    if (succeeded(v) && d->how == How::Unpack) {
      auto *tu = llvm::dyn_cast<TupleExpr>(
          llvm::isa<AssignStmt>(d->site)
              ? llvm::cast<AssignStmt>(d->site)->targets.front()
              : nullptr);
      if (v->kind != Val::Kind::Tuple || !tu ||
          v->elems.size() != tu->elts.size())
        v = fail(d->value, "cannot unpack `" + text(d->value) + "` into " +
                               std::to_string(tu ? tu->elts.size() : 0) +
                               " names");
      else
        v = v->elems[d->index];
    }
    return v;
  });
  d->evaluating = false;

  std::string by = shortText(text(d->value));
  // A value host code computed (`tl.constexpr(_generate_asm(2))`, a string
  // built by a Python function): the host that ran the module may bind it.
  if (failed(v) && d == &it->second.back() && d->how == How::Value) {
    d->container = "a module-level assignment";
    if (std::optional<FailureOr<Val>> bound =
            hostBindingValue(*this, use, *d, where))
      return *bound;
  }
  if (failed(v)) {
    // Host bindings give a name's last binding only.
    std::string lastHint = d == &it->second.back() ? bindHint(*this, name) : "";
    // A call Kiln cannot evaluate (a torch or driver call) is named as such.
    if (auto *call = llvm::dyn_cast<CallExpr>(d->value)) {
      std::optional<CapturedError> calleeErr;
      FailureOr<Val> callee = tryAtModuleLevel(
          d->pos, calleeErr, [&] { return eval(call->func); });
      // (A plain def is host code too: xformers' `libdevice_find("rsqrt")`.)
      if (failed(callee) ||
          (callee->kind != Val::Kind::Builtin && callee->kind != Val::Kind::Function) ||
          (callee->kind == Val::Kind::Function && !isJit(callee->fn) &&
           !isConstexprFunction(callee->fn)))
        return FailureOr<Val>(fail(
            use, "`" + name + "` is defined at " + where + " by a call to `" +
                     shortText(text(call->func)) +
                     "`, which Kiln cannot evaluate" + lastHint));
    }
    // Through a chain of definitions, name only the root cause.
    std::string why = captured ? captured->message : "evaluation failed";
    static constexpr llvm::StringLiteral kNested =
        ", which Kiln cannot evaluate: ";
    if (size_t at = why.rfind(kNested.data()); at != std::string::npos)
      why = why.substr(at + kNested.size());
    return FailureOr<Val>(fail(use, "`" + name + "` is defined at " + where +
                                        " by `" + by +
                                        "`, which Kiln cannot evaluate: " +
                                        (lastHint.empty() ? why
                                                          : withBindHint(*this, why, name))));
  }
  if (!v->isConstexpr() && v->kind != Val::Kind::Function &&
      v->kind != Val::Kind::Module && v->kind != Val::Kind::Builtin &&
      v->kind != Val::Kind::NamedTupleClass)
    return FailureOr<Val>(fail(use, "`" + name + "` is defined at " + where +
                                        " by `" + by +
                                        "`, which is not a compile-time "
                                        "constant"));
  d->cached = *v;
  return FailureOr<Val>(*v);
}
