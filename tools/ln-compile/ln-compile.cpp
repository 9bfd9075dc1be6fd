//===- ln-compile.cpp - Compile Triton-language kernels with Kiln ---------===//
//
//   ln-compile FILE.py --kernel NAME --signature S [-D K=V]... [options]
//   ln-compile FILE.mlir [--kernel NAME] [options]   (tile-dialect input)
//   ln-compile [--dtype fp16|bf16|fp32] [-o DIR]     (built-in LayerNorm)
//
// Prints or writes one stage of the pipeline (ast, tile, tile-layout,
// llvm-dialect, llvm, ptx), optionally every stage (--dump-dir) and their
// times (--time). --verify-diagnostics checks `# expected-error {{...}}`
// comments in the .py file against the frontend's diagnostics.
//
//===----------------------------------------------------------------------===//
#include "Decorators.h"
#include "kiln/Frontend/Frontend.h"
#include "kiln/Frontend/Spec.h"
#include "kiln/Target/BuiltinKernels.h"
#include "kiln/Target/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Support/ToolUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

using namespace kiln;

namespace {

const char *kUsage = R"(OVERVIEW: Kiln's compiler for Triton-language kernels

USAGE:
  ln-compile FILE.py --kernel NAME --signature SIG [-D NAME=VALUE]... [options]
  ln-compile FILE.mlir [--kernel NAME] [options]
  ln-compile [--dtype fp16|bf16|fp32] [-o DIR] [options]

With FILE, compiles the @triton.jit kernel NAME of FILE for one
specialization and prints the stage chosen with --emit (to -o OUT if given).
Without FILE, compiles the three built-in LayerNorm kernels
(examples/layernorm/layer_norm.py) for N = 8192 with the Triton tutorial's
heuristics, writing NAME.ptx and NAME.json for each into -o DIR (default
kiln-out/). A FILE ending in .mlir holds a tile-dialect module (as kiln-opt
reads, e.g. an --emit=tile output): its one func.func is compiled from the
tile-layout stage on, with num_warps and arch from the module attributes
tile.num_warps and tile.arch unless --num-warps / --arch are given.

OPTIONS:
  --kernel NAME            kernel (a @triton.jit function) to compile; for
                           .mlir input optional, must name its func.func
  --signature SIG          comma-separated AOT signature: *fp16:16 (pointer,
                           16-byte aligned), *fp32, i32, i32:16 (divisible by
                           16), i64, fp32, ...; none (the argument is None:
                           a constexpr None); constexprs may be given inline
                           as literals or left out and passed with -D
  -D NAME=VALUE            value of a tl.constexpr parameter (repeatable;
                           bools as True/False/1/0, dtypes as tl.float16);
                           for a kernel with @triton.heuristics also the
                           value of an integer parameter a heuristic reads,
                           or a heuristic's own name (overriding it)
  --list-configs           print the @triton.autotune configs of --kernel,
                           numbered from 0 (Triton's Config text)
  --config N               compile autotune config N: its kwargs become -D
                           values and its num_warps the warp count (a
                           different explicit -D or --num-warps is an error)
  --num-warps N            warps per program: 1, 2, 4, 8, 16 or 32 (default 4)
  --arch ARCH              sm_80, sm_86, sm_89 or sm_90 (default sm_90)
  --emit STAGE             ast, tile, tile-layout, llvm-dialect, llvm or ptx
                           (default ptx)
  -o OUT                   output file (FILE mode) or directory (built-in mode)
  --dump-dir DIR           also write every stage to DIR
  --time                   print the time of each stage (to stderr)
  --verify-diagnostics     check `# expected-error {{...}}` comments in FILE
                           against the diagnostics instead of printing output
  --split-input-file       process the parts of FILE separated by `# -----`
                           lines independently
  --print-debuginfo        with --emit=tile: print each op's .py location
  --dtype DT               built-in mode: fp16 (default), bf16 or fp32
  --help                   print this help
  --version                print the version
)";

struct Options {
  std::optional<std::string> file;
  std::optional<std::string> kernel, signature, output, dumpDir;
  std::vector<std::string> defines;
  std::optional<unsigned> numWarps; ///< default 4
  std::optional<unsigned> config;   ///< --config N
  bool listConfigs = false;
  std::optional<std::string> arch; ///< default sm_90
  Stage emit = Stage::PTX;
  bool time = false, verify = false, split = false, debugInfo = false;
  std::optional<std::string> dtype;
};

int cliError(const llvm::Twine &msg) {
  llvm::errs() << "ln-compile: error: " << msg << "\n";
  return 1;
}

/// Parses argv; returns an exit code when the program should stop.
std::optional<int> parseArgs(int argc, char **argv, Options &o) {
  std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    // Split `--flag=value`.
    std::optional<std::string> inlineValue;
    if (llvm::StringRef(a).starts_with("--") &&
        a.find('=') != std::string::npos) {
      inlineValue = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
    }
    auto value = [&](const char *flag) -> std::optional<std::string> {
      if (inlineValue)
        return inlineValue;
      if (i + 1 >= args.size()) {
        cliError(llvm::Twine(flag) + ": missing value");
        return std::nullopt;
      }
      return args[++i];
    };
    // Flags that take no value.
    static constexpr std::pair<const char *, bool Options::*> kSwitches[] = {
        {"--time", &Options::time},
        {"--verify-diagnostics", &Options::verify},
        {"--print-debuginfo", &Options::debugInfo},
        {"--split-input-file", &Options::split},
        {"--list-configs", &Options::listConfigs}};
    if (const auto *sw = llvm::find_if(
            kSwitches, [&](const auto &sw) { return a == sw.first; });
        sw != std::end(kSwitches)) {
      if (inlineValue)
        return cliError(a + ": takes no value");
      o.*(sw->second) = true;
      continue;
    }
    if (a == "--help" || a == "-help" || a == "-h") {
      llvm::outs() << kUsage;
      return 0;
    }
    if (a == "--version") {
      llvm::outs() << "ln-compile (Kiln) " KILN_VERSION "\n";
      return 0;
    }
    if (a == "--kernel") {
      auto v = value("--kernel");
      if (!v)
        return 1;
      if (v->empty())
        return cliError("--kernel: empty kernel name");
      o.kernel = *v;
    } else if (a == "--signature") {
      auto v = value("--signature");
      if (!v)
        return 1;
      o.signature = *v;
    } else if (a == "-D" ||
               (llvm::StringRef(a).starts_with("-D") && a.size() > 2)) {
      std::string def;
      if (a == "-D") {
        if (i + 1 >= args.size())
          return cliError("-D: missing NAME=VALUE");
        def = args[++i];
      } else {
        def = a.substr(2);
      }
      o.defines.push_back(def);
    } else if (a == "--num-warps") {
      auto v = value("--num-warps");
      if (!v)
        return 1;
      unsigned n = 0;
      if (llvm::StringRef(*v).getAsInteger(10, n) || n == 0 || n > 32 ||
          (n & (n - 1)) != 0)
        return cliError("--num-warps: expected 1, 2, 4, 8, 16 or 32, got `" +
                        *v + "`");
      o.numWarps = n;
    } else if (a == "--config") {
      auto v = value("--config");
      if (!v)
        return 1;
      unsigned n = 0;
      if (llvm::StringRef(*v).getAsInteger(10, n))
        return cliError("--config: expected a config number (see "
                        "--list-configs), got `" + *v + "`");
      o.config = n;
    } else if (a == "--arch") {
      auto v = value("--arch");
      if (!v)
        return 1;
      if (*v != "sm_80" && *v != "sm_86" && *v != "sm_89" && *v != "sm_90")
        return cliError("--arch: unsupported architecture `" + *v +
                        "` (expected sm_80, sm_86, sm_89 or sm_90)");
      o.arch = *v;
    } else if (a == "--emit") {
      auto v = value("--emit");
      if (!v)
        return 1;
      std::optional<Stage> s = parseStageName(*v);
      if (!s)
        return cliError("--emit: unknown stage `" + *v +
                        "` (expected ast, tile, tile-layout, llvm-dialect, "
                        "llvm or ptx)");
      o.emit = *s;
    } else if (a == "-o") {
      if (i + 1 >= args.size())
        return cliError("-o: missing output path");
      o.output = args[++i];
    } else if (a == "--dump-dir") {
      auto v = value("--dump-dir");
      if (!v)
        return 1;
      o.dumpDir = *v;
    } else if (a == "--dtype") {
      auto v = value("--dtype");
      if (!v)
        return 1;
      if (*v != "fp16" && *v != "bf16" && *v != "fp32")
        return cliError("--dtype: expected fp16, bf16 or fp32, got `" + *v +
                        "`");
      o.dtype = *v;
    } else if (llvm::StringRef(a).starts_with("-") && a != "-") {
      return cliError("unknown option `" + a + "` (see --help)");
    } else {
      if (o.file)
        return cliError("more than one input file (`" + *o.file + "` and `" +
                        a + "`)");
      o.file = a;
    }
  }
  return std::nullopt;
}

