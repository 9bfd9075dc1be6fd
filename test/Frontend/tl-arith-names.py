# Names of Triton 3.6's `tl` that libraries reach besides the operators:
# tl.add / tl.sub / tl.mul (the operators, with `sanitize_overflow`),
# tl.max_constancy (a hint like max_contiguous), tl.TRITON_MAX_TENSOR_NUMEL
# tl.pi32_t (core.py's pointer_type(int32)) and tl.to_tensor.
# RUN: ln-compile %s --kernel k --signature '*fp32:16,*i64:16,i32' --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel bad --signature '*fp32:16,*i64:16,i32' --emit=tile 2>&1 | FileCheck %s --check-prefix=BAD
import triton
import triton.language as tl


@triton.jit
def k(X, P, n):
    tl.static_assert(tl.TRITON_MAX_TENSOR_NUMEL == 1048576)
    tl.static_assert(tl.core.TRITON_MAX_TENSOR_NUMEL == 1048576)
    offs = tl.arange(0, 64)
    groups = tl.max_constancy(offs // 16, 16)
    x = tl.load(X + offs)
    y = tl.mul(tl.add(x, 1.0), tl.sub(x, 2.0, sanitize_overflow=False))
    q = tl.load(P).to(tl.pi32_t)
    big = tl.to_tensor(2**40) + tl.to_tensor(n)
    tl.store(X + offs, y + tl.load(q + groups).to(tl.float32) + big)

# CHECK-LABEL: func.func @k(
# CHECK: %[[G:[^ ]+]] = tile.max_constancy %{{.*}}, [16] : tensor<64xi32>
# CHECK: %[[A:[^ ]+]] = arith.addf %[[X:[^ ]+]], %{{.*}} : tensor<64xf32>
# CHECK: %[[S:[^ ]+]] = arith.subf %[[X]], %{{.*}} : tensor<64xf32>
# CHECK: arith.mulf %[[A]], %[[S]] : tensor<64xf32>
# CHECK: tile.ptr_cast %{{.*}} : i64 -> !tile.ptr<i32>
# CHECK: %[[BIG:[^ ]+]] = arith.constant 1099511627776 : i64
# CHECK: %[[N64:[^ ]+]] = arith.extsi %arg2 : i32 to i64
# CHECK: arith.addi %[[BIG]], %[[N64]] : i64
# CHECK: tile.load %{{.*}} : tensor<64x!tile.ptr<i32>>


@triton.jit
def bad(X, P, n):
    # BAD: tl-arith-names.py:[[@LINE+1]]:22: error: `sanitize_overflow` of `tl.add` must be a constexpr bool, got i1
    y = tl.add(n, 1, n > 0)
