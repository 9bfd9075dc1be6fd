//===- LowerToPTX.cpp - The backend half of the pipeline ------------------===//
//
//   tile --(assign layouts, remove conversions)--> tile-layout
//        --(tile-to-llvm)--> llvm-dialect --(translate, optimize)--> llvm
//        --(NVPTX)--> ptx
//
// Diagnostics of the MLIR stages go to the context's handler (the caller's
// SourceMgr handler renders them with file:line:col); the returned error
// names the stage that failed.
//
//===----------------------------------------------------------------------===//
#include "kiln/Target/Pipeline.h"

#include "kiln/Conversion/TileToLLVM/Passes.h"
#include "kiln/Dialect/Tile/Transforms/Passes.h"
#include "kiln/Target/LLVMToPTX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <functional>

using namespace mlir;

namespace kiln {
namespace {

llvm::Error stageError(Stage stage, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::Twine(stageName(stage)) + " stage: " + message);
}

std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo(false));
  return text;
}

/// Whether the driver should compile the kernel as a whole program (the
/// runtime's KILN_JIT=auto reads kWholeProgramMarker from the PTX) rather
/// than as relocatable code through its linker. Measured on the H200
/// (docs/performance.md, twenty-seventh session): tensor-core kernels whose K
/// loops are software-pipelined take fewer registers whole and run faster
/// (mamba's chunk scan at 32 x 64 on 2 warps: 119 -> 111 us; 216 registers
/// from the driver's linker, 158 from a whole-program ptxas); a K loop that
/// still loads tiles for its products keeps them in flight better as
/// relocatable code, as do kernels without products (ninth session), and so
/// did slot copies of 2 bytes (the corpus's bmm_bias at odd shapes, 1.35x
/// slower whole; the copies' widths are known only to the lowering: it sets
/// tile.sync_slot_copies for those). Unaligned rows are now loaded and
/// stored into their slots (tile.local_store): whole programs measured
/// faster (odd matmul 1.31 -> 1.19 of Triton, moe_gemm 1.11 -> 1.08).
bool prefersWholeProgramJit(ModuleOp module) {
  bool hasDot = false, loadsInDotLoop = false;
  module.walk([&](tile::DotOp dot) {
    hasDot = true;
    if (auto loop = dot->getParentOfType<scf::ForOp>())
      loop.walk([&](tile::LoadOp load) {
        // Tiles loaded only to be stored into a dot's slot (unaligned rows,
        // no cp.async) run faster whole (twenty-ninth session).
        bool staged = !load->use_empty() && llvm::all_of(load->getUsers(), [](Operation *user) {
          return isa<tile::LocalStoreOp>(user);
        });
        if (isa<RankedTensorType>(load.getType()) && !staged)
          loadsInDotLoop = true;
      });
  });
  return hasDot && !loadsInDotLoop;
}

std::optional<DType> dtypeOf(Type t) {
  if (t.isF16())
    return DType::F16;
  if (t.isBF16())
    return DType::BF16;
  if (t.isF32())
    return DType::F32;
  if (t.isF64())
    return DType::F64;
  if (isa<Float8E4M3FNType>(t))
    return DType::F8E4M3;
  if (isa<Float8E5M2Type>(t))
    return DType::F8E5M2;
  if (t.isInteger(1))
    return DType::I1;
  if (t.isInteger(8))
    return DType::I8;
  if (t.isInteger(16))
    return DType::I16;
  if (t.isInteger(32))
    return DType::I32;
  if (t.isInteger(64))
    return DType::I64;
  return std::nullopt;
}

