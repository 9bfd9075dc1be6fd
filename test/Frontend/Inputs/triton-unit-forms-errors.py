import triton
import triton.language as tl


@triton.jit
def k(X, N: tl.constexpr):
    off = tl.arange(0, N)
    # expected-error @+1 {{`tl.expand_dims` received duplicate axes, normalized axes = [0, 0]}}
    t = tl.expand_dims(off, (0, -3))

# -----
import triton
import triton.language as tl


@triton.jit
def k(X, N: tl.constexpr):
    off = tl.arange(0, N)
    # expected-error @+1 {{`tl.squeeze`: axis 0 of tensor<32xi32> does not have size 1}}
    t = tl.squeeze(off, 0)
