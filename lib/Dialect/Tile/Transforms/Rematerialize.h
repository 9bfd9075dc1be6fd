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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace kiln::tile {

/// An op computed element by element in whatever layout its result has
/// (arith / math elementwise ops, tile.where, tile.addptr, ...).
bool isLayoutAgnosticElementwise(mlir::Operation *op);

/// `v` recomputed in `layout` (ops created at `builder`'s insertion point),
/// or null when that is not cheap within `depth` producers. With a null
/// `builder` nothing is created: a non-null result only says that it would
/// succeed.
mlir::Value rematerialize(mlir::Value v, mlir::Attribute layout, mlir::OpBuilder *builder,
                          unsigned depth);

/// Gives each further use of cheap index math (aranges, splats, dense
/// constants, and expand_dims / broadcast / addptr / integer arithmetic of
/// those) its own copy, before --tile-assign-layouts chooses layouts: every
/// memory access then picks the layout its own pointers want, as Triton's
/// coalescing does per access with the index math recomputed.
/// `offs_n[None, :]` feeding a pointer contiguous along dim 0 and another
/// contiguous along dim 1 would otherwise tie both tiles to one layout (one
/// of the two loads then strided). CSE after the assignment merges the
/// copies that land in the same layout.
void untieCheapIndexMath(mlir::func::FuncOp func);

} // namespace kiln::tile

#endif
