//===- ModuleFiles.cpp - Where an imported Python module's file is --------===//
#include "ModuleFiles.h"

#include "kiln/Frontend/Imports.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace kiln;

std::optional<std::string>
fe::moduleFileIn(llvm::StringRef dir, llvm::ArrayRef<llvm::StringRef> parts) {
  llvm::SmallString<256> p(dir);
  for (llvm::StringRef part : parts)
    llvm::sys::path::append(p, part);
  if (!parts.empty()) {
    std::string file = (p + ".py").str();
    if (llvm::sys::fs::is_regular_file(file))
      return file;
  }
  llvm::SmallString<256> init(p);
  llvm::sys::path::append(init, "__init__.py");
  if (llvm::sys::fs::is_regular_file(init))
    return init.str().str();
  return std::nullopt;
}

std::vector<std::string>
fe::moduleSearchDirs(llvm::StringRef importer, unsigned level,
                     const std::vector<std::string> &includeDirs) {
  if (level == 0)
    return includeDirs;
  llvm::SmallString<256> dir(importer);
  llvm::sys::path::remove_filename(dir);
  for (unsigned i = 1; i < level; ++i)
    llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  return {dir.str().str()};
}

std::optional<std::string>
fe::findModuleFileFrom(llvm::StringRef importer, llvm::StringRef dotted,
                       unsigned level, const std::vector<std::string> &includeDirs) {
  llvm::SmallVector<llvm::StringRef> parts;
  if (!dotted.empty())
    dotted.split(parts, '.');
  if (level == 0 && parts.empty())
    return std::nullopt;
  for (const std::string &dir : moduleSearchDirs(importer, level, includeDirs))
    if (auto f = moduleFileIn(dir, parts))
      return f;
  return std::nullopt;
}

std::string fe::cannotFindModuleFrom(llvm::StringRef importer,
                                     llvm::StringRef dotted, unsigned level,
                                     const std::vector<std::string> &includeDirs,
                                     bool why) {
  std::vector<std::string> dirs = moduleSearchDirs(importer, level, includeDirs);
  std::string searched =
      dirs.empty() ? "no package roots given: pass -I DIR to ln-compile or "
                     "include_dirs to the C API"
                   : "searched: " + llvm::join(dirs, ", ");
  if (why)
    return searched;
  return "cannot find module '" + std::string(level, '.') + dotted.str() +
         "' (" + searched + ")";
}

std::string fe::realPathOf(const std::string &path) {
  llvm::SmallString<256> real;
  return llvm::sys::fs::real_path(path, real) ? path : real.str().str();
}

std::string fe::importerPath(llvm::StringRef filename,
                             const FrontendOptions &options) {
  if (!options.mainFile.empty() &&
      llvm::sys::path::filename(options.mainFile) == filename)
    return options.mainFile;
  return filename.str();
}
