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

namespace kiln::fuzz {

inline bool looksLikePointer(llvm::StringRef name) {
  return name.contains_insensitive("ptr") || name.contains_insensitive("out") ||
         (name.size() == 1 && name[0] >= 'A' && name[0] <= 'Z');
}

/// The spec of the first kernel of `source`, or nullopt when the frontend
/// rejects the module level already (that path is still exercised).
inline std::optional<KernelSpec> deriveSpec(llvm::StringRef source,
                                            llvm::StringRef filename) {
  auto kernels = listKernels(source, filename);
  if (!kernels) {
    llvm::consumeError(kernels.takeError());
    return std::nullopt;
  }
  if (kernels->empty())
    return std::nullopt;
  KernelSpec spec;
  spec.kernelName = kernels->front();
  auto params = listKernelParameters(source, filename, spec.kernelName);
  if (!params) {
    llvm::consumeError(params.takeError());
    return std::nullopt;
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
