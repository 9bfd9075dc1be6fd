# A hint holds for the value itself, as in Triton (which sets an attribute on
# the value's defining op, or on the loop of a loop-carried value): a
# `tl.multiple_of(ptrs, ...)` statement whose result is dropped still makes
# the loads of `ptrs` vectorized (Triton's grouped GEMM tutorial writes it
# so at the top of its K loop). The hint goes right after the definition, so
# uses before the call and after a loop see it too.
# RUN: ln-compile %s --kernel dropped --signature '*i64,*fp32:16' --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel dropped --signature '*i64,*fp32:16' --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: ln-compile %s --kernel in_loop --signature '*i64,*fp32:16,i32' --emit=ptx | FileCheck %s --check-prefix=LOOP
# RUN: ln-compile %s --kernel unhinted --signature '*i64,*fp32:16' --emit=ptx | FileCheck %s --check-prefix=NONE
import triton
import triton.language as tl


# CHECK-LABEL: func.func @dropped
# CHECK: %[[P:.*]] = tile.addptr
# CHECK-NEXT: %[[H:.*]] = tile.multiple_of %[[P]], [16]
# CHECK: tile.load %[[H]]
# PTX: ld.global.v4.b32
@triton.jit
def dropped(P, X):
    offs = tl.arange(0, 1024)
    ptrs = tl.load(P).to(tl.pointer_type(tl.float32)) + offs
    tl.multiple_of(ptrs, 16)
    tl.store(X + offs, tl.load(ptrs))


# A loop-carried pointer hinted inside the loop, read after it as well.
# LOOP: ld.global.v4.b32
@triton.jit
def in_loop(P, X, K):
    offs = tl.arange(0, 1024)
    ptrs = tl.load(P).to(tl.pointer_type(tl.float32)) + offs
    acc = tl.zeros((1024,), tl.float32)
    for k in range(K):
        tl.multiple_of(ptrs, 16)
        acc += tl.load(ptrs)
        ptrs += 1024
    tl.store(X + offs, acc + tl.load(ptrs))


# Without the hint the loaded address has no known alignment.
# NONE-NOT: ld.global.v4
@triton.jit
def unhinted(P, X):
    offs = tl.arange(0, 1024)
    ptrs = tl.load(P).to(tl.pointer_type(tl.float32)) + offs
    tl.store(X + offs, tl.load(ptrs))
