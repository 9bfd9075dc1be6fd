#ifndef KILN_TARGET_PASSES
#define KILN_TARGET_PASSES

include "mlir/Pass/PassBase.td"

def TileEmitPTX : Pass<"tile-emit-ptx", "mlir::ModuleOp"> {
  let summary = "print the PTX (or LLVM IR) of an LLVM-dialect module";
  let description = [{
    For tests and debugging: translates the module (the output of
    `--tile-to-llvm`) to LLVM IR, optimizes it at O3, compiles it with the
    NVPTX target and writes the PTX (or, with `llvm-ir`, the optimized LLVM
    IR) to `output`. The module itself is left unchanged, so run kiln-opt
    with `-o /dev/null` to see only the PTX.
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "target GPU (default: the module's tile.arch, else sm_90)">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "file to write ('-': standard output; '{n}' is replaced by the "
           "number of the module in this process, from 0)">,
    Option<"llvmIR", "llvm-ir", "bool", /*default=*/"false",
           "write the optimized LLVM IR instead of PTX">
  ];
}

#endif
