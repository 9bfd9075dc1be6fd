//===- Frontend.cpp - Public entry points of the frontend ----------------===//
#include "kiln/Frontend/Frontend.h"

#include "IRGen.h"
#include "kiln/Dialect/Tile/IR/Tile.h"
#include "kiln/Frontend/Parser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
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
  return std::move(pr.module);
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
  // Code generation recurses over statements, expressions and inlined calls;
  // its depth is bounded (IRGen::enter) and it runs on a thread whose stack
  // is large enough for that bound whatever the caller's stack size is.
  mlir::OwningOpRef<mlir::ModuleOp> result;
  llvm::thread worker(std::optional<unsigned>(256u << 20),
                      [&] { result = gen.compile(spec); });
  worker.join();
  return result;
}