/// Runtime parameters of the kernel: names from `tile.name`, types from the
/// signature when it lists exactly them (its integer entries keep their
/// signedness, which MLIR's signless types lose), else from the argument
/// types. `nanPadding` receives, by parameter index of a host descriptor's
/// base, whether its padding is NaN.
llvm::Expected<std::vector<KernelInfo::Param>>
kernelParams(func::FuncOp func, const KernelSpec &spec, std::map<unsigned, bool> &nanPadding) {
  // The signature's runtime entries with tuples flattened to their elements
  // (depth first, as the frontend passes them). A host descriptor is its
  // base pointer (of its element type), then its shapes and strides but the
  // last (IRGen.cpp's order), which are read from the argument types (no
  // entry: std::nullopt).
  std::vector<std::optional<ParamSpec>> runtime;
  std::function<void(const ParamSpec &)> flatten = [&](const ParamSpec &p) {
    switch (p.kind) {
    case ParamSpec::Kind::Constexpr:
      return;
    case ParamSpec::Kind::TensorDesc: {
      ParamSpec base; // 16-byte aligned, as Triton asserts
      base.kind = ParamSpec::Kind::Pointer;
      base.dtype = p.dtype;
      nanPadding[unsigned(runtime.size())] = p.nanPadding;
      base.divisibility = 16;
      runtime.push_back(base);
      runtime.insert(runtime.end(), 2 * p.blockShape.size() - 1, std::nullopt);
      return;
    }
    case ParamSpec::Kind::Tuple:
      llvm::for_each(p.elements, flatten);
      return;
    case ParamSpec::Kind::Pointer:
    case ParamSpec::Kind::Scalar:
      runtime.push_back(p);
      return;
    }
  };
  llvm::for_each(spec.signature, flatten);
  bool useSpec = runtime.size() == func.getNumArguments();
  std::vector<KernelInfo::Param> params;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    KernelInfo::Param param;
    if (auto name = func.getArgAttrOfType<StringAttr>(i, "tile.name"))
      param.name = name.str();
    else
      param.name = "arg" + std::to_string(i);
    if (useSpec && runtime[i]) {
      param.spec = *runtime[i];
    } else {
      Type t = func.getArgument(i).getType();
      bool isPtr = isa<tile::PtrType>(t);
      std::optional<DType> dtype =
          dtypeOf(isPtr ? cast<tile::PtrType>(t).getPointeeType() : t);
      if (!dtype)
        return stageError(Stage::TileLayout, "unsupported type of parameter '" +
                                                 param.name + "'");
      param.spec.kind = isPtr ? ParamSpec::Kind::Pointer : ParamSpec::Kind::Scalar;
      param.spec.dtype = *dtype;
      if (auto div = func.getArgAttrOfType<IntegerAttr>(i, "tile.divisibility"))
        param.spec.divisibility = div.getInt();
    }
    params.push_back(std::move(param));
  }
  return params;
}

class StageClock {
public:
  StageClock(CompiledKernel &result, const CompileOptions &options)
      : result(result), options(options) {}
  void start() { begin = std::chrono::steady_clock::now(); }
  void done(Stage stage, llvm::function_ref<std::string()> text) {
    result.stageMillis.push_back(
        {stage, std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - begin)
                    .count()});
    if (options.onStage)
      options.onStage(stage, text());
  }

private:
  CompiledKernel &result;
  const CompileOptions &options;
  std::chrono::steady_clock::time_point begin;
};

} // namespace