/// Builds the KernelSpec of FILE mode from the flags.
std::optional<KernelSpec> specFromFlags(const Options &o) {
  KernelSpec spec;
  spec.kernelName = *o.kernel;
  spec.numWarps = o.numWarps.value_or(4);
  spec.arch = o.arch.value_or("sm_90");
  if (o.signature) {
    auto sig = parseSignature(*o.signature);
    if (!sig) {
      cliError("--signature: " + llvm::toString(sig.takeError()));
      return std::nullopt;
    }
    spec.signature = std::move(*sig);
  }
  for (const std::string &d : o.defines) {
    auto def = parseConstexprDefinition(d);
    if (!def) {
      cliError("-D " + llvm::toString(def.takeError()));
      return std::nullopt;
    }
    if (spec.constexprs.count(def->first)) {
      cliError("-D " + def->first + ": given more than once");
      return std::nullopt;
    }
    spec.constexprs[def->first] = def->second;
  }
  return spec;
}

const char *stageExtension(Stage s) {
  switch (s) {
  case Stage::AST:
    return "ast.txt";
  case Stage::Tile:
    return "tile.mlir";
  case Stage::TileLayout:
    return "tile-layout.mlir";
  case Stage::LLVMDialect:
    return "llvm-dialect.mlir";
  case Stage::LLVMIR:
    return "ll";
  case Stage::PTX:
    return "ptx";
  }
  return "txt";
}

