//===- LayerNormPlan.cpp - Variant choice for the fused norms -------------===//
//
// planNorm picks the kernel variant of examples/layernorm/layer_norm_fast.py
// and its launch parameters from the shape alone (docs/layernorm.md has the
// reasoning; bench/layernorm_host.py mirrors these numbers for Python).
//
//===----------------------------------------------------------------------===//
#include "RuntimeError.h"
#include "kiln/Runtime/LayerNorm.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cstdio>

using namespace kiln;
using namespace kiln::rt;

namespace {
/// Longest row (elements) the one-pass kernels keep in registers: the
/// forward holds x (16 fp32 per thread at 32 warps), the backward x, dy and
/// the dw/db accumulators (8 per thread at 32 warps without spilling).
constexpr int64_t kFwdOnePassMax = 32768;
constexpr int64_t kBwdOnePassMax = 8192;
/// Elements per program tile for short rows: ROWS = tile / BLOCK_N rows.
constexpr int64_t kFwdTile = 4096;
constexpr int64_t kBwdTile = 4096;
constexpr int64_t kMaxRows = 128;
/// Chunk lengths of the looped variants. Rows up to kFwdSmallChunkMax
/// elements use 4096-element chunks (8 warps, several programs per SM: all
/// rows in flight still fit in L2 for the second pass); longer rows use
/// 16384-element chunks at 16 warps, one program per SM, so that fewer rows
/// are in flight and more of each row is still in L2 when pass 2 reads it
/// (measured, fp16, pipelined: 16 warps 2602 / 2237 / 2085 GB/s at 4096 x
/// 65536 / 131072 / 262144, 32 warps 2586 / 2248 / 2081).
/// The chunked backward: [4, 2048] tiles at 16 warps, ~4 programs per SM
/// (measured 1884-2124 GB/s fwd+bwd over 4096 / 65536 x 32768-262144,
/// against 1816-1913 with [4, 1024] tiles and ~2 per SM).
constexpr unsigned kFwdChunk = 4096;
constexpr unsigned kFwdLongChunk = 16384;
constexpr unsigned kFwdLongChunkWarps = 16;
constexpr int64_t kFwdSmallChunkMax = 32768;
constexpr unsigned kBwdChunk = 2048;
constexpr unsigned kBwdChunkRows = 4;
constexpr int64_t kBwdChunkPerSM = 4;
/// The Columns backward for BLOCK_N 16384 (8192 only with a second output:
/// see kBwdPipeWideBlock): 16384-column chunks
/// (one per row) at 16 warps, one program per SM; 8192-column chunks with a
/// second output (two more accumulators) or fp32. Its dw/db are added during
/// the statistics walk and its chunk is read again (L1/L2) for dx, so a
/// whole 16384-column row fits beside the accumulators. Backward alone (H100,
/// write flush; docs/layernorm.md): fp16 65536 x 16384 2424 GB/s against
/// 1762 with 8192-column chunks; 65536 x 8192 2412 against 2382 for the
/// one-pass `_norm_bwd` (with a second output 2977 against 2603); fp32
/// 32768 x 16384 2154 against 1791 chunked. Not used: with the dx options
/// (dresidual, dropout, row scale; chunked 2178 against 1756 at 16384,
/// `_norm_bwd` kept at 8192), for fp32 at 8192 (not measured), and from
/// 32768 columns on (chunked 1797 against 1795 at bf16 65536 x 32768).
constexpr int64_t kBwdColumnsMinBlock = 8192;
constexpr int64_t kBwdColumnsMaxBlock = 16384;
constexpr int64_t kBwdColumnsChunk = 16384;
constexpr int64_t kBwdColumnsChunkNarrow = 8192;
constexpr unsigned kBwdColumnsWarps = 16;
/// Longer rows (fp16 / bf16, no dx option, no second output): the
/// Cooperative backward, 8192-column chunks at 16 warps (8 at bf16), one
/// program per SM, x and dy read once. fwd+bwd at 65536 x 32768 2521 GB/s
/// (bf16 2424 at 8 warps) against 2130 for the chunked one; 4096 x
/// 32768-262144 2338-1974 against 1758-1917. Launched cooperatively, so a
/// group of programs never waits for one that cannot start.
constexpr int64_t kBwdCoopChunk = 8192;
/// Rows from BLOCK_N = 131072 on (fp16, plain LayerNorm / RMSNorm: no
/// option that writes residualOut, no second output): the Cooperative
/// forward, 16384-column chunks at 16 warps, one program per SM, x read
/// once. fp16 4096 x 131072 / 262144: 2458 / 2480 GB/s against 2278 / 2161
/// for the chunked forward; at 65536 columns it loses (2376 against 2615),
/// 8192-column chunks lose everywhere (one exchange per 16 KB), and bf16
/// spills at 16384 columns (2069 / 2047 against 2262 / 2154).
constexpr int64_t kFwdCoopMinBlock = 131072;
constexpr int64_t kFwdCoopChunk = 16384;
constexpr unsigned kFwdCoopWarps = 16;
constexpr unsigned kBwdCoopWarps = 16;
constexpr unsigned kBwdCoopWarpsBF16 = 8;
/// The software-pipelined kernels (docs/layernorm.md, "Pipelining"): the
/// one-pass forward from this BLOCK_N on (persistent, kFwdPipePerSM
/// programs per SM), the chunked forward always when kFwdChunkedPipelined,
/// the one-pass backward from kBwdPipeMinBlock on.
/// Measured on the H100 (fp16, M = 65536, docs/layernorm.md): pipelining
/// wins for the 16384-element forward (16 warps: 2064 -> 2891 GB/s), the
/// chunked forward (+1-3 %: 2519 -> 2602 GB/s at 4096 x 65536) and the
/// backward up to 4096 (fwd+bwd 1871 -> 2321 at 1024, 1920 -> 2721 at 2048,
/// 2340 -> 2671 at 4096); it loses for shorter forward rows and at 8192.
constexpr int64_t kFwdPipeBlock = 16384;
/// Rows of BLOCK_N = 16384 with options that add live tensors, or fp32, go
/// through the chunked forward (4096-element chunks, 8 warps) unless an
/// override asks for whole rows: with x kept in L2 between its passes it
/// measured 3006 / 2736 GB/s at 65536 / 4096 x 16384 against 2885 / 2719
/// for the pipelined one-pass kernel on the H100. Plain fp16 / bf16 rows
/// take the one-pass kernel (measured on the H200, below).
constexpr int64_t kFwdChunkedBlock = 16384;
/// fp32 rows of BLOCK_N = 32768 (32 fp32 per thread at 32 warps) go through
/// the chunked forward with 8192-element chunks at 16 warps: 2964 / 2856
/// GB/s at 65536 / 4096 x 32768 against 2632 / 2577 in one pass at 16 warps
/// (2830 / 2751 at 32) and 2450 / 2408 with 4096-element chunks.
constexpr int64_t kFwdChunkedBlockF32 = 32768;
constexpr unsigned kFwdChunkF32 = 8192;
constexpr unsigned kFwdPipeWarps = 16;
constexpr int64_t kFwdPipePerSM = 1;
constexpr bool kFwdChunkedPipelined = true;
constexpr int64_t kBwdPipeMaxBlock = 4096;
constexpr int64_t kBwdPipeTile = 2048;
/// fp16 / bf16 rows of BLOCK_N = 8192 without the dx options or a second
/// output: the pipelined one-pass backward, one row per tile at 16 warps
/// (16 elements per thread; ptxas spills 20 bytes), one program per SM,
/// rather than the Columns one (nineteenth session, fwd+bwd GB/s, fp16 /
/// bf16: 4096 rows 2484 / 2515 against 2254 / 2223; 65536 rows 2893 / 2938
/// against 2632 / 2596; at 32 warps 2230-2918).
constexpr int64_t kBwdPipeWideBlock = 8192;
constexpr unsigned kBwdPipeWideWarps = 16;
/// Launch parameters measured on the H200 (twenty-second session,
/// `layernorm_best.py --tune`, fp16 / bf16 forward GB/s; docs/layernorm.md):
/// * short rows, kFwdShortRows or more per tile: 4 warps (32 elements per
///   thread): 65536 x 512 3558 / 3525 against 3272 / 3168 at 8 warps;
/// * BLOCK_N 8192 with more than kFwdWideRowsPerSM rows per SM: 2 rows per
///   program at 4 warps (65536 rows: 4103 / 4008 against 3973 / 3868 for
///   one row at 8 warps); fewer rows: the persistent pipelined kernel at 8
///   warps, 4 programs per SM (4096 rows: 3416 / 3397 against 3188 / 3115);
/// * BLOCK_N 32768: the persistent pipelined kernel at 8 warps, 2 programs
///   per SM (65536 rows 3810 / 3749, 4096 rows 3492 / 3572, against 3316 /
///   3224 and 3123 / 3046 in one pass at 16 warps).
/// Retuned on the H200 in the twenty-fourth session (the same tune, the
/// gaps left by the one above; "few rows": at most kFwdWideRowsPerSM rows
/// per SM):
/// * BLOCK_N 512: few rows, 4 rows per program at 2 warps (4096 rows: 1273 /
///   1267 against 1225 / 1225 for 8 rows at 4 warps, which stays for many);
/// * BLOCK_N 1024: 2 rows per program, 2 warps for few rows (4096 rows:
///   2002 / 2009 against 1950 / 1893 for 4 rows at 4 warps), 4 for many
///   (65536 rows: 3916 / 3913 against 3836 / 3810);
/// * BLOCK_N 2048: many rows, 4 rows at 4 warps (65536 rows: 4008 / 4006
///   against 3737 / 3672 for 2 rows at 8 warps); few, the persistent
///   pipelined kernel with 2 rows at 4 warps, 4 programs per SM (4096 rows:
///   2552 / 2527 against 2326 / 2305);
/// * BLOCK_N 4096: 1 row per program at 4 warps (32 elements per thread;
///   fp16, in one process: 4096 rows 3027 against 2934 at 8 warps, 65536
///   rows 4148 against 3850; bf16 takes the same rule, not tuned);
/// * BLOCK_N 16384: whole rows, the persistent pipelined kernel at 16
///   warps, one program per SM, instead of the chunked forward (4096 rows:
///   3574 / 3537 against 3440 / 3113; 65536 rows bf16: 3889 against 3536),
///   except for many fp16 rows, which stay chunked: 3939 against 3920 on
///   the H200 (3932 in the fifty-seventh session), 3006 against 2885 on the
///   H100 (eleventh session), where whole rows measured 2875 against
///   torch.compile's 3056 (fifty-sixth session).
/// Plain LayerNorm / RMSNorm in fp16 / bf16 only (options that add live
/// tensors and fp32 were not measured).
constexpr int64_t kFwdShortRows = 4;
constexpr int64_t kFwdNarrowBlock = 512;
constexpr int64_t kFwdNarrowFewRows = 4;
constexpr unsigned kFwdNarrowFewWarps = 2;
constexpr int64_t kFwdMidBlock = 1024;
constexpr int64_t kFwdMidRows = 2;
constexpr unsigned kFwdMidFewWarps = 2;
constexpr unsigned kFwdMidManyWarps = 4;
constexpr int64_t kFwdHalfBlock = 2048;
constexpr int64_t kFwdHalfManyRows = 4;
constexpr int64_t kFwdHalfFewRows = 2;
constexpr unsigned kFwdHalfWarps = 4;
constexpr int64_t kFwdHalfPipePerSM = 4;
constexpr int64_t kFwdQuarterBlock = 4096;
constexpr unsigned kFwdQuarterWarps = 4;
constexpr int64_t kFwdWideBlock = 8192;
constexpr int64_t kFwdWideRowsPerSM = 64;
constexpr int64_t kFwdWideRows = 2;
constexpr unsigned kFwdWideWarps = 4;
constexpr unsigned kFwdWidePipeWarps = 8;
constexpr int64_t kFwdWidePipePerSM = 4;
constexpr unsigned kFwdLongPipeWarps = 8;
constexpr int64_t kFwdLongPipePerSM = 2;
/// Largest tile (ROWS * BLOCK_N) an override may ask for.
constexpr int64_t kMaxTile = 65536;

/// A float as %g writes it ("0.5", "1", "1e-05").
std::string num(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", double(v));
  return buf;
}

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t pow2Ceil(int64_t v) {
  return int64_t(llvm::PowerOf2Ceil(uint64_t(std::max<int64_t>(v, 1))));
}

llvm::Error checkNormDType(DType t) {
  if (t == DType::F16 || t == DType::BF16 || t == DType::F32)
    return llvm::Error::success();
  return makeError(llvm::formatv(
      "norm: dtype {0} is not supported (fp16, bf16 or fp32)", dtypeName(t)));
}
} // namespace

