//===- LayerNorm.h - LayerNorm forward and backward on the GPU ------------===//
//
// The host side of the Triton tutorial's LayerNorm autograd Function: it
// launches the three kernels of examples/layernorm/layer_norm.py (embedded
// in Kiln, or from any Module holding them) with the tutorial's heuristics:
//
//   forward:  BLOCK_SIZE = min(65536 / elsize, next_pow2(N)) (N above it is
//             an error: one row must fit in 64 KB), num_warps =
//             min(max(BLOCK_SIZE / 256, 1), 8), grid (M,)
//   backward: GROUP_SIZE_M = 64, 96 if N <= 8192, 128 if N <= 4096, 256 if
//             N <= 1024; _layer_norm_bwd_dx_fused with BLOCK_SIZE_N and
//             num_warps as the forward, grid (M,); then _layer_norm_bwd_dwdb
//             with BLOCK_SIZE_M = 32, BLOCK_SIZE_N = 128, num_warps 4, grid
//             (cdiv(N, 128),). Locks and partial sums are zeroed every call.
//
// Inputs are [M, N] row-major matrices with a row stride in elements; the
// kernels use one stride for X, Y (forward) and X, DY, DX (backward), so
// those must share it. x, w, b, y, dy, dx, dw, db have one dtype (fp16, bf16
// or fp32); mean and rstd are fp32 [M]. Work is queued on `stream` (the
// default stream if null); the *Into forms allocate nothing.
//
// The fused norms (normForward / normBackward, and class RMSNorm) launch the
// kernels of examples/layernorm/layer_norm_fast.py instead: LayerNorm or
// RMSNorm with the FlashAttention-style options of NormOptions (residual
// in/out, bias or none, dropout, row scale, a second weight/bias output),
// any N >= 1 (no 64 KB limit), a lock-free deterministic backward, and the
// variant and launch parameters chosen by planNorm (docs/layernorm.md).
// NormOptions::kernels = NormKernels::Tutorial runs plain LayerNorm with the
// tutorial's kernels through the same calls, for comparison.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_LAYERNORM_H
#define KILN_RUNTIME_LAYERNORM_H

#include "kiln/Runtime/Device.h"
#include "kiln/Runtime/Module.h"
#include <memory>

