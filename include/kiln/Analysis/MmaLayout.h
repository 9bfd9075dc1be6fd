//===- MmaLayout.h - Distributed form of the tl.dot layouts -----*- C++ -*-===//
//
// #tile.mma (the accumulator of mma.sync m16n8 tiles and of wgmma) and #tile.dot_op (the
// A / B fragments it reads) in the bit-level form of DistributedLayout.h,
// and the facts the dot lowering needs about the instruction tiles.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_ANALYSIS_MMALAYOUT_H
#define KILN_ANALYSIS_MMALAYOUT_H

#include "kiln/Analysis/DistributedLayout.h"
#include "kiln/Dialect/Tile/IR/Tile.h"

namespace kiln {

/// Rows and columns of one mma.sync accumulator tile (m16n8).
inline constexpr int64_t kMmaTileM = 16, kMmaTileN = 8;

std::optional<DistributedLayout> mmaDistributedLayout(llvm::ArrayRef<int64_t> shape,
                                                      tile::MmaLayoutAttr mma);
std::optional<DistributedLayout>
dotOperandDistributedLayout(llvm::ArrayRef<int64_t> shape,
                            tile::DotOperandLayoutAttr op);

/// Whether `mma` arranges its warps in sm_90 warp groups, as wgmma needs
/// (WgmmaToLLVM.cpp): 4 consecutive warps on 64 consecutive rows. Version 3
/// does by construction; version 2 when all its warps are along M.
inline bool isWarpGroupMma(tile::MmaLayoutAttr mma) {
  llvm::ArrayRef<unsigned> wpc = mma.getWarpsPerCTA();
  return wpc[0] % 4 == 0 && (mma.getVersion() == 3 || wpc[1] == 1);
}

/// Whether an f16/bf16 A is in the accumulator's own layout with all warps
/// along M: each warp then holds its A fragments already (two adjacent m16n8
/// accumulator tiles are one m16k16 A fragment), and no dot stages it
/// (mamba's chunk scan scales its cb tile in that layout).
bool isAccumulatorLayoutA(tile::DotOp op);

/// Whether dot operand `index` is in registers in a form the dot reads as it
/// is (#tile.dot_op fragments, or such an A): the dot stages nothing for it.
bool isRegisterOperand(tile::DotOp op, unsigned index);

/// Whether a dot reads an operand in place from a slot through a 2-D
/// transpose of it (tile.trans of a tile.local_load): wgmma reads any slot so
/// (its descriptors name either major order), mma.sync only 16-bit ones
/// (ldmatrix's .trans moves 16-bit elements). The lowering and the
/// shared-memory estimates all ask this.
inline bool readsSlotThroughTranspose(bool wgmma, unsigned elementBits) {
  return wgmma || elementBits == 16;
}

/// K elements one mma.sync instruction consumes for operands of `kWidth`
/// elements per 32-bit register: 8 (tf32), 16 (f16/bf16), 32 (8-bit).
inline int64_t mmaInstrK(unsigned kWidth) { return 8 * int64_t(kWidth); }

/// kWidth for operands of element type `elem` on the mma.sync path, or 0 for
/// the FMA path (f32 with ieee precision, f64). fp8 operands use the f16
/// fragments (2): they are converted exactly to f16 in registers.
unsigned dotKWidth(mlir::Type elem, tile::InputPrecision precision);

/// warpsPerCTA of the accumulator layout for an M x N result: balances the
/// block each warp computes (fewest operand elements per warp), never
/// splitting below one 16x8 tile per warp when that can be avoided.
llvm::SmallVector<unsigned, 2> chooseMmaWarps(int64_t m, int64_t n,
                                              unsigned numWarps);

/// The XOR swizzle of a row-major shared-memory tile of 16-byte chunks that
/// ldmatrix reads without bank conflicts (DotOperandToLLVM.cpp): chunk `c`
/// of row `r` is stored at chunk `c ^ ((r / perPhase) % maxPhase)`.
struct ChunkSwizzle {
  int64_t rowLen;   ///< elements per row
  int64_t perPhase; ///< consecutive rows sharing one XOR pattern
  int64_t maxPhase; ///< number of distinct patterns
  static ChunkSwizzle forRow(int64_t rowLen, unsigned elemBytes) {
    int64_t rowBytes = rowLen * elemBytes, chunks = rowBytes / 16;
    int64_t perPhase = rowBytes >= 128 ? 1 : 128 / rowBytes;
    int64_t maxPhase = std::max<int64_t>(1, std::min<int64_t>(chunks, 8 / perPhase));
    return {rowLen, perPhase, maxPhase};
  }
  /// Element offset of (row, col) for `elemsPerChunk` elements per chunk.
  int64_t offset(int64_t row, int64_t col, int64_t elemsPerChunk) const {
    int64_t chunk = col / elemsPerChunk ^ ((row / perPhase) % maxPhase);
    return row * rowLen + chunk * elemsPerChunk + col % elemsPerChunk;
  }
};

} // namespace kiln

#endif // KILN_ANALYSIS_MMALAYOUT_H
