//===- HostEvalModules.cpp - Module scopes, values of other modules -------===//
//
// A file's module-level bindings (ModuleScope), read lazily by name.
//
// `from .configs import CONFIGS, prune`, `from kernels_common import
// get_configs`, `import mylib.tuning as t`: decorator arguments often live
// in another module of the package. The module's file is found as the code
// generator finds it (ModuleFiles.h: relative imports beside the importing
// file, absolute ones in the package roots), parsed once (ModuleSet), and the
// name is evaluated there, lazily, as this file's names are: its own
// module-level bindings, at the module's end (what an importer sees). A
// function keeps its module, so its body reads that module's names wherever
// it is called from. A module Kiln cannot find leaves the name opaque, as
// before (an error where its value is needed, saying the module was not
// found); an error inside the module is reported where this file reached it,
// with the module's FILE:LINE:COL.
//
//===----------------------------------------------------------------------===//
#include "DecoratorsImpl.h"
#include "HostEval.h"
#include "ModuleFiles.h"

#include "kiln/Frontend/Imports.h"
#include "kiln/Frontend/Syntax/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::host;
using K = Value::Kind;

//===----------------------------------------------------------------------===//
// Module scope
//===----------------------------------------------------------------------===//

/// The names `s` binds by import, with the dotted name each binds.
static void importBindings(const Stmt *s,
                           std::vector<std::pair<std::string, std::string>> &out) {
  if (auto *im = llvm::dyn_cast<ImportStmt>(s)) {
    for (const Alias &al : im->names) {
      llvm::StringRef top = llvm::StringRef(al.name).split('.').first;
      if (al.asName.empty())
        out.push_back({top.str(), top.str()});
      else
        out.push_back({al.asName, al.name});
    }
  } else if (auto *im = llvm::dyn_cast<ImportFromStmt>(s)) {
    for (const Alias &al : im->names)
      out.push_back({al.asName.empty() ? al.name : al.asName, im->module + "." + al.name});
  }
}

/// Imports inside module-level `if` statements (torchao's `if has_triton():
/// import triton ...` around its kernels), for names no top-level statement
/// binds: what the kernels' decorators inside the `if` see.
static void nestedImports(const Block &block,
                          std::vector<std::pair<const Stmt *, std::pair<std::string, std::string>>> &out) {
  for (const Stmt *s : block) {
    if (auto *is = llvm::dyn_cast<IfStmt>(s)) {
      nestedImports(is->body, out);
      nestedImports(is->orelse, out);
      continue;
    }
    std::vector<std::pair<std::string, std::string>> names;
    importBindings(s, names);
    for (auto &n : names)
      out.push_back({s, std::move(n)});
  }
}

ModuleScope::ModuleScope(const ast::Module &m) {
  for (const Stmt *s : m.body) {
    if (auto *a = llvm::dyn_cast<AssignStmt>(s)) {
      for (const Expr *t : a->targets)
        if (auto *n = llvm::dyn_cast<NameExpr>(t))
          bindings[n->id].push_back({s, ""});
    } else if (auto *a = llvm::dyn_cast<AnnAssignStmt>(s)) {
      if (auto *n = llvm::dyn_cast<NameExpr>(a->target); n && a->value)
        bindings[n->id].push_back({s, ""});
    } else if (auto *f = llvm::dyn_cast<FunctionDef>(s)) {
      bindings[f->name].push_back({s, ""});
    } else if (llvm::isa<ImportStmt, ImportFromStmt>(s)) {
      std::vector<std::pair<std::string, std::string>> names;
      importBindings(s, names);
      for (auto &[name, imported] : names) {
        torch |= llvm::StringRef(imported).split('.').first == "torch";
        bindings[name].push_back({s, imported});
      }
    }
  }
  std::vector<std::pair<const Stmt *, std::pair<std::string, std::string>>> nested;
  for (const Stmt *s : m.body)
    if (auto *is = llvm::dyn_cast<IfStmt>(s)) {
      nestedImports(is->body, nested);
      nestedImports(is->orelse, nested);
    }
  std::set<std::string> topLevel;
  for (const auto &[name, _] : bindings)
    topLevel.insert(name);
  for (auto &[s, entry] : nested)
    if (!topLevel.count(entry.first))
      bindings[entry.first].push_back({s, entry.second});
}

const ModuleScope::Binding *ModuleScope::find(llvm::StringRef name, uint32_t before) const {
  auto it = bindings.find(name);
  if (it == bindings.end())
    return nullptr;
  const Binding *found = nullptr;
  for (const Binding &b : it->second)
    if (b.node->range.begin < before)
      found = &b;
  return found;
}

std::vector<std::pair<std::string, std::string>> ModuleScope::imports() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto &[name, all] : bindings)
    if (!all.back().importName.empty())
      out.emplace_back(name, all.back().importName);
  return out;
}