bool writeFile(llvm::StringRef path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    cliError("cannot write `" + path + "`: " + ec.message());
    return false;
  }
  os << text;
  return true;
}

bool makeDir(llvm::StringRef dir, const char *flag) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    cliError(llvm::Twine(flag) + ": cannot create directory `" + dir +
             "`: " + ec.message());
    return false;
  }
  return true;
}

/// Runs kiln::compileKernel or kiln::compileTileModule with the options given.
using CompileFn =
    llvm::function_ref<llvm::Expected<CompiledKernel>(const CompileOptions &)>;

/// Writes the stages kept for --dump-dir as DIR/NAME.INDEX.EXT.
bool writeDumps(llvm::StringRef dir, llvm::StringRef name,
                llvm::ArrayRef<std::pair<Stage, std::string>> stages) {
  bool ok = true;
  for (auto [index, stage] : llvm::enumerate(stages)) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, name + "." + std::to_string(index) + "." +
                                      stageExtension(stage.first));
    ok &= writeFile(path, stage.second);
  }
  return ok;
}

/// Compiles one kernel with `compile`, handling --emit, --dump-dir and
/// --time. `emitted` receives the text of stage `emit`. Files and timings are
/// named `knownName`, else the compiled kernel's name, else FILE's stem.
bool runPipeline(const Options &o, CompileFn compile, llvm::StringRef knownName,
                 std::string &emitted, CompiledKernel *result = nullptr) {
  // Stage texts for --dump-dir are written once the kernel's name is known
  // (a .mlir input names it only when parsed), failed compiles included.
  std::vector<std::pair<Stage, std::string>> dumps;
  CompileOptions copts;
  copts.stopAfter = o.emit;
  // One process, one compile (or the three built-in kernels): freeing the
  // contexts before exit would only cost time (docs/backend.md).
  copts.skipTeardown = !o.split;
  // Only ask for stage texts when they are needed: printing them costs time
  // that --time would otherwise report as compile time.
  if (o.dumpDir || o.emit != Stage::PTX)
    copts.onStage = [&](Stage s, llvm::StringRef text) {
      if (s == o.emit)
        emitted = text.str();
      if (o.dumpDir)
        dumps.push_back({s, text.str()});
    };
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<CompiledKernel> ck = compile(copts);
  double total = std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - start)
                     .count();
  std::string name = knownName.str();
  if (name.empty() && ck)
    name = ck->info.name;
  if (name.empty() && o.file)
    name = llvm::sys::path::stem(*o.file).str();
  bool dumped = !o.dumpDir || writeDumps(*o.dumpDir, name, dumps);
  if (!ck) {
    llvm::errs() << llvm::toString(ck.takeError()) << "\n";
    return false;
  }
  if (!dumped)
    return false;
  if (o.emit == Stage::PTX && emitted.empty())
    emitted = ck->ptx;
  if (o.time) {
    llvm::errs() << name << ":";
    for (const auto &[stage, ms] : ck->stageMillis)
      llvm::errs() << " " << stageName(stage) << " " << llvm::format("%.3f", ms)
                   << " ms,";
    llvm::errs() << " total " << llvm::format("%.3f", total) << " ms\n";
  }
  if (result)
    *result = std::move(*ck);
  return true;
}

