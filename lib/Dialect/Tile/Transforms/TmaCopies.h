//===- TmaCopies.h - Which descriptor loads the pipeliner copies with TMA -*- C++ -*-===//
//
// On sm_90 a pipelined load of a 2-D host tensor descriptor's block (a
// tile.load with `coords` and `descArg`) is copied by the TMA unit
// (tile.tma_copy) instead of by cp.async: one instruction per panel instead
// of one per 16 bytes per thread, no per-element addresses or bounds tests
// held in registers, the bounds tested by the hardware. The kernel then
// takes a CUtensorMap parameter per descriptor, after all others: an
// `!llvm.ptr` argument with `tile.tensormap` (the descriptor's base
// argument), `tile.tma_box` (rows x columns of one copy) and
// `tile.tma_swizzle` (bytes: 0, 32, 64 or 128), which the runtime encodes
// at launch (KernelInfo::tensorMaps). A descriptor made in the kernel (a
// tile.load with `desc`) whose fields are defined before the loop gets its
// tensor map from a tile.tensormap_create placed where its last field is
// defined, which writes it into the kernel's global scratch (a last
// `!llvm.ptr` argument marked kGlobalScratchAttr, 128 bytes per map and
// program; KernelInfo::globalScratchBytes).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TILE_TRANSFORMS_TMACOPIES_H
#define KILN_LIB_DIALECT_TILE_TRANSFORMS_TMACOPIES_H

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "kiln/Dialect/Tile/Transforms/Passes.h"

namespace kiln::tile {

/// Whether `op`'s module targets sm_90 or later and allows TMA (no
/// kNoTmaAttr).
bool targetHasTma(mlir::Operation *op);

/// Whether a 2-D block of type `block` moves by TMA through a slot: a slot
/// element type (f16, bf16, f32, fp8, int8), rows of 16-byte chunks cut into
/// panels of at most 128 bytes, at most 256 rows, a multiple of 8 (each
/// panel then starts at its swizzle's period).
bool isTmaBlock(mlir::Type block);

/// Whether `load` is a descriptor block that a slot can receive by TMA
/// (targetHasTma, isTmaBlock): a host descriptor's or one made in the kernel
/// before the load's loop.
bool isTmaCandidate(LoadOp load);

/// Whether the pipeliner copies `load` with TMA when it slots it: a
/// candidate whose slot is stored as the tensor is (not transposed). Such a
/// load needs no alignment from the axis analysis, and its padding (zero or
/// NaN) is filled by the copy.
bool copiedWithTma(LoadOp load);

/// A descriptor block's load or store, as the tensor maps see it.
struct DescriptorBlock {
  mlir::Operation *access;
  mlir::RankedTensorType type; ///< the block
  std::optional<int64_t> descArg; ///< a host descriptor's base argument
  mlir::ValueRange desc; ///< or the fields of one made in the kernel
  mlir::ValueRange coords; ///< outermost first
  bool nanFill;
  static DescriptorBlock of(LoadOp load);
  static DescriptorBlock of(StoreOp store);
};

/// Whether `access` has the coordinates of a block that TMA moves: two, or
/// one per dimension of a host descriptor's block of rank 3 to 5 whose unit
/// dimensions the access dropped (`[1, BM, BK]` as BM x BK).
bool hasTmaCoords(const DescriptorBlock &access);

/// The tensor map for `block`'s descriptor, with a box of one slot panel
/// (all rows, at most 128 bytes of each) and the slot's swizzle: as
/// tensorMapFor(LoadOp) below.
mlir::Value tensorMapFor(const DescriptorBlock &block);

/// The tensor map for `load`'s descriptor: for a host descriptor the
/// kernel's CUtensorMap argument (added after the other arguments on first
/// use), or null when the descriptor already has one of another box; for a
/// descriptor made in the kernel the result of its tile.tensormap_create
/// (made on first use of that descriptor and box).
mlir::Value tensorMapFor(LoadOp load);

} // namespace kiln::tile

#endif // KILN_LIB_DIALECT_TILE_TRANSFORMS_TMACOPIES_H
