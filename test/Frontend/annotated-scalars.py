# A scalar parameter annotated with a dtype takes that type, as in Triton
# (its annotation_type), whatever the value gave the signature: torchao
# annotates strides and sizes `tl.int64` so that `pid * stride` is a 64-bit
# product (with the i32 of a small value it wrapped past 2**31). A float
# annotation widens a float the same way; an annotation of the other kind
# (a float dtype on an int) leaves the signature's type.
# RUN: ln-compile %s --kernel k --signature '*fp32:16,i32,i32,fp32,i32' -D BLOCK=128 --emit tile | FileCheck %s
# RUN: ln-compile %s --kernel k --signature '*fp32:16,i32,i32,fp32,i32' -D BLOCK=128 | FileCheck %s --check-prefix=PTX
import triton
import triton.language as tl
from triton.language import uint64


@triton.jit
def k(x_ptr, stride: tl.int64, n: uint64, eps: tl.float64, odd: tl.float32, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs) + eps + odd
    tl.store(x_ptr + pid * stride + offs, v, mask=offs < n)

# CHECK: func.func @k(%arg0: !tile.ptr<f32> {{.*}}, %arg1: i64 {tile.name = "stride"}, %arg2: i64 {tile.name = "n"}, %arg3: f64 {tile.name = "eps"}, %arg4: i32 {tile.name = "odd"})
# CHECK: arith.muli %{{.*}}, %arg1 : i64
# PTX: .param .u64 k_param_1
# PTX: mul.lo.s64
