//===- CompileLog.cpp - Compiles written down as ln-compile commands -----===//
#include "kiln/Runtime/CompileLog.h"

#include "kiln/Runtime/Cache.h"
#include "kiln/Target/LLVMToPTX.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <mutex>

using namespace kiln;

namespace {

std::string shellQuote(llvm::StringRef text) {
  bool plain = !text.empty() && llvm::all_of(text, [](char c) {
    return llvm::isAlnum(c) || llvm::StringRef("_-+./:,=@%").contains(c);
  });
  if (plain)
    return text.str();
  std::string quoted = "'";
  for (char c : text)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// The file ln-compile should read: the module's own file when `source` is
/// that file (plus the runtime's trailing key comment), else a copy of
/// `source` beside the log.
std::string sourceFileFor(llvm::StringRef source, llvm::StringRef mainFile,
                          llvm::StringRef logPath, std::string &error) {
  if (!mainFile.empty() && mainFile != "<source>") {
    auto buf = llvm::MemoryBuffer::getFile(mainFile, /*IsText=*/true);
    if (buf && source.starts_with((*buf)->getBuffer()))
      return mainFile.str();
  }
  std::string dir = (logPath + ".src").str();
  std::string path = dir + "/" + rt::sha256Hex(source).substr(0, 16) + ".py";
  if (llvm::sys::fs::exists(path))
    return path;
  // Only the log's own folder is made: a log path under a missing folder
  // is an error, not a tree to create.
  if (std::error_code ec = llvm::sys::fs::create_directory(dir)) {
    error = "cannot create " + dir + ": " + ec.message();
    return "";
  }
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (!ec) {
    out << source;
    out.close();
    ec = out.error();
  }
  if (ec) {
    error = "cannot write " + path + ": " + ec.message();
    return "";
  }
  return path;
}

} // namespace

std::string rt::lnCompileCommand(const FrontendOptions &fo,
                                 llvm::StringRef file, const KernelSpec &spec) {
  // ln-compile reads KILN_LLVM_OPTIONS too: the replay needs the same value.
  std::string cmd;
  if (const std::string &llvmOptions = llvmOptionsFromEnvironment(); !llvmOptions.empty())
    cmd = "KILN_LLVM_OPTIONS=" + shellQuote(llvmOptions) + " ";
  cmd += "ln-compile " + shellQuote(file) + " --kernel " + shellQuote(spec.kernelName);
  if (!spec.signature.empty()) {
    std::string sig;
    for (size_t i = 0; i < spec.signature.size(); ++i)
      sig += (i ? "," : "") + spec.signature[i].toString();
    cmd += " --signature " + shellQuote(sig);
  }
  for (const auto &[name, value] : spec.constexprs)
    cmd += " -D " + shellQuote(name + "=" + value);
  cmd += " --num-warps " + std::to_string(spec.numWarps) + " --num-stages " +
         std::to_string(spec.numStages) + " --arch " + shellQuote(spec.arch);
  if (spec.debug)
    cmd += " --debug";
  if (!spec.fpFusion)
    cmd += " --no-fp-fusion";
  if (fo.hostDecorators)
    cmd += " --host-decorators";
  for (const std::string &dir : fo.includeDirs)
    cmd += " -I " + shellQuote(dir);
  for (const HostBinding &b : fo.hostBindings)
    cmd += " --bind " +
           shellQuote((b.path.empty() ? "" : b.path + "::") + b.name + "=" +
                      b.expr);
  return cmd;
}

void rt::recordCompileCommand(llvm::StringRef source, llvm::StringRef filename,
                              const KernelSpec &spec) {
  const char *log = std::getenv("KILN_DUMP_COMPILES");
  if (!log || !*log)
    return;
  static std::mutex mutex;
  static bool reported = false;
  std::lock_guard<std::mutex> lock(mutex);
  const FrontendOptions &fo = currentFrontendOptions();
  std::string error;
  std::string file = sourceFileFor(
      source, fo.mainFile.empty() ? filename : llvm::StringRef(fo.mainFile),
      log, error);
  if (error.empty()) {
    std::error_code ec;
    // One write per line, appended: processes sharing the log interleave
    // whole lines.
    llvm::raw_fd_ostream out(log, ec, llvm::sys::fs::OF_Append);
    if (!ec) {
      out.SetUnbuffered();
      out << lnCompileCommand(fo, file, spec) + "\n";
      out.close();
      ec = out.error();
    }
    if (ec)
      error = "cannot append to " + std::string(log) + ": " + ec.message();
  }
  if (!error.empty() && !reported) {
    reported = true;
    llvm::errs() << "kiln: KILN_DUMP_COMPILES: " << error << "\n";
  }
}
