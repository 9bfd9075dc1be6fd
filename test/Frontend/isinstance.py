# isinstance() in kernels is decided at compile time on the values Triton's
# code generator passes it (constexprs unwrapped), and tl.assume is accepted.
# RUN: ln-compile %s --kernel k --signature '*fp32:16,*fp32:16,i32' -D BLOCK=128 -D FLAG=True --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel with_desc --signature 'tensordesc<fp32[64]>,*fp32:16,i32' --emit=tile | FileCheck %s --check-prefix=DESC
# RUN: ln-compile %s --kernel with_desc --signature '*fp32:16,*fp32:16,i32' --emit=tile | FileCheck %s --check-prefix=DESC
import triton
import triton.language as tl


@triton.jit
def k(X, Y, N, BLOCK: tl.constexpr, FLAG: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N)
    tl.static_assert(isinstance(BLOCK, int))
    tl.static_assert(not isinstance(BLOCK, tl.constexpr))
    tl.static_assert(isinstance(FLAG, bool) and isinstance(FLAG, int))
    tl.static_assert(isinstance(x, tl.tensor))
    tl.static_assert(isinstance(N, tl.tensor))
    tl.static_assert(not isinstance(N, int))
    tl.static_assert(not isinstance(x, tl.tensor_descriptor))
    tl.static_assert(isinstance(1.5, float) and isinstance("s", str))
    tl.static_assert(isinstance(N, (int, tl.tensor)))
    tl.static_assert(isinstance(x.dtype, tl.dtype))
    tl.static_assert(isinstance(X.dtype, tl.pointer_type))
    tl.static_assert(not isinstance(x.dtype, tl.pointer_type))
    tl.static_assert(isinstance((1, 2), tuple))
    bp = tl.make_block_ptr(X, (N,), (1,), (0,), (BLOCK,), (0,))
    tl.static_assert(isinstance(bp, tl.tensor))
    desc = tl.make_tensor_descriptor(X, [N], [1], [BLOCK])
    tl.static_assert(isinstance(desc, tl.tensor_descriptor))
    tl.static_assert(isinstance(desc, tl.tensor_descriptor_base))
    tl.static_assert(not isinstance(desc, tl.tensor))
    tl.assume(N > 0)
    tl.assume(True)
    # CHECK: tile.store
    tl.store(Y + offs, x, mask=offs < N)


@triton.jit
def _desc_of(desc_or_ptr, n, BLOCK: tl.constexpr):
    # The fused-attention tutorial's _maybe_make_tensor_desc.
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, [n], [1], [BLOCK])


@triton.jit
def with_desc(X, Y, N):
    desc = _desc_of(X, N, 64)
    # DESC: tile.load
    x = desc.load([0])
    tl.store(Y + tl.arange(0, 64), x)
