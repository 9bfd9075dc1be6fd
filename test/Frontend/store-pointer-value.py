# A pointer stored into an int64 (or uint64) tensor is its address, as
# Triton casts a stored value to the element type and a pointer to a 64-bit
# integer: flashinfer's group-GEMM argument kernel writes the pointer of
# each problem's operands (`tl.store(w_ptr + pid, w + w_i * k * n)`). Any
# other element type stays an error at the value.
# RUN: ln-compile %s --kernel k --signature '*i64:16,*u64:16,*bf16:16,i32' --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel narrow --signature '*i32:16,*bf16:16' --emit=tile 2>&1 | FileCheck %s --check-prefix=ERR
import triton
import triton.language as tl


@triton.jit
def k(ptrs, uptrs, w, n):
    pid = tl.program_id(0)
    tl.store(ptrs + pid, w + pid * n)
    offs = tl.arange(0, 4)
    tl.store(uptrs + offs, w + offs * n)

# CHECK-LABEL: func.func @k
# CHECK: tile.ptr_cast %{{.*}} : !tile.ptr<bf16> -> i64
# CHECK: tile.store
# CHECK: tile.ptr_cast %{{.*}} : tensor<4x!tile.ptr<bf16>> -> tensor<4xi64>
# CHECK: tile.store


@triton.jit
def narrow(out, w):
    tl.store(out, w)

# ERR: store-pointer-value.py:[[@LINE-2]]:19: error: `value` of `tl.store` cannot be a pointer (!tile.ptr<bf16>)
