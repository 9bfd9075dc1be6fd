# Fuzz finding (kiln-fuzz-pipeline, session 43): a `$` in
# tl.inline_asm_elementwise's assembly that names no operand reached LLVM's
# printer, which aborts on it. The frontend now rejects the template
# (`checkInlineAsmTemplate`, also the op's verifier).
# RUN: ln-compile %s --kernel k --signature '*u8:16,*u8:16' -D BLOCK=16 \
# RUN:   --emit=tile --verify-diagnostics
import triton
import triton.language as tl


@triton.jit
def k(X, Y, BLOCK: tl.constexpr):
    offs = tl.arange(8, BLOCK)
    x = tl.load(X + offs)
    # expected-error @+1 {{bad assembly for `tl.inline_asm_elementwise`: `$` at offset 11 of the assembly is not followed by an operand number (`$0`, `${0}`; `$$` for a literal `$`)}}
    y = tl.inline_asm_elementwise("add.u32 ,,1$ $0 1;", "=r,r", [x], dtype=tl.uint8,
                                  is_pure=True, pack=1)
    tl.store(Y + offs, y)