llvm::Error kiln::rt::validateNormOptions(const NormOptions &o) {
  if (!(o.dropoutP >= 0.f && o.dropoutP < 1.f))
    return makeError(llvm::formatv("norm: dropoutP = {0}; need 0 <= p < 1",
                                   num(o.dropoutP)));
  if (!(o.eps >= 0.f))
    return makeError(
        llvm::formatv("norm: eps = {0}; need eps >= 0", num(o.eps)));
  if (o.secondBias && !o.secondOutput)
    return makeError("norm: secondBias needs secondOutput (b1 is the bias "
                     "of the second output y1)");
  if (o.numWarps != 0 && (!llvm::isPowerOf2_32(o.numWarps) || o.numWarps > 32))
    return makeError(llvm::formatv(
        "norm: numWarps = {0}; need a power of two from 1 to 32", o.numWarps));
  if (o.rowsPerTile != 0 &&
      (!llvm::isPowerOf2_32(o.rowsPerTile) || o.rowsPerTile > 1024))
    return makeError(llvm::formatv(
        "norm: rowsPerTile = {0}; need a power of two from 1 to 1024",
        o.rowsPerTile));
  if (o.kernels == NormKernels::Tutorial) {
    const char *opt = o.rms                ? "rms"
                      : !o.bias            ? "bias = false"
                      : o.residual         ? "residual"
                      : o.storeResidualOut ? "storeResidualOut"
                      : o.dropoutP > 0.f   ? "dropoutP > 0"
                      : o.rowScale         ? "rowScale"
                      : o.secondOutput     ? "secondOutput"
                      : o.rowsPerTile      ? "rowsPerTile"
                      : o.numWarps         ? "numWarps"
                      : o.partialRows      ? "partialRows"
                                           : nullptr;
    if (opt)
      return makeError(llvm::formatv(
          "norm: the tutorial kernels compute plain LayerNorm with bias and "
          "their own launch parameters; option `{0}` needs NormKernels::Auto",
          opt));
  }
  return llvm::Error::success();
}

