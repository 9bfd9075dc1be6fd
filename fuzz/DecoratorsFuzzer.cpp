//===- DecoratorsFuzzer.cpp - @triton.autotune / @triton.heuristics -------===//
//
// Input: a Triton-language file. The decorators of its first kernel are read
// (Kiln's evaluator of module-level Python: Configs, lambdas) and, when there
// are heuristics, run over launch arguments derived from the parameters.
// Findings: crashes, sanitizer reports, hangs, leaks, empty error messages.
//
//===----------------------------------------------------------------------===//
#include "FuzzSpec.h"
#include "kiln/Frontend/Decorators.h"
#include "kiln/Frontend/Frontend.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace kiln;

static void requireMessage(llvm::Error err, const char *what) {
  if (!err)
    return;
  if (llvm::toString(std::move(err)).empty()) {
    fprintf(stderr, "kiln fuzz: %s failed with an empty message\n", what);
    abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef source(reinterpret_cast<const char *>(data), size);
  auto kernels = listKernels(source, "fuzz.py");
  if (!kernels || kernels->empty()) {
    if (!kernels)
      llvm::consumeError(kernels.takeError());
    return 0;
  }
  auto decorators = KernelDecorators::parse(source, "fuzz.py", kernels->front());
  if (!decorators) {
    requireMessage(decorators.takeError(), "KernelDecorators::parse");
    return 0;
  }
  if (const AutotuneSpec *tune = decorators->autotune())
    for (const AutotuneConfig &c : tune->configs)
      (void)c.toString();
  if (!decorators->hasHeuristics())
    return 0;
  auto params = listKernelParameters(source, "fuzz.py", kernels->front());
  if (!params) {
    llvm::consumeError(params.takeError());
    return 0;
  }
  LaunchArgs args;
  for (const KernelParameter &p : *params) {
    if (p.isConstexpr)
      continue; // Heuristics may compute it; a config may supply it.
    args[p.name] = fuzz::looksLikePointer(p.name)
                       ? LaunchValue::pointer(DType::F32, 0x10000)
                       : LaunchValue::integer(1000);
  }
  requireMessage(decorators->applyHeuristics(args), "applyHeuristics");
  for (const auto &[name, value] : args)
    (void)value.literal();
  return 0;
}
