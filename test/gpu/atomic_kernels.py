# Atomic max / min on fp32 / fp64 / uint32 and Triton's sem / scope, to compare
# Triton 3.6 and Kiln (test/gpu/cases_atomics.py). Written for Kiln's tests.
# As a lit test: every kernel compiles to the atoms below and ptxas takes them.
# RUN: rm -rf %t && mkdir -p %t
# RUN: ln-compile %s --kernel minmax --signature '*fp32,*u32,*fp64,*fp32,*fp32,*u32,*u32,*fp64,*fp64,i32' -D SLOTS=8 -D BLOCK=256 --emit=ptx -o %t/0.ptx
# RUN: FileCheck %s --input-file=%t/0.ptx
# RUN: ln-compile %s --kernel relaxed_count --signature '*i32,i32' -D BLOCK=256 --emit=ptx -o %t/1.ptx
# RUN: FileCheck %s --check-prefix=COUNT --input-file=%t/1.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/0.ptx -o %t/0.cubin %}
# RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/1.ptx -o %t/1.cubin %}
# CHECK: @pos atom.global.acq_rel.gpu.max.s32
# CHECK: @pos atom.global.relaxed.gpu.min.s32 {{.*}} @neg atom.global.relaxed.gpu.max.u32
# CHECK: atom.global.acq_rel.gpu.max.u32
# CHECK: atom.global.release.gpu.min.u32
# CHECK: @pos atom.global.acquire.gpu.max.s64 {{.*}} @neg atom.global.acquire.gpu.min.u64
# CHECK: @pos atom.global.acq_rel.gpu.min.s64 {{.*}} @neg atom.global.acq_rel.gpu.max.u64
# COUNT: atom.global.relaxed.gpu.add.u32
# COUNT: atom.global.relaxed.cta.add.u32
import triton
import triton.language as tl


@triton.jit
def minmax(X, U, D, FMAX, FMIN, UMAX, UMIN, DMAX, DMIN, N, SLOTS: tl.constexpr,
           BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    slot = offs % SLOTS
    x = tl.load(X + offs, mask=m)
    tl.atomic_max(FMAX + slot, x, mask=m)
    tl.atomic_min(FMIN + slot, x, mask=m, sem="relaxed")
    u = tl.load(U + offs, mask=m)
    tl.atomic_max(UMAX + slot, u, mask=m, scope="gpu")
    tl.atomic_min(UMIN + slot, u, mask=m, sem="release")
    d = tl.load(D + offs, mask=m)
    tl.atomic_max(DMAX + slot, d, mask=m, sem="acquire", scope="gpu")
    tl.atomic_min(DMIN + slot, d, mask=m)


@triton.jit
def relaxed_count(C, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(C + offs % 4, 1, mask=offs < N, sem="relaxed", scope="gpu")
    tl.atomic_add(C + 4, 1, sem="relaxed", scope="cta")
