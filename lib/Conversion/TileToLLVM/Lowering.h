//===- Lowering.h - Shared pieces of the tile -> LLVM/NVVM lowering -------===//
//
// Internal to lib/Conversion/TileToLLVM. The lowering runs in phases:
//   1. distribute: tensors become the N values one thread owns (a 1:N type
//      conversion); tile ops become LLVM/NVVM ops and inline PTX; arith and
//      math ops on tensors become N scalar ops; scf ops get converted types;
//   2. scf -> cf;
//   3. arith, math, cf, func -> llvm (math precision chosen in MathToNVVM);
//   4. unrealized casts are reconciled.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_CONVERSION_TILETOLLVM_LOWERING_H
#define KILN_LIB_CONVERSION_TILETOLLVM_LOWERING_H

#include "kiln/Analysis/DistributedLayout.h"
#include "kiln/Analysis/LayoutExchange.h"
#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

namespace kiln::lowering {

/// Name of the extern dynamic shared-memory array all scratch lives in.
inline constexpr const char *kSharedSymbol = "kiln_smem";
/// Global address space (tile pointers) and shared address space.
inline constexpr unsigned kGlobalSpace = 1, kSharedSpace = 3;

/// Facts computed before the conversion starts (the analyses cannot run on
/// half-converted IR).
struct LoweringState {
  unsigned numWarps = 4;
  unsigned computeCapability = 90;
  /// Elements per memory access of each tile.load / tile.store.
  llvm::DenseMap<mlir::Operation *, unsigned> vectorWidth;
  /// Elementwise ops whose result the axis analysis proves constant over
  /// aligned blocks (a mask `cols < n` with n a multiple of 16): the block
  /// length per dimension. One value per block is computed (as Triton's
  /// elementwise lowering deduplicates by constancy).
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<int64_t, 4>> constancy;
  /// Thread, lane and warp ids, computed once at each function's entry.
  struct ThreadIds {
    mlir::Value tid, lane, warp;
  };
  llvm::DenseMap<mlir::Operation *, ThreadIds> threadIds;
  /// Some tile.dot runs as wgmma (the module targets sm_90a).
  bool usesWgmma = false;
  /// Byte offset of each tile.local_alloc in the dynamic shared memory.
  llvm::DenseMap<mlir::Operation *, int64_t> localAllocOffset;
  /// Byte offset of the mbarriers of each tile.local_alloc with `barriers`
  /// (8 per slot): after everything else, so that they do not push the
  /// next buffer to its next 1024-byte boundary.
  llvm::DenseMap<mlir::Operation *, int64_t> barrierOffset;
  /// Bytes of global scratch per program of each tile.tensormap_create's
  /// kernel (its kGlobalScratchAttr, read before the function is converted).
  llvm::DenseMap<mlir::Operation *, int64_t> scratchPerProgram;
  /// The ids of the function containing `op`.
  const ThreadIds &idsFor(mlir::Operation *op) const;
  /// Fragments mma.sync dots read from a slot with ldmatrix, by (the
  /// tile.local_load read in place, the dot's accumulator layout, A or B |
  /// transposed << 1, fragment origin M or N, K): a later dot of the same
  /// block that reads the same tile the same way takes them
  /// (DotOpToLLVM.cpp), as Triton loads a shared operand's fragments once.
  using SlotFragmentKey =
      std::tuple<mlir::Operation *, mlir::Attribute, unsigned, int64_t, int64_t>;
  mutable llvm::DenseMap<SlotFragmentKey, llvm::SmallVector<mlir::Value, 8>> slotFragments;
};

/// Tensor -> the element values one thread owns; !tile.ptr -> !llvm.ptr<1>.
class TileTypeConverter : public mlir::TypeConverter {
public:
  explicit TileTypeConverter(mlir::MLIRContext *ctx);
};

void populateElementwisePatterns(TileTypeConverter &converter,
                                 const LoweringState &state,
                                 mlir::RewritePatternSet &patterns);
void populateMemoryPatterns(TileTypeConverter &converter,
                            const LoweringState &state,
                            mlir::RewritePatternSet &patterns);
void populateReducePatterns(TileTypeConverter &converter,
                            const LoweringState &state,
                            mlir::RewritePatternSet &patterns);
void populateScanPatterns(TileTypeConverter &converter,
                          const LoweringState &state,
                          mlir::RewritePatternSet &patterns);
void populateConvertLayoutPatterns(TileTypeConverter &converter,
                                   const LoweringState &state,
                                   mlir::RewritePatternSet &patterns);
void populatePrintPatterns(TileTypeConverter &converter,
                           const LoweringState &state,
                           mlir::RewritePatternSet &patterns);
/// tile.sort / tile.gather / tile.histogram (Sort/Gather/HistogramOpToLLVM).
void populateSortPatterns(TileTypeConverter &converter, const LoweringState &state,
                          mlir::RewritePatternSet &patterns);
void populateGatherPatterns(TileTypeConverter &converter, const LoweringState &state,
                            mlir::RewritePatternSet &patterns);
void populateHistogramPatterns(TileTypeConverter &converter, const LoweringState &state,
                               mlir::RewritePatternSet &patterns);
/// tile.dot: mma.sync or FMA on operands in #tile.dot_op layouts
/// (DotOpToLLVM.cpp).
void populateDotPatterns(TileTypeConverter &converter, const LoweringState &state,
                         mlir::RewritePatternSet &patterns);
/// The swizzled shared-memory tile of 16-bit elements that ldmatrix and
/// wgmma read (dot operands, !tile.smem slots): rows are cut into panels of
/// at most 64 elements (128 bytes), stored one after the other (each `rows`
/// x panel); inside a panel, chunk c (16 bytes) of row r sits at
/// c ^ ((r / perPhase) % maxPhase) (kiln::ChunkSwizzle of the panel width):
/// the 128/64/32-byte swizzles of wgmma's canonical layouts.
struct SwizzledTile {
  int64_t rows, rowLen, panelLen, perPhase, maxPhase; // lengths in elements
  SwizzledTile(int64_t rows, int64_t rowLen);
  /// Bytes of one panel (rows x panelLen elements).
  int64_t panelBytes() const { return rows * panelLen * 2; }
  /// Element offset (i32) of (row, col); `col % 8` must be the offset
  /// within its chunk.
  mlir::Value offset(mlir::OpBuilder &b, mlir::Location loc, mlir::Value row,
                     mlir::Value col) const;
  /// The same offset of constant coordinates.
  int64_t offset(int64_t row, int64_t col) const;
  /// Whether the offset is linear over the bits of (row, col) (every length
  /// a power of two): then offset(r1 ^ r2, c1 ^ c2) = offset(r1, c1) ^
  /// offset(r2, c2).
  bool isLinear() const;
};
/// A 16-bit dot operand in swizzled shared memory (DotOperandToLLVM.cpp),
/// ready for ldmatrix: the buffer's geometry and the per-lane address parts.
struct StagedOperand {
  int64_t rows, rowLen;
  bool isA;
  int64_t byteBase;
  mlir::Value dynamicBase; ///< i32 bytes added to byteBase (a slot), or null
  llvm::SmallVector<mlir::Value> warpBase; ///< warp offset in the fragment layout
  mlir::Value laneRow, matLow, matHigh;
  /// Stored transposed (a source whose threads hold runs down the columns):
  /// B as N rows of K, read with ldmatrix without .trans; A as K rows of M,
  /// read with ldmatrix.trans.
  bool transposed = false;
  /// The tile.local_load whose slot this is, read in place (else null: the
  /// dot's own staging in the scratch).
  mlir::Operation *slot = nullptr;
};
/// Writes `values` (laid out as `src`, M x K for A, K x N for B) to the
/// scratch at `byteBase` (no barriers); `fragments` is the operand's
/// #tile.dot_op layout (kWidth 2), whose warp offsets the reads use.
StagedOperand stageOperand(mlir::OpBuilder &b, mlir::Location loc,
                           const LoweringState::ThreadIds &ids,
                           const DistributedLayout &src, llvm::ArrayRef<mlir::Value> values,
                           const DistributedLayout &fragments, bool isA, int64_t byteBase);
/// An operand already in swizzled shared memory (a !tile.smem slot at
/// `byteBase` + `dynamicBase` bytes, `rows` x `rowLen` elements).
StagedOperand describeStaged(mlir::OpBuilder &b, mlir::Location loc,
                             const LoweringState::ThreadIds &ids, int64_t rows, int64_t rowLen,
                             const DistributedLayout &fragments, bool isA, int64_t byteBase,
                             mlir::Value dynamicBase);
/// 32-bit shared-memory address of 2-byte element `offset` of a tile at
/// `byteBase` (+ `dynamicBase` if set) bytes into the shared-memory array.
mlir::Value sharedAddress32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value offset,
                            int64_t byteBase, mlir::Value dynamicBase);
