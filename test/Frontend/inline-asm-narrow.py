# An 8-bit value in a 32-bit `r` register of tl.inline_asm_elementwise
# (pack=1), in and out, as Triton passes it (FastVideo's nvfp4 helpers put a
# uint8 in `=r`): LLVM widens the input and narrows the result. A wider value
# in a narrower register stays an error (test/Frontend/errors-math.py).
# RUN: ln-compile %s --kernel k --signature '*u8:16,*u8:16' -D BLOCK=128 --emit=ptx | FileCheck %s
# RUN: %if ptxas %{ ln-compile %s --kernel k --signature '*u8:16,*u8:16' -D BLOCK=128 -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.inline_asm_elementwise("add.u32 $0, $1, 1;", "=r,r", [x], dtype=tl.uint8,
                                  is_pure=True, pack=1)
    tl.store(Y + offs, y)


# CHECK: ld.global.b8 %rs[[IN:[0-9]+]]
# CHECK: cvt.u32.u16 %r[[WIDE:[0-9]+]], %rs[[IN]];
# CHECK: add.u32 %r[[OUT:[0-9]+]], %r[[WIDE]], 1;
# CHECK: cvt.u16.u32 %rs{{[0-9]+}}, %r[[OUT]];
# CHECK: st.global.b8
