//===- Rematerialize.h - Recompute cheap tensors in another layout -*- C++ -*-===//
//
// A tensor that is cheap to compute in any layout (constants, splats,
// aranges, and broadcasts, expand_dims or elementwise ops of those) is
// recomputed in the layout a user needs instead of being converted through
// shared memory. Used by --tile-remove-layout-conversions and by the
// pipeliner (the pointers and masks of its copies).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_REMATERIALIZE_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_REMATERIALIZE_H

#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"

namespace kiln::tile {

/// `v` recomputed in `layout` (ops created at `builder`'s insertion point),
/// or null when that is not cheap within `depth` producers. With a null
/// `builder` nothing is created: a non-null result only says that it would
/// succeed.
mlir::Value rematerialize(mlir::Value v, mlir::Attribute layout, mlir::OpBuilder *builder,
                          unsigned depth);

} // namespace kiln::tile

#endif