/// The mma.sync fragment registers (A: 4 from ldmatrix.x4; B: 2 from
/// ldmatrix.x2) of the tile at thread-relative origin (row0, col0). For B,
/// a nonzero `pairCol` reads the tile pairCol columns on as well, in one
/// ldmatrix.x4: 4 registers, the second tile's last.
llvm::SmallVector<mlir::Value> loadFragment(mlir::OpBuilder &b, mlir::Location loc,
                                            const StagedOperand &s, int64_t row0,
                                            int64_t col0, int64_t pairCol = 0);
/// Whether `op` runs as sm_90 wgmma (WgmmaToLLVM.cpp): f16/bf16 operands,
/// B in a pipelined slot or staged by the dot (computed in registers) and A
/// in a slot or in registers (#tile.dot_op, or the accumulator's layout), or
/// tf32 / fp8 operands both in K-major slots; an f32 accumulator with all
/// warps along M.
bool canUseWgmma(tile::DotOp op, unsigned computeCapability);
/// The shared-memory slot a wgmma reads a dot operand from in place: the
/// slot of a tile.local_load, or of a 2-D tile.trans of one (the same bytes
/// read with the other majorness; `flipped` is then set), as the
/// fused-attention backward reads Q^T and dO both ways. canUseWgmma still
/// requires tf32, fp8 and int8 operands to be read K-major.
tile::LocalLoadOp slotOperand(mlir::Value operand, bool &flipped);
/// The dots that read `load`'s tile, directly or through transposes; nullopt
/// when anything else reads it.
std::optional<llvm::SmallVector<tile::DotOp>> slotReaderDots(tile::LocalLoadOp load);

