# Fuzz finding (kiln-fuzz-pipeline, CI after session 45): `${1:}r` (an empty
# modifier) passed the template check and LLVM's inline-asm printer aborted
# the process on it. The check now follows the printer's grammar: this file
# errs at the call, and every form the check accepts is printed into PTX.
# RUN: not ln-compile %s --kernel bad --signature '*i32:16' -D BLOCK=16 \
# RUN:   --emit=ptx 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: ln-compile %s --kernel good --signature '*i32:16' -D BLOCK=16 \
# RUN:   --emit=ptx | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def bad(I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    i = tl.load(I + offs)
    # BAD: inline-asm-modifiers.py:[[@LINE+1]]:35: error: bad assembly for `tl.inline_asm_elementwise`: `${1:` at offset 22 of the assembly needs the modifier `r`
    y = tl.inline_asm_elementwise("// $$ \n add.u32 ${0}, ${1:}r, 1;", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(I + offs, y)


@triton.jit
def good(I, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    i = tl.load(I + offs)
    # CHECK-LABEL: .entry good(
    # CHECK: // $ dollar
    # CHECK-NEXT: add.u32 %r{{[0-9]+}}, %r{{[0-9]+}}, 7;
    y = tl.inline_asm_elementwise("// $$ dollar\n add.u32 ${0}, ${1:r}, 7;", "=r,r", [i], dtype=tl.int32, is_pure=True, pack=1)
    # CHECK: // uid {{[0-9]+}} variant first
    # CHECK-NEXT: mov.b32 %r{{[0-9]+}}, %r{{[0-9]+}};
    z = tl.inline_asm_elementwise("${:comment} uid ${:uid} variant $(first$|second$)\n mov.b32 $0, $1;", "=r,r", [y], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(I + offs, z)
