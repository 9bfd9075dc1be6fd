//===- FuzzSpec.h - A plausible KernelSpec for a fuzzed source file -------===//
//
// The frontend and pipeline fuzzers need a kernel name and a signature that
// fit the input, or nearly every input would stop at "kernel not found" or
// "signature has N entries". The first @triton.jit def is taken; pointer-like
// parameter names get `*fp32:16`, other runtime parameters `i32`, constexprs
// their default or 16 (a power of two, valid for tl.arange).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FUZZ_FUZZSPEC_H
#define KILN_FUZZ_FUZZSPEC_H

#include "kiln/Frontend/Frontend.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace kiln::fuzz {

inline bool looksLikePointer(llvm::StringRef name) {
  return name.contains_insensitive("ptr") || name.contains_insensitive("out") ||
         (name.size() == 1 && name[0] >= 'A' && name[0] <= 'Z');
}

/// The name of the first top-level `def` after a decorator line mentioning
/// `jit`, found textually (no lexing): a guess that saves the frontend a
/// whole parse and module resolution per input.
inline std::optional<llvm::StringRef> guessFirstKernel(llvm::StringRef source) {
  bool afterJit = false;
  while (!source.empty()) {
    auto [line, rest] = source.split('\n');
    source = rest;
    if (line.starts_with("@")) {
      afterJit |= line.contains("jit");
    } else if (afterJit && line.consume_front("def ")) {
      llvm::StringRef name = line.take_until([](char c) { return c == '('; }).trim();
      if (!name.empty() && name.size() < line.size())
        return name;
      return std::nullopt;
    } else if (!line.trim().empty() && !line.trim().starts_with("#")) {
      afterJit = false;
    }
  }
  return std::nullopt;
}

/// The spec of the first kernel of `source`, or nullopt when the frontend
/// rejects the module level already (that path is still exercised).
/// listKernelParameters goes straight to the guessed kernel; listKernels
/// (the same parse and resolution, then a different query) runs when the
/// guess finds nothing or names no kernel.
inline std::optional<KernelSpec> deriveSpec(llvm::StringRef source,
                                            llvm::StringRef filename) {
  KernelSpec spec;
  std::optional<std::vector<KernelParameter>> params;
  if (std::optional<llvm::StringRef> guess = guessFirstKernel(source)) {
    spec.kernelName = guess->str();
    auto listed = listKernelParameters(source, filename, spec.kernelName);
    if (listed) {
      params = std::move(*listed);
    } else {
      // Not a kernel after all ("cannot read the kernels of ..."): ask
      // listKernels. Any other error is the module's (syntax, resolution).
      std::string message = llvm::toString(listed.takeError());
      if (!llvm::StringRef(message).starts_with("cannot read the kernels of"))
        return std::nullopt;
    }
  }
  if (!params) {
    auto kernels = listKernels(source, filename);
    if (!kernels) {
      llvm::consumeError(kernels.takeError());
      return std::nullopt;
    }
    if (kernels->empty())
      return std::nullopt;
    spec.kernelName = kernels->front();
    auto listed = listKernelParameters(source, filename, spec.kernelName);
    if (!listed) {
      llvm::consumeError(listed.takeError());
      return std::nullopt;
    }
    params = std::move(*listed);
  }
  for (const KernelParameter &p : *params) {
    ParamSpec ps;
    if (p.isConstexpr) {
      ps.kind = ParamSpec::Kind::Constexpr;
      ps.constexprValue = p.defaultValue.value_or("16");
      spec.constexprs[p.name] = ps.constexprValue;
    } else if (looksLikePointer(p.name)) {
      ps.kind = ParamSpec::Kind::Pointer;
      ps.dtype = DType::F32;
      ps.divisibility = 16;
    } else {
      ps.kind = ParamSpec::Kind::Scalar;
      ps.dtype = DType::I32;
    }
    spec.signature.push_back(std::move(ps));
  }
  return spec;
}

} // namespace kiln::fuzz

#endif // KILN_FUZZ_FUZZSPEC_H