/// The NVVM intrinsic converting two f32 values to the fp8 type `fp8`
/// (`cvt.rn.satfinite.e4m3x2.f32` / `e5m2x2`: the first operand is the upper
/// byte), sm_89 and later.
inline llvm::StringRef fp8PairFromF32Intrinsic(mlir::Type fp8) {
  return mlir::isa<mlir::Float8E4M3FNType>(fp8) ? "llvm.nvvm.ff.to.e4m3x2.rn"
                                                : "llvm.nvvm.ff.to.e5m2x2.rn";
}
/// Lowers such a dot, updating `acc` (the accumulator's registers, laid out
/// as `c`); `aVals` (laid out as `a`) are A's registers when it has no slot,
/// `bVals` (laid out as `b`) B's when the dot stages it.
mlir::LogicalResult lowerWgmma(mlir::ConversionPatternRewriter &rewriter, tile::DotOp op,
                               const LoweringState &state, const DistributedLayout &a,
                               mlir::ValueRange aVals, const DistributedLayout &b,
                               mlir::ValueRange bVals, const DistributedLayout &c,
                               llvm::SmallVector<mlir::Value> &acc);
/// tile.dot_wait (WgmmaToLLVM.cpp).
void populateWgmmaPatterns(TileTypeConverter &converter, const LoweringState &state,
                           mlir::RewritePatternSet &patterns);