llvm::Expected<NormPlan> kiln::rt::planNorm(int64_t M, int64_t N, DType dtype,
                                            const NormOptions &o,
                                            int multiprocessors) {
  if (auto err = checkNormDType(dtype))
    return err;
  if (auto err = validateNormOptions(o))
    return err;
  if (M < 0 || N < 1)
    return makeError(llvm::formatv(
        "norm: the input is [{0}, {1}]; need M >= 0 and N >= 1", M, N));
  const int64_t sms = std::max(multiprocessors, 1);
  NormPlan p;
  if (o.kernels == NormKernels::Tutorial) {
    auto fwd = layerNormForwardConfig(N, dtype);
    if (!fwd)
      return fwd.takeError();
    p.forward = p.backward = NormPlan::Variant::Tutorial;
    p.fwdBlockN = p.bwdBlockN = fwd->blockSize;
    p.fwdWarps = p.bwdWarps = fwd->numWarps;
    p.fwdGrid = uint32_t(M);
    return p;
  }

  const int64_t block = pow2Ceil(N);
  const int64_t rowCap = std::min(kMaxRows, pow2Ceil(M));
  auto checkTile = [&](int64_t rows, int64_t blockN) -> llvm::Error {
    if (rows * blockN > kMaxTile)
      return makeError(llvm::formatv(
          "norm: rowsPerTile = {0} with BLOCK_N = {1} makes a tile of {2} "
          "elements; at most {3}",
          rows, blockN, rows * blockN, kMaxTile));
    return llvm::Error::success();
  };

  // Forward: whole rows in registers (x read once) up to kFwdOnePassMax,
  // ROWS rows per program so that a program moves ~kFwdTile elements and
  // every thread 16 of them (two 16-byte accesses at fp16); longer rows
  // loop over chunks twice.
  const bool fp32 = dtype == DType::F32;
  const bool fp32Row = fp32 && block == kFwdChunkedBlockF32;
  // Plain LayerNorm / RMSNorm (no option adds a live tensor) in fp16 / bf16
  // without an override: the launch parameters measured on the H200.
  const bool lean = !o.writesResidualOut() && !o.secondOutput;
  const bool heuristic = lean && !fp32 && !o.rowsPerTile;
  const bool fewRows = M <= kFwdWideRowsPerSM * sms;
  const bool wholeRows16K = heuristic && (fewRows || dtype == DType::BF16);
  const bool chunkedRow =
      ((block == kFwdChunkedBlock && !wholeRows16K) || fp32Row) && !o.rowsPerTile;
  if (block <= kFwdOnePassMax && !chunkedRow) {
    p.forward = NormPlan::Variant::Rows;
    int64_t rows =
        o.rowsPerTile
            ? int64_t(o.rowsPerTile)
            : std::min(std::max<int64_t>(1, kFwdTile / block), rowCap);
    if (auto err = checkTile(rows, block))
      return err;
    p.fwdBlockN = unsigned(block);
    p.fwdRows = unsigned(rows);
    // 16 elements per thread up to 8 warps, then more per thread (measured:
    // 8192 at 8 warps 3027 GB/s, at 16 warps 2659). 32768: 16 warps (2945
    // / 2802 GB/s at 65536 / 4096 rows against 2914 / 2767 at 32; fp32 at
    // 128 registers without spilling) unless options add live tensors
    // (every option at 16 warps spills 476 bytes at fp16): then 32.
    // Tiles of kFwdShortRows or more rows: 32 elements per thread (4 warps).
    int64_t perThread = heuristic && rows >= kFwdShortRows ? 1024 : 512;
    p.fwdWarps = unsigned(std::clamp<int64_t>(rows * block / perThread, 4,
                                              block >= 32768 ? (lean ? 16 : 32) : 8));
    p.fwdGrid = uint32_t(cdiv(M, rows));
    auto pipelined = [&](unsigned warps, int64_t perSM) {
      p.fwdPipelined = true;
      p.fwdWarps = warps;
      p.fwdGrid = uint32_t(std::max<int64_t>(
          1, std::min(cdiv(M, rows), perSM * sms)));
    };
    auto setRows = [&](int64_t r, unsigned warps) {
      rows = std::min<int64_t>(r, rowCap);
      p.fwdRows = unsigned(rows);
      p.fwdWarps = warps;
      p.fwdGrid = uint32_t(cdiv(M, rows));
    };
    if (block == kFwdPipeBlock) {
      pipelined(kFwdPipeWarps, kFwdPipePerSM);
    } else if (block == kFwdNarrowBlock && heuristic && fewRows) {
      setRows(kFwdNarrowFewRows, kFwdNarrowFewWarps);
    } else if (block == kFwdMidBlock && heuristic) {
      setRows(kFwdMidRows, fewRows ? kFwdMidFewWarps : kFwdMidManyWarps);
    } else if (block == kFwdHalfBlock && heuristic) {
      setRows(fewRows ? kFwdHalfFewRows : kFwdHalfManyRows, kFwdHalfWarps);
      if (fewRows)
        pipelined(kFwdHalfWarps, kFwdHalfPipePerSM);
    } else if (block == kFwdQuarterBlock && heuristic) {
      setRows(1, kFwdQuarterWarps);
    } else if (block == kFwdWideBlock && heuristic) {
      if (fewRows)
        pipelined(kFwdWidePipeWarps, kFwdWidePipePerSM);
      else
        setRows(kFwdWideRows, kFwdWideWarps);
    } else if (block == kFwdOnePassMax && heuristic) {
      pipelined(kFwdLongPipeWarps, kFwdLongPipePerSM);
    }
  } else if (block >= kFwdCoopMinBlock && dtype == DType::F16 &&
             !o.writesResidualOut() &&
             !o.secondOutput && !o.noCooperativeForward &&
             cdiv(N, kFwdCoopChunk) <= sms) {
    p.forward = NormPlan::Variant::Cooperative;
    p.fwdBlockN = unsigned(kFwdCoopChunk);
    p.fwdWarps = kFwdCoopWarps;
    p.fwdChunks = uint32_t(cdiv(N, kFwdCoopChunk));
    int64_t groups = std::max<int64_t>(
        1, std::min<int64_t>(M, sms / p.fwdChunks));
    p.fwdRowsPerProgram = cdiv(M, groups);
    groups = M ? cdiv(M, p.fwdRowsPerProgram) : 1;
    p.fwdGrid = uint32_t(p.fwdChunks * groups);
  } else {
    p.forward = NormPlan::Variant::Chunked;
    bool small = N <= kFwdSmallChunkMax;
    p.fwdBlockN = fp32Row ? kFwdChunkF32 : small ? kFwdChunk : kFwdLongChunk;
    p.fwdRows = 1;
    p.fwdWarps = small && !fp32Row ? 8 : kFwdLongChunkWarps;
    p.fwdGrid = uint32_t(M);
    p.fwdPipelined = kFwdChunkedPipelined;
  }
  if (o.numWarps)
    p.fwdWarps = o.numWarps;

  // Backward: BLOCK_N 8192-16384 (see kBwdColumnsChunk): one program per
  // (column chunk, row block), each reading the whole row for the
  // statistics (L2 serves the repeats). Shorter rows:
  // whole rows with 8 elements per thread; one or two programs per SM (the
  // partial rows: few, so that writing and reducing them stays a small
  // fraction of the traffic), each owning a contiguous block of rows. Longer
  // rows: per-row statistics first, then a 2-D grid of (row block, column
  // chunk) programs with ~kBwdChunkPerSM per SM. An explicit rowsPerTile
  // keeps whole rows where they fit.
  int64_t rowsPerTile;
  const bool dxOptions = o.residual || o.dropoutP > 0.f || o.rowScale;
  const int64_t columnsChunk =
      std::min(block, o.secondOutput || fp32 ? kBwdColumnsChunkNarrow
                                             : kBwdColumnsChunk);
  const bool pipelinedWide = block == kBwdPipeWideBlock && !fp32 &&
                             !dxOptions && !o.secondOutput &&
                             !o.rowsPerTile;
  const bool columns =
      block >= kBwdColumnsMinBlock && block <= kBwdColumnsMaxBlock &&
      !dxOptions && !o.noColumnsBackward && !pipelinedWide &&
      !(block == kBwdColumnsMinBlock && fp32) &&
      !(block <= kBwdOnePassMax && o.rowsPerTile);
  const int64_t coopChunks = cdiv(N, kBwdCoopChunk);
  const bool cooperative =
      !columns && block > kBwdColumnsMaxBlock && !fp32 && !dxOptions &&
      !o.secondOutput && !o.noCooperativeBackward && !o.rowsPerTile &&
      !o.partialRows &&
      coopChunks <= sms;
  if (cooperative) {
    p.backward = NormPlan::Variant::Cooperative;
    rowsPerTile = 1;
    p.bwdBlockN = unsigned(kBwdCoopChunk);
    p.bwdWarps = dtype == DType::BF16 ? kBwdCoopWarpsBF16 : kBwdCoopWarps;
    p.columnChunks = uint32_t(coopChunks);
    p.programs = uint32_t(
        std::min<int64_t>(M, std::max<int64_t>(1, sms / coopChunks)));
  } else if (columns) {
    p.backward = NormPlan::Variant::Columns;
    rowsPerTile = 1;
    p.bwdBlockN = unsigned(columnsChunk);
    p.bwdWarps = kBwdColumnsWarps;
    p.columnChunks = uint32_t(cdiv(N, p.bwdBlockN));
    p.programs = uint32_t(
        std::min<int64_t>(M, std::max<int64_t>(1, sms / p.columnChunks)));
  } else if (block <= kBwdOnePassMax) {
    p.backward = NormPlan::Variant::Rows;
    // Pipelined up to kBwdPipeMaxBlock with ~2048-element tiles (two of x
    // and dy in flight), 8 per thread, two programs per SM up to 8 warps.
    p.bwdPipelined = block <= kBwdPipeMaxBlock || pipelinedWide;
    int64_t tile = p.bwdPipelined ? kBwdPipeTile : kBwdTile;
    rowsPerTile = o.rowsPerTile
                      ? int64_t(o.rowsPerTile)
                      : std::min(std::max<int64_t>(1, tile / block), rowCap);
    if (auto err = checkTile(rowsPerTile, block))
      return err;
    p.bwdBlockN = unsigned(block);
    p.bwdWarps =
        pipelinedWide
            ? kBwdPipeWideWarps
            : unsigned(std::clamp<int64_t>(rowsPerTile * block / 256, 4, 32));
    int64_t perSM = p.bwdPipelined ? (p.bwdWarps <= 8 ? 2 : 1)
                                   : (p.bwdWarps <= 16 ? 2 : 1);
    p.programs = uint32_t(std::min(cdiv(M, rowsPerTile), sms * perSM));
    p.columnChunks = 1;
  } else {
    p.backward = NormPlan::Variant::Chunked;
    rowsPerTile = kBwdChunkRows;
    p.bwdBlockN = kBwdChunk;
    p.bwdWarps = 16;
    p.columnChunks = uint32_t(cdiv(N, kBwdChunk));
    if (p.columnChunks > 65535)
      return makeError(llvm::formatv(
          "norm: N = {0} needs {1} column chunks of {2}; the grid allows "
          "65535",
          N, p.columnChunks, kBwdChunk));
    p.programs =
        uint32_t(std::min(cdiv(M, rowsPerTile),
                          std::max<int64_t>(1, cdiv(kBwdChunkPerSM * sms,
                                                    p.columnChunks))));
  }
  if (o.numWarps)
    p.bwdWarps = o.numWarps;
  if (o.partialRows)
    p.programs = uint32_t(std::min<int64_t>(
        o.partialRows, cdiv(std::max<int64_t>(M, 1), rowsPerTile)));
  p.bwdRows = unsigned(rowsPerTile);
  if (M == 0) {
    // Nothing to sum: the reduction writes zeros from zero partial rows.
    p.programs = 0;
    p.rowsPerProgram = 0;
  } else {
    p.programs = std::max<uint32_t>(p.programs, 1);
    // Whole tiles per program; recount the programs that get rows.
    p.rowsPerProgram = cdiv(cdiv(M, p.programs), rowsPerTile) * rowsPerTile;
    p.programs = uint32_t(cdiv(M, p.rowsPerProgram));
  }
  p.reduceBlockN = unsigned(std::clamp<int64_t>(block / 128, 32, 256));
  p.reduceGrid = uint32_t(cdiv(N, p.reduceBlockN));
  return p;
}
