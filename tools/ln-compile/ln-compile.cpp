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
// --emit=aot-header / aot-source / aot writes C++ for ahead-of-time use
// (AOTEmit.h). Flags: Options.h; exit codes and --color: CLI.h.
//
//===----------------------------------------------------------------------===//
#include "AOTEmit.h"
#include "CLI.h"
#include "Decorators.h"
#include "Options.h"
#include "kiln/Frontend/Frontend.h"
#include "kiln/Frontend/Imports.h"
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
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace kiln;

namespace {

using cli::AOTEmit;
using cli::failure;
using cli::Options;
using cli::usageError;

/// Builds the KernelSpec of FILE mode from the flags.
std::optional<KernelSpec> specFromFlags(const Options &o) {
  KernelSpec spec;
  spec.kernelName = *o.kernel;
  spec.numWarps = o.numWarps.value_or(4);
  spec.numStages = o.numStages.value_or(3);
  spec.arch = o.arch.value_or("sm_90");
  const char *envDebug = std::getenv("KILN_DEBUG");
  spec.debug = o.debug || (envDebug && *envDebug && std::string_view(envDebug) != "0");
  spec.fpFusion = !o.noFpFusion;
  if (o.signature) {
    auto sig = parseSignature(*o.signature);
    if (!sig) {
      usageError("--signature: " + llvm::toString(sig.takeError()));
      return std::nullopt;
    }
    spec.signature = std::move(*sig);
  }
  for (const std::string &d : o.defines) {
    auto def = parseConstexprDefinition(d);
    if (!def) {
      usageError("-D " + llvm::toString(def.takeError()));
      return std::nullopt;
    }
    if (spec.constexprs.count(def->first)) {
      usageError("-D " + def->first + ": given more than once");
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
    failure("cannot write `" + path + "`: " + ec.message());
    return false;
  }
  os << text;
  return true;
}

bool makeDir(llvm::StringRef dir, const char *flag) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    failure(llvm::Twine(flag) + ": cannot create directory `" + dir +
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
  // The generated launchers pass the kernel's `params` only.
  copts.tmaCopies = o.aot == AOTEmit::None;
  copts.verifyPasses = o.verifyEach;
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
    cli::printDiagnostics(llvm::toString(ck.takeError()));
    return false;
  }
  if (!ck->warnings.empty())
    cli::printDiagnostics(ck->warnings);
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
    return usageError("--print-debuginfo: only supported with --emit=tile");
  if (o.dtype)
    return usageError("--dtype: only used without FILE (built-in LayerNorm "
                    "mode); give --signature instead");
  if (o.emit == Stage::AST)
    return std::nullopt;
  if (!o.kernel)
    return usageError("--kernel: required when compiling " + *o.file);
  if (!o.signature)
    return usageError("--signature: required when compiling " + *o.file +
                    " (e.g. --signature '*fp16:16,i32')");
  std::optional<KernelSpec> s = specFromFlags(o);
  if (!s)
    return cli::kExitUsage;
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
    return usageError(llvm::Twine(unused) + ": not used with tile-dialect input `" +
                    *o.file + "` (the module's func.func and attributes "
                    "describe the kernel)");
  if (o.emit == Stage::AST)
    return usageError("--emit=ast: tile-dialect input `" + *o.file +
                    "` has no AST (stages: tile, tile-layout, llvm-dialect, "
                    "llvm, ptx)");
  spec.kernelName = o.kernel;
  spec.numWarps = o.numWarps;
  spec.numStages = o.numStages;
  spec.arch = o.arch;
  return std::nullopt;
}

/// --list-configs: needs FILE.py and --kernel only.
int runListConfigs(const Options &o) {
  if (isTileInput(o))
    return usageError("--list-configs: needs a .py FILE, not `" + *o.file + "`");
  if (!o.kernel)
    return usageError("--list-configs: --kernel is required");
  if (o.config)
    return usageError("--list-configs: cannot be combined with --config");
  auto bufOrErr = llvm::MemoryBuffer::getFileOrSTDIN(*o.file, /*IsText=*/true);
  if (!bufOrErr)
    return failure("cannot read `" + *o.file +
                    "`: " + bufOrErr.getError().message());
  return cli::listConfigs((*bufOrErr)->getBuffer(),
                          (*bufOrErr)->getBufferIdentifier(), *o.kernel,
                          llvm::outs());
}

/// --emit=aot-header / aot-source / aot: compiles the kernel for every
/// --arch (and ptxas, when found, to cubins) and writes the C++ sources.
int runAOT(const Options &o, const KernelSpec &pySpec,
           const TileModuleSpec &tileSpec, bool tileInput,
           const llvm::MemoryBuffer &buf) {
  cli::AOTKernel k;
  k.sourceFile = llvm::sys::path::filename(buf.getBufferIdentifier()).str();
  k.signature = o.signature.value_or("");
  std::optional<std::string> ptxas;
  if (!o.ptxas) {
    ptxas = cli::findPtxas();
    if (!ptxas)
      k.cubinNote = "ptxas not found (the driver compiles the PTX on first "
                    "launch)";
  } else if (*o.ptxas == "none") {
    k.cubinNote = "--ptxas=none (the driver compiles the PTX on first launch)";
  } else {
    ptxas = *o.ptxas;
  }
  std::vector<std::string> archs = o.archs;
  if (archs.empty())
    archs.push_back("sm_90");
  for (const std::string &arch : archs) {
    KernelSpec spec = pySpec;
    spec.arch = arch;
    TileModuleSpec tspec = tileSpec;
    tspec.arch = arch;
    auto compile = [&](const CompileOptions &copts) {
      return tileInput ? compileTileModule(buf.getBuffer(),
                                           buf.getBufferIdentifier(), tspec,
                                           copts)
                       : compileKernel(buf.getBuffer(),
                                       buf.getBufferIdentifier(), spec, copts);
    };
    std::string label = tileInput ? o.kernel.value_or("") : spec.kernelName;
    if (!label.empty() && archs.size() > 1)
      label += "." + arch;
    std::string emitted;
    cli::AOTImage image;
    image.arch = arch;
    if (!runPipeline(o, compile, label, emitted, &image.compiled))
      return cli::kExitFailure;
    if (ptxas) {
      auto cubin = cli::runPtxas(*ptxas, image.compiled.ptx, arch);
      if (!cubin)
        return failure(llvm::toString(cubin.takeError()));
      image.cubin = std::move(*cubin);
    }
    k.images.push_back(std::move(image));
  }
  k.name = o.aotName.value_or(k.images.front().compiled.info.name);
  if (auto err = cli::checkAOTKernel(k))
    return failure(llvm::toString(std::move(err)));

  auto emitTo = [&](const std::string &path, const std::string &text) {
    if (path == "-") {
      llvm::outs() << text;
      return true;
    }
    return writeFile(path, text);
  };
  std::string out = o.output.value_or("-");
  if (o.aot == AOTEmit::Both) {
    k.headerInclude = llvm::sys::path::filename(out).str() + ".h";
    return emitTo(out + ".h", cli::emitAOTHeader(k)) &&
                   emitTo(out + ".cpp", cli::emitAOTSource(k))
               ? cli::kExitSuccess
               : cli::kExitFailure;
  }
  k.headerInclude = (out == "-" ? k.name : llvm::sys::path::stem(out).str()) + ".h";
  return emitTo(out, o.aot == AOTEmit::Header ? cli::emitAOTHeader(k)
                                              : cli::emitAOTSource(k))
             ? cli::kExitSuccess
             : cli::kExitFailure;
}

/// The flags that only the AOT emits take, and their conflicts.
std::optional<int> checkAOTFlags(const Options &o) {
  if (o.aot == AOTEmit::None) {
    if (o.archs.size() > 1)
      return usageError("--arch: more than one architecture needs "
                        "--emit=aot-header, aot-source or aot");
    if (o.aotName || o.ptxas)
      return usageError(std::string(o.aotName ? "--aot-name" : "--ptxas") +
                        ": only used with --emit=aot-header, aot-source or "
                        "aot");
    return std::nullopt;
  }
  const char *conflict = o.verify          ? "--verify-diagnostics"
                         : o.split         ? "--split-input-file"
                         : o.debugInfo     ? "--print-debuginfo"
                         : o.listConfigs   ? "--list-configs"
                                           : nullptr;
  if (conflict)
    return usageError(llvm::Twine(conflict) +
                      ": cannot be combined with --emit=aot*");
  if (o.aot == AOTEmit::Both && (!o.output || *o.output == "-"))
    return usageError("--emit=aot: needs -o PREFIX (writes PREFIX.h and "
                      "PREFIX.cpp)");
  return std::nullopt;
}

int runFile(const Options &o) {
  if (std::optional<int> rc = checkAOTFlags(o))
    return *rc;
  if (o.listConfigs)
    return runListConfigs(o);
  bool tileInput = isTileInput(o);
  if (tileInput && o.config)
    return usageError("--config: not used with tile-dialect input `" + *o.file +
                    "`");
  KernelSpec spec;
  TileModuleSpec tileSpec;
  if (std::optional<int> rc =
          tileInput ? tileInputSpec(o, tileSpec) : pythonInputSpec(o, spec))
    return *rc;
  auto bufOrErr = llvm::MemoryBuffer::getFileOrSTDIN(*o.file, /*IsText=*/true);
  if (!bufOrErr)
    return failure("cannot read `" + *o.file +
                    "`: " + bufOrErr.getError().message());
  if (o.dumpDir && !makeDir(*o.dumpDir, "--dump-dir"))
    return 1;
  if (!tileInput && o.emit != Stage::AST) {
    if (o.split && o.config)
      return usageError("--config: not supported with --split-input-file");
    // The kernel's @triton.autotune config and @triton.heuristics complete
    // the specialization.
    if (!o.split &&
        !cli::applyDecorators((*bufOrErr)->getBuffer(),
                              (*bufOrErr)->getBufferIdentifier(), spec,
                              o.config, o.numWarps.has_value(), o.numStages.has_value(),
                              /*mustParse=*/o.config.has_value(), o.hostDecorators))
      return 1;
  }

  if (o.aot != AOTEmit::None)
    return runAOT(o, spec, tileSpec, tileInput, **bufOrErr);

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
  if (o.aot != AOTEmit::None || o.archs.size() > 1 || o.aotName || o.ptxas)
    return usageError("--emit=aot*, --aot-name, --ptxas and several --arch "
                      "need a FILE (e.g. examples/layernorm/layer_norm.py "
                      "--kernel _layer_norm_fwd_fused --signature ...)");
  if (o.output && *o.output == "-")
    return usageError("-o -: without FILE, -o names the output directory");
  if (o.signature || !o.defines.empty() || o.numWarps || o.numStages || o.verify ||
      o.split || o.config || o.listConfigs)
    return usageError(std::string(o.signature          ? "--signature"
                                : !o.defines.empty() ? "-D"
                                : o.numWarps         ? "--num-warps"
                                : o.numStages        ? "--num-stages"
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
    return usageError("--kernel: `" + *o.kernel +
                    "` is not a built-in kernel (expected "
                    "_layer_norm_fwd_fused, _layer_norm_bwd_dx_fused or "
                    "_layer_norm_bwd_dwdb)");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  // --color applies to errors found while parsing the other flags too.
  cli::setColorMode(cli::ColorMode::Auto);
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a = argv[i];
    llvm::StringRef v = a.consume_front("--color=") ? a
                        : a == "--color" && i + 1 < argc ? llvm::StringRef(argv[i + 1])
                                                         : llvm::StringRef();
    if (v == "always")
      cli::setColorMode(cli::ColorMode::Always);
    else if (v == "never")
      cli::setColorMode(cli::ColorMode::Never);
  }
  Options o;
  if (std::optional<int> rc = cli::parseArgs(argc, argv, o))
    return *rc;
  // -I, --bind: the frontend reads them from the compiling thread.
  FrontendOptions frontend;
  frontend.includeDirs = o.includeDirs;
  frontend.hostBindings = o.bindings;
  frontend.hostDecorators = o.hostDecorators;
  ScopedFrontendOptions scope(std::move(frontend));
  return o.file ? runFile(o) : runBuiltin(o);
}