/// Places the scratch area and every tile.local_alloc buffer (their offsets
/// into state.localAllocOffset) by liveness; returns the bytes of shared
/// memory the kernel needs (SharedMemoryPlan.cpp).
unsigned planSharedMemory(mlir::ModuleOp module, LoweringState &state);
/// Scratch bytes of a tile.dot that stages its own operands (0 if it does not).
unsigned getDotScratchBytes(tile::DotOp op);
/// tile.convert_layout into f16/bf16 #tile.dot_op layouts: swizzled shared
/// memory and ldmatrix (DotOperandToLLVM.cpp; added by populateDotPatterns).
void populateDotOperandPatterns(TileTypeConverter &converter, const LoweringState &state,
                                mlir::RewritePatternSet &patterns);
/// Bytes from the shared-memory array's start to slot `slot` of a
/// !tile.smem buffer at byte `base` (i32 values).
mlir::Value slotByteOffset(mlir::OpBuilder &b, mlir::Location loc, tile::SharedMemoryType type,
                           mlir::Value base, mlir::Value slot);
/// The same for the slot a tile.local_load reads, from a pattern that reads
/// the slot itself instead of the local_load's registers (the dot, wgmma).
mlir::Value slotByteOffset(mlir::ConversionPatternRewriter &rewriter, mlir::Location loc,
                           const LoweringState &state, tile::LocalLoadOp slot);
/// tile.local_alloc / async_copy / async_commit / async_wait / local_load
/// (AsyncCopyOpToLLVM.cpp).
void populateAsyncCopyPatterns(TileTypeConverter &converter, const LoweringState &state,
                               mlir::RewritePatternSet &patterns);
/// tile.tma_copy / tma_wait / tma_init / tma_inval (TmaOpToLLVM.cpp).
void populateTmaPatterns(TileTypeConverter &converter, const LoweringState &state,
                         mlir::RewritePatternSet &patterns);
/// Elements of one tile.async_copy chunk (0: the pointers have no layout).
/// Chunks under 4 bytes are not cp.async: they are loaded and stored by the
/// copying threads themselves (synchronously).
unsigned asyncCopyChunkElements(kiln::tile::AsyncCopyOp op, const LoweringState &state);
/// tile.assert through CUDA's __assertfail (AssertOpToLLVM.cpp; populated
/// by populatePrintPatterns).
void populateAssertPatterns(TileTypeConverter &converter,
                            const LoweringState &state,
                            mlir::RewritePatternSet &patterns);
/// tile.precise_divf / precise_sqrt / extern_elementwise /
/// inline_asm_elementwise (MathOpToLLVM.cpp).
void populateMathOpPatterns(TileTypeConverter &converter,
                            mlir::RewritePatternSet &patterns);
/// Phase 3: scalar math with the precision Triton uses on NVIDIA GPUs.
void populateMathToNVVMPatterns(mlir::LLVMTypeConverter &converter,
                                mlir::RewritePatternSet &patterns);

/// Replaces scalar arith ops that have a flag-free LLVM twin in one walk,
/// ahead of the (much slower per op) conversion driver.
void rewritePlainScalarArith(mlir::Operation *root);

/// Shared-memory bytes an op needs as scratch (0 if none).
unsigned getScratchBytes(mlir::Operation *op);

