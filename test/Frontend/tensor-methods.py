# Triton's tensor member functions (`@_tensor_member_fn` in triton.language):
# `ptr.store(v)`, `ptr.atomic_add(v, sem=...)`, `x.cdiv(d)`, `x.item()`,
# `block_ptr.advance(offsets)` call the `tl.` builtin with the tensor first;
# `x.sort()` is not a member in Triton and says how to call it.
# RUN: ln-compile %s --kernel k --signature '*fp32,*fp32,*fp32,*i32' -D N=128 --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel bad_sort --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=SORT
# RUN: not ln-compile %s --kernel bad_item --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=ITEM
import triton
import triton.language as tl


@triton.jit
def k(X, Y, Z, W, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    total = tl.sum(tl.reshape(x, [1, N]), 1).item()
    (Y + offs).store(x.cumsum(0) + x.flip(0) + total)
    (Z + offs).atomic_add(x, sem="relaxed")
    (W + offs).atomic_max(offs.cdiv(4))
    q = tl.make_block_ptr(X, (N,), (1,), (0,), (16,), (0,))
    q = q.advance((16,))
    tl.store(Y + tl.arange(0, 16), tl.load(q))


# CHECK: tile.reduce({{.*}}) axis = 0 : (tensor<1xf32>) -> f32
# CHECK: tile.scan
# CHECK: tile.store
# CHECK: tile.atomic_rmw add {{.*}} {sem = "relaxed"} : tensor<128x!tile.ptr<f32>>
# CHECK: arith.divsi
# CHECK: tile.atomic_rmw max {{.*}} : tensor<128x!tile.ptr<i32>>
# CHECK: tile.store


@triton.jit
def bad_sort(X):
    x = tl.load(X + tl.arange(0, 16))
    # SORT: tensor-methods.py:[[@LINE+1]]:11: error: `sort` is not a tensor method in Triton: call `tl.sort(x, ...)`
    y = x.sort()


@triton.jit
def bad_item(X):
    x = tl.load(X + tl.arange(0, 16))
    # ITEM: tensor-methods.py:[[@LINE+1]]:9: error: `item` needs a tensor of one element, got tensor<16xf32>
    y = x.item()
