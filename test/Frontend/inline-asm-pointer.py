# tl.inline_asm_elementwise with a pointer dtype (Megatron-LM's symmetric-memory
# signal kernels, `_send_signal`: dtype=addrs.dtype for a tensor of pointers, an
# `"=r, l"` constraint string): the results are pointers, and a 64-bit result
# written through a 32-bit `=r` is zero-extended by LLVM, as under Triton. A
# 64-bit result that is used (`wide` below) reads that register widened.
# RUN: ln-compile %s --kernel send_signal --signature '*u32:16' -D BLOCK=32 --emit=tile \
# RUN:   | FileCheck %s --check-prefix=IR
# RUN: ln-compile %s --kernel send_signal --signature '*u32:16' -D BLOCK=32 --emit=ptx \
# RUN:   | FileCheck %s --check-prefix=PTX
# RUN: ln-compile %s --kernel wide --signature '*i64:16' -D BLOCK=32 --emit=ptx \
# RUN:   | FileCheck %s --check-prefix=WIDE
# RUN: %if ptxas %{ ln-compile %s --kernel send_signal --signature '*u32:16' -D BLOCK=32 -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
import triton
import triton.language as tl


# IR-LABEL: func.func @send_signal
# IR: tile.inline_asm_elementwise {{.*}} : (tensor<32x!tile.ptr<i32>{{.*}}>) -> tensor<32x!tile.ptr<i32>
# PTX: send_signal_loop:
# PTX: atom.global.release.sys.cas.b32 %tmp32_0, [%rd{{[0-9]+}}], 0, 1;
@triton.jit
def send_signal(signal_ptr, BLOCK: tl.constexpr):
    addrs = signal_ptr + tl.arange(0, BLOCK)
    tl.inline_asm_elementwise(
        """
        {
            .reg .u32   %tmp32_<1>;
            .reg .pred  %p<1>;
            send_signal_loop:
                atom.global.release.sys.cas.b32 %tmp32_0, [$1], 0, 1;
                setp.eq.u32 %p0, %tmp32_0, 0;
                @!%p0 bra send_signal_loop;
        }
        """,
        "=r, l",
        [addrs],
        dtype=addrs.dtype,
        is_pure=False,
        pack=1,
    )


# WIDE-LABEL: .entry wide
# WIDE: mov.b32 %r[[R:[0-9]+]], 7;
# WIDE: mov.b32 %r[[Z:[0-9]+]], 0;
# WIDE: st.global.v2.b32 [ %rd{{[0-9]+}} + 0 ], { %r[[R]], %r[[Z]] };
@triton.jit
def wide(out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.inline_asm_elementwise("mov.b32 $0, 7;", "=r,r", [offs], dtype=tl.int64,
                                  is_pure=True, pack=1)
    tl.store(out_ptr + offs, x)