void ModuleScope::alias(llvm::StringRef name, std::string importName) {
  auto it = bindings.find(name);
  if (it == bindings.end())
    return;
  for (Binding &b : it->second)
    if (!b.importName.empty()) {
      b.importName = importName;
      b.aliased = true;
    }
}

std::vector<const ImportFromStmt *> ModuleScope::starImports(uint32_t before) const {
  std::vector<const ImportFromStmt *> out;
  if (auto it = bindings.find("*"); it != bindings.end())
    for (const Binding &b : llvm::reverse(it->second))
      if (b.node->range.begin < before)
        if (auto *from = llvm::dyn_cast<ImportFromStmt>(b.node))
          out.push_back(from);
  return out;
}

//===----------------------------------------------------------------------===//
// ModuleSet
//===----------------------------------------------------------------------===//

std::shared_ptr<ModuleSet> ModuleSet::forFile(llvm::StringRef filename) {
  const FrontendOptions &o = currentFrontendOptions();
  return std::make_shared<ModuleSet>(fe::importerPath(filename, o),
                                     o.includeDirs);
}

std::optional<std::string> ModuleSet::find(const HostModule *importer,
                                           llvm::StringRef dotted,
                                           unsigned level) const {
  return fe::findModuleFileFrom(pathOf(importer), dotted, level, includeDirs);
}

std::string ModuleSet::whyNotFound(const HostModule *importer,
                                   llvm::StringRef dotted, unsigned level) const {
  return fe::cannotFindModuleFrom(pathOf(importer), dotted, level, includeDirs,
                                  /*why=*/true);
}

const HostModule *ModuleSet::load(const std::string &path,
                                  const std::string &name, std::string &error) {
  std::lock_guard<std::mutex> lock(mutex);
  std::string key = fe::realPathOf(path);
  if (auto it = byPath.find(key); it != byPath.end())
    return it->second.get();
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    error = "cannot read " + path + ": " + buf.getError().message();
    return nullptr;
  }
  auto m = std::make_unique<HostModule>();
  m->path = path;
  m->name = name;
  // `__name__` (a logger's name) as Python has it when the file lies in a
  // package root; else the name it was imported by.
  m->pyName = name;
  std::string real = fe::realPathOf(path);
  for (const std::string &root : includeDirs) {
    llvm::StringRef rel(real);
    if (!rel.consume_front(fe::realPathOf(root)) || !rel.consume_front("/"))
      continue;
    rel.consume_back(".py");
    rel.consume_back("/__init__");
    m->pyName = rel.str();
    llvm::replace(m->pyName, '/', '.');
    break;
  }
  m->source = (*buf)->getBuffer().str();
  fe::ParseResult pr = fe::parse(m->source);
  if (pr.error) {
    auto [line, col] = LineTable(m->source).lineCol(pr.error->offset);
    error = path + ":" + std::to_string(line) + ":" + std::to_string(col) +
            ": " + pr.error->message;
    return nullptr;
  }
  // As the code generator reads every module (`f = triton.jit(f)`).
  fe::foldWrapperRebindings(*pr.module);
  m->ast = std::move(pr.module);
  m->scope = std::make_unique<ModuleScope>(*m->ast);
  return (byPath[key] = std::move(m)).get();
}

//===----------------------------------------------------------------------===//
// Evaluating inside another module
//===----------------------------------------------------------------------===//

struct Interp::Enter {
  Enter(Interp &in, const HostModule *m, const Node *site,
        llvm::function_ref<std::string()> note)
      : in(in), scope(in.scope), source(in.source), cur(in.cur),
        visible(in.visibleBefore), entry(in.entry), note(in.entryNote) {
    if (!in.cur && m) {
      // Leaving this file: errors inside are reported where it was left.
      in.entry = site ? site->range.begin : in.callSite;
      in.entryNote = note();
      in.mainVisible = in.visibleBefore;
    }
    in.cur = m;
    in.scope = m ? m->scope.get() : &in.mainScope;
    in.source = m ? llvm::StringRef(m->source) : in.mainSource;
    // Another module is seen as imported (its end); this file, from a
    // callback, as where it was left.
    in.visibleBefore = m ? UINT32_MAX : in.mainVisible;
  }
  ~Enter() {
    in.scope = scope;
    in.source = source;
    in.cur = cur;
    in.visibleBefore = visible;
    in.entry = entry;
    in.entryNote = std::move(note);
  }
  Interp &in;
  const ModuleScope *scope;
  llvm::StringRef source;
  const HostModule *cur;
  uint32_t visible, entry;
  std::string note;
};

llvm::StringRef Interp::textIn(const HostModule *m, const Node *n) const {
  llvm::StringRef src = m ? llvm::StringRef(m->source) : mainSource;
  if (!n || n->range.end > src.size() || n->range.begin > n->range.end)
    return "";
  return src.slice(n->range.begin, n->range.end);
}

