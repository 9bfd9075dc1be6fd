# Block pointers to tl.int1 (Triton's test_block_copy with bool tensors):
# the bytes are loaded and stored as plain pointers to bool are.
# RUN: ln-compile %s --kernel copy --signature '*i1:16,*i1:16,i32' -D BLOCK=64 \
# RUN:   --emit=ptx | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def copy(a_ptr, b_ptr, N, BLOCK: tl.constexpr):
    a_block = tl.make_block_ptr(base=a_ptr, shape=(N // 2, ), strides=(1, ), offsets=(0, ),
                                block_shape=(BLOCK, ), order=(0, ))
    b_block = tl.make_block_ptr(base=b_ptr, shape=(N, ), strides=(1, ), offsets=(0, ),
                                block_shape=(BLOCK, ), order=(0, ))
    a = tl.load(a_block, boundary_check=(0, ), padding_option="zero")
    tl.store(b_block, a, boundary_check=(0, ))

# CHECK: ld.global.b8
# CHECK: st.global.b8
