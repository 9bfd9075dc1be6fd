//===- Pipeline.cpp - compileKernel: source -> tile -> PTX ----------------===//
#include "kiln/Target/Pipeline.h"

#include "kiln/Dialect/Tile/IR/TextLimits.h"
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "kiln/Frontend/Frontend.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace mlir;

namespace kiln {

namespace {
constexpr std::pair<Stage, const char *> kStageNames[] = {
    {Stage::AST, "ast"},
    {Stage::Tile, "tile"},
    {Stage::TileLayout, "tile-layout"},
    {Stage::LLVMDialect, "llvm-dialect"},
    {Stage::LLVMIR, "llvm"},
    {Stage::PTX, "ptx"},
};

double millisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

llvm::Error diagnosticsError(const std::string &rendered, llvm::StringRef what) {
  std::string text = rendered.empty() ? what.str() : rendered;
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), text);
}

std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo(false));
  return text;
}

/// Runs the backend on a verified tile module, prepending `result`'s stage
/// times; on failure the diagnostics rendered so far precede the message.
llvm::Expected<CompiledKernel> lowerVerified(ModuleOp module, const KernelSpec &spec,
                                             const CompileOptions &options,
                                             CompiledKernel result,
                                             const std::string &rendered) {
  llvm::Expected<CompiledKernel> lowered = lowerTileToPTX(module, spec, options);
  if (!lowered) {
    std::string message = llvm::toString(lowered.takeError());
    return diagnosticsError(rendered.empty() ? message : rendered + message,
                            message);
  }
  result.stageMillis.insert(result.stageMillis.end(),
                            lowered->stageMillis.begin(),
                            lowered->stageMillis.end());
  lowered->stageMillis = std::move(result.stageMillis);
  lowered->warnings = std::move(result.warnings);
  return lowered;
}

/// The KernelSpec of a parsed tile module: its one func.func, num_warps and
/// arch from `spec` or the module's attributes. Emits a diagnostic and
/// returns std::nullopt when the module does not describe one kernel.
std::optional<KernelSpec> tileModuleSpec(ModuleOp module, const TileModuleSpec &spec) {
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  if (funcs.empty()) {
    emitError(module.getLoc()) << "expected one func.func (the kernel), found none";
    return std::nullopt;
  }
  if (funcs.size() > 1) {
    emitError(funcs[1].getLoc())
        << "expected one func.func (the kernel), found " << funcs.size()
        << " (this is the second; compile each kernel from its own module)";
    return std::nullopt;
  }
  func::FuncOp kernel = funcs.front();
  if (kernel.isExternal()) {
    emitError(kernel.getLoc()) << "kernel '" << kernel.getSymName()
                               << "' has no body";
    return std::nullopt;
  }
  if (spec.kernelName && *spec.kernelName != kernel.getSymName()) {
    emitError(kernel.getLoc()) << "the module's kernel is '" << kernel.getSymName()
                               << "', not '" << *spec.kernelName << "' (--kernel)";
    return std::nullopt;
  }
  KernelSpec result;
  result.kernelName = kernel.getSymName().str();
  if (spec.numWarps) {
    result.numWarps = *spec.numWarps;
  } else if (Attribute a = module->getAttr(tile::kNumWarpsAttr)) {
    auto n = dyn_cast<IntegerAttr>(a);
    int64_t v = n ? n.getInt() : 0;
    if (v < 1 || v > 32 || (v & (v - 1)) != 0) {
      emitError(module.getLoc()) << "tile.num_warps must be 1, 2, 4, 8, 16 or 32, got "
                                 << a;
      return std::nullopt;
    }
    result.numWarps = unsigned(v);
  }
  if (spec.numStages) {
    result.numStages = *spec.numStages;
  } else if (Attribute a = module->getAttr("tile.num_stages")) {
    auto n = dyn_cast<IntegerAttr>(a);
    int64_t v = n ? n.getInt() : 0;
    if (v < 1 || v > 16) {
      emitError(module.getLoc()) << "tile.num_stages must be 1 to 16, got " << a;
      return std::nullopt;
    }
    result.numStages = unsigned(v);
  }
  if (spec.arch) {
    result.arch = *spec.arch;
  } else if (Attribute a = module->getAttr("tile.arch")) {
    auto s = dyn_cast<StringAttr>(a);
    if (!s) {
      emitError(module.getLoc()) << "tile.arch must be a string such as \"sm_90\", got "
                                 << a;
      return std::nullopt;
    }
    result.arch = s.str();
  }
  return result;
}
/// One compile's context, source buffer and diagnostics, rendered into
/// `rendered` in FILE:LINE:COL form with the source line and a caret.
struct CompileSession {
  CompileSession(llvm::StringRef source, llvm::StringRef filename)
      // Threading off: a pool per compile costs more than it saves.
      : ctx(MLIRContext::Threading::DISABLED), diagStream(rendered),
        handler(sourceMgr, &ctx, diagStream) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, filename), llvm::SMLoc());
    loadFrontendDialects(ctx);
  }
  MLIRContext ctx;
  llvm::SourceMgr sourceMgr;
  std::string rendered;
  llvm::raw_string_ostream diagStream;
  SourceMgrDiagnosticHandler handler;
};
} // namespace

