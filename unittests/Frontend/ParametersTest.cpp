//===- ParametersTest.cpp - listKernelParameters / listKernels API --------===//
#include "kiln/Frontend/Frontend.h"

#include "gtest/gtest.h"

using namespace kiln;

namespace {

template <typename T> std::string errorText(llvm::Expected<T> &e) {
  return e ? std::string() : llvm::toString(e.takeError());
}

KernelParameter param(std::string name, bool isConstexpr = false,
                      std::optional<std::string> def = std::nullopt) {
  return KernelParameter{std::move(name), isConstexpr, std::move(def)};
}

const char *kSource = R"py(import triton
import triton.language as tl
from triton.language import constexpr

SCALE = 2

@triton.jit
def helper(x):
    return x * SCALE

def host(n):  # not a kernel
    return n

@triton.jit
def kernel(
    X,  # pointer, with a comment
    N: tl.int32,
    BLOCK: tl.constexpr,
    EVEN: tl.constexpr = True,
    DT: "tl.constexpr" = tl.float16,
    K: constexpr = 4,
    eps=1e-5,
):
    pass

@triton.jit
def no_params():
    pass
)py";

} // namespace

TEST(KernelParameters, ConstexprAnnotationsAndDefaults) {
  auto p = listKernelParameters(kSource, "k.py", "kernel");
  ASSERT_TRUE(bool(p)) << errorText(p);
  EXPECT_EQ(*p, (std::vector<KernelParameter>{
                    param("X"),
                    param("N"), // annotated, but not tl.constexpr
                    param("BLOCK", true),
                    param("EVEN", true, "True"),
                    param("DT", true, "tl.float16"),
                    param("K", true, "4"),
                    param("eps", false, "1e-5"),
                }));
}

TEST(KernelParameters, HelpersAndEmptyParameterLists) {
  auto helper = listKernelParameters(kSource, "k.py", "helper");
  ASSERT_TRUE(bool(helper)) << errorText(helper);
  EXPECT_EQ(*helper, std::vector<KernelParameter>{param("x")});
  auto none = listKernelParameters(kSource, "k.py", "no_params");
  ASSERT_TRUE(bool(none)) << errorText(none);
  EXPECT_TRUE(none->empty());
}

TEST(KernelParameters, KernelNotFoundListsTheKernels) {
  auto p = listKernelParameters(kSource, "k.py", "foo");
  EXPECT_EQ(errorText(p), "k.py:1:1: error: kernel `foo` not found in k.py; "
                          "kernels here: helper, kernel, no_params\n"
                          "import triton\n^");
  auto none = listKernelParameters("import triton\n", "e.py", "foo");
  EXPECT_EQ(errorText(none), "e.py:1:1: error: kernel `foo` not found in "
                             "e.py; there are no @triton.jit functions in it\n"
                             "import triton\n^");
}

TEST(KernelParameters, NonJitFunctionIsNotAKernel) {
  auto p = listKernelParameters(kSource, "k.py", "host");
  EXPECT_EQ(errorText(p), "k.py:11:5: error: `host` is not a @triton.jit "
                          "function\ndef host(n):  # not a kernel\n    ^");
}

TEST(KernelParameters, SyntaxAndModuleErrorsAreRendered) {
  auto star = listKernelParameters(
      "import triton\n@triton.jit\ndef k(a, *args):\n  pass\n", "f.py", "k");
  EXPECT_EQ(errorText(star), "f.py:3:10: error: `*args` parameters are not "
                             "supported in Triton kernels\ndef k(a, *args):\n"
                             "         ^");
  auto dup = listKernelParameters(
      "import triton\n@triton.jit\ndef k(a, a):\n  pass\n", "f.py", "k");
  EXPECT_EQ(errorText(dup), "f.py:3:10: error: duplicate parameter `a`\n"
                            "def k(a, a):\n         ^");
  auto open = listKernelParameters("import triton\n@triton.jit\ndef k(a, b",
                                   "f.py", "k");
  EXPECT_EQ(errorText(open), "f.py:3:6: error: '(' was never closed\n"
                             "def k(a, b\n     ^");
  auto import = listKernelParameters(
      "import numpy\n@triton.jit\ndef k(a):\n  pass\n", "f.py", "k");
  EXPECT_EQ(errorText(import),
            "f.py:1:8: error: import of module `numpy` is not supported: "
            "kernel files may import only `triton` and `triton.language`\n"
            "import numpy\n       ^");
}

TEST(KernelParameters, ListKernels) {
  auto names = listKernels(kSource, "k.py");
  ASSERT_TRUE(bool(names)) << errorText(names);
  EXPECT_EQ(*names,
            (std::vector<std::string>{"helper", "kernel", "no_params"}));
  auto bad = listKernels("def (", "b.py");
  EXPECT_EQ(errorText(bad),
            "b.py:1:5: error: '(' was never closed\ndef (\n    ^");
}
