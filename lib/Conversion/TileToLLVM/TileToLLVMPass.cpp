//===- TileToLLVMPass.cpp - The --tile-to-llvm pass -----------------------===//
#include "Lowering.h"

#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Conversion/TileToLLVM/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Analysis/Liveness.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringExtras.h"

namespace kiln {
#define GEN_PASS_DEF_TILETOLLVM
#include "kiln/Conversion/TileToLLVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;
using namespace kiln::lowering;

namespace {

/// "sm_90" -> 90 for the architectures Kiln targets.
std::optional<unsigned> parseArch(StringRef arch) {
  unsigned cc;
  if (!arch.consume_front("sm_") || arch.getAsInteger(10, cc))
    return std::nullopt;
  if (cc != 80 && cc != 86 && cc != 89 && cc != 90)
    return std::nullopt;
  return cc;
}

/// Phases 2 and 3 use MLIR's upstream patterns (and MathToNVVM), which fail
/// only before changing anything, on IR that phase 1 made legal: the driver
/// need not record every change to undo it, which made phase 3 40 % cheaper.
/// Phase 1's own patterns keep the default (some report errors late).
ConversionConfig withoutRollback() {
  ConversionConfig config;
  config.allowPatternRollback = false;
  return config;
}

/// The register cap below pays off while the tensor elements a thread keeps
/// live at once fit comfortably; beyond that it forces heavy spills. The
/// estimate counts every live tensor (masks, offsets and pointers too), so it
/// runs high; the bound sits between kernels measured on an H100 (2026-11-21):
/// with the cap the 8-warp LayerNorm forward (estimate 224 at BLOCK_SIZE 8192,
/// 448 at 16384) and backward dx at 8192 (352) ran 1.2-1.4x faster, while dx
/// at BLOCK_SIZE_N = 16384 (704) spilled ~1 KB per thread and ran 3-5x slower.
constexpr int64_t kMaxLiveElementsPerThreadForCap = 512;

/// Estimated peak of tensor elements one thread holds live at once: the sum of
/// the per-thread shares of the tensors live at each op, maximized over ops.
int64_t peakLiveElementsPerThread(ModuleOp module, unsigned threads) {
  int64_t peak = 0;
  module.walk([&](func::FuncOp func) {
    Liveness liveness(func);
    func.getFunctionBody().walk([&](Operation *op) {
      const LivenessBlockInfo *info = liveness.getLiveness(op->getBlock());
      if (!info)
        return;
      int64_t live = 0;
      for (Value v : info->currentlyLiveValues(op))
        if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
          live += llvm::divideCeil(tensor.getNumElements(), threads);
      peak = std::max(peak, live);
    });
  });
  return peak;
}

/// Each tensor op produces every element a thread owns, but a vector access
/// uses only the first of each group (and masks or offsets may go unused):
/// erase what nothing uses. Users precede definitions in the reverse walk, so
/// whole chains go in one sweep.
void eraseDeadOps(ModuleOp module) {
  module.walk<WalkOrder::PostOrder, ReverseIterator>([](Operation *op) {
    if (isOpTriviallyDead(op))
      op->erase();
  });
}

/// The block length per dimension over which the axis analysis proves the
/// tensor result of an elementwise op constant, when some block is longer
/// than one element (ElementwiseOpToLLVM computes one value per block).
std::optional<SmallVector<int64_t, 4>> constantBlocks(Operation *op, const ModuleAxisInfo &axis) {
  if (op->getNumResults() != 1 || isa<arith::ConstantOp>(op))
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type)
    return std::nullopt;
  AxisInfo facts = axis.get(op->getResult(0)); // the constancy below points into it
  ArrayRef<int64_t> constancy = facts.getConstancy();
  if (constancy.size() != size_t(type.getRank()) ||
      llvm::none_of(constancy, [](int64_t c) { return c > 1; }))
    return std::nullopt;
  return SmallVector<int64_t, 4>(constancy);
}

struct TileToLLVMPass : kiln::impl::TileToLLVMBase<TileToLLVMPass> {
  using TileToLLVMBase::TileToLLVMBase;

  LogicalResult prepare(ModuleOp module, LoweringState &state);
  LogicalResult distribute(ModuleOp module, const LoweringState &state);
  LogicalResult lowerToLLVM(ModuleOp module, bool capRegisters);