bool skipsTeardown(const CompileOptions &options) {
#if defined(__SANITIZE_ADDRESS__)
  return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return false;
#endif
#endif
  return options.skipTeardown;
}

const char *stageName(Stage s) {
  for (auto [stage, name] : kStageNames)
    if (stage == s)
      return name;
  return "unknown";
}

std::optional<Stage> parseStageName(llvm::StringRef s) {
  for (auto [stage, name] : kStageNames)
    if (s == name)
      return stage;
  return std::nullopt;
}

llvm::Expected<CompiledKernel> compileKernel(llvm::StringRef source,
                                             llvm::StringRef filename,
                                             const KernelSpec &spec,
                                             const CompileOptions &options) {
  auto owned = std::make_unique<CompileSession>(source, filename);
  llvm::scope_exit teardown([&] {
    if (skipsTeardown(options))
      (void)owned.release();
  });
  CompileSession &session = *owned;
  MLIRContext &ctx = session.ctx;
  llvm::SourceMgr &sourceMgr = session.sourceMgr;
  const std::string &rendered = session.rendered;

  CompiledKernel result;
  if (options.stopAfter == Stage::AST || options.onStage) {
    auto start = std::chrono::steady_clock::now();
    std::optional<std::string> ast = dumpAST(ctx, sourceMgr);
    if (!ast)
      return diagnosticsError(rendered, "parsing failed");
    result.stageMillis.push_back({Stage::AST, millisSince(start)});
    if (options.onStage)
      options.onStage(Stage::AST, *ast);
    if (options.stopAfter == Stage::AST)
      return result;
  }

  auto start = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = compileToTile(ctx, sourceMgr, spec);
  if (!module)
    return diagnosticsError(rendered, "frontend failed");
  llvm::scope_exit leakModule([&] {
    if (skipsTeardown(options))
      (void)module.release();
  });
  result.stageMillis.push_back({Stage::Tile, millisSince(start)});
  // The frontend succeeded: what it reported are warnings.
  result.warnings = llvm::StringRef(rendered).rtrim('\n').str();
  if (options.onStage)
    options.onStage(Stage::Tile, printModule(*module));
  if (options.stopAfter == Stage::Tile)
    return result;

  return lowerVerified(*module, spec, options, std::move(result), rendered);
}

llvm::Expected<CompiledKernel> compileTileModule(llvm::StringRef source,
                                                 llvm::StringRef filename,
                                                 const TileModuleSpec &spec,
                                                 const CompileOptions &options) {
  auto owned = std::make_unique<CompileSession>(source, filename);
  llvm::scope_exit teardown([&] {
    if (skipsTeardown(options))
      (void)owned.release();
  });
  CompileSession &session = *owned;
  MLIRContext &ctx = session.ctx;
  // The source line under each diagnostic shows the op; the generic form of
  // the whole op (a module, for module-level errors) would only add noise.
  ctx.printOpOnDiagnostic(false);
  llvm::SourceMgr &sourceMgr = session.sourceMgr;
  const std::string &rendered = session.rendered;

  if (options.stopAfter == Stage::AST)
    return diagnosticsError("", "there is no `ast` stage for tile-dialect input");
  CompiledKernel result;
  auto start = std::chrono::steady_clock::now();
  if (auto deep = tile::bracketBeyondDepth(source, tile::kMaxTileIRNesting)) {
    mlir::emitError(FileLineColLoc::get(&ctx, filename, deep->first, deep->second))
        << "brackets nest deeper than " << tile::kMaxTileIRNesting
        << " levels (Kiln's limit for tile IR)";
    return diagnosticsError(rendered, "parsing failed");
  }
  if (auto at = tile::indexDenseArray(source)) {
    mlir::emitError(FileLineColLoc::get(&ctx, filename, at->first, at->second))
        << "dense arrays of `index` elements are not supported (MLIR's parser cannot read "
           "them)";
    return diagnosticsError(rendered, "parsing failed");
  }
  // The parser verifies the module: the one verification of the pipeline.
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&ctx));
  if (!module)
    return diagnosticsError(rendered, "parsing failed");
  llvm::scope_exit leakModule([&] {
    if (skipsTeardown(options))
      (void)module.release();
  });
  std::optional<KernelSpec> kernelSpec = tileModuleSpec(*module, spec);
  if (!kernelSpec)
    return diagnosticsError(rendered, "not a kernel module");
  result.info.name = kernelSpec->kernelName;
  result.stageMillis.push_back({Stage::Tile, millisSince(start)});
  if (options.onStage)
    options.onStage(Stage::Tile, printModule(*module));
  if (options.stopAfter == Stage::Tile)
    return result;
  return lowerVerified(*module, *kernelSpec, options, std::move(result), rendered);
}

} // namespace kiln
