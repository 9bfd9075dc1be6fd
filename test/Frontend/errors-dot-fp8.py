# tl.dot on fp8 operands needs sm_89 (Triton's supported_fp8_dtypes); on sm_90
# it compiles (the mma runs on exactly converted f16 fragments).
# RUN: ln-compile %s --kernel fp8 --signature '*fp8e4nv,*fp8e5,*fp32' \
# RUN:   --arch sm_80 --emit=tile --verify-diagnostics
# RUN: ln-compile %s --kernel fp8 --signature '*fp8e4nv,*fp8e5,*fp32' --arch sm_89 \
# RUN:   --emit=ptx | FileCheck %s
# CHECK-DAG: cvt.rn.f16x2.e4m3x2
# CHECK-DAG: cvt.rn.f16x2.e5m2x2
# CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
import triton
import triton.language as tl


@triton.jit
def fp8(P, Q, O):
    r = tl.arange(0, 32)
    a = tl.load(P + r[:, None] * 32 + r[None, :])
    b = tl.load(Q + r[:, None] * 32 + r[None, :])
    # expected-error @+1 {{`tl.dot` on fp8 operands needs sm_89 or newer, the target is sm_80}}
    c = tl.dot(a, b)
    tl.store(O + r[:, None] * 32 + r[None, :], c)