/// --verify-diagnostics on one buffer (or split chunk).
mlir::LogicalResult verifyChunk(const Options &o, const KernelSpec &spec,
                                std::unique_ptr<llvm::MemoryBuffer> buffer,
                                llvm::raw_ostream &os) {
  mlir::MLIRContext ctx(mlir::MLIRContext::Threading::DISABLED);
  loadFrontendDialects(ctx);
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  mlir::SourceMgrDiagnosticVerifierHandler handler(sm, &ctx, os);
  if (o.emit == Stage::AST) {
    (void)dumpAST(ctx, sm);
  } else {
    mlir::OwningOpRef<mlir::ModuleOp> m = compileToTile(ctx, sm, spec);
    if (m && o.emit != Stage::Tile) {
      CompileOptions copts;
      copts.stopAfter = o.emit;
      llvm::Expected<CompiledKernel> ck = lowerTileToPTX(*m, spec, copts);
      if (!ck)
        mlir::emitError(mlir::UnknownLoc::get(&ctx))
            << llvm::toString(ck.takeError());
    }
  }
  return handler.verify();
}

/// --emit=tile --print-debuginfo: the frontend's module with the location
/// of every op (compileKernel's stage text omits them).
mlir::LogicalResult
printTileWithLocations(const KernelSpec &spec,
                       std::unique_ptr<llvm::MemoryBuffer> buffer,
                       llvm::raw_ostream &os) {
  mlir::MLIRContext ctx(mlir::MLIRContext::Threading::DISABLED);
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sm, &ctx, llvm::errs());
  mlir::OwningOpRef<mlir::ModuleOp> m = compileToTile(ctx, sm, spec);
  if (!m)
    return mlir::failure();
  m->print(os,
           mlir::OpPrintingFlags().enableDebugInfo(true, /*prettyForm=*/true));
  os << "\n";
  return mlir::success();
}

/// A FILE ending in .mlir is a tile-dialect module, anything else Triton.
bool isTileInput(const Options &o) {
  return llvm::StringRef(*o.file).ends_with(".mlir");
}

/// Checks the flags of a .py FILE and builds its KernelSpec; returns an exit
/// code on error.
std::optional<int> pythonInputSpec(const Options &o, KernelSpec &spec) {
  if (o.debugInfo && o.emit != Stage::Tile)
    return cliError("--print-debuginfo: only supported with --emit=tile");
  if (o.dtype)
    return cliError("--dtype: only used without FILE (built-in LayerNorm "
                    "mode); give --signature instead");
  if (o.emit == Stage::AST)
    return std::nullopt;
  if (!o.kernel)
    return cliError("--kernel: required when compiling " + *o.file);
  if (!o.signature)
    return cliError("--signature: required when compiling " + *o.file +
                    " (e.g. --signature '*fp16:16,i32')");
  std::optional<KernelSpec> s = specFromFlags(o);
  if (!s)
    return 1;
  spec = *s;
  return std::nullopt;
}

/// Checks the flags of a .mlir FILE and builds its TileModuleSpec: what the
/// flags leave unset comes from the module.
std::optional<int> tileInputSpec(const Options &o, TileModuleSpec &spec) {
  const char *unused = o.signature          ? "--signature"
                       : !o.defines.empty() ? "-D"
                       : o.dtype            ? "--dtype"
                       : o.verify           ? "--verify-diagnostics"
                       : o.debugInfo        ? "--print-debuginfo"
                                            : nullptr;
  if (unused)
    return cliError(llvm::Twine(unused) + ": not used with tile-dialect input `" +
                    *o.file + "` (the module's func.func and attributes "
                    "describe the kernel)");
  if (o.emit == Stage::AST)
    return cliError("--emit=ast: tile-dialect input `" + *o.file +
                    "` has no AST (stages: tile, tile-layout, llvm-dialect, "
                    "llvm, ptx)");
  spec.kernelName = o.kernel;
  spec.numWarps = o.numWarps;
  spec.arch = o.arch;
  return std::nullopt;
}

