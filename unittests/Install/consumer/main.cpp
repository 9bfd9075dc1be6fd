// Uses the installed C++ runtime (Kiln::Runtime): compiles a kernel through
// the runtime's caches, then expects the "no CUDA driver" error.
#include "kiln/Runtime/Module.h"
#include <cstdio>

int main() {
  auto mod = kiln::rt::Module::fromSource(
      "import triton\nimport triton.language as tl\n\n@triton.jit\n"
      "def copy(src, dst, BLOCK: tl.constexpr):\n"
      "    offs = tl.arange(0, BLOCK)\n"
      "    tl.store(dst + offs, tl.load(src + offs))\n",
      "copy.py");
  auto k = mod.kernel("copy");
  if (!k) {
    std::fprintf(stderr, "%s\n", llvm::toString(k.takeError()).c_str());
    return 1;
  }
  kiln::rt::LaunchOptions opts;
  opts.constexprs.emplace("BLOCK", 128);
  auto ck = k->compileFor("sm_90",
                          {kiln::rt::Arg::ptr(0x1000, kiln::DType::F32),
                           kiln::rt::Arg::ptr(0x2000, kiln::DType::F32)},
                          opts);
  if (!ck || (*ck)->ptx.find(".entry copy") == std::string::npos) {
    std::fprintf(stderr, "compile failed\n");
    return 1;
  }
  std::printf("C++: compiled copy (%zu bytes of PTX)\n", (*ck)->ptx.size());
  auto n = kiln::rt::Device::count();
  if (n) {
    std::printf("unexpected: %d device(s)\n", *n);
    return 2;
  }
  std::printf("%s\n", llvm::toString(n.takeError()).c_str());
  return 0;
}