namespace kiln::rt {

/// rows x cols elements of `dtype`, row r starting at ptr + r*stride elements.
struct DeviceMatrix {
  CUdeviceptr ptr = 0;
  DType dtype = DType::F16;
  int64_t rows = 0, cols = 0, stride = 0;
};

struct DeviceVector {
  CUdeviceptr ptr = 0;
  DType dtype = DType::F32;
  int64_t size = 0;
};

struct LayerNormForwardConfig {
  unsigned blockSize = 0, numWarps = 0;
  /// num_warps and BLOCK_SIZE of _layer_norm_fwd_fused, as LayerNorm
  /// launches it.
  LaunchOptions launchOptions(int device = 0, CUstream stream = nullptr) const;
};
struct LayerNormBackwardConfig {
  unsigned groupSizeM = 0, blockSizeN = 0, numWarps = 0;
  unsigned dwdbBlockM = 32, dwdbBlockN = 128, dwdbNumWarps = 4;
  /// num_warps, GROUP_SIZE_M and BLOCK_SIZE_N of _layer_norm_bwd_dx_fused.
  LaunchOptions dxLaunchOptions(int device = 0,
                                CUstream stream = nullptr) const;
  /// num_warps, BLOCK_SIZE_M and BLOCK_SIZE_N of _layer_norm_bwd_dwdb.
  LaunchOptions dwdbLaunchOptions(int device = 0,
                                  CUstream stream = nullptr) const;
};
/// The tutorial's heuristics; errors for N < 1, N above the 64 KB-per-row
/// limit, or an unsupported dtype.
llvm::Expected<LayerNormForwardConfig> layerNormForwardConfig(int64_t n,
                                                              DType dtype);
llvm::Expected<LayerNormBackwardConfig> layerNormBackwardConfig(int64_t n,
                                                                DType dtype);

/// Scratch for the backward pass (locks and partial dw/db sums), grown on
/// demand and reused; zeroed on every backward call.
struct LayerNormWorkspace {
  DeviceBuffer locks, partialDw, partialDb;
};


//===----------------------------------------------------------------------===//
// Fused LayerNorm / RMSNorm (examples/layernorm/layer_norm_fast.py)
//===----------------------------------------------------------------------===//

/// Which kernels the fused calls launch.
enum class NormKernels {
  Auto,     ///< layer_norm_fast.py, variant chosen by shape (planNorm)
  Tutorial, ///< the tutorial's three kernels (plain LayerNorm with bias only)
};

/// The options of one fused norm. Forward, per row (fp32 arithmetic):
///   h = x * rowScale[row] (rowScale); h = dropout(h) (dropoutP > 0: kept
///   where tl.rand(seed, row * N + col) > dropoutP, scaled by 1/(1-p));
///   h += residual (residual); residualOut = h (storeResidualOut, implied by
///   residual, dropout or rowScale: the backward reads h);
///   y = norm(h) * w + b (b with bias); y1 = norm(h) * w1 + b1 (secondOutput,
///   b1 with secondBias). norm is LayerNorm, or RMSNorm with rms.
struct NormOptions {
  bool rms = false;
  bool bias = true;
  bool residual = false;
  bool storeResidualOut = false;
  float dropoutP = 0.f;
  uint32_t seed = 0;
  bool rowScale = false;
  bool secondOutput = false;
  bool secondBias = false;
  float eps = 1e-5f;
  NormKernels kernels = NormKernels::Auto;
  /// Overrides of the heuristics (0: planNorm's choice). rowsPerTile is the
  /// ROWS of the one-pass kernels (a power of two), numWarps a power of two
  /// in 1..32, partialRows the number of backward programs (rows of the
  /// fp32 dw/db partials). noColumnsBackward picks the Chunked backward
  /// where the Columns one would run, noCooperativeBackward where the
  /// Cooperative one would, noCooperativeForward the Chunked forward where
  /// the Cooperative one would (for comparison).
  unsigned rowsPerTile = 0, numWarps = 0, partialRows = 0;
  bool noColumnsBackward = false;
  bool noCooperativeBackward = false;
  bool noCooperativeForward = false;

