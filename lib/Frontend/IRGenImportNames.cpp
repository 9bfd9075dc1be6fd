//===- IRGenImportNames.cpp - Star imports and classes of jit methods -----===//
//
// Names that come from another module without an import naming them
// (`from M import *`, also when an imported module re-exports that way), and
// classes used as namespaces of @triton.jit static methods (trident:
// `Act.forward(x)`). Split from IRGenImport.cpp, whose module loading and
// lookups they use.
//
//===----------------------------------------------------------------------===//
#include "IRGenImport.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

static constexpr llvm::StringLiteral kUserClassPrefix = "class:";

Val kiln::fe::userClassValue(const IRGen &g, const ClassDef &c) {
  return Val::named(Val::Kind::Module, kUserClassPrefix.str() + c.name + ":" + g.filename);
}

bool kiln::fe::isUserClass(const Val &v) {
  return v.kind == Val::Kind::Module && llvm::StringRef(v.s).starts_with(kUserClassPrefix);
}

std::optional<std::pair<std::string, const FunctionDef *>>
kiln::fe::staticMethodKernel(const IRGen &g, llvm::StringRef name) {
  auto [clsName, method] = name.split('.');
  for (const Stmt *s : g.module.body)
    if (auto *c = llvm::dyn_cast<ClassDef>(s))
      for (const Stmt *m : c->body)
        if (auto *f = llvm::dyn_cast<FunctionDef>(m);
            f && g.isJit(f) &&
            (method.empty() ? f->name == name : c->name == clsName && f->name == method))
          return std::make_pair(c->name + "." + f->name, f);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// `from M import *`
//===----------------------------------------------------------------------===//

namespace {
/// `__all__` of `mod` when it binds one Kiln can evaluate (a list or tuple
/// of strings), evaluated quietly.
std::optional<std::vector<std::string>> allNames(IRGen &mod) {
  std::optional<IRGen::CapturedError> quiet;
  std::optional<FailureOr<Val>> v = lookupAtEnd(mod, "__all__", &quiet);
  if (!v || failed(*v) || (*v)->kind != Val::Kind::Tuple)
    return std::nullopt;
  std::vector<std::string> names;
  for (const Val &e : (*v)->elems) {
    if (e.kind != Val::Kind::Str)
      return std::nullopt;
    names.push_back(e.s);
  }
  return names;
}

std::optional<FailureOr<Val>> starLookup(IRGen &g, const std::string &name, const Node *use,
                                         llvm::SmallPtrSetImpl<IRGen *> &seen) {
  if (!seen.insert(&g).second)
    return std::nullopt; // modules that star-import each other
  for (auto star = g.starImports.rbegin(); star != g.starImports.rend(); ++star) {
    if (star->pos >= g.modulePos)
      continue;
    auto *from = llvm::cast<ImportFromStmt>(star->site);
    if (from->level == 0 && isTritonModuleName(from->module)) {
      Val out;
      if (lookupModuleAttr(from->module, name, out) == 0)
        return FailureOr<Val>(out);
      continue;
    }
    if (!followsImports(g))
      continue;
    std::optional<std::string> file = findModuleFile(g, from->module, from->level);
    if (!file)
      continue;
    FailureOr<IRGen *> gen = loadModuleFile(g, *file, from);
    if (failed(gen))
      return FailureOr<Val>(failure());
    IRGen &mod = **gen;
    std::optional<std::vector<std::string>> all = allNames(mod);
    if (all ? !llvm::is_contained(*all, name) : llvm::StringRef(name).starts_with("_"))
      continue;
    if (mod.moduleDefs.count(name))
      return moduleExport(g, mod, name, std::string(from->level, '.') + from->module, use);
    unsigned savedPos = mod.modulePos;
    mod.modulePos = ~0u;
    std::optional<FailureOr<Val>> v = starLookup(mod, name, use, seen);
    mod.modulePos = savedPos;
    if (v)
      return v;
  }
  return std::nullopt;
}
} // namespace

std::optional<FailureOr<Val>> kiln::fe::starImportedName(IRGen &g, const std::string &name,
                                                         const Node *use) {
  if (g.starImports.empty())
    return std::nullopt;
  llvm::SmallPtrSet<IRGen *, 4> seen;
  return starLookup(g, name, use, seen);
}

//===----------------------------------------------------------------------===//
// Classes as namespaces of @triton.jit static methods
//===----------------------------------------------------------------------===//

FailureOr<Val> kiln::fe::attributeOfUserClass(IRGen &g, const Val &cls, const AttributeExpr *e) {
  auto [name, path] = llvm::StringRef(cls.s).drop_front(kUserClassPrefix.size()).split(':');
  IRGen *owner = &g;
  if (path != g.filename) {
    FailureOr<IRGen *> gen = loadModuleFile(g, path.str(), e);
    if (failed(gen))
      return failure();
    owner = *gen;
  }
  const ClassDef *c = nullptr;
  for (const Stmt *s : owner->module.body)
    if (auto *d = llvm::dyn_cast<ClassDef>(s); d && d->name == name)
      c = d;
  const FunctionDef *fn = nullptr;
  if (c)
    for (const Stmt *s : c->body)
      if (auto *f = llvm::dyn_cast<FunctionDef>(s); f && f->name == e->attr)
        fn = f;
  std::string shown = "`" + name.str() + "." + e->attr + "`";
  if (!fn)
    return g.fail(e, shown + " is not a @triton.jit static method of class `" + name.str() +
                         "`; of a class, kernels can use only those");
  if (!owner->isJit(fn))
    return g.fail(e, shown + " is not a @triton.jit function; kernels can only call "
                             "@triton.jit functions");
  // Calls from other files generate it in its own (its names are there).
  if (owner != &g)
    setOwner(g, fn, owner);
  return Val::function(fn);
}
