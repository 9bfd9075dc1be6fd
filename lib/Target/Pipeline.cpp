//===- Pipeline.cpp - compileKernel: source -> tile -> PTX ----------------===//
#include "kiln/Target/Pipeline.h"

#include "kiln/Frontend/Frontend.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
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
} // namespace

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
  // Threading off: a pool per compile costs more than it saves on one kernel.
  MLIRContext ctx(MLIRContext::Threading::DISABLED);
  loadFrontendDialects(ctx);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, filename), llvm::SMLoc());
  std::string rendered;
  llvm::raw_string_ostream diagStream(rendered);
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx, diagStream);

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
  result.stageMillis.push_back({Stage::Tile, millisSince(start)});
  if (options.onStage) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os, OpPrintingFlags().enableDebugInfo(false));
    options.onStage(Stage::Tile, text);
  }
  if (options.stopAfter == Stage::Tile)
    return result;

  llvm::Expected<CompiledKernel> lowered =
      lowerTileToPTX(*module, spec, options);
  if (!lowered) {
    std::string message = llvm::toString(lowered.takeError());
    return diagnosticsError(rendered.empty() ? message : rendered + message,
                            message);
  }
  result.stageMillis.insert(result.stageMillis.end(),
                            lowered->stageMillis.begin(),
                            lowered->stageMillis.end());
  lowered->stageMillis = std::move(result.stageMillis);
  return lowered;
}

} // namespace kiln