llvm::Expected<CompiledKernel> lowerTileToPTX(ModuleOp module, const KernelSpec &spec,
                                              const CompileOptions &options) {
  MLIRContext *ctx = module.getContext();
  DialectRegistry registry;
  registerLLVMTranslations(registry);
  ctx->appendDialectRegistry(registry);

  auto funcs = module.getOps<func::FuncOp>();
  if (std::distance(funcs.begin(), funcs.end()) != 1)
    return stageError(Stage::TileLayout, "expected exactly one kernel function");
  func::FuncOp kernel = *funcs.begin();

  CompiledKernel result;
  KernelInfo &info = result.info;
  info.name = kernel.getSymName().str();
  info.arch = spec.arch;
  info.numWarps = spec.numWarps;
  info.constexprs = spec.constexprs;
  if (auto dict = module->getAttrOfType<DictionaryAttr>("tile.constexprs"))
    for (NamedAttribute a : dict)
      if (auto s = dyn_cast<StringAttr>(a.getValue()))
        info.constexprs[a.getName().str()] = s.str();
  std::map<unsigned, bool> nanPadding; // of the host descriptors' bases
  llvm::Expected<std::vector<KernelInfo::Param>> params = kernelParams(kernel, spec, nanPadding);
  if (!params)
    return params.takeError();
  info.params = std::move(*params);
  Builder b(ctx);
  module->setAttr(tile::kNumWarpsAttr, b.getI32IntegerAttr(spec.numWarps));
  module->setAttr("tile.num_stages", b.getI32IntegerAttr(spec.numStages));
  module->setAttr("tile.arch", b.getStringAttr(spec.arch));
  if (!options.tmaCopies) // before the frontend-sunk transposes are decided
    module->setAttr(tile::kNoTmaAttr, b.getUnitAttr());
  if (std::optional<std::string> libdevice = findLibdevice())
    module->setAttr("tile.libdevice", b.getStringAttr(*libdevice));

  StageClock clock(result, options);
  auto stopAfter = [&](Stage s) { return options.stopAfter == s; };

  clock.start();
  {
    // No MLIR verifier between the backend's passes: the module was verified
    // at the frontend boundary (compileToTile, or the parser for .mlir input)
    // and LLVM's verifier checks the translated result; re-verifying after
    // every pass cost about 3 % of a compile. kiln-opt, which the passes'
    // lit tests use, keeps it, and so does ln-compile --verify-each.
    PassManager pm(ctx);
    pm.enableVerifier(options.verifyPasses);
    pm.addPass(tile::createTileUnrollLoops());
    pm.addPass(tile::createTileFoldDotAdd());
    pm.addPass(tile::createTileSinkTransIntoLoad());
    pm.addPass(tile::createTileDecomposeBatchedDot());
    pm.addPass(tile::createTilePadSmallDot());
    pm.addPass(tile::createTileNarrowBeforeShapeOps());
    pm.addPass(tile::createTileAssignLayouts());
    pm.addPass(tile::createTileRemoveLayoutConversions());
    pm.addPass(createCSEPass());
    pm.addPass(tile::createTilePipelineLoops());
    pm.addPass(tile::createTileShareDotOperands());
    pm.addPass(tile::createTileTmaStores());
    pm.addPass(tile::createTileRebaseCopyPointers());
    if (failed(pm.run(module)))
      return stageError(Stage::TileLayout, "layout assignment failed");
  }
  // The CUtensorMap parameters the pipeliner added for TMA copies.
  for (BlockArgument arg : kernel.getArguments()) {
    auto of = kernel.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "tile.tensormap");
    if (!of)
      continue;
    KernelInfo::TensorMap map;
    map.param = unsigned(of.getInt());
    if (auto box = kernel.getArgAttrOfType<DenseI64ArrayAttr>(arg.getArgNumber(), "tile.tma_box"))
      map.box.assign(box.asArrayRef().begin(), box.asArrayRef().end());
    if (auto swizzle = kernel.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "tile.tma_swizzle"))
      map.swizzle = unsigned(swizzle.getInt());
    map.nanFill = nanPadding[map.param];
    info.tensorMaps.push_back(std::move(map));
  }
  // The global scratch of the tensor maps the kernel builds (its last
  // argument, after the tensor maps).
  for (BlockArgument arg : kernel.getArguments())
    if (auto bytes = kernel.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                          tile::kGlobalScratchAttr))
      info.globalScratchBytes = unsigned(bytes.getInt());
  bool wholeProgram = prefersWholeProgramJit(module);
  clock.done(Stage::TileLayout, [&] { return printModule(module); });
  if (stopAfter(Stage::TileLayout))
    return result;

  clock.start();
  {
    PassManager pm(ctx);
    pm.enableVerifier(options.verifyPasses);
    TileToLLVMOptions lowering;
    lowering.arch = spec.arch;
    pm.addPass(createTileToLLVM(lowering));
    if (failed(pm.run(module)))
      return stageError(Stage::LLVMDialect, "lowering to the LLVM dialect failed");
  }
  if (auto shared = module->getAttrOfType<IntegerAttr>("tile.shared_bytes"))
    info.sharedBytes = shared.getInt();
  if (module->hasAttr("tile.sync_slot_copies"))
    wholeProgram = false;
  clock.done(Stage::LLVMDialect, [&] { return printModule(module); });
  if (stopAfter(Stage::LLVMDialect))
    return result;

  clock.start();
  // Code with sm_90a-only instructions (wgmma) targets the "a" variant,
  // which runs on that architecture only.
  std::string target = spec.arch;
  if (module->hasAttr("tile.arch_specific"))
    target += "a";
  auto llvmCtx = std::make_unique<llvm::LLVMContext>();
  llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
      translateToLLVMIR(module, *llvmCtx, target);
  if (!llvmModule)
    return stageError(Stage::LLVMIR, llvm::toString(llvmModule.takeError()));
  llvm::scope_exit teardown([&] {
    if (skipsTeardown(options)) {
      (void)llvmModule->release();
      (void)llvmCtx.release();
    }
  });
  if (llvm::Error err = optimizeLLVMIR(**llvmModule, target))
    return stageError(Stage::LLVMIR, llvm::toString(std::move(err)));
  clock.done(Stage::LLVMIR, [&] {
    std::string text;
    llvm::raw_string_ostream os(text);
    (*llvmModule)->print(os, nullptr);
    return text;
  });
  if (stopAfter(Stage::LLVMIR))
    return result;

  clock.start();
  llvm::Expected<std::string> ptx =
      emitPTX(**llvmModule, target, nullptr, spec.fpFusion, requiredPTXVersion(module));
  if (!ptx)
    return stageError(Stage::PTX, llvm::toString(ptx.takeError()));
  result.ptx = std::move(*ptx);
  if (wholeProgram)
    result.ptx += kWholeProgramMarker;
  clock.done(Stage::PTX, [&] { return result.ptx; });
  return result;
}

} // namespace kiln
