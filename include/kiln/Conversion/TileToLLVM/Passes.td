#ifndef KILN_CONVERSION_PASSES
#define KILN_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def TileToLLVM : Pass<"tile-to-llvm", "mlir::ModuleOp"> {
  let summary = "lower laid-out tile programs to the LLVM and NVVM dialects";
  let description = [{
    Input: one kernel `func.func` whose tensors all carry #tile.blocked or
    #tile.slice layouts (run `--tile-assign-layouts` first), using the tile,
    arith, math, scf and func dialects. Output: an `llvm.func` kernel
    (`nvvm.kernel`, `nvvm.maxntid = 32 * num_warps`) in the LLVM and NVVM
    dialects, plus the extern shared-memory array the program needs, whose
    size is recorded in the module attribute `tile.shared_bytes`.

    Every tensor becomes the values one thread owns; memory accesses are
    vectorized up to 128 bits where the axis analysis proves contiguity and
    alignment; reductions combine registers, then lanes (shfl.sync.bfly),
    then warps through shared memory; scalar atomics run on one thread and
    are broadcast through shared memory. Math precision follows Triton on
    NVIDIA GPUs (see docs/backend.md).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::cf::ControlFlowDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "target GPU (sm_80, sm_86, sm_89, sm_90; default: the module's tile.arch, else sm_90)">
  ];
}

#endif
