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
# CHECK: @pos atom.global.gpu.acq_rel.max.s32
# CHECK: @pos atom.global.gpu.relaxed.min.s32 {{.*}} @neg atom.global.gpu.relaxed.max.u32
# CHECK: atom.global.gpu.acq_rel.max.u32
# CHECK: atom.global.gpu.release.min.u32
# CHECK: @pos atom.global.gpu.acquire.max.s64 {{.*}} @neg atom.global.gpu.acquire.min.u64
# CHECK: @pos atom.global.gpu.acq_rel.min.s64 {{.*}} @neg atom.global.gpu.acq_rel.max.u64
# COUNT: atom.global.gpu.relaxed.add.u32
# COUNT: atom.global.cta.relaxed.add.u32
# 16-bit float adds: on sm_90 runs of contiguous elements are one vector atom (OUT + arange, and
# SCAT + offs % 8), scattered ones one atom each (% 5); bf16 before sm_90 (no bf16 atom.add there)
# is a compare-and-swap loop.
# RUN: ln-compile %s --kernel add16 --signature '*bf16:16,*bf16:16,*bf16:16,i32:16' -D SLOTS=8 -D BLOCK=1024 --emit=ptx -o %t/2.ptx
# RUN: FileCheck %s --check-prefix=BF16 --input-file=%t/2.ptx
# RUN: ln-compile %s --kernel add16 --signature '*fp16:16,*fp16:16,*fp16:16,i32:16' -D SLOTS=5 -D BLOCK=1024 --emit=ptx -o %t/3.ptx
# RUN: FileCheck %s --check-prefix=FP16 --input-file=%t/3.ptx
# RUN: ln-compile %s --kernel add16 --signature '*bf16:16,*bf16:16,*bf16:16,i32:16' -D SLOTS=8 -D BLOCK=256 --arch sm_80 --emit=ptx -o %t/4.ptx
# RUN: FileCheck %s --check-prefix=CAS --input-file=%t/4.ptx
# RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/2.ptx -o %t/2.cubin %}
# RUN: %if ptxas %{ %ptxas -arch=sm_90 %t/3.ptx -o %t/3.cubin %}
# RUN: %if ptxas %{ %ptxas -arch=sm_80 %t/4.ptx -o %t/4.cubin %}
# BF16: atom.global.gpu.acq_rel.add.noftz.v8.bf16
# BF16: atom.global.gpu.relaxed.add.noftz.v8.bf16
# FP16: atom.global.gpu.acq_rel.add.noftz.v8.f16
# FP16: atom.global.gpu.relaxed.add.noftz.f16 %rs
# CAS-NOT: add.noftz
# CAS: fma.rn.bf16
# CAS-SAME: atom.global.gpu.acq_rel.cas.b16
# CAS-SAME: setp.ne.b16
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


@triton.jit
def add16(X, OUT, SCAT, N, SLOTS: tl.constexpr, BLOCK: tl.constexpr):
    """fp16 / bf16 atomic adds: a contiguous block added onto OUT[0:BLOCK] by
    every program, and each element onto SCAT[i % SLOTS]."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m, other=0.0)
    tl.atomic_add(OUT + tl.arange(0, BLOCK), x, mask=m)
    tl.atomic_add(SCAT + offs % SLOTS, x, mask=m, sem="relaxed")