  void runOnOperation() override {
    ModuleOp module = getOperation();
    LoweringState state;
    if (failed(prepare(module, state)))
      return signalPassFailure();
    // Matrix products keep their accumulators and operand fragments in
    // registers beyond what the live-element estimate sees: never capped.
    bool hasDot = module.walk([](tile::DotOp) { return WalkResult::interrupt(); })
                      .wasInterrupted();
    bool capRegisters = !hasDot && peakLiveElementsPerThread(module, 32 * state.numWarps) <=
                                       kMaxLiveElementsPerThreadForCap;
    // After the shared-memory plan (prepare), which counts the barriers.
    elideSharedMemoryBarriers(module);
    markWaitsAfterSlotStores(module);
    markAsyncProxySlotCopies(module, state.computeCapability);
    if (failed(distribute(module, state)))
      return signalPassFailure();
    eraseDeadOps(module);
    if (failed(lowerToLLVM(module, capRegisters)))
      return signalPassFailure();
  }
};

LogicalResult TileToLLVMPass::prepare(ModuleOp module, LoweringState &state) {
  MLIRContext *ctx = module.getContext();
  state.numWarps = tile::getModuleNumWarps(module, state.numWarps);
  std::string archName = arch;
  if (archName.empty()) {
    archName = "sm_90";
    if (auto attr = module->getAttrOfType<StringAttr>("tile.arch"))
      archName = attr.str();
  }
  std::optional<unsigned> cc = parseArch(archName);
  if (!cc)
    return module.emitError() << "unsupported GPU architecture '" << archName
                              << "' (expected sm_80, sm_86, sm_89 or sm_90)";
  state.computeCapability = *cc;

  // Every tensor must carry a layout, agreeing with num_warps.
  WalkResult walk = module.walk([&](Operation *op) {
    for (Value v : op->getResults()) {
      auto tensor = dyn_cast<RankedTensorType>(v.getType());
      if (!tensor)
        continue;
      if (!getDistributedLayout(tensor)) {
        op->emitOpError("result ") << tensor
                                   << " has no #tile.blocked / #tile.slice "
                                      "layout (run --tile-assign-layouts first)";
        return WalkResult::interrupt();
      }
      if (getNumWarps(tensor.getEncoding()) != state.numWarps) {
        op->emitOpError("layout of ") << tensor << " spreads over "
                                      << getNumWarps(tensor.getEncoding())
                                      << " warps but the module has tile.num_warps = "
                                      << state.numWarps;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  // Vector width of each memory access, from the layout and the analysis,
  // and the constant blocks of elementwise results (one analysis for both).
  {
    ModuleAxisInfo axis(module);
    if (failed(axis.status()))
      return failure();
    module.walk([&](Operation *op) {
      Value ptr, mask;
      unsigned limit = ~0u;
      if (auto load = dyn_cast<tile::LoadOp>(op))
        ptr = load.getPtr(), mask = load.getMask();
      else if (auto copy = dyn_cast<tile::AsyncCopyOp>(op)) {
        // Runs along the slot's stored rows only (the last dimension, the
        // first of a transposed slot; a 1-D tile is one row).
        unsigned inner = copy.getBuffer().getType().getTransposed() ||
                                 cast<RankedTensorType>(copy.getPtr().getType()).getRank() == 1
                             ? 0
                             : 1;
        state.vectorWidth[op] = axis.getVectorWidth(copy.getPtr(), inner, copy.getMask());
        return;
      } else if (isa<arith::ArithDialect>(op->getDialect()) || isa<tile::WhereOp>(op)) {
        if (auto blocks = constantBlocks(op, axis))
          state.constancy[op] = std::move(*blocks);
        return;
      } else if (auto store = dyn_cast<tile::StoreOp>(op))
        ptr = store.getPtr(), mask = store.getMask();
      else if (auto rmw = dyn_cast<tile::AtomicRMWOp>(op))
        if ((limit = rmw.getMaxVectorElements(state.computeCapability)) > 1)
          ptr = rmw.getPtr(), mask = rmw.getMask();
      auto tensor = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : nullptr;
      if (!tensor)
        return;
      std::optional<DistributedLayout> layout = getDistributedLayout(tensor);
      unsigned vec = 1;
      if (!layout->regBases.empty()) {
        unsigned dim = 0;
        while (layout->regBases[0][dim] == 0)
          ++dim;
        vec = std::min({layout->contiguousRegsAlong(dim),
                        axis.getVectorWidth(ptr, dim, mask), limit});
      }
      state.vectorWidth[op] = vec;
    });
  }

  // Slot copies too narrow for cp.async load synchronously: lib/Target then
  // leaves the kernel to the driver's linker (relocatable code keeps such
  // loads in flight; LowerToPTX.cpp).
  bool syncCopies = false;
  module.walk([&](tile::AsyncCopyOp copy) {
    syncCopies |= asyncCopyChunkElements(copy, state) *
                      copy.getBuffer().getType().getElementBits() / 8 <
                  4;
  });
  if (syncCopies)
    module->setAttr("tile.sync_slot_copies", UnitAttr::get(ctx));

  // wgmma exists only in the architecture-specific sm_90a (lib/Target picks
  // that target when the module says so).
  bool wgmma = false;
  module.walk([&](tile::DotOp dot) { wgmma |= canUseWgmma(dot, state.computeCapability); });
  state.usesWgmma = wgmma;
  // tensormap.replace, too, is sm_90a's. Each map's program stride is its
  // kernel's scratch bytes per program.
  bool tensormaps = false;
  WalkResult scratch = module.walk([&](tile::TensormapCreateOp create) {
    tensormaps = true;
    auto arg = dyn_cast<BlockArgument>(create.getScratch());
    auto func = arg ? dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp())
                    : FunctionOpInterface();
    auto bytes = func ? func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                           tile::kGlobalScratchAttr)
                      : IntegerAttr();
    if (!bytes) {
      create.emitOpError("needs the kernel's global scratch argument (`")
          << tile::kGlobalScratchAttr << "`)";
      return WalkResult::interrupt();
    }
    state.scratchPerProgram[create] = bytes.getInt();
    return WalkResult::advance();
  });
  if (scratch.wasInterrupted())
    return failure();
  if (wgmma || tensormaps)
    module->setAttr("tile.arch_specific", UnitAttr::get(ctx));
  if (tensormaps) // tensormap.replace and its fences: PTX ISA 8.3
    module->setAttr("tile.ptx_version", IntegerAttr::get(IntegerType::get(ctx, 32), 83));

  // Thread ids once per function, at its entry (they dominate every use).
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal())
      continue;
    OpBuilder b = OpBuilder::atBlockBegin(&func.getFunctionBody().front());
    state.threadIds[func] = createThreadIds(b, func.getLoc(), /*uniformWarp=*/wgmma);
  }
  // The scratch area and the tile.local_alloc buffers (SharedMemoryPlan.cpp).
  unsigned shared = planSharedMemory(module, state);
  module->setAttr("tile.shared_bytes",
                  IntegerAttr::get(IntegerType::get(ctx, 32), shared));
  if (shared && !module.lookupSymbol(kSharedSymbol)) {
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0);
    LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                           LLVM::Linkage::External, kSharedSymbol, Attribute(),
                           /*alignment=*/state.localAllocOffset.empty() ? 16 : 1024,
                           kSharedSpace);
  }
  return success();
}

