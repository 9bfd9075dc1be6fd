//===- LLVMToPTX.h - LLVM dialect -> LLVM IR -> PTX, in process -----------===//
//
// The last two stages of the backend: MLIR's LLVM/NVVM dialects are
// translated to an llvm::Module, optimized with a short LLVM pass pipeline and
// compiled to PTX by LLVM's NVPTX target. No external tool is involved.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TARGET_LLVMTOPTX_H
#define KILN_TARGET_LLVMTOPTX_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace kiln {

/// PTX ISA version Kiln emits (8.1: CUDA 12.1 and later drivers and ptxas,
/// CUDA 13 included, accept it for sm_80 ... sm_90; 8.1 is the first with
/// the vector `atom` of sm_90).
inline constexpr const char *kPTXVersionFeature = "+ptx81";
/// The PTX ISA version of a module whose IR says so (the "tile.ptx_version"
/// attribute, e.g. 83 for tensormap.replace: CUDA 12.3 and later), else 0.
unsigned requiredPTXVersion(mlir::ModuleOp module);

/// Registers the LLVM IR translations of the dialects the backend emits.
void registerLLVMTranslations(mlir::DialectRegistry &registry);

/// $KILN_LLVM_OPTIONS, trimmed ("" when unset): LLVM code-generation
/// options (`-name` or `-name=value`, space separated) set once per process
/// before the first kernel is compiled, for trying a switch of LLVM's on real
/// kernels without a rebuild. Part of the runtime's cache keys when set; an
/// unknown option or a bad value fails every compile, naming it.
const std::string &llvmOptionsFromEnvironment();

/// libdevice.10.bc, for the libdevice calls log/sin/cos lower to (as Triton
/// does): $KILN_LIBDEVICE (empty: none), else $CUDA_HOME or /usr/local/cuda
/// `nvvm/libdevice/libdevice.10.bc`. Looked up once per process; nullopt when
/// absent, and then those functions use the hardware approximations.
std::optional<std::string> findLibdevice();

/// Translates an LLVM-dialect module (the output of --tile-to-llvm) to LLVM IR
/// for the NVPTX target (triple and data layout set). When the module has the
/// attribute `tile.libdevice` and calls `__nv_*` functions, the functions it
/// uses are linked from that bitcode file and internalized.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &ctx,
                  llvm::StringRef arch);

/// Runs Kiln's LLVM IR pass pipeline (kOptPipeline) tuned for `arch` ("sm_90").
/// With `trace`, also returns the names of the passes that ran, in order.
llvm::Error optimizeLLVMIR(llvm::Module &module, llvm::StringRef arch,
                           std::vector<std::string> *trace = nullptr);

/// NVPTX code generation passes Kiln skips (by their argument names): they
/// cost time and leave the PTX of every LayerNorm and corpus kernel unchanged
/// (nary-reassociate, consthoist), or leave ptxas' SASS unchanged for every
/// LayerNorm kernel and the same in total over the corpus (slsr: a twelfth
/// of the forward kernel's compile; docs/compile-time.md).
inline constexpr const char *kSkippedCodeGenPasses[] = {"nary-reassociate",
                                                       "consthoist", "slsr"};
/// A code generation pass NVPTX adds three times; Kiln runs it once.
inline constexpr const char *kCodeGenRunOnce = "early-cse";

/// Compiles optimized LLVM IR to PTX text. With `trace`, also returns the
/// names of the gated code generation passes that ran, in order. Without
/// `fpFusion` (Triton's enable_fp_fusion=False), no fmul/fadd pair fuses
/// into an FMA.
/// `ptxVersion` (e.g. 83) raises the PTX ISA version above Kiln's 8.1.
llvm::Expected<std::string> emitPTX(llvm::Module &module, llvm::StringRef arch,
                                    std::vector<std::string> *trace = nullptr,
                                    bool fpFusion = true, unsigned ptxVersion = 0);

} // namespace kiln

#endif // KILN_TARGET_LLVMTOPTX_H
