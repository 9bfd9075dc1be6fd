//===- LLVMToPTX.cpp - LLVM IR optimization and NVPTX code generation -----===//
#include "kiln/Target/LLVMToPTX.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdlib>
#include <map>
#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace kiln {
namespace {
constexpr const char *kTriple = "nvptx64-nvidia-cuda";

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The IR optimization pipeline (new pass manager syntax). LLVM's O3 spends
/// most of its time re-running InstCombine and analyses on IR the lowering
/// already emits nearly clean: for the LayerNorm kernels this subset gives the
/// same or shorter PTX than O3 (vectorized shared loads in dW/dB) at a fifth
/// of the cost. Why each pass is here:
///  - nvvm-intr-range: tid/ctaid ranges (O3 gets it from NVPTX's start-of-
///    pipeline callback), so index arithmetic folds (`add` -> `or disjoint`);
///  - early-cse, simplifycfg: the lowering repeats per-element index and
///    mask computations; one CSE before the loop passes is enough;
///  - reassociate before licm: keeps `base + i + const` as (base + i) + const
///    so codegen folds the constant into the address instead of LICM hoisting
///    `i + const` and making one 64-bit address per access;
///  - loop-rotate, licm, loop-unroll-full: loop-invariant thread coordinates
///    and masks leave the loops, constant-trip loops are unrolled (SCEV finds
///    their trip counts without indvars);
///  - loop-deletion: a loop SCEV proves runs at most once loses its backedge
///    (`for i in range(0, tl.where(c, 1, 0))`, lightllm's token attention:
///    straight-line code takes 32 registers whole-program where the loop
///    held its hoisted addresses across it, 48 with spills);
///  - one instcombine after the loop passes (a second one before them, and
///    indvars and a second early-cse after them, cost 19 M of 167 M
///    instructions for the forward kernel and only made the PTX longer);
///  - vector-combine: fp16 pairs as f16x2 (as O3: same registers and spills);
///  - infer-alignment: vector shared-memory loads of reduction partials.
constexpr const char *kOptPipeline =
    "function(nvvm-intr-range,early-cse,simplifycfg,reassociate,"
    "loop-mssa(loop-rotate,licm),loop(loop-deletion,loop-unroll-full),"
    "instcombine<no-verify-fixpoint>,vector-combine,infer-alignment,"
    "simplifycfg)";

/// Code generation options that have no TargetMachine field. Loop strength
/// reduction took a fifth of NVPTX code generation for the forward LayerNorm
/// kernel and changed no instruction count (the dW/dB kernel got 10 fewer):
/// the addresses are already `base + invariant + constant`.
///
/// Then KILN_LLVM_OPTIONS (llvmOptionsFromEnvironment), a debugging knob
/// for trying an LLVM code-generation switch on real kernels without a
/// rebuild; the first option it cannot set is returned as the error.
std::string setCodeGenOptions() {
  auto &options = llvm::cl::getRegisteredOptions();
  if (auto it = options.find("disable-lsr"); it != options.end())
    (void)it->second->addOccurrence(0, "disable-lsr", "true");
  // 32-bit shared-memory addresses, as Triton compiles: each ld/st.shared of
  // a slot or exchange then needs no 64-bit sign extension and add (mamba's
  // chunk scan loop: 364 -> 317 PTX instructions, 164 -> 158 registers).
  if (auto it = options.find("nvptx-short-ptr"); it != options.end())
    (void)it->second->addOccurrence(0, "nvptx-short-ptr", "true");
  llvm::SmallVector<llvm::StringRef, 4> words;
  llvm::StringRef(llvmOptionsFromEnvironment())
      .split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef word : words) {
    llvm::StringRef spelled = word;
    if (!word.consume_front("-"))
      return "KILN_LLVM_OPTIONS: `" + spelled.str() +
             "` is not an option (each starts with `-`, e.g. -disable-machine-sink)";
    word.consume_front("-");
    auto [name, value] = word.split('=');
    auto it = options.find(name);
    if (it == options.end())
      return "KILN_LLVM_OPTIONS: `" + spelled.str() +
             "`: LLVM has no such option in this build (NVPTX code generation)";
    // addOccurrence also prints LLVM's own complaint about a bad value.
    if (it->second->addOccurrence(0, name, value))
      return "KILN_LLVM_OPTIONS: `" + spelled.str() + "`: LLVM refused the value";
  }
  return "";
}