  /// The pre-norm value h is written (and the backward must read it).
  bool writesResidualOut() const {
    return storeResidualOut || residual || rowScale || dropoutP > 0.f;
  }
};

/// Errors for inconsistent options (dropoutP outside [0, 1), secondBias
/// without secondOutput, tutorial kernels with any option, bad overrides).
llvm::Error validateNormOptions(const NormOptions &options);

/// The kernels and launch parameters for one shape.
struct NormPlan {
  enum class Variant { Rows, Columns, Chunked, Cooperative, Tutorial };
  // Forward: `_norm_fwd` (Rows: ROWS whole rows per program, one read of x),
  // `_norm_fwd_chunked` (Chunked: one row per program, two passes over
  // BLOCK_N chunks) or layer_norm_coop.py's `_norm_fwd_coop` (Cooperative:
  // fwdChunks programs per group of fwdRowsPerProgram rows, grid fwdGrid =
  // fwdChunks * groups, launched cooperatively; one read of x).
  Variant forward = Variant::Rows;
  unsigned fwdBlockN = 0, fwdRows = 1, fwdWarps = 4;
  uint32_t fwdGrid = 0, fwdChunks = 1;
  int64_t fwdRowsPerProgram = 0;
  // The software-pipelined kernels (the next tile or chunk loaded before
  // the current one is reduced): `_norm_fwd_pipelined` (Rows; persistent,
  // fwdGrid programs walk the tiles) or `_norm_fwd_chunked_pipelined`.
  bool fwdPipelined = false;
  // Backward: `_norm_bwd` (Rows), 2-D `_norm_bwd_cols` (Columns: grid
  // (columnChunks, programs)), `_norm_bwd_row_stats` + 2-D
  // `_norm_bwd_chunked` (Chunked: grid (programs, columnChunks)) or
  // layer_norm_coop.py's `_norm_bwd_coop` (Cooperative: grid
  // columnChunks * programs, launched cooperatively); programs = partial
  // rows, each owning rowsPerProgram consecutive rows; then one
  // `_norm_bwd_reduce` for every gradient (grid (reduceGrid, gradients)).
  Variant backward = Variant::Rows;
  // Rows only: `_norm_bwd_pipelined` (same grid and partial rows).
  bool bwdPipelined = false;
  unsigned bwdBlockN = 0, bwdRows = 1, bwdWarps = 4;
  uint32_t programs = 0, columnChunks = 1;
  int64_t rowsPerProgram = 0;
  unsigned statsBlockN = 4096, statsWarps = 8;
  unsigned reduceBlockP = 16, reduceBlockN = 256, reduceWarps = 4;
  uint32_t reduceGrid = 0;
};

/// The variant and launch parameters for [M, N] of `dtype` on a device with
/// `multiprocessors` SMs (docs/layernorm.md). Errors for N < 1, M < 0, an
/// unsupported dtype, invalid options, or the tutorial kernels above 64 KB.
llvm::Expected<NormPlan> planNorm(int64_t M, int64_t N, DType dtype,
                                  const NormOptions &options,
                                  int multiprocessors);

/// Operands of the fused forward. Matrices are [M, N] of x's dtype, vectors
/// [N] of x's dtype except rowScale, mean and rstd (fp32 [M]). Operands an
/// option does not use are ignored (leave them empty). y1 shares y's
/// stride; mean is unused for RMSNorm.
struct NormForwardArgs {
  DeviceMatrix x, residual;
  DeviceVector w, b, w1, b1, rowScale;
  DeviceMatrix y, y1, residualOut;
  DeviceVector mean, rstd;
};

/// Operands of the fused backward: x is the pre-norm value (the forward's
/// residualOut when NormOptions::writesResidualOut(), else its x). dy1 (with
/// secondOutput) shares dy's stride. dresidual (optional, with residual) is
/// the gradient of residualOut; dresidualIn (with residual) receives the
/// gradient of the residual input.
struct NormBackwardArgs {
  DeviceMatrix dy, x, dy1, dresidual;
  DeviceVector w, b, w1, b1, rowScale, mean, rstd;
  DeviceMatrix dx, dresidualIn;
  DeviceVector dw, db, dw1, db1;
};

/// Scratch of the fused kernels (fp32 partial rows, per-row statistics),
/// grown on demand and reused; never needs zeroing. One workspace serves
/// one stream at a time.
struct NormWorkspace {
  DeviceBuffer partials, rowStats;
  /// The Cooperative kernels' ticket and per-row sums (zeroed per call).
  DeviceBuffer exchange;
  LayerNormWorkspace tutorial;
};

/// The kernels of layer_norm_fast.py, loaded once.
struct NormKernelSet;

class LayerNorm {
public:
  /// Uses the LayerNorm kernels built into Kiln, on device `device`.
  static llvm::Expected<LayerNorm> create(int device = 0,
                                          ModuleOptions options = {});
  /// Uses the three kernels of `module`.
  static llvm::Expected<LayerNorm> create(int device, const Module &module);
  /// The tutorial's kernels from `module`, the fused ones from `fused`
  /// (kernels named as in layer_norm_fast.py).
  static llvm::Expected<LayerNorm> create(int device, const Module &module,
                                          const Module &fused);
  /// ... and the cooperative backward from `coop` (layer_norm_coop.py).
  static llvm::Expected<LayerNorm> create(int device, const Module &module,
                                          const Module &fused,
                                          const Module &coop);

  struct ForwardResult {
    DeviceBuffer yBuffer, meanBuffer, rstdBuffer;
    DeviceMatrix y;
    DeviceVector mean, rstd;
  };
  struct BackwardResult {
    DeviceBuffer dxBuffer, dwBuffer, dbBuffer;
    DeviceMatrix dx;
    DeviceVector dw, db;
  };

