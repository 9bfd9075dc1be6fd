//===- CompileTest.cpp - compileToTile API: output contract and errors ----===//
#include "kiln/Frontend/Frontend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace kiln;

namespace {

struct Compiled {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string diagnostics;
};

Compiled compile(mlir::MLIRContext &ctx, llvm::StringRef src,
                 llvm::StringRef kernel, llvm::StringRef sig,
                 std::map<std::string, std::string> defs = {}) {
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(src, "k.py"),
                        llvm::SMLoc());
  Compiled c;
  llvm::raw_string_ostream os(c.diagnostics);
  mlir::SourceMgrDiagnosticHandler handler(sm, &ctx, os);
  KernelSpec spec;
  spec.kernelName = kernel.str();
  spec.signature = cantFail(parseSignature(sig.str()));
  spec.constexprs = std::move(defs);
  spec.numWarps = 2;
  spec.arch = "sm_80";
  c.module = compileToTile(ctx, sm, spec);
  return c;
}

const char *kSource = R"(import triton
import triton.language as tl


@triton.jit
def helper(p, n):
    return tl.load(p + n)


@triton.jit
def a(X, Y, N, BLOCK: tl.constexpr):
    x = helper(X, N)
    tl.store(Y + tl.arange(0, BLOCK), x)


@triton.jit
def b(X):
    pass


def host():
    pass
)";

TEST(Compile, ModuleFollowsTheBackendContract) {
  mlir::MLIRContext ctx;
  Compiled c =
      compile(ctx, kSource, "a", "*fp32:16,*fp16,i32:16", {{"BLOCK", "64"}});
  ASSERT_TRUE(c.module) << c.diagnostics;
  mlir::ModuleOp m = *c.module;
  EXPECT_EQ(m->getAttrOfType<mlir::IntegerAttr>("tile.num_warps").getInt(), 2);
  EXPECT_EQ(m->getAttrOfType<mlir::StringAttr>("tile.arch").getValue(),
            "sm_80");
  auto funcs = llvm::to_vector(m.getOps<mlir::func::FuncOp>());
  ASSERT_EQ(funcs.size(), 1u); // the helper is inlined
  mlir::func::FuncOp f = funcs[0];
  EXPECT_EQ(f.getName(), "a");
  ASSERT_EQ(f.getNumArguments(), 3u); // BLOCK is gone
  EXPECT_EQ(f.getArgAttrOfType<mlir::StringAttr>(0, "tile.name").getValue(),
            "X");
  EXPECT_EQ(
      f.getArgAttrOfType<mlir::IntegerAttr>(0, "tile.divisibility").getInt(),
      16);
  EXPECT_FALSE(f.getArgAttr(1, "tile.divisibility"));
  EXPECT_EQ(
      f.getArgAttrOfType<mlir::IntegerAttr>(2, "tile.divisibility").getInt(),
      16);
  // Ops of the inlined helper carry the helper's own line.
  bool sawHelperLoad = false;
  f.walk([&](mlir::Operation *op) {
    if (op->getName().getStringRef() != "tile.load")
      return;
    auto loc = llvm::cast<mlir::FileLineColLoc>(op->getLoc());
    EXPECT_EQ(loc.getFilename(), "k.py");
    EXPECT_EQ(loc.getLine(), 7u);
    EXPECT_EQ(loc.getColumn(), 12u);
    sawHelperLoad = true;
  });
  EXPECT_TRUE(sawHelperLoad);
}

TEST(Compile, KernelNotFoundListsKernels) {
  mlir::MLIRContext ctx;
  Compiled c = compile(ctx, kSource, "foo", "");
  EXPECT_FALSE(c.module);
  EXPECT_EQ(c.diagnostics,
            "k.py:1:1: error: kernel `foo` not found in k.py; kernels here: "
            "helper, a, b\nimport triton\n^\n");
}

TEST(Compile, ErrorsShowTheLineAndACaret) {
  mlir::MLIRContext ctx;
  Compiled c = compile(ctx, kSource, "a", "*fp32,*fp16", {{"BLOCK", "64"}});
  EXPECT_FALSE(c.module);
  EXPECT_EQ(c.diagnostics,
            "k.py:11:5: error: signature has 2 entries but `a` takes 3 "
            "parameters (4 counting its constexpr parameters)\n"
            "def a(X, Y, N, BLOCK: tl.constexpr):\n    ^\n");
}

TEST(Compile, NonJitFunctionIsNotAKernel) {
  mlir::MLIRContext ctx;
  Compiled c = compile(ctx, kSource, "host", "");
  EXPECT_FALSE(c.module);
  EXPECT_NE(c.diagnostics.find("k.py:21:5: error: `host` is not a "
                               "@triton.jit function"),
            std::string::npos)
      << c.diagnostics;
}

