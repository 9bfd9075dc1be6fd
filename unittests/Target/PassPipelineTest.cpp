//===- PassPipelineTest.cpp - The LLVM passes a compile runs --------------===//
//
// Compile latency guard (docs/compile-time.md): pins the LLVM IR
// passes optimizeLLVMIR runs and the gated NVPTX code generation passes
// emitPTX runs, so that a pass added to (or no longer skipped in) either
// pipeline is a deliberate change of this test, measured for its compile
// time and its PTX, not an accident.
//
//===----------------------------------------------------------------------===//
#include "kiln/Target/LLVMToPTX.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/Support/SourceMgr.h"
#include <gtest/gtest.h>

using namespace kiln;

namespace {

// A loop over a strided row, as the lowering emits it: thread-id arithmetic,
// an address per iteration, a load and a store.
constexpr const char *kKernel = R"(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %p, i32 %n, i32 %stride) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %row = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %row, %stride
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %col = add i32 %i, %tid
  %idx = add i32 %base, %col
  %q = getelementptr float, ptr addrspace(1) %p, i32 %idx
  %v = load float, ptr addrspace(1) %q, align 4
  %w = fmul float %v, 2.0
  store float %w, ptr addrspace(1) %q, align 4
  %next = add i32 %i, 128
  %c = icmp slt i32 %next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
)";

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &ctx) {
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(kKernel, diag, ctx);
  if (!m)
    ADD_FAILURE() << diag.getMessage().str();
  return m;
}

std::string join(const std::vector<std::string> &names) {
  std::string s;
  for (const std::string &n : names)
    s += (s.empty() ? "" : ",") + n;
  return s;
}

TEST(PassPipelineTest, IRPipelineRunsExactlyTheListedPasses) {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = parse(ctx);
  ASSERT_TRUE(m);
  std::vector<std::string> ran;
  ASSERT_FALSE(llvm::errorToBool(optimizeLLVMIR(*m, "sm_90", &ran)));
  // kOptPipeline, with the loop canonicalization the loop passes require.
  EXPECT_EQ(join(ran), "NVVMIntrRangePass,EarlyCSEPass,SimplifyCFGPass,"
                       "ReassociatePass,LoopSimplifyPass,LCSSAPass,LoopRotatePass,"
                       "LICMPass,LoopSimplifyPass,LCSSAPass,LoopDeletionPass,"
                       "LoopFullUnrollPass,"
                       "InstCombinePass,VectorCombinePass,InferAlignmentPass,"
                       "SimplifyCFGPass");
}

TEST(PassPipelineTest, CodeGenSkipsTheGatedPasses) {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = parse(ctx);
  ASSERT_TRUE(m);
  ASSERT_FALSE(llvm::errorToBool(optimizeLLVMIR(*m, "sm_90")));
  std::vector<std::string> ran;
  llvm::Expected<std::string> ptx = emitPTX(*m, "sm_90", &ran);
  ASSERT_TRUE(bool(ptx)) << llvm::toString(ptx.takeError());
  EXPECT_NE(ptx->find(".entry k("), std::string::npos);
  for (const char *skipped : kSkippedCodeGenPasses)
    EXPECT_EQ(std::count(ran.begin(), ran.end(), skipped), 0) << skipped;
  EXPECT_EQ(std::count(ran.begin(), ran.end(), kCodeGenRunOnce), 1);
  // Every gated pass NVPTX's pipeline runs at CodeGenOptLevel::Default, in
  // order (the asm printer and register allocation are not gated).
  EXPECT_EQ(join(ran),
            "NVPTX Image Optimizer,sroa,nvptx-lower-alloca,infer-address-spaces,"
            "separate-const-offset-from-gep,Speculatively execute instructions,"
            "early-cse,mergeicmps,expand-memcmp,"
            "partially-inline-libcalls,load-store-vectorizer,sroa,"
            "nvptx-lower-unreachable,codegenprepare,nvptx-isel,"
            "early-tailduplication,opt-phis,stack-coloring,dead-mi-elimination,"
            "early-machinelicm,machine-cse,machine-sink,peephole-opt,"
            "twoaddressinstruction,machine-scheduler,stack-slot-coloring,"
            "nvptx-peephole,fixup-statepoint-caller-saved,branch-folder,"
            "block-placement");
  // The gate is removed again: the context's next users see every pass.
  EXPECT_FALSE(ctx.getOptPassGate().isEnabled());
}

} // namespace