/// One TargetMachine per (thread, arch, fusion): creating one costs about a
/// millisecond, and a TargetMachine must not be shared across threads.
llvm::Expected<llvm::TargetMachine *> getTargetMachine(llvm::StringRef arch,
                                                       bool fpFusion = true,
                                                       unsigned ptxVersion = 0) {
  static std::once_flag initialized;
  static std::string optionsError;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    optionsError = setCodeGenOptions();
  });
  if (!optionsError.empty())
    return error(optionsError);
  thread_local std::map<std::string, std::unique_ptr<llvm::TargetMachine>> cache;
  std::string features =
      ptxVersion ? "+ptx" + std::to_string(ptxVersion) : std::string(kPTXVersionFeature);
  std::string key = arch.str() + (fpFusion ? "" : "/no-fp-fusion") + features;
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second.get();
  llvm::Triple triple(kTriple);
  std::string message;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, message);
  if (!target)
    return error("NVPTX target unavailable: " + message);
  llvm::TargetOptions options;
  // Multiply-adds may fuse into FMA, as Triton's default (enable_fp_fusion)
  // allows: NVPTX then drops the `.rn` that would forbid ptxas to fuse.
  // enable_fp_fusion=False keeps every fmul and fadd rounded on its own
  // (`mul.rn` / `add.rn`); explicit tl.fma stays an FMA.
  options.AllowFPOpFusion =
      fpFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  // The IR is optimized by kOptPipeline (optimizeLLVMIR); code generation runs at
  // LLVM's default level, as llc does: NVPTX's aggressive level only adds a
  // GVN run, which left the LayerNorm kernels' PTX unchanged and cost a
  // tenth of the compile time.
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, arch, features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Default));
  if (!tm)
    return error("cannot create an NVPTX target machine for " + arch);
  llvm::TargetMachine *result = tm.get();
  cache[key] = std::move(tm);
  return result;
}
/// NVPTX's code generation pipeline (TargetPassConfig) adds IR passes that
/// have no switch. Most of them call `skipFunction`, which asks the context's
/// pass gate: this gate skips those that never change Kiln's PTX
/// (kSkippedCodeGenPasses) and records the ones that run, for tests.
class CodeGenPassGate : public llvm::OptPassGate {
public:
  bool shouldRunPass(llvm::StringRef pass, llvm::StringRef) const override {
    if (llvm::is_contained(kSkippedCodeGenPasses, pass))
      return false;
    // NVPTX runs EarlyCSE three times: after SLSR (skipped, but this run is
    // still needed: it merges the address expressions that
    // separate-const-offset-from-gep split), after NaryReassociate (skipped)
    // and before the load/store vectorizer. Only the first changes the PTX.
    if (pass == kCodeGenRunOnce && llvm::is_contained(ran, pass))
      return false;
    ran.push_back(pass.str());
    return true;
  }
  bool isEnabled() const override { return true; }
  mutable std::vector<std::string> ran;
};
} // namespace

void registerLLVMTranslations(mlir::DialectRegistry &registry) {
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
}

const std::string &llvmOptionsFromEnvironment() {
  static const std::string value = [] {
    const char *env = std::getenv("KILN_LLVM_OPTIONS");
    return env ? llvm::StringRef(env).trim().str() : std::string();
  }();
  return value;
}

std::optional<std::string> findLibdevice() {
  static const std::optional<std::string> found = []() -> std::optional<std::string> {
    if (const char *env = std::getenv("KILN_LIBDEVICE"))
      return *env && llvm::sys::fs::exists(env) ? std::optional<std::string>(env)
                                                : std::nullopt;
    llvm::SmallVector<std::string, 2> roots;
    if (const char *home = std::getenv("CUDA_HOME"))
      roots.push_back(home);
    roots.push_back("/usr/local/cuda");
    for (const std::string &root : roots) {
      llvm::SmallString<128> path(root);
      llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
      if (llvm::sys::fs::exists(path))
        return std::string(path);
    }
    return std::nullopt;
  }();
  return found;
}

/// Links the libdevice functions `m` calls from `path` and internalizes them
/// so that they inline and vanish; NVPTX's code generation resolves their
/// __nvvm_reflect queries (flush-to-zero on, as Triton sets it).
static llvm::Error linkLibdevice(llvm::Module &m, llvm::StringRef path) {
  bool needed = llvm::any_of(m.functions(), [](const llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
  if (!needed)
    return llvm::Error::success();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return error("cannot read libdevice " + path + ": " +
                 buffer.getError().message());
  llvm::Expected<std::unique_ptr<llvm::Module>> lib =
      llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), m.getContext());
  if (!lib)
    return error("cannot parse libdevice " + path + ": " +
                 llvm::toString(lib.takeError()));
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(*lib),
                                llvm::Linker::LinkOnlyNeeded))
    return error("linking libdevice " + path + " failed");
  for (llvm::Function &f : m.functions())
    if (!f.isDeclaration() && f.getName().starts_with("__nv_"))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  // Flush-to-zero variants, as Triton builds libdevice (its default).
  m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(1));
  return llvm::Error::success();
}

unsigned requiredPTXVersion(mlir::ModuleOp module) {
  auto version = module->getAttrOfType<mlir::IntegerAttr>("tile.ptx_version");
  return version ? unsigned(version.getInt()) : 0;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &ctx,
                  llvm::StringRef arch) {
  llvm::Expected<llvm::TargetMachine *> tm = getTargetMachine(arch);
  if (!tm)
    return tm.takeError();
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, ctx, "kiln");
  if (!llvmModule)
    return error("translation of the LLVM dialect to LLVM IR failed");
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  llvmModule->setDataLayout((*tm)->createDataLayout());
  if (auto path = module->getAttrOfType<mlir::StringAttr>("tile.libdevice"))
    if (llvm::Error err = linkLibdevice(*llvmModule, path.getValue()))
      return std::move(err);
  return llvmModule;
}

