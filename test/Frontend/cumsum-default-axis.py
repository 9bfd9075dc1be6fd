# tl.cumsum / tl.cumprod without an axis scan axis 0, as in Triton
# (flash-linear-attention's chunk_atk_fwd: `tl.cumsum(log_g_val)`).
# RUN: ln-compile %s --kernel k --signature '*fp32' -D T=16 --emit=tile | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(X, T: tl.constexpr):
    o = tl.arange(0, T)
    x = tl.load(X + o)
    tl.store(X + o, tl.exp(tl.sum(x) - tl.cumsum(x)) + tl.cumprod(x))
# CHECK-LABEL: func.func @k
# CHECK: tile.scan{{.*}} axis = 0
# CHECK: arith.addf
# CHECK: tile.scan{{.*}} axis = 0
# CHECK: arith.mulf