  /// y = (x - mean) * rstd * w + b per row; allocates y (x's stride), mean
  /// and rstd.
  llvm::Expected<ForwardResult> forward(const DeviceMatrix &x,
                                        const DeviceVector &w,
                                        const DeviceVector &b, float eps,
                                        CUstream stream = nullptr);
  llvm::Error forwardInto(const DeviceMatrix &x, const DeviceVector &w,
                          const DeviceVector &b, float eps,
                          const DeviceMatrix &y, const DeviceVector &mean,
                          const DeviceVector &rstd, CUstream stream = nullptr);

  /// dx, dw, db for upstream gradient dy; allocates dx (x's stride), dw, db.
  /// `b` is only checked (shape and dtype), as in the tutorial.
  llvm::Expected<BackwardResult>
  backward(const DeviceMatrix &dy, const DeviceMatrix &x, const DeviceVector &w,
           const DeviceVector &b, const DeviceVector &mean,
           const DeviceVector &rstd, CUstream stream = nullptr);
  llvm::Error backwardInto(const DeviceMatrix &dy, const DeviceMatrix &x,
                           const DeviceVector &w, const DeviceVector &b,
                           const DeviceVector &mean, const DeviceVector &rstd,
                           const DeviceMatrix &dx, const DeviceVector &dw,
                           const DeviceVector &db, LayerNormWorkspace &ws,
                           CUstream stream = nullptr);

  /// The fused forward / backward (NormOptions). With NormKernels::Tutorial
  /// they run the tutorial kernels (forwardInto / backwardInto). The
  /// forward without a workspace never takes the Cooperative variant (its
  /// exchange words live in the workspace).
  llvm::Error normForward(const NormForwardArgs &args,
                          const NormOptions &options,
                          CUstream stream = nullptr);
  llvm::Error normForward(const NormForwardArgs &args,
                          const NormOptions &options, NormWorkspace &ws,
                          CUstream stream = nullptr);
  llvm::Error normBackward(const NormBackwardArgs &args,
                           const NormOptions &options, NormWorkspace &ws,
                           CUstream stream = nullptr);
  /// The plan normForward / normBackward use for [M, N] of `dtype`.
  llvm::Expected<NormPlan> plan(int64_t M, int64_t N, DType dtype,
                                const NormOptions &options) const;

  Device &device() const { return *device_; }
  Kernel &forwardKernel() { return fwd_; }
  Kernel &backwardDxKernel() { return bwdDx_; }
  Kernel &backwardDwDbKernel() { return bwdDwDb_; }

private:
  llvm::Error normForwardIn(const NormForwardArgs &args,
                            const NormOptions &options, NormWorkspace *ws,
                            CUstream stream);
  LayerNorm(Device &d, Kernel f, Kernel dx, Kernel dwdb,
            std::shared_ptr<NormKernelSet> fast)
      : device_(&d), fwd_(std::move(f)), bwdDx_(std::move(dx)),
        bwdDwDb_(std::move(dwdb)), fast_(std::move(fast)) {}
  Device *device_;
  Kernel fwd_, bwdDx_, bwdDwDb_;
  std::shared_ptr<NormKernelSet> fast_;
  LayerNormWorkspace workspace_;
};

/// RMSNorm: LayerNorm's fused calls with NormOptions::rms forced on. Start
/// from RMSNorm::defaultOptions() (no bias); a bias needs `bias` and `b`.
class RMSNorm {
public:
  static llvm::Expected<RMSNorm> create(int device = 0,
                                        ModuleOptions options = {});
  /// options.rms is forced on.
  llvm::Error forward(const NormForwardArgs &args, NormOptions options,
                      CUstream stream = nullptr);
  llvm::Error forward(const NormForwardArgs &args, NormOptions options,
                      NormWorkspace &ws, CUstream stream = nullptr);
  llvm::Error backward(const NormBackwardArgs &args, NormOptions options,
                       NormWorkspace &ws, CUstream stream = nullptr);
  /// NormOptions for RMSNorm: rms, no bias.
  static NormOptions defaultOptions() {
    NormOptions o;
    o.rms = true;
    o.bias = false;
    return o;
  }
  LayerNorm &layerNorm() { return ln_; }

private:
  explicit RMSNorm(LayerNorm ln) : ln_(std::move(ln)) {}
  LayerNorm ln_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_LAYERNORM_H