llvm::Error optimizeLLVMIR(llvm::Module &module, llvm::StringRef arch,
                           std::vector<std::string> *trace) {
  llvm::Expected<llvm::TargetMachine *> tm = getTargetMachine(arch);
  if (!tm)
    return tm.takeError();
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassInstrumentationCallbacks callbacks;
  if (trace)
    callbacks.registerBeforeNonSkippedPassCallback(
        [trace](llvm::StringRef pass, llvm::Any) {
          // Pass managers and adaptors only run the passes they hold.
          if (!pass.contains("PassManager") && !pass.contains("Adaptor"))
            trace->push_back(pass.str());
        });
  llvm::PassBuilder builder(*tm, llvm::PipelineTuningOptions(), std::nullopt,
                            trace ? &callbacks : nullptr);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes;
  // Linked libdevice functions (alwaysinline) are inlined before the rest.
  std::string pipeline = kOptPipeline;
  if (module.getModuleFlag("nvvm-reflect-ftz"))
    pipeline = "always-inline," + pipeline;
  if (llvm::Error err = builder.parsePassPipeline(passes, pipeline))
    return error("invalid optimization pipeline: " + llvm::toString(std::move(err)));
  // No verifier here: translateToLLVMIR verified the module, and these passes
  // keep it valid.
  passes.run(module, mam);
  return llvm::Error::success();
}

namespace {
/// fabs of f16/bf16 values (scalar or vector) as a sign-bit clear in inline
/// PTX. NVPTX selects abs.f16/abs.bf16, which return a canonical NaN for a NaN
/// input; Triton 3.6 clears the sign bit (and.b32 0x7FFF7FFF on packed halves)
/// and keeps the payload, also where fabs came from folding
/// fptrunc(fabs(fpext x)). A plain IR `and` would be folded back into fabs by
/// InstCombine or the DAG combiner, hence the asm.
void clearHalfSignBitsInAsm(llvm::Module &module) {
  llvm::SmallVector<llvm::IntrinsicInst *> calls;
  for (llvm::Function &function : module)
    for (llvm::Instruction &inst : llvm::instructions(function))
      if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
        if (call->getIntrinsicID() == llvm::Intrinsic::fabs &&
            call->getType()->getScalarType()->is16bitFPTy())
          calls.push_back(call);
  if (calls.empty())
    return;
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *i16 = llvm::Type::getInt16Ty(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::InlineAsm *and16 = llvm::InlineAsm::get(
      llvm::FunctionType::get(i16, {i16}, false), "and.b16 $0, $1, 0x7FFF;", "=h,h",
      /*hasSideEffects=*/false);
  llvm::InlineAsm *and32 = llvm::InlineAsm::get(
      llvm::FunctionType::get(i32, {i32}, false), "and.b32 $0, $1, 0x7FFF7FFF;", "=r,r",
      /*hasSideEffects=*/false);
  for (llvm::IntrinsicInst *call : calls) {
    llvm::IRBuilder<> b(call);
    llvm::Type *type = call->getType();
    llvm::Value *in = call->getArgOperand(0);
    llvm::Value *out;
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
    if (!vector) {
      out = b.CreateCall(and16, {b.CreateBitCast(in, i16)});
    } else {
      // Pairs of halves share one 32-bit register, as Triton's packed form.
      unsigned n = vector->getNumElements();
      bool pairs = n % 2 == 0;
      llvm::Type *lane = pairs ? i32 : i16;
      unsigned lanes = pairs ? n / 2 : n;
      auto *laneVector = llvm::FixedVectorType::get(lane, lanes);
      llvm::Value *bits = b.CreateBitCast(in, laneVector);
      llvm::Value *result = llvm::PoisonValue::get(laneVector);
      for (unsigned k = 0; k < lanes; ++k) {
        llvm::Value *element = b.CreateExtractElement(bits, k);
        result = b.CreateInsertElement(
            result, b.CreateCall(pairs ? and32 : and16, {element}), k);
      }
      out = result;
    }
    call->replaceAllUsesWith(b.CreateBitCast(out, type));
    call->eraseFromParent();
  }
}
} // namespace

llvm::Expected<std::string> emitPTX(llvm::Module &module, llvm::StringRef arch,
                                    std::vector<std::string> *trace,
                                    bool fpFusion, unsigned ptxVersion) {
  llvm::Expected<llvm::TargetMachine *> tm = getTargetMachine(arch, fpFusion, ptxVersion);
  if (!tm)
    return tm.takeError();
  clearHalfSignBitsInAsm(module);
  CodeGenPassGate gate;
  module.getContext().setOptPassGate(gate);
  llvm::scope_exit restore(
      [&] { module.getContext().setOptPassGate(llvm::getGlobalPassGate()); });
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager passes;
  if ((*tm)->addPassesToEmitFile(passes, os, nullptr,
                                 llvm::CodeGenFileType::AssemblyFile))
    return error("the NVPTX target cannot emit assembly");
  passes.run(module);
  if (trace)
    *trace = std::move(gate.ran);
  return std::string(buffer.str());
}

} // namespace kiln