std::optional<Value> Interp::callIn(const Value &f, const std::shared_ptr<Env> &env,
                                    const Node *where) {
  Enter in(*this, f.mod, where, [&] {
    return "in `" + f.s + "` of module `" +
           (f.mod ? f.mod->name : std::string("__main__")) + "`, called here: ";
  });
  return runFunction(f, env);
}

//===----------------------------------------------------------------------===//
// Imports
//===----------------------------------------------------------------------===//

static unsigned lineOf(llvm::StringRef source, const Node &n) {
  return 1 + llvm::count(source.take_front(n.range.begin), '\n');
}

std::string Interp::whyOpaqueImport(const Value &v) const {
  std::string out = "imported from module `" + v.from + "` (line " +
                    std::to_string(v.i) + "), which ";
  // Through another module's import: name that module and its line.
  if (v.mod != cur && modules)
    out = "`" + v.s + "`, which " +
          (v.mod ? "module `" + v.mod->name + "` imports (line " + std::to_string(v.i) +
                       " of " + v.mod->path
                 : "this file imports (line " + std::to_string(v.i)) +
          ") from module `" + v.from + "`, which ";
  if (!modules)
    return out + "Kiln's host evaluator does not evaluate (it evaluates only "
                 "this file)";
  llvm::StringRef dotted = v.from;
  unsigned level = 0;
  while (dotted.consume_front("."))
    ++level;
  return out + "Kiln cannot find (" + modules->whyNotFound(v.mod, dotted, level) + ")";
}

std::string Interp::importCycle() const {
  // The chain from the first import out of the module evaluated now.
  auto pathOf = [&](const HostModule *m) {
    return modules ? modules->pathOf(m) : std::string("this file");
  };
  std::string here = pathOf(cur);
  size_t first = 0;
  while (first + 1 < importing.size() && pathOf(importing[first].importer) != here)
    ++first;
  std::string chain = "import cycle: " + pathOf(importing.empty() ? cur : importing[first].importer);
  for (size_t k = first; k < importing.size(); ++k)
    chain += std::string(k == first ? "" : ", which") + " imports `" +
             importing[k].name + "` from " + importing[k].file;
  return chain;
}

std::optional<Value> Interp::userImport(const ModuleScope::Binding &b,
                                        llvm::StringRef name,
                                        const Node *where) {
  if (auto *from = llvm::dyn_cast<ImportFromStmt>(b.node)) {
    for (const Alias &al : from->names)
      if ((al.asName.empty() ? al.name : al.asName) == name)
        return importFrom(*from, al.name, name, where);
    return fail(where, "Kiln cannot tell what `" + name.str() + "` imports");
  }
  // `import a.b` binds `a`, `import a.b as c` binds a.b: a module of the
  // package when its file is found, else a module Kiln does not model.
  Value v = Value::named(K::Module, b.importName);
  if (modules)
    if (std::optional<std::string> file = modules->find(cur, b.importName, 0)) {
      std::string error;
      v.mod = modules->load(*file, b.importName, error);
      if (!v.mod)
        return fail(where, "`" + name.str() + "` is the module `" + b.importName +
                               "`, whose file does not parse: " + error);
    }
  return v;
}

bool Interp::importLocally(const Stmt *s, const std::shared_ptr<Env> &env) {
  std::vector<std::pair<std::string, std::string>> names;
  importBindings(s, names);
  for (auto &[local, imported] : names) {
    if (local == "*") {
      fail(s, "`import *` is only allowed at module level");
      return false;
    }
    std::optional<Value> v = importBinding({s, imported}, local, s);
    if (!v)
      return false;
    env->vars[local] = *v;
  }
  return true;
}

/// Whether module `m` binds `name` for `from m import *`: at its top level or
/// through its own star imports (bounded: they may import in a circle).
static bool starExports(ModuleSet &modules, const HostModule *m,
                        llvm::StringRef name, unsigned depth) {
  if (m->scope->find(name))
    return true;
  if (depth > 16)
    return false;
  for (const ImportFromStmt *st : m->scope->starImports(UINT32_MAX)) {
    std::optional<std::string> file = modules.find(m, st->module, st->level);
    std::string error;
    const HostModule *sub =
        file ? modules.load(*file, std::string(st->level, '.') + st->module, error)
             : nullptr;
    if (sub && !llvm::StringRef(name).starts_with("_") &&
        starExports(modules, sub, name, depth + 1))
      return true;
  }
  return false;
}

