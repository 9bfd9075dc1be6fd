//===- IRGenImport.h - Kernels spread over modules (IRGenImport.cpp) ------===//
//
// Import state lives in a side table keyed by IRGen, set up by compileToTile
// for each compile (ImportScope); IRGens without it (parameter queries) do
// not follow imports of user files.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_IRGENIMPORT_H
#define KILN_LIB_FRONTEND_IRGENIMPORT_H

#include "IRGen.h"
#include "kiln/Frontend/Imports.h"

namespace kiln::fe {

/// Import state of one compile, rooted at its main file's IRGen.
class ImportScope {
public:
  ImportScope(IRGen &root, const FrontendOptions &options);
  ~ImportScope();

private:
  IRGen &root;
};

bool hostDecorators(const IRGen &g);
/// The file of module `dotted` (`level` leading dots) if it exists.
std::optional<std::string> findModuleFile(const IRGen &g,
                                          llvm::StringRef dotted,
                                          unsigned level);
/// `cannot find module '..x' (searched: ...)`.
std::string cannotFindModule(const IRGen &g, llvm::StringRef dotted,
                             unsigned level);
/// Whether `g` follows imports of user files (it has import state).
bool followsImports(const IRGen &g);
/// The host binding of module-level `name` in g's file, if the compile has
/// one (FrontendOptions::hostBindings): one without a path binds in the
/// main file only.
const HostBinding *findHostBinding(const IRGen &g, llvm::StringRef name);
/// The value of ambiguous module-level binding `d` of `use` (the last of its
/// name) from its host binding, if there is one (IRGenHostBinding.cpp).
std::optional<mlir::FailureOr<Val>>
hostBindingValue(IRGen &g, const ast::NameExpr *use, IRGen::GlobalDef &d,
                 llvm::StringRef where);
/// The module-level `def name` of file `path` (g's own or another, loaded
/// as an import) whose lines, decorators included, span `line`: what a host
/// binding `__kiln_def__(PATH, NAME, LINE)` names. On failure, `why`.
mlir::FailureOr<Val> functionDefinedAt(IRGen &g, const std::string &path,
                                       llvm::StringRef name, unsigned line,
                                       const ast::Node *site,
                                       std::string &why);
/// Whether package roots were given (absolute imports are looked up).
bool hasPackageRoots(const IRGen &g);
/// The value a non-triton import binds, loading the file it names.
mlir::FailureOr<Val> resolveUserImport(IRGen &g, IRGen::GlobalDef &d);
/// `name` as one of `g`'s `from M import *` binds it (the last such import
/// before the current statement that exports it; a user module exports its
/// `__all__`, else its names without a leading underscore, its own star
/// imports included), or nullopt when none does.
std::optional<mlir::FailureOr<Val>> starImportedName(IRGen &g, const std::string &name,
                                                     const ast::Node *use);
bool isUserModule(const Val &v);
/// A class of `g`'s file as a value: kernels reach its @triton.jit static
/// methods (`Cls.method`, attributeOfUserClass); nothing else of it.
Val userClassValue(const IRGen &g, const ast::ClassDef &c);
bool isUserClass(const Val &v);
mlir::FailureOr<Val> attributeOfUserClass(IRGen &g, const Val &cls,
                                          const ast::AttributeExpr *e);
mlir::FailureOr<Val> attributeOfUserModule(IRGen &g, const Val &mod,
                                           const ast::AttributeExpr *e);
/// The IRGen of the file defining `fn` when it is another file's.
IRGen *ownerOf(const IRGen &g, const ast::FunctionDef *fn);
/// Generates a call of `fn` (owned by `owner`) at g's insertion point.
mlir::FailureOr<Val> callForeign(IRGen &g, IRGen &owner,
                                 const ast::FunctionDef *fn,
                                 const CallArgs &args, const ast::Node *call);
/// Whether every statement is an import that resolves.
bool importsResolve(const IRGen &g, llvm::ArrayRef<const ast::Stmt *> body);

} // namespace kiln::fe

#endif
