//===- Pipeline.h - From Triton-language source to PTX ---------------------===//
//
// The compiler's one entry point for tools and the runtime. Stages:
//   ast -> tile -> tile-layout -> llvm-dialect -> llvm -> ptx
// Each stage's text can be observed (ln-compile --emit / --dump-dir) and each
// stage is timed (ln-compile --time).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TARGET_PIPELINE_H
#define KILN_TARGET_PIPELINE_H

#include "kiln/Frontend/Spec.h"
#include "kiln/Target/JitMarker.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
class MLIRContext;
} // namespace mlir

namespace kiln {

/// What the runtime needs to launch a compiled kernel; written as JSON next to
/// the PTX by ln-compile and stored in the runtime's cache.
struct KernelInfo {
  struct Param {
    std::string name;
    ParamSpec spec; ///< kind Pointer or Scalar (constexprs are not params).
  };
  /// A CUtensorMap the launch encodes for a host descriptor whose blocks the
  /// kernel copies with TMA: a 128-byte parameter after all of `params`.
  struct TensorMap {
    unsigned param = 0;        ///< Index in `params` of the descriptor's base
                               ///< (its N shapes and N - 1 strides follow it).
    std::vector<int64_t> box;  ///< Elements of one copy, outermost first: one
                               ///< per dimension of the descriptor (N, 2-5).
    unsigned swizzle = 0;      ///< Bytes: 0 (none), 32, 64 or 128.
    bool nanFill = false;      ///< Padding NaN (else zero) outside the tensor.
  };
  std::string name;             ///< PTX entry name (the kernel's name).
  std::vector<Param> params;    ///< Runtime parameters in launch order.
  std::vector<TensorMap> tensorMaps; ///< In parameter order, after `params`.
  /// Bytes of global scratch per program (the tensor maps of descriptors
  /// made in the kernel), or 0: the launch allocates this many per program
  /// of the grid and passes the address after the tensor maps.
  unsigned globalScratchBytes = 0;
  std::map<std::string, std::string> constexprs;
  unsigned numWarps = 4;
  unsigned sharedBytes = 0;     ///< Dynamic shared memory to launch with.
  std::string arch = "sm_90";

  llvm::json::Value toJSON() const;
  static llvm::Expected<KernelInfo> fromJSON(llvm::StringRef text);
};

enum class Stage { AST, Tile, TileLayout, LLVMDialect, LLVMIR, PTX };
const char *stageName(Stage s); ///< "ast", "tile", "tile-layout", ...
std::optional<Stage> parseStageName(llvm::StringRef s);

struct CompileOptions {
  /// Last stage to run; later stages are skipped.
  Stage stopAfter = Stage::PTX;
  /// Called with each stage's printed form when set (for --dump-dir/--emit).
  std::function<void(Stage, llvm::StringRef text)> onStage;
  /// The process exits right after this compile (ln-compile): the MLIR
  /// context, the modules and the LLVM context are leaked instead of freed.
  /// Freeing them walks every op, type, instruction and dialect once more
  /// for nothing (about 3 M instructions for a LayerNorm kernel).
  bool skipTeardown = false;
  /// Copy 2-D host descriptor blocks with TMA on sm_90 (the launch then
  /// passes KernelInfo::tensorMaps). Off for ahead-of-time kernels, whose
  /// generated launchers pass `params` only.
  bool tmaCopies = true;
  /// Run MLIR's verifier after every backend pass (ln-compile --verify-each;
  /// the corpus check in CI). Off by default: it costs about 3 % of a compile.
  bool verifyPasses = false;
};

/// Whether `options.skipTeardown` takes effect: not in an AddressSanitizer
/// build (KILN_SANITIZE), whose leak checker would report the leaked contexts.
bool skipsTeardown(const CompileOptions &options);

struct CompiledKernel {
  KernelInfo info;
  std::string ptx;
  /// Wall time of each stage that ran, in milliseconds, in pipeline order.
  std::vector<std::pair<Stage, double>> stageMillis;
  /// Warnings of a compile that succeeded, rendered as errors are
  /// (`FILE:LINE:COL: warning: ...`, source line, caret); empty if none.
  std::string warnings;
};

/// Compiles `spec.kernelName` from Triton-language `source` (named `filename`
/// in diagnostics). Nothing is printed: on failure the returned error's message
/// holds every diagnostic rendered as `FILE:LINE:COL: error: message` followed
/// by the source line and a caret.
llvm::Expected<CompiledKernel> compileKernel(llvm::StringRef source,
                                             llvm::StringRef filename,
                                             const KernelSpec &spec,
                                             const CompileOptions &options = {});

/// Backend half: lowers a verified tile-dialect module (as produced by the
/// frontend) to PTX, reporting stages TileLayout..PTX through `options`.
llvm::Expected<CompiledKernel> lowerTileToPTX(mlir::ModuleOp module,
                                              const KernelSpec &spec,
                                              const CompileOptions &options = {});

/// What compileTileModule takes from the caller; unset fields come from the
/// module (attributes tile.num_warps / tile.arch, defaults 4 / sm_90).
struct TileModuleSpec {
  /// If set, the module's one func.func must have this name.
  std::optional<std::string> kernelName;
  std::optional<unsigned> numWarps;
  std::optional<unsigned> numStages; ///< else tile.num_stages, default 3
  std::optional<std::string> arch;
};

/// Compiles a tile-dialect module given as text (what kiln-opt reads, e.g. the
/// frontend's `tile` stage): parses and verifies it (reported as stage Tile),
/// then runs lowerTileToPTX. The kernel is the module's single func.func;
/// parameter types come from its arguments. Errors are rendered as by
/// compileKernel (`FILE:LINE:COL: error: ...`).
llvm::Expected<CompiledKernel> compileTileModule(llvm::StringRef source,
                                                 llvm::StringRef filename,
                                                 const TileModuleSpec &spec,
                                                 const CompileOptions &options = {});

} // namespace kiln

#endif // KILN_TARGET_PIPELINE_H