LogicalResult TileToLLVMPass::distribute(ModuleOp module, const LoweringState &state) {
  MLIRContext *ctx = module.getContext();
  TileTypeConverter converter(ctx);
  RewritePatternSet patterns(ctx);
  ConversionTarget target(*ctx);
  populateElementwisePatterns(converter, state, patterns);
  populateMemoryPatterns(converter, state, patterns);
  populateReducePatterns(converter, state, patterns);
  populateScanPatterns(converter, state, patterns);
  populateSortPatterns(converter, state, patterns);
  populateGatherPatterns(converter, state, patterns);
  populateHistogramPatterns(converter, state, patterns);
  populateConvertLayoutPatterns(converter, state, patterns);
  populateDotPatterns(converter, state, patterns);
  populateAsyncCopyPatterns(converter, state, patterns);
  populateTmaPatterns(converter, state, patterns);
  populateWgmmaPatterns(converter, state, patterns);
  populateShapePatterns(converter, state, patterns);
  populatePrintPatterns(converter, state, patterns);
  populateMathOpPatterns(converter, patterns);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
  populateReturnOpTypeConversionPattern(patterns, converter);

  target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect>();
  target.addLegalOp<ModuleOp, UnrealizedConversionCastOp>();
  target.addIllegalDialect<tile::TileDialect>();
  target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
      [&](Operation *op) { return converter.isLegal(op); });
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp f) {
    return converter.isSignatureLegal(f.getFunctionType()) &&
           converter.isLegal(&f.getBody());
  });
  target.addDynamicallyLegalOp<func::ReturnOp>(
      [&](Operation *op) { return converter.isLegal(op); });
  return applyPartialConversion(module, target, std::move(patterns));
}

