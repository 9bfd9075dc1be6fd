//===- SlotOperands.h - Which dot operand loads go to shared memory -*- C++ -*-===//
//
// The choice --tile-pipeline-loops (PipelineLoops.cpp) makes before it
// rewrites a loop: which tile.loads feeding tl.dot become copies into
// !tile.smem slots, and in which orientation each slot is stored.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_SLOTOPERANDS_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_SLOTOPERANDS_H

#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

namespace kiln::tile {

/// Bytes of a tensor type's elements (pointers: 8).
int64_t tensorBytes(mlir::Type type);

/// The load a dot operand comes from: directly, through a #tile.dot_op
/// conversion, and through a 2-D transpose (the paths a slot is read by).
LoadOp operandLoad(mlir::Value operand);

/// Whether `v` is a constant +0.0 (scalar or splat).
bool isZeroConstant(mlir::Value v);

/// Whether `load`'s masked-off elements are zero (or it has no `other`): what
/// a cp.async copy fills them with.
bool zeroPadded(LoadOp load);

/// Whether a pipelined copy of `load` into a slot fills its masked-off
/// elements as the load does: zero (cp.async), or the descriptor's padding
/// (TMA). Loads staged without pipelining are copied only when zeroPadded.
bool paddingFilledByCopy(LoadOp load);

/// Whether `load` loads f32 or fp8 elements: operands that only wgmma reads
/// from slots (K-major, tf32 or fp8), never ldmatrix.
bool isKMajorOnlyLoad(LoadOp load);

/// Whether `load`'s slot stores its tile transposed (first dimension
/// innermost, as its threads' runs go).
bool isTransposedOperand(LoadOp load);

/// Whether the copies of `load` can move at least 4 bytes each, the least
/// cp.async moves.
bool copiesWords(LoadOp load, const kiln::ModuleAxisInfo &axis);

/// Whether `load` (f32 or fp8) is an operand of one dot that can run as
/// sm_90 wgmma (tf32 or fp8) once both its operands sit in K-major slots.
bool isKMajorSlotOperand(LoadOp load);

/// A load the pass may turn into copies into shared memory.
bool isCopyableDotOperand(LoadOp load);

/// The loads of `loop`'s own block that feed its dots through shared
/// memory, less `excluded` (and the other operand of a K-major dot that
/// loses one: such a dot reads both operands from slots or neither).
llvm::SmallVector<LoadOp>
dotOperandLoads(mlir::scf::ForOp loop,
                const llvm::DenseSet<mlir::Operation *> &excluded = {});

/// The other loads of a pipelined loop (a tile scaled before it meets the
/// dot, the 1-D factors it is scaled by), which Triton's pipeliner starts
/// ahead as well: `slotted` ones (1-D and 2-D float tiles) are copied into
/// slots like the dot's operands and read back into their own layout;
/// `prefetched` ones (scalars) are loaded ahead into registers carried
/// through the loop.
struct CompanionLoads {
  llvm::SmallVector<LoadOp> slotted, prefetched;
  bool empty() const { return slotted.empty() && prefetched.empty(); }
};

/// Whether `load`, a scalar companion load, can be copied ahead into a slot
/// as a tile (scalarAsTileLoad): an fp32 (cp.async copies 4 bytes or more,
/// and slots hold floats) whose masked value, if any, is the copy's zero.
bool scalarCopyable(LoadOp load);

/// `load` (scalarCopyable) made a load of a tile of four copies of it in one
/// thread of `numWarps` warps (its pointer, mask and `other` splatted), read
/// back as one of them; returns the tile's load. The pipeliner then copies it ahead
/// by cp.async into a slot of its own like the other companion loads, as
/// Triton's pipeliner copies scalars (one thread copies, every thread reads
/// it back). Carried in registers instead, a scalar of iteration i + lead
/// moves through lead registers, and ptxas waits at its first use for the
/// load started at the end of the previous iteration (the prologue's loads
/// share its scoreboard): fla's gated delta state kernel waited most of a
/// load's latency every iteration on its gate `tl.load(g + last)`.
LoadOp scalarAsTileLoad(LoadOp load, unsigned numWarps);

/// Undoes scalarAsTileLoad for its `tile` (when the loop is not pipelined
/// with it after all): the scalar load again, in the tile's place.
void restoreScalarLoad(LoadOp tile);

/// The companion loads of `loop` (not among `dotLoads` or `excluded`).
/// A load started ahead could miss a store of an iteration before it: none
/// when the loop writes memory other than through stores and atomics whose
/// kernel argument is known, or writes and carries no tile from one
/// iteration to the next, and never a load through an argument the loop
/// writes through (distinct arguments are taken not to overlap).
CompanionLoads companionLoads(mlir::scf::ForOp loop, llvm::ArrayRef<LoadOp> dotLoads,
                              const llvm::DenseSet<mlir::Operation *> &excluded,
                              const kiln::ModuleAxisInfo &axis);

/// The dot operand loads of `loop` (less `excluded`) that stageInLoop
/// (PipelineLoops.cpp) can stage at one point, after the last of them: each
/// is loaded before the first use of any of them. Attention's K feeds the first dot before V is
/// loaded; staging both after V would leave that dot reading a slot not yet
/// written, so V stays a load its dot stages itself. (A K-major operand's
/// use is through its #tile.dot_op conversion.)
llvm::SmallVector<LoadOp> stageableTogether(mlir::scf::ForOp loop,
                                            llvm::DenseSet<mlir::Operation *> excluded);

/// A buffer of one slot holding `load`'s tile as the dots read it.
SharedMemoryType oneSlotType(LoadOp load);

/// A dot operand loaded once before the loops that multiply with it (the
/// queries of attention), copied into one slot where it is loaded
/// (OneSlotStaging.cpp).
void stageInvariantOperand(LoadOp load);

/// `loads` (one loop body, the last after the others) through one slot each,
/// written and read in the same iteration: the `wordCopies` by cp.async, the
/// others loaded and stored (OneSlotStaging.cpp).
void stageInLoop(mlir::scf::ForOp loop, llvm::ArrayRef<LoadOp> loads,
                 const llvm::DenseSet<mlir::Operation *> &wordCopies);

/// Whether `load`, a 2-D f16 / bf16 / f32 tile loaded in no loop (rows of
/// whole 16-byte chunks), is read only through one conversion to an
/// accumulator's (#tile.mma) layout (an epilogue's tile, combined with the
/// product).
bool isConvertedOnlyLoad(LoadOp load);

/// Such a load copied into one slot (by TMA where its block can be, else by
/// cp.async when `byCpAsync`) and read from there in the converted layout:
/// no registers hold the tile in flight and the conversion's shared-memory
/// writes go (OneSlotStaging.cpp). Returns false, changing nothing, when
/// it cannot be copied or the slot would not fit.
bool stageConvertedLoad(LoadOp load, bool byCpAsync);

/// Once a K-major operand (tf32, fp8) is copied into a slot, its dot reads
/// the slot: the #tile.dot_op conversion between the load and the dot is
/// dropped.
void readKMajorOperandsFromSlots(llvm::ArrayRef<LoadOp> loads);

} // namespace kiln::tile

#endif // KILN_LIB_DIALECT_TILE_TRANSFORMS_SLOTOPERANDS_H