/// Set on a tile.convert_layout through the scratch that no op touched since
/// the last barrier: its lowering skips its leading barrier.
inline constexpr llvm::StringLiteral kScratchIdleAttr = "tile.scratch_idle";
/// Set on a tile.async_wait that follows tile.local_store writes to slots
/// (st.shared: the generic proxy): on sm_90 its lowering adds the proxy fence
/// that wgmma's reads (the async proxy) need after such writes. The waits
/// of cp.async copies need none (markWaitsAfterSlotStores).
inline constexpr llvm::StringLiteral kFenceSlotStoresAttr = "tile.fence_slot_stores";
void markWaitsAfterSlotStores(mlir::ModuleOp module);
/// Set on a tile.tma_copy in the loop that reads its slots when only TMA
/// and wgmma (the async proxy) touch the buffer: its lowering leaves out the
/// proxy fence before the copy (markAsyncProxySlotCopies, TmaOpToLLVM.cpp).
inline constexpr llvm::StringLiteral kAsyncProxySlotAttr = "tile.async_proxy_slot";
void markAsyncProxySlotCopies(mlir::ModuleOp module, unsigned computeCapability);
/// Marks such conversions and erases the tile.barrier ops that a conversion
/// through the scratch before them already provides (BarrierElision.cpp).
void elideSharedMemoryBarriers(mlir::ModuleOp module);
unsigned getScanScratchBytes(tile::ScanOp op);
unsigned getSortScratchBytes(tile::SortOp op);
/// Scratch of tile.sort, tile.gather and tile.histogram (0 for other ops).
unsigned getSortGatherScratchBytes(mlir::Operation *op);

//===----------------------------------------------------------------------===//
// IR building helpers
//===----------------------------------------------------------------------===//

mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
/// Creates the thread, lane and warp ids (for a function's entry).
/// With `uniformWarp`, the warp id is broadcast from lane 0 (shfl.sync), which
/// tells ptxas it is the same in every lane.
LoweringState::ThreadIds createThreadIds(mlir::OpBuilder &b, mlir::Location loc,
                                         bool uniformWarp);
void barrier(mlir::OpBuilder &b, mlir::Location loc);
/// Whether `v` is defined by an op of `b`'s insertion block before its
/// insertion point.
bool definedBeforeInBlock(mlir::Value v, mlir::OpBuilder &b);
/// The shared-memory array, as !llvm.ptr<3>, advanced by `byteOffset`.
mlir::Value sharedPtr(mlir::OpBuilder &b, mlir::Location loc, mlir::Value byteOffset);
/// i1: whether this is thread 0 of the program.
mlir::Value isThread0(mlir::OpBuilder &b, mlir::Location loc,
                      const LoweringState::ThreadIds &ids);
mlir::Value andAll(mlir::OpBuilder &b, mlir::Location loc,
                   llvm::ArrayRef<mlir::Value> conds);

/// Per-dimension coordinate offset of this thread in `layout` (i32 values).
llvm::SmallVector<mlir::Value> threadCoords(mlir::OpBuilder &b, mlir::Location loc,
                                            const DistributedLayout &layout,
                                            mlir::Value lane, mlir::Value warp);
/// i1 true in the one thread of each group of copies (lane/warp bits with
/// zero bases all clear); null when the layout has no replication.
mlir::Value isFirstCopy(mlir::OpBuilder &b, mlir::Location loc,
                        const DistributedLayout &layout, mlir::Value lane,
                        mlir::Value warp);
/// Row-major index of (coords + offset) with `dims` of `shape` (i32).
mlir::Value linearize(mlir::OpBuilder &b, mlir::Location loc,
                      llvm::ArrayRef<mlir::Value> coords,
                      llvm::ArrayRef<int64_t> offset,
                      llvm::ArrayRef<int64_t> shape);

/// Integer type of the same width (i1 and sub-byte types: i8; pointers: i64)
/// used to move a value through memory or registers as raw bits.
mlir::Type bitsTypeFor(mlir::Type elem);
mlir::Value toBits(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v);
/// `vals` (narrow values) packed into one i32 register, the first in the
/// low bits (an mma operand register).
mlir::Value packToI32(mlir::OpBuilder &b, mlir::Location loc, mlir::ArrayRef<mlir::Value> vals);
mlir::Value fromBits(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bits,
                     mlir::Type elem);

/// The module's declaration of external function `name`, added at the top
/// of the module on first use.
mlir::LLVM::LLVMFuncOp getOrInsertFunction(mlir::ModuleOp module, mlir::OpBuilder &b,
                                           mlir::Location loc, llvm::StringRef name,
                                           mlir::LLVM::LLVMFunctionType type);
/// The address of a new private NUL-terminated constant holding `text`,
/// named `<prefix><n>` with the first free n.
mlir::Value stringConstant(mlir::ModuleOp module, mlir::OpBuilder &b, mlir::Location loc,
                           llvm::StringRef text, llvm::StringRef prefix);