TEST(Compile, ConstexprValuesAreRecordedForTheBackend) {
  const char *src = R"(import triton
import triton.language as tl


@triton.jit
def k(X, BLOCK: tl.constexpr, EVEN: tl.constexpr = True,
      DT: tl.constexpr = tl.float16, HALF: tl.constexpr = 2 * 4,
      EPS: tl.constexpr = 1e-5):
    pass
)";
  mlir::MLIRContext ctx;
  // BLOCK from -D (trimmed), the others from their evaluated defaults.
  Compiled c = compile(ctx, src, "k", "*fp32", {{"BLOCK", " 64 "}});
  ASSERT_TRUE(c.module) << c.diagnostics;
  auto dict =
      (*c.module)->getAttrOfType<mlir::DictionaryAttr>("tile.constexprs");
  ASSERT_TRUE(dict);
  std::map<std::string, std::string> got;
  for (mlir::NamedAttribute a : dict)
    got[a.getName().str()] = llvm::cast<mlir::StringAttr>(a.getValue()).str();
  EXPECT_EQ(got, (std::map<std::string, std::string>{{"BLOCK", "64"},
                                                     {"DT", "tl.float16"},
                                                     {"EPS", "1e-05"},
                                                     {"EVEN", "True"},
                                                     {"HALF", "8"}}));
  // Given inline in the signature: the literal text as written.
  Compiled inl = compile(ctx, src, "k", "*fp32,128,False,'x',3,0.50");
  ASSERT_TRUE(inl.module) << inl.diagnostics;
  auto d =
      (*inl.module)->getAttrOfType<mlir::DictionaryAttr>("tile.constexprs");
  ASSERT_TRUE(d);
  EXPECT_EQ(d.getAs<mlir::StringAttr>("BLOCK").getValue(), "128");
  EXPECT_EQ(d.getAs<mlir::StringAttr>("EVEN").getValue(), "False");
  EXPECT_EQ(d.getAs<mlir::StringAttr>("DT").getValue(), "'x'");
  EXPECT_EQ(d.getAs<mlir::StringAttr>("EPS").getValue(), "0.50");
  // A kernel without constexprs gets no attribute.
  Compiled none = compile(ctx, kSource, "b", "*fp32");
  ASSERT_TRUE(none.module) << none.diagnostics;
  EXPECT_FALSE((*none.module)->hasAttr("tile.constexprs"));
}

TEST(Compile, ASTDump) {
  mlir::MLIRContext ctx;
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy("x = (1 +\n  2)\n", "k.py"),
      llvm::SMLoc());
  std::optional<std::string> ast = dumpAST(ctx, sm);
  ASSERT_TRUE(ast);
  EXPECT_EQ(*ast, "Module\n"
                  "  Assign <1:1-2:5>\n"
                  "    Target\n"
                  "      Name x <1:1-1:2>\n"
                  "    Value\n"
                  "      BinOp + <1:6-2:4>\n"
                  "        Int 1 <1:6-1:7>\n"
                  "        Int 2 <2:3-2:4>\n");
}

/// Host code around kernels is parsed and skipped; module-level constants
/// a kernel reads are evaluated lazily, in file order.
TEST(Compile, HostCodeIsSkippedAndModuleConstantsResolveLazily) {
  const char *src = R"(import torch
import triton
import triton.language as tl
try:
    import apex
    HAS_APEX = True
except ImportError:
    HAS_APEX = False
DEVICE = torch.device("cuda")
SCALE = 4
SCALE *= 2
BLOCK: tl.constexpr = SCALE * 16
class Model(torch.nn.Module):
    def forward(self, x):
        return {k: v for k, v in x.items()}
@triton.jit
def k(X):
    tl.store(X + tl.arange(0, BLOCK), SCALE)
@triton.jit
def bad(X):
    tl.store(X, DEVICE)
print(f"{BLOCK=}")
)";
  mlir::MLIRContext ctx;
  Compiled ok = compile(ctx, src, "k", "*i32");
  ASSERT_TRUE(ok.module) << ok.diagnostics;
  std::string ir;
  llvm::raw_string_ostream os(ir);
  ok.module->print(os);
  // SCALE = 4, then *= 2; BLOCK = SCALE * 16.
  EXPECT_NE(ir.find("arith.constant dense<8> : tensor<128xi32>"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("tensor<128xi32>"), std::string::npos) << ir;
  Compiled badOne = compile(ctx, src, "bad", "*i32");
  EXPECT_FALSE(badOne.module);
  EXPECT_EQ(badOne.diagnostics,
            "k.py:21:17: error: `DEVICE` is defined at k.py:9 by a call to "
            "`torch.device`, which Kiln cannot evaluate; give its value as a "
            "host binding (ln-compile --bind DEVICE=EXPR; the Python drop-in "
            "binds it from the loaded module)\n"
            "    tl.store(X, DEVICE)\n                ^\n");
}

} // namespace
