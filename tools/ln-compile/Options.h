//===- Options.h - ln-compile: command-line flags --------------------------===//
#ifndef KILN_TOOLS_LNCOMPILE_OPTIONS_H
#define KILN_TOOLS_LNCOMPILE_OPTIONS_H

#include "kiln/Frontend/Imports.h"
#include "kiln/Target/Pipeline.h"
#include <optional>
#include <string>
#include <vector>

namespace kiln::cli {

/// --emit=aot-header / aot-source / aot (both files).
enum class AOTEmit { None, Header, Source, Both };

struct Options {
  std::optional<std::string> file;
  std::optional<std::string> kernel, signature, output, dumpDir;
  std::vector<std::string> defines;
  std::vector<std::string> includeDirs; ///< -I DIR
  std::vector<HostBinding> bindings;    ///< --bind [PATH::]NAME=EXPR
  std::optional<unsigned> numWarps; ///< default 4
  std::optional<unsigned> numStages; ///< default 3
  std::optional<unsigned> config;   ///< --config N
  bool listConfigs = false;
  /// --host-decorators: decorators above @triton.jit are the host's (the
  /// drop-in's view): the kernel compiles as plain @triton.jit.
  bool hostDecorators = false;
  std::optional<std::string> arch; ///< default sm_90
  /// Every --arch (comma-separated lists allowed); more than one only with
  /// the AOT emits.
  std::vector<std::string> archs;
  Stage emit = Stage::PTX;
  AOTEmit aot = AOTEmit::None;
  std::optional<std::string> aotName, ptxas;
  bool time = false, verify = false, split = false, debugInfo = false;
  bool debug = false; ///< --debug: tl.device_assert compiled in
  bool noFpFusion = false; ///< --no-fp-fusion: Triton's enable_fp_fusion=False
  bool verifyEach = false; ///< --verify-each: MLIR verifier after every pass
  std::optional<std::string> dtype;
};

/// Parses argv into `o`; returns an exit code (0 after --help / --version,
/// kExitUsage on a bad flag, with the error printed) when the program
/// should stop.
std::optional<int> parseArgs(int argc, char **argv, Options &o);

} // namespace kiln::cli

#endif // KILN_TOOLS_LNCOMPILE_OPTIONS_H