/// Inline PTX with `$n` operands: results first, then `inputs`. Returns the
/// results (unpacked from the struct LLVM uses for several outputs).
llvm::SmallVector<mlir::Value>
inlinePtx(mlir::OpBuilder &b, mlir::Location loc, mlir::TypeRange resultTypes,
          mlir::ValueRange inputs, llvm::StringRef text,
          llvm::StringRef constraints, bool hasSideEffects);

/// "{$first, $first+1, ...}": `n` consecutive inline-asm operands as a PTX
/// vector operand.
std::string asmOperandList(unsigned first, unsigned n);

/// Combines two values of a reduction kind (sum / max / min).
enum class ReduceKind { Sum, Max, Min };
mlir::Value combine(mlir::OpBuilder &b, mlir::Location loc, ReduceKind kind,
                    mlir::Value x, mlir::Value y);
/// Clones the single block of a tile.reduce / tile.scan combiner at the
/// insertion point with its arguments bound to `acc` then `x`; returns the
/// values its tile.yield names.
llvm::SmallVector<mlir::Value> inlineCombiner(mlir::OpBuilder &b,
                                              mlir::Region &combiner,
                                              mlir::ValueRange acc,
                                              mlir::ValueRange x);
/// shfl.sync.bfly of any 16/32/64-bit scalar.
mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                       unsigned laneMask);
/// shfl.sync.idx of any 16/32/64-bit scalar: the value of lane `srcLane`.
mlir::Value shuffleIdx(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                       mlir::Value srcLane);

/// The exchange through shared memory of elements of `elemType`
/// (kiln::planExchange).
ExchangePlan planExchange(const DistributedLayout &src,
                          const DistributedLayout &dst, mlir::Type elemType);
unsigned exchangeScratchBytes(const DistributedLayout &src,
                              const DistributedLayout &dst, mlir::Type elemType);

/// Scatter `values` (laid out as `src`) to shared memory by element index,
/// then gather them in `dst` order. Emits the barriers around the scratch
/// (the first one only if not `scratchIdle`: kScratchIdleAttr).
llvm::SmallVector<mlir::Value>
exchangeThroughShared(mlir::OpBuilder &b, mlir::Location loc,
                      const LoweringState::ThreadIds &ids,
                      const DistributedLayout &src, llvm::ArrayRef<mlir::Value> values,
                      const DistributedLayout &dst, mlir::Type elemType,
                      bool scratchIdle = false);
/// Warp shuffles that carry out `plan` on `values` (laid out as the plan's
/// source): the values of the plan's destination layout.
llvm::SmallVector<mlir::Value>
exchangeByShuffles(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lane,
                   const WarpShufflePlan &plan, llvm::ArrayRef<mlir::Value> values,
                   mlir::Type elemType);
/// `values` (laid out as `src`) in layout `dst` of the same shape: register
/// renaming when every element stays in its thread, else warp shuffles or
/// an exchange through shared memory (chooseWarpShuffle).
llvm::SmallVector<mlir::Value>
relayout(mlir::OpBuilder &b, mlir::Location loc, const LoweringState::ThreadIds &ids,
         const DistributedLayout &src, llvm::ArrayRef<mlir::Value> values,
         const DistributedLayout &dst, mlir::Type elemType, bool scratchIdle = false);
unsigned relayoutScratchBytes(const DistributedLayout &src,
                              const DistributedLayout &dst, mlir::Type elemType);
unsigned getConvertLayoutScratchBytes(tile::ConvertLayoutOp op);
/// Shape ops (trans, reshape, join, split, cat): 0 when not one of them.
unsigned getShapeScratchBytes(mlir::Operation *op);
void populateShapePatterns(TileTypeConverter &converter, const LoweringState &state,
                           mlir::RewritePatternSet &patterns);

} // namespace kiln::lowering

#endif // KILN_LIB_CONVERSION_TILETOLLVM_LOWERING_H
