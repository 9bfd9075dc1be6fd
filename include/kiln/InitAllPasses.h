//===- InitAllPasses.h - Register every Kiln pass (for kiln-opt) ----------===//
#ifndef KILN_INITALLPASSES_H
#define KILN_INITALLPASSES_H

#include "kiln/Conversion/TileToLLVM/Passes.h"
#include "kiln/Dialect/Tile/Transforms/Passes.h"
#include "kiln/Target/Passes.h"

namespace kiln {
/// Registers Kiln's tile, analysis-test and conversion passes with MLIR's
/// global pass registry so kiln-opt exposes them as flags.
inline void registerAllKilnPasses() {
  tile::registerTileTransformsPasses();
  registerTileConversionPasses();
  registerKilnTargetPasses();
}
} // namespace kiln

#endif