/// --list-configs: needs FILE.py and --kernel only.
int runListConfigs(const Options &o) {
  if (isTileInput(o))
    return cliError("--list-configs: needs a .py FILE, not `" + *o.file + "`");
  if (!o.kernel)
    return cliError("--list-configs: --kernel is required");
  if (o.config)
    return cliError("--list-configs: cannot be combined with --config");
  auto bufOrErr = llvm::MemoryBuffer::getFileOrSTDIN(*o.file, /*IsText=*/true);
  if (!bufOrErr)
    return cliError("cannot read `" + *o.file +
                    "`: " + bufOrErr.getError().message());
  return cli::listConfigs((*bufOrErr)->getBuffer(),
                          (*bufOrErr)->getBufferIdentifier(), *o.kernel,
                          llvm::outs());
}

int runFile(const Options &o) {
  if (o.listConfigs)
    return runListConfigs(o);
  bool tileInput = isTileInput(o);
  if (tileInput && o.config)
    return cliError("--config: not used with tile-dialect input `" + *o.file +
                    "`");
  KernelSpec spec;
  TileModuleSpec tileSpec;
  if (std::optional<int> rc =
          tileInput ? tileInputSpec(o, tileSpec) : pythonInputSpec(o, spec))
    return *rc;
  auto bufOrErr = llvm::MemoryBuffer::getFileOrSTDIN(*o.file, /*IsText=*/true);
  if (!bufOrErr)
    return cliError("cannot read `" + *o.file +
                    "`: " + bufOrErr.getError().message());
  if (o.dumpDir && !makeDir(*o.dumpDir, "--dump-dir"))
    return 1;
  if (!tileInput && o.emit != Stage::AST) {
    if (o.split && o.config)
      return cliError("--config: not supported with --split-input-file");
    // The kernel's @triton.autotune config and @triton.heuristics complete
    // the specialization.
    if (!o.split &&
        !cli::applyDecorators((*bufOrErr)->getBuffer(),
                              (*bufOrErr)->getBufferIdentifier(), spec,
                              o.config, o.numWarps.has_value(),
                              /*mustParse=*/o.config.has_value()))
      return 1;
  }

  std::string out;
  llvm::raw_string_ostream outStream(out);
  mlir::LogicalResult status = mlir::success();
  auto processChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                          const llvm::MemoryBufferRef &,
                          llvm::raw_ostream &os) -> mlir::LogicalResult {
    if (o.verify)
      return verifyChunk(o, spec, std::move(chunk), os);
    if (o.debugInfo)
      return printTileWithLocations(spec, std::move(chunk), os);
    auto compileChunk = [&](const CompileOptions &copts) {
      return tileInput ? compileTileModule(chunk->getBuffer(),
                                           chunk->getBufferIdentifier(),
                                           tileSpec, copts)
                       : compileKernel(chunk->getBuffer(),
                                       chunk->getBufferIdentifier(), spec, copts);
    };
    std::string emitted;
    if (!runPipeline(o, compileChunk, tileInput ? o.kernel.value_or("") : spec.kernelName,
                     emitted))
      return mlir::failure();
    os << emitted;
    return mlir::success();
  };
  if (o.split) {
    status = mlir::splitAndProcessBuffer(
        std::move(*bufOrErr), processChunk, outStream,
        tileInput ? "// -----" : "# -----", o.verify ? "" : "// -----");
  } else {
    auto ref = (*bufOrErr)->getMemBufferRef();
    status = processChunk(std::move(*bufOrErr), ref, outStream);
  }
  if (o.verify) {
    llvm::errs() << out;
    return mlir::failed(status) ? 1 : 0;
  }
  if (mlir::failed(status)) {
    llvm::outs() << out; // what the successful chunks produced
    return 1;
  }
  if (o.output && *o.output != "-")
    return writeFile(*o.output, out) ? 0 : 1;
  llvm::outs() << out;
  return 0;
}

