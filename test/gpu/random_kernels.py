# Kernels that store the outputs of every random builtin, to compare Triton
# 3.6 and Kiln bit for bit on the GPU (same launch, then compare the output
# buffers with torch.equal on their int32/int64 views). No host code here.
#
# Every kernel uses a 1-D grid of cdiv(N, BLOCK) programs (N: element count of
# each output buffer; BLOCK: a power of two, e.g. 128) and num_warps=4.
# Outputs are contiguous buffers of N elements (N*BLOCK2 for the 2-D kernel).
# N_ROUNDS is a constexpr: run each kernel with 7 and 10. Signatures as
# ln-compile --signature strings, in parameter order (constexprs by -D):
#
#   randint_kernel      (Out *i32, seed i32|u32|i64, N i32)            -D N_ROUNDS, BLOCK
#   randint4x_kernel    (O0 *i32, O1 *i32, O2 *i32, O3 *i32, seed i32, N i32)
#   rand_kernel         (Out *fp32, seed i32|i64, N i32)
#   rand4x_kernel       (O0..O3 *fp32, seed i32, N i32)
#   randn_kernel        (Out *fp32, seed i32, N i32)
#   randn4x_kernel      (O0..O3 *fp32, seed i32, N i32)
#   rand_i64_offsets_kernel (Out *fp32, Ints *i32, seed i32, base i64, N i32)
#       offsets base + i as int64 (base near 2**32 exercises the high counter)
#   rand_scalar_kernel  (Out *fp32, Ints *i32, seed i32, offset i32)
#       grid (P,): program p stores rand/randint at scalar offset `offset + p`
#       into Out[p] / Ints[p]
#   randint_u64_seed_kernel (Out *i32, seed_lo u32, seed_hi u32, N i32)
#       seed = seed_hi << 32 | seed_lo as uint64
#   randint_u32_offsets_kernel (Out *i32, seed i32, base u32, N i32)
#   randint_2d_kernel   (Out *i32, seed i32, N i32)                    -D BLOCK2
#       offsets of shape [BLOCK, BLOCK2]; Out has N*BLOCK2 elements
#   philox_kernel       (O0..O3 *i32, seed i64, N i32)
#       counters (i, 3*i, i ^ 0x5555, 7) as int32
#   philox64_kernel     (O0..O3 *i64, seed i64, N i32)
#       counters (i, i + 2**40, 0, 1) as int64 (Philox4x64)
#   uniform_normal_kernel (U32 *fp32, U64 *fp32, N0 *fp32, N1 *fp32, X *i32, Y *i64, N i32)
#       uint_to_uniform_float on loaded int32/int64 bits and
#       pair_uniform_to_normal on the two uniforms
#
# randint/philox outputs and rand/rand4x/uniform values must match bitwise;
# randn/randn4x/normal values within the tolerance documented in
# docs/builtins.md (Kiln uses the hardware sin/cos/log approximations where
# Triton calls libdevice).
# Every kernel compiles to PTX (test/gpu/random-kernels-ptxas.test runs ptxas
# on the same PTX); the Philox rounds use mul.hi, normals the approximate
# sin/cos/lg2 and sqrt.approx.ftz.
# RUN: rm -rf %t && mkdir -p %t
# RUN: ln-compile %s --kernel randint_kernel --signature '*i32,i32,i32' -D N_ROUNDS=10 -D BLOCK=128 --emit=ptx -o %t/randint_kernel.ptx
# RUN: ln-compile %s --kernel randint4x_kernel --signature '*i32,*i32,*i32,*i32,i32,i32' -D N_ROUNDS=7 -D BLOCK=128 --emit=ptx -o %t/randint4x_kernel.ptx
# RUN: ln-compile %s --kernel rand_kernel --signature '*fp32,i64,i32' -D N_ROUNDS=10 -D BLOCK=128 --emit=ptx -o %t/rand_kernel.ptx
# RUN: ln-compile %s --kernel rand4x_kernel --signature '*fp32,*fp32,*fp32,*fp32,i32,i32' -D N_ROUNDS=10 -D BLOCK=128 --emit=ptx -o %t/rand4x_kernel.ptx
# RUN: ln-compile %s --kernel randn_kernel --signature '*fp32,i32,i32' -D N_ROUNDS=10 -D BLOCK=128 --emit=ptx -o %t/randn_kernel.ptx
# RUN: env KILN_LIBDEVICE= ln-compile %s --kernel randn4x_kernel --signature '*fp32,*fp32,*fp32,*fp32,i32,i32' -D N_ROUNDS=7 -D BLOCK=128 --emit=ptx -o %t/randn4x_kernel.ptx
# RUN: ln-compile %s --kernel rand_i64_offsets_kernel --signature '*fp32,*i32,i32,i64,i32' -D N_ROUNDS=10 -D BLOCK=128 --emit=ptx -o %t/rand_i64_offsets_kernel.ptx
# RUN: ln-compile %s --kernel rand_scalar_kernel --signature '*fp32,*i32,i32,i32' -D N_ROUNDS=10 --emit=ptx -o %t/rand_scalar_kernel.ptx
# RUN: ln-compile %s --kernel randint_u64_seed_kernel --signature '*i32,u32,u32,i32' -D N_ROUNDS=10 -D BLOCK=128 --emit=ptx -o %t/randint_u64_seed_kernel.ptx
# RUN: ln-compile %s --kernel randint_u32_offsets_kernel --signature '*i32,i32,u32,i32' -D N_ROUNDS=10 -D BLOCK=128 --emit=ptx -o %t/randint_u32_offsets_kernel.ptx
# RUN: ln-compile %s --kernel randint_2d_kernel --signature '*i32,i32,i32' -D N_ROUNDS=10 -D BLOCK=16 -D BLOCK2=16 --emit=ptx -o %t/randint_2d_kernel.ptx
# RUN: ln-compile %s --kernel philox_kernel --signature '*i32,*i32,*i32,*i32,i64,i32' -D N_ROUNDS=10 -D BLOCK=128 --emit=ptx -o %t/philox_kernel.ptx
# RUN: ln-compile %s --kernel philox64_kernel --signature '*i64,*i64,*i64,*i64,i64,i32' -D N_ROUNDS=10 -D BLOCK=128 --emit=ptx -o %t/philox64_kernel.ptx
# RUN: ln-compile %s --kernel uniform_normal_kernel --signature '*fp32,*fp32,*fp32,*fp32,*i32,*i64,i32' -D BLOCK=128 --emit=ptx -o %t/uniform_normal_kernel.ptx
# RUN: FileCheck %s --check-prefix=INT32 < %t/randint_kernel.ptx
# RUN: FileCheck %s --check-prefix=INT64 < %t/philox64_kernel.ptx
# RUN: FileCheck %s --check-prefix=NORMAL < %t/randn4x_kernel.ptx
# INT32: .entry randint_kernel
# INT32-COUNT-10: mul.hi.u32
# INT64: .entry philox64_kernel
# INT64: mul.hi.u64
# NORMAL: .entry randn4x_kernel
# NORMAL-DAG: lg2.approx.f32
# NORMAL-DAG: sqrt.approx.ftz.f32
# NORMAL-DAG: sin.approx.f32
# NORMAL-DAG: cos.approx.f32
import triton
import triton.language as tl