std::optional<Value> Interp::importFrom(const ImportFromStmt &from,
                                        const std::string &name,
                                        llvm::StringRef local, const Node *where) {
  std::string shown = std::string(from.level, '.') + from.module;
  unsigned line = lineOf(source, from);
  std::string what = "`" + local.str() + "` is imported from module `" + shown +
                     "` (line " + std::to_string(line) + ")";
  auto opaqueValue = [&] {
    Value v = Value::named(K::Extern, (from.module.empty() ? "" : from.module + ".") + name);
    v.from = shown;
    v.i = line;
    v.mod = cur;
    return v;
  };
  if (!modules)
    return opaqueValue();
  std::optional<std::string> file = modules->find(cur, from.module, from.level);
  const HostModule *m = nullptr;
  std::string error;
  if (file && !(m = modules->load(*file, shown, error)))
    return fail(where, what + ", whose file does not parse: " + error);
  // `from pkg import mod`: the submodule, when the package does not bind
  // the name itself (or is a directory without __init__.py).
  if (!m || !starExports(*modules, m, name, 0)) {
    std::string dotted = from.module.empty() ? name : from.module + "." + name;
    if (std::optional<std::string> sub = modules->find(cur, dotted, from.level)) {
      std::string subName = std::string(from.level, '.') + dotted;
      Value v = Value::named(K::Module, subName);
      if (!(v.mod = modules->load(*sub, subName, error)))
        return fail(where, what + ", whose file does not parse: " + error);
      return v;
    }
  }
  if (!m)
    return opaqueValue(); // an error where its value is needed (opaque())
  importing.push_back({cur, name, m->path});
  bool bound = false;
  std::optional<Value> v = globalIn(
      m, name, where, [&] { return what + ", whose value Kiln cannot evaluate: "; },
      bound);
  importing.pop_back();
  if (!bound && !failed)
    return fail(where, what + ", which does not bind it at its top level (" +
                           m->path + "; Kiln's host evaluator reads a module's "
                           "top-level assignments, defs and imports)");
  return v;
}

std::optional<Value> Interp::globalIn(const HostModule *m, const std::string &name,
                                      const Node *where,
                                      llvm::function_ref<std::string()> note,
                                      bool &bound) {
  Enter in(*this, m, where, note);
  if (const ModuleScope::Binding *b = scope->find(name)) {
    bound = true;
    return global(name, b->node);
  }
  // Its star imports (errors placed at the first of them, a place in m).
  std::vector<const ImportFromStmt *> stars = scope->starImports(UINT32_MAX);
  return starImported(name, UINT32_MAX, stars.empty() ? nullptr : stars.back(), bound);
}

std::optional<Value> Interp::starImported(llvm::StringRef name, uint32_t before,
                                          const Node *where, bool &bound) {
  if (!modules || name.starts_with("_"))
    return std::nullopt;
  for (const ImportFromStmt *st : scope->starImports(before)) {
    std::optional<std::string> file = modules->find(cur, st->module, st->level);
    std::string error;
    const HostModule *m =
        file ? modules->load(*file, std::string(st->level, '.') + st->module, error)
             : nullptr;
    if (!m || !starExports(*modules, m, name, 0))
      continue;
    // `__all__`, when the module lists its names, limits them.
    if (m->scope->find("__all__")) {
      bool allBound = false;
      std::optional<Value> names = globalIn(
          m, "__all__", where,
          [&] { return "`__all__` of module `" + m->name + "`, which Kiln cannot evaluate: "; },
          allBound);
      if (!names) {
        bound = true; // its error is the lookup's
        return std::nullopt;
      }
      if ((names->kind == K::List || names->kind == K::Tuple) &&
          !llvm::any_of(names->elems, [&](const Value &n) {
            return n.kind == K::Str && n.s == name;
          }))
        continue;
    }
    bound = true;
    return importFrom(*st, name.str(), name, where);
  }
  return std::nullopt;
}

std::optional<Value> Interp::moduleAttr(const Value &base, const std::string &name,
                                        const Node *where) {
  const HostModule *m = base.mod;
  bool bound = false;
  std::optional<Value> v = globalIn(
      m, name, where,
      [&] {
        return "`" + text(where).str() + "` is `" + name + "` of module `" + m->name +
               "`, whose value Kiln cannot evaluate: ";
      },
      bound);
  if (bound || failed)
    return v;
  // `import pkg` then `pkg.mod`: a submodule of the package.
  if (llvm::sys::path::filename(m->path) == "__init__.py")
    if (std::optional<std::string> sub = fe::moduleFileIn(
            llvm::sys::path::parent_path(m->path), {llvm::StringRef(name)})) {
      std::string error;
      Value out = Value::named(K::Module, base.s + "." + name);
      if (!(out.mod = modules->load(*sub, out.s, error)))
        return fail(where, "`" + text(where).str() + "` is the module `" + out.s +
                               "`, whose file does not parse: " + error);
      return out;
    }
  return fail(where, "`" + text(where).str() + "`: module `" + m->name + "` (" +
                         m->path + ") has no top-level binding `" + name + "`");
}
