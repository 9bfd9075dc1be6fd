//===- Frontend.cpp - Public entry points of the frontend ----------------===//
#include "kiln/Frontend/Frontend.h"

#include "DecoratorsImpl.h"
#include "IRGen.h"
#include "IRGenImport.h"
#include "kiln/Dialect/Tile/IR/Tile.h"
#include "kiln/Frontend/Syntax/Parser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

using namespace kiln;

void kiln::loadFrontendDialects(mlir::MLIRContext &ctx) {
  ctx.loadDialect<tile::TileDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::func::FuncDialect>();
}

namespace {
struct MainBuffer {
  llvm::StringRef name;
  llvm::StringRef text;
};

MainBuffer mainBuffer(llvm::SourceMgr &sm) {
  const llvm::MemoryBuffer *buf = sm.getMemoryBuffer(sm.getMainFileID());
  return {buf->getBufferIdentifier(), buf->getBuffer()};
}

/// Parses the main buffer, reporting a syntax error through `ctx`.
std::unique_ptr<ast::Module> parseMain(mlir::MLIRContext &ctx,
                                       const MainBuffer &mb) {
  fe::ParseResult pr = fe::parse(mb.text);
  if (pr.error) {
    ast::LineTable lines(mb.text);
    auto [line, col] = lines.lineCol(pr.error->offset);
    mlir::emitError(mlir::FileLineColLoc::get(&ctx, mb.name, line, col))
        << pr.error->message;
    return nullptr;
  }
  fe::foldWrapperRebindings(*pr.module);
  return std::move(pr.module);
}

/// Code generation recurses over statements, expressions and inlined calls;
/// its depth is bounded (IRGen::enter) and it runs on a thread whose stack is
/// large enough for that bound whatever the caller's stack size is.
void runOnLargeStack(llvm::function_ref<void()> fn) {
  llvm::thread worker(std::optional<unsigned>(256u << 20), [&] { fn(); });
  worker.join();
}

/// Parses `source` and resolves its module level in a private context, then
/// runs `query`, which returns std::nullopt after reporting an error. Errors
/// come back rendered as the compiler renders them.
template <typename T>
llvm::Expected<T> queryModule(
    llvm::StringRef source, llvm::StringRef filename,
    llvm::function_ref<std::optional<T>(fe::IRGen &)> query) {
  // Threading off: a thread pool would cost more than this whole query.
  mlir::MLIRContext ctx(mlir::MLIRContext::Threading::DISABLED);
  loadFrontendDialects(ctx);
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, filename),
                        llvm::SMLoc());
  std::string rendered;
  llvm::raw_string_ostream os(rendered);
  mlir::SourceMgrDiagnosticHandler handler(sm, &ctx, os);
  MainBuffer mb = mainBuffer(sm);
  std::optional<T> result;
  if (std::unique_ptr<ast::Module> m = parseMain(ctx, mb)) {
    fe::IRGen gen(ctx, mb.name, mb.text, *m);
    // Imports are followed as a compile follows them: a kernel whose
    // `triton` another module of the package re-exports is one here too
    // (ln-compile reads its parameters for the heuristics the host
    // evaluator now sees through that import).
    fe::ImportScope imports(gen, currentFrontendOptions());
    runOnLargeStack([&] {
      if (mlir::succeeded(gen.resolveModule()))
        result = query(gen);
    });
  }
  if (result)
    return std::move(*result);
  llvm::StringRef text = llvm::StringRef(rendered).rtrim('\n');
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      text.empty() ? "cannot read the kernels of " + filename.str()
                   : text.str());
}
} // namespace

std::optional<std::string> kiln::dumpAST(mlir::MLIRContext &ctx,
                                         llvm::SourceMgr &sourceMgr) {
  MainBuffer mb = mainBuffer(sourceMgr);
  std::unique_ptr<ast::Module> m = parseMain(ctx, mb);
  if (!m)
    return std::nullopt;
  std::string out;
  llvm::raw_string_ostream os(out);
  ast::dump(*m, ast::LineTable(mb.text), os);
  return out;
}

mlir::OwningOpRef<mlir::ModuleOp>
kiln::compileToTile(mlir::MLIRContext &ctx, llvm::SourceMgr &sourceMgr,
                    const KernelSpec &spec) {
  loadFrontendDialects(ctx);
  MainBuffer mb = mainBuffer(sourceMgr);
  std::unique_ptr<ast::Module> m = parseMain(ctx, mb);
  if (!m)
    return nullptr;
  fe::IRGen gen(ctx, mb.name, mb.text, *m);
  // Read on this thread: the options are the caller's (ln-compile -I, the
  // C API's module config).
  fe::ImportScope imports(gen, currentFrontendOptions());
  mlir::OwningOpRef<mlir::ModuleOp> result;
  runOnLargeStack([&] { result = gen.compile(spec); });
  return result;
}

llvm::Expected<std::vector<KernelParameter>>
kiln::listKernelParameters(llvm::StringRef source, llvm::StringRef filename,
                           llvm::StringRef kernelName) {
  return queryModule<std::vector<KernelParameter>>(
      source, filename,
      [&](fe::IRGen &gen) -> std::optional<std::vector<KernelParameter>> {
        const ast::FunctionDef *fn = gen.findKernel(kernelName);
        if (!fn)
          return std::nullopt;
        std::vector<KernelParameter> params;
        for (const ast::Param &p : fn->params) {
          KernelParameter &kp = params.emplace_back();
          kp.name = p.name;
          kp.isConstexpr = fe::isConstexprAnnotation(p.annotation);
          if (p.defaultValue)
            kp.defaultValue = gen.text(p.defaultValue).str();
        }
        return params;
      });
}

llvm::Expected<std::vector<std::string>>
kiln::listKernels(llvm::StringRef source, llvm::StringRef filename) {
  return queryModule<std::vector<std::string>>(
      source, filename,
      [](fe::IRGen &gen) -> std::optional<std::vector<std::string>> {
        return gen.jitFunctionNames();
      });
}
