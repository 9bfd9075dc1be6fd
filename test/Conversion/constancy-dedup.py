# An elementwise op whose result the axis analysis proves constant over
# aligned blocks is computed once per block of each thread's registers (as
# Triton's elementwise lowering deduplicates by constancy). `cols < N` with
# N a multiple of 16 changes only at multiples of 16: each thread's two runs
# of 4 columns need one compare each, not one per element.
# RUN: ln-compile %s --kernel masked --signature '*fp32:16,*fp32:16,i32:16' \
# RUN:   | FileCheck %s --check-prefix=DIV16
# RUN: ln-compile %s --kernel masked --signature '*fp32:16,*fp32:16,i32' \
# RUN:   | FileCheck %s --check-prefix=ANY
# DIV16-COUNT-2: setp.lt.s32
# DIV16-NOT: setp.lt.s32
# DIV16-COUNT-4: selp.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0, %p1;
# DIV16-COUNT-4: selp.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0, %p2;
# Nothing known about N: one compare per element.
# ANY-COUNT-8: setp.lt.s32
# ANY-NOT: setp.lt.s32
import triton
import triton.language as tl


@triton.jit
def masked(X, Y, N):
    cols = tl.arange(0, 1024)
    x = tl.load(X + cols)
    tl.store(Y + cols, tl.where(cols < N, x, 0.0))
