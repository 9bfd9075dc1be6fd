//===- Passes.h - Tile dialect transformation passes ----------------------===//
#ifndef KILN_DIALECT_TILE_TRANSFORMS_PASSES_H
#define KILN_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace kiln::tile {

#define GEN_PASS_DECL
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace kiln::tile

#endif // KILN_DIALECT_TILE_TRANSFORMS_PASSES_H
