//===- FuzzContext.h - An MLIRContext shared by many fuzz inputs ----------===//
//
// Making an MLIRContext per input would halve throughput; one context kept
// for ever grows with every uniqued identifier. So the context is rebuilt
// every kInputsPerContext inputs, keeping memory bounded for -rss_limit_mb.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FUZZ_FUZZCONTEXT_H
#define KILN_FUZZ_FUZZCONTEXT_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include <cstdlib>
#include <functional>
#include <memory>

namespace kiln::fuzz {

class SharedContext {
public:
  explicit SharedContext(std::function<void(mlir::MLIRContext &)> setup)
      : setup_(std::move(setup)) {}

  mlir::MLIRContext &get() {
    if (!ctx_ || ++uses_ > kInputsPerContext) {
      ctx_ = std::make_unique<mlir::MLIRContext>(
          mlir::MLIRContext::Threading::DISABLED);
      setup_(*ctx_);
      uses_ = 0;
    }
    return *ctx_;
  }

private:
  static constexpr unsigned kInputsPerContext = 2000;
  std::function<void(mlir::MLIRContext &)> setup_;
  std::unique_ptr<mlir::MLIRContext> ctx_;
  unsigned uses_ = 0;
};

/// Counts error diagnostics and drops every diagnostic (printing each would
/// dominate the run time).
class ErrorCounter {
public:
  explicit ErrorCounter(mlir::MLIRContext &ctx)
      : handler_(&ctx, [this](mlir::Diagnostic &d) {
          if (d.getSeverity() == mlir::DiagnosticSeverity::Error)
            ++errors;
          return mlir::success();
        }) {}
  unsigned errors = 0;

private:
  mlir::ScopedDiagnosticHandler handler_;
};

/// A failure with no error message leaves the user with nothing: treat it as
/// a finding.
[[noreturn]] inline void silentFailure(const char *what) {
  fprintf(stderr, "kiln fuzz: %s failed without an error diagnostic\n", what);
  abort();
}

} // namespace kiln::fuzz

#endif // KILN_FUZZ_FUZZCONTEXT_H
