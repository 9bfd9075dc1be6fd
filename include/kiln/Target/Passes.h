//===- Passes.h - Target passes (PTX emission for tests) ------------------===//
#ifndef KILN_TARGET_PASSES_H
#define KILN_TARGET_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Target/Passes.h.inc"

} // namespace kiln

#endif // KILN_TARGET_PASSES_H
