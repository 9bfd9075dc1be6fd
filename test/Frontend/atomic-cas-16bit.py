# tl.atomic_cas on 16-bit elements (Triton: "supports elements with width
# {16, 32, 64}"; FlagGems' scatter_reduce prod on fp16 spins on it): PTX's
# atom.cas.b16, vector and scalar (thread 0, result broadcast), with sem.
# RUN: ln-compile %s --kernel k --signature '*fp16:16,*i16:16,*fp32:16' --emit=ptx -o %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
import triton
import triton.language as tl


@triton.jit
def k(X, H, Y):
    r = tl.arange(0, 128)
    old = tl.atomic_cas(X + r, tl.full([128], 0, tl.float16), tl.full([128], 1.5, tl.float16))
    o2 = tl.atomic_cas(H + r, tl.zeros([128], tl.int16), tl.full([128], 3, tl.int16), sem="relaxed")
    s = tl.atomic_cas(H, 0, 1)
    tl.store(Y + r, old.to(tl.float32) + o2.to(tl.float32) + s)

# CHECK: atom.global.acq_rel.gpu.cas.b16 %rs{{[0-9]+}}, [ %rd{{[0-9]+}} + 0 ], %rs{{[0-9]+}}, %rs{{[0-9]+}}
# CHECK: atom.global.relaxed.gpu.cas.b16
# CHECK: atom.global.acq_rel.gpu.cas.b16
