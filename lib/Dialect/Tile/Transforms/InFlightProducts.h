//===- InFlightProducts.h - wgmma products left in flight across iterations -*- C++ -*-===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_INFLIGHTPRODUCTS_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_INFLIGHTPRODUCTS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::tile {

/// In a pipelined loop of asynchronous (wgmma) products: marks the chains
/// of products into an accumulator that only the next iteration reads
/// `tile.wgmma_pending = 1` (each then waits only for the products before
/// its own), and makes the next iteration's other reads of such an
/// accumulator go through a tile.dot_wait.
void keepProductsInFlight(mlir::scf::ForOp loop);

} // namespace kiln::tile

#endif // KILN_LIB_DIALECT_TILE_TRANSFORMS_INFLIGHTPRODUCTS_H