@triton.jit
def randint_kernel(Out, seed, N, N_ROUNDS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r = tl.randint(seed, offs, N_ROUNDS)
    tl.store(Out + offs, r, mask=offs < N)


@triton.jit
def randint4x_kernel(O0, O1, O2, O3, seed, N, N_ROUNDS: tl.constexpr,
                     BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r0, r1, r2, r3 = tl.randint4x(seed, offs, n_rounds=N_ROUNDS)
    m = offs < N
    tl.store(O0 + offs, r0, mask=m)
    tl.store(O1 + offs, r1, mask=m)
    tl.store(O2 + offs, r2, mask=m)
    tl.store(O3 + offs, r3, mask=m)


@triton.jit
def rand_kernel(Out, seed, N, N_ROUNDS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Out + offs, tl.rand(seed, offs, N_ROUNDS), mask=offs < N)


@triton.jit
def rand4x_kernel(O0, O1, O2, O3, seed, N, N_ROUNDS: tl.constexpr,
                  BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    u0, u1, u2, u3 = tl.rand4x(seed, offs, N_ROUNDS)
    m = offs < N
    tl.store(O0 + offs, u0, mask=m)
    tl.store(O1 + offs, u1, mask=m)
    tl.store(O2 + offs, u2, mask=m)
    tl.store(O3 + offs, u3, mask=m)


@triton.jit
def randn_kernel(Out, seed, N, N_ROUNDS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Out + offs, tl.randn(seed, offs, N_ROUNDS), mask=offs < N)


@triton.jit
def randn4x_kernel(O0, O1, O2, O3, seed, N, N_ROUNDS: tl.constexpr,
                   BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    n0, n1, n2, n3 = tl.randn4x(seed, offs, N_ROUNDS)
    m = offs < N
    tl.store(O0 + offs, n0, mask=m)
    tl.store(O1 + offs, n1, mask=m)
    tl.store(O2 + offs, n2, mask=m)
    tl.store(O3 + offs, n3, mask=m)


@triton.jit
def rand_i64_offsets_kernel(Out, Ints, seed, base, N, N_ROUNDS: tl.constexpr,
                            BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    offs = base + i.to(tl.int64)
    m = i < N
    tl.store(Out + i, tl.rand(seed, offs, N_ROUNDS), mask=m)
    tl.store(Ints + i, tl.randint(seed, offs, N_ROUNDS), mask=m)


@triton.jit
def rand_scalar_kernel(Out, Ints, seed, offset, N_ROUNDS: tl.constexpr):
    pid = tl.program_id(0)
    off = offset + pid
    tl.store(Out + pid, tl.rand(seed, off, N_ROUNDS))
    tl.store(Ints + pid, tl.randint(seed, off, N_ROUNDS))


@triton.jit
def randint_u64_seed_kernel(Out, seed_lo, seed_hi, N, N_ROUNDS: tl.constexpr,
                            BLOCK: tl.constexpr):
    seed = (seed_hi.to(tl.uint64) << 32) | seed_lo.to(tl.uint64)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Out + offs, tl.randint(seed, offs, N_ROUNDS), mask=offs < N)


@triton.jit
def randint_u32_offsets_kernel(Out, seed, base, N, N_ROUNDS: tl.constexpr,
                               BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    offs = base + i.to(tl.uint32)
    tl.store(Out + i, tl.randint(seed, offs, N_ROUNDS), mask=i < N)


@triton.jit
def randint_2d_kernel(Out, seed, N, N_ROUNDS: tl.constexpr, BLOCK: tl.constexpr,
                      BLOCK2: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    cols = tl.arange(0, BLOCK2)
    offs = rows[:, None] * BLOCK2 + cols[None, :]
    r = tl.randint(seed, offs, N_ROUNDS)
    tl.store(Out + offs, r, mask=rows[:, None] < N)


@triton.jit
def philox_kernel(O0, O1, O2, O3, seed, N, N_ROUNDS: tl.constexpr,
                  BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    c3 = tl.full([BLOCK], 7, tl.int32)
    r0, r1, r2, r3 = tl.philox(seed, i, 3 * i, i ^ 0x5555, c3, N_ROUNDS)
    m = i < N
    tl.store(O0 + i, r0, mask=m)
    tl.store(O1 + i, r1, mask=m)
    tl.store(O2 + i, r2, mask=m)
    tl.store(O3 + i, r3, mask=m)


@triton.jit
def philox64_kernel(O0, O1, O2, O3, seed, N, N_ROUNDS: tl.constexpr,
                    BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    c0 = i.to(tl.int64)
    c1 = c0 + (1 << 40)
    c2 = c0 * 0
    c3 = c2 + 1
    r0, r1, r2, r3 = tl.philox(seed, c0, c1, c2, c3, N_ROUNDS)
    m = i < N
    tl.store(O0 + i, r0, mask=m)
    tl.store(O1 + i, r1, mask=m)
    tl.store(O2 + i, r2, mask=m)
    tl.store(O3 + i, r3, mask=m)


@triton.jit
def uniform_normal_kernel(U32, U64, N0, N1, X, Y, N, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < N
    x = tl.load(X + i, mask=m, other=0)
    y = tl.load(Y + i, mask=m, other=0)
    u = tl.uint_to_uniform_float(x)
    v = tl.uint_to_uniform_float(y)
    n0, n1 = tl.pair_uniform_to_normal(u, v)
    tl.store(U32 + i, u, mask=m)
    tl.store(U64 + i, v, mask=m)
    tl.store(N0 + i, n0, mask=m)
    tl.store(N1 + i, n1, mask=m)
