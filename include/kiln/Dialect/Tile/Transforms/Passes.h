//===- Passes.h - Tile dialect transformation passes ----------------------===//
#ifndef KILN_DIALECT_TILE_TRANSFORMS_PASSES_H
#define KILN_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace kiln::tile {

/// A module attribute that turns TMA copies of descriptor blocks off
/// (ahead-of-time kernels, whose generated launchers pass no tensor maps;
/// --tile-pipeline-loops=tma=false sets it).
inline constexpr const char *kNoTmaAttr = "tile.no_tma";

#define GEN_PASS_DECL
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace kiln::tile

#endif // KILN_DIALECT_TILE_TRANSFORMS_PASSES_H