LogicalResult TileToLLVMPass::lowerToLLVM(ModuleOp module, bool capRegisters) {
  MLIRContext *ctx = module.getContext();
  {
    RewritePatternSet patterns(ctx);
    populateSCFToControlFlowConversionPatterns(patterns);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<scf::SCFDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns),
                                      withoutRollback())))
      return failure();
  }
  rewritePlainScalarArith(module);
  {
    LowerToLLVMOptions options(ctx);
    LLVMTypeConverter converter(ctx, options);
    RewritePatternSet patterns(ctx);
    populateMathToNVVMPatterns(converter, patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addLegalOp<ModuleOp, UnrealizedConversionCastOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns),
                                   withoutRollback())))
      return failure();
  }
  SmallVector<UnrealizedConversionCastOp> casts, remaining;
  module.walk([&](UnrealizedConversionCastOp op) { casts.push_back(op); });
  reconcileUnrealizedCasts(casts, &remaining);
  if (!remaining.empty())
    return remaining.front().emitOpError("could not be reconciled after lowering");

  // Casts reconciled away can leave their operands' producers unused.
  eraseDeadOps(module);

  // Kernel entry points: every defined function.
  unsigned numWarps = tile::getModuleNumWarps(module);
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (func.isExternal())
      continue;
    func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), UnitAttr::get(ctx));
    func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                  DenseI32ArrayAttr::get(ctx, {int32_t(32 * numWarps), 1, 1}));
    // 256 threads: cap registers at 128 so that two programs fit on an SM
    // (64K registers): while one waits (a lock, a barrier, memory) the other
    // runs. Fewer threads fit twice anyway; more would need a harsher cap.
    // On H100 (M = 4096, N = 8192, fp16) the forward LayerNorm kernel went
    // from 73 to 61 us and the backward one from 154 to 131 us (166 -> 128
    // registers, 36 bytes of spills). Larger tiles keep the full register file.
    if (32 * numWarps == 256 && capRegisters)
      func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    IntegerAttr::get(IntegerType::get(ctx, 32), 128));
    // Frontend bookkeeping (tile.name, tile.divisibility) is not LLVM's. A
    // TMA tensor map (tile.tensormap) is a 128-byte CUtensorMap passed by
    // value, whose address the copies take: a grid constant.
    if (ArrayAttr argAttrs = func.getArgAttrsAttr()) {
      SmallVector<Attribute> cleaned;
      for (Attribute a : argAttrs) {
        SmallVector<NamedAttribute> kept;
        auto dict = cast<DictionaryAttr>(a);
        if (dict.get("tile.tensormap")) {
          Builder b(ctx);
          kept.push_back(b.getNamedAttr(
              LLVM::LLVMDialect::getByValAttrName(),
              TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128))));
          kept.push_back(b.getNamedAttr(LLVM::LLVMDialect::getAlignAttrName(),
                                        b.getI64IntegerAttr(64)));
          kept.push_back(b.getNamedAttr(NVVM::NVVMDialect::getGridConstantAttrName(),
                                        b.getUnitAttr()));
        }
        for (NamedAttribute na : dict)
          if (!na.getName().strref().starts_with("tile."))
            kept.push_back(na);
        cleaned.push_back(DictionaryAttr::get(ctx, kept));
      }
      func.setArgAttrsAttr(ArrayAttr::get(ctx, cleaned));
    }
  }
  return success();
}

} // namespace
