//===- RegisterEstimate.h - Registers a loop body's tensors take -*- C++ -*-===//
//
// Before layouts are lowered, what a thread's registers hold: the
// floating-point tensors live at each op of a loop body, for a pass that
// trades registers against something else (PipelineLoops.cpp: a slot given
// up for a second program per SM).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_REGISTERESTIMATE_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_REGISTERESTIMATE_H

#include "mlir/IR/Block.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace kiln::tile {

/// Registers a thread has, and the margin the estimate leaves for
/// addresses, indices, loop counters and wgmma descriptors.
inline constexpr int64_t kThreadRegisters = 255, kRegisterMargin = 32;

/// 32-bit registers per thread of a floating-point tensor of `type` spread
/// over `threads` (16-bit elements packed in pairs). Other values count
/// none: index, mask and address tensors mostly fold into the addresses,
/// and scalars are in the margin.
int64_t tensorRegisters(mlir::Type type, int64_t threads);

/// The most registers the tensors of `body` live after one of its ops take
/// at once: its arguments (loop-carried values) and the results of its ops
/// while a later op (or the terminator) reads them, but constants, splats,
/// broadcasts, slot reads that only products read in place, and the values
/// `ignored` says.
int64_t peakTensorRegisters(mlir::Block &body, int64_t threads,
                            llvm::function_ref<bool(mlir::Value)> ignored = nullptr);

} // namespace kiln::tile

#endif // KILN_LIB_DIALECT_TILE_TRANSFORMS_REGISTERESTIMATE_H
