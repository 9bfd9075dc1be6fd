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
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_LAYERNORM_H
#define KILN_RUNTIME_LAYERNORM_H

#include "kiln/Runtime/Device.h"
#include "kiln/Runtime/Module.h"

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

class LayerNorm {
public:
  /// Uses the LayerNorm kernels built into Kiln, on device `device`.
  static llvm::Expected<LayerNorm> create(int device = 0,
                                          ModuleOptions options = {});
  /// Uses the three kernels of `module`.
  static llvm::Expected<LayerNorm> create(int device, const Module &module);

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

  Device &device() const { return *device_; }
  Kernel &forwardKernel() { return fwd_; }
  Kernel &backwardDxKernel() { return bwdDx_; }
  Kernel &backwardDwDbKernel() { return bwdDwDb_; }

private:
  LayerNorm(Device &d, Kernel f, Kernel dx, Kernel dwdb)
      : device_(&d), fwd_(std::move(f)), bwdDx_(std::move(dx)),
        bwdDwDb_(std::move(dwdb)) {}
  Device *device_;
  Kernel fwd_, bwdDx_, bwdDwDb_;
  LayerNormWorkspace workspace_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_LAYERNORM_H
