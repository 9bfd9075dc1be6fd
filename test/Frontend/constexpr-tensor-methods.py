# A number assigned to a local (`b = BLOCK`) is a runtime scalar in Triton and
# takes the tensor methods (FlagGems' randperm: `_block_size.to(tl.uint32)`);
# a block pointer's `.dtype` / `.type` is a pointer to its elements, so
# `p.dtype.element_ty` casts a value for storing through it (FLA's
# `b_h.to(p_h.dtype.element_ty)`).
# RUN: ln-compile %s --kernel k --signature '*fp32:16,*fp16:16,i32' -D BLOCK=64 --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel bad --signature '*fp32:16' -D BLOCK=64 --emit=tile 2>&1 | FileCheck %s --check-prefix=BAD
import triton
import triton.language as tl


@triton.jit
def k(X, Y, n, BLOCK: tl.constexpr):
    b = BLOCK
    r = tl.arange(0, BLOCK).to(tl.uint32) % b.to(tl.uint32)
    p = tl.make_block_ptr(Y, (n,), (1,), (0,), (BLOCK,), (0,))
    v = tl.load(X + tl.arange(0, BLOCK)) + r.to(tl.float32)
    tl.store(p, v.to(p.dtype.element_ty), boundary_check=(0,))
    tl.store(Y + tl.arange(0, BLOCK), v.to(p.type.element_ty))

# CHECK-LABEL: func.func @k
# CHECK: arith.remui %{{.*}} : tensor<64xi32>
# CHECK: arith.truncf %{{.*}} : tensor<64xf32> to tensor<64xf16>
# CHECK: tile.store
# CHECK: arith.truncf %{{.*}} : tensor<64xf32> to tensor<64xf16>


@triton.jit
def bad(X, BLOCK: tl.constexpr):
    b = BLOCK
    tl.store(X, b.nope)

# BAD: error: unknown attribute `b.nope` (constexpr int 64 has no attributes)