/// Built-in mode: the LayerNorm kernels for N = 8192 with the tutorial's
/// launch heuristics.
int runBuiltin(const Options &o) {
  if (o.signature || !o.defines.empty() || o.numWarps || o.verify ||
      o.split || o.config || o.listConfigs)
    return cliError(std::string(o.signature          ? "--signature"
                                : !o.defines.empty() ? "-D"
                                : o.numWarps         ? "--num-warps"
                                : o.verify           ? "--verify-diagnostics"
                                : o.split            ? "--split-input-file"
                                : o.config           ? "--config"
                                                     : "--list-configs") +
                    ": needs a FILE; without FILE, ln-compile compiles the "
                    "built-in LayerNorm kernels (choose their dtype with "
                    "--dtype)");
  std::string dt = o.dtype.value_or("fp16");
  unsigned elsize = dt == "fp32" ? 4 : 2;
  const int64_t N = 8192;
  int64_t np2 = 1;
  while (np2 < N)
    np2 <<= 1;
  int64_t block = std::min<int64_t>(65536 / elsize, np2);
  unsigned warps =
      unsigned(std::min<int64_t>(std::max<int64_t>(block / 256, 1), 8));
  int64_t group = N <= 1024 ? 256 : N <= 4096 ? 128 : N <= 8192 ? 96 : 64;
  std::string p = "*" + dt + ":16";
  std::string f32p = "*fp32:16";

  struct Job {
    std::string name, signature;
    std::map<std::string, std::string> constexprs;
    unsigned warps;
  };
  std::vector<Job> jobs = {
      {"_layer_norm_fwd_fused",
       llvm::join(std::vector<std::string>{p, p, p, p, f32p, f32p, "i32:16",
                                           "i32:16", "fp32"},
                  ","),
       {{"BLOCK_SIZE", std::to_string(block)}},
       warps},
      {"_layer_norm_bwd_dx_fused",
       llvm::join(std::vector<std::string>{p, p, p, p, p, p, f32p, f32p,
                                           "*i32:16", "i32:16", "i32:16"},
                  ","),
       {{"GROUP_SIZE_M", std::to_string(group)},
        {"BLOCK_SIZE_N", std::to_string(block)}},
       warps},
      {"_layer_norm_bwd_dwdb",
       llvm::join(std::vector<std::string>{p, p, p, p, "i32", "i32:16"}, ","),
       {{"BLOCK_SIZE_M", "32"}, {"BLOCK_SIZE_N", "128"}},
       4},
  };
  std::string dir = o.output.value_or("kiln-out");
  if (!makeDir(dir, "-o"))
    return 1;
  if (o.dumpDir && !makeDir(*o.dumpDir, "--dump-dir"))
    return 1;
  bool any = false;
  for (const Job &j : jobs) {
    if (o.kernel && *o.kernel != j.name)
      continue;
    any = true;
    KernelSpec spec;
    spec.kernelName = j.name;
    spec.signature = cantFail(parseSignature(j.signature));
    spec.constexprs = j.constexprs;
    spec.numWarps = j.warps;
    spec.arch = o.arch.value_or("sm_90");
    std::string emitted;
    CompiledKernel ck;
    auto compile = [&](const CompileOptions &copts) {
      return compileKernel(builtinLayerNormSource(), kBuiltinLayerNormName,
                           spec, copts);
    };
    if (!runPipeline(o, compile, j.name, emitted, &ck))
      return 1;
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, j.name + "." +
                                      (o.emit == Stage::PTX
                                           ? std::string("ptx")
                                           : stageExtension(o.emit)));
    if (!writeFile(path, emitted))
      return 1;
    llvm::outs() << "wrote " << path << "\n";
    if (o.emit == Stage::PTX) {
      llvm::SmallString<128> json(dir);
      llvm::sys::path::append(json, j.name + ".json");
      std::string text;
      llvm::raw_string_ostream js(text);
      js << llvm::formatv("{0:2}", ck.info.toJSON()) << "\n";
      if (!writeFile(json, text))
        return 1;
      llvm::outs() << "wrote " << json << "\n";
    }
  }
  if (!any)
    return cliError("--kernel: `" + *o.kernel +
                    "` is not a built-in kernel (expected "
                    "_layer_norm_fwd_fused, _layer_norm_bwd_dx_fused or "
                    "_layer_norm_bwd_dwdb)");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (std::optional<int> rc = parseArgs(argc, argv, o))
    return *rc;
  return o.file ? runFile(o) : runBuiltin(o);
}
