# A K loop pipelined inside an outer loop (a persistent matmul's tile loop)
# starts the next tile's prologue right after its own run, before the
# epilogue (NextTilePrologue.h): the slots are allocated and their mbarriers
# initialized once before the outer loop, the first tile's copies go before
# it (predicated on the outer loop running), the outer loop carries the slot
# ring and the parity into each run, and after the run's products are waited
# for, a barrier, then the next tile's copies (addresses recomputed from
# `tile + step`, predicated on it being in range) into the slots from where
# the run stopped reading. mbarriers are invalidated (TMA) or the zero-fill
# copies waited for (cp.async) after the outer loop.
# RUN: ln-compile %s --kernel persistent_tma --num-warps 8 \
# RUN:   --signature 'tensordesc<fp16[128,64]>,tensordesc<fp16[256,64]>,*fp16:16,i32,i32,i32' -D PROGRAMS=132 \
# RUN:   -D BM=128 -D BN=256 -D BK=64 -D SUBTILE=False --emit=tile-layout | FileCheck %s --check-prefix=TMA
# RUN: ln-compile %s --kernel persistent_ptr --num-warps 8 --num-stages 4 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32:16,i32:16' -D PROGRAMS=132 \
# RUN:   -D BM=128 -D BN=128 -D BK=64 --emit=tile-layout | FileCheck %s --check-prefix=PTR
# RUN: ln-compile %s --kernel persistent_tma --num-warps 8 --num-stages 3 \
# RUN:   --signature 'tensordesc<fp16[128,64]>,tensordesc<fp16[256,64]>,*fp16:16,i32,i32,i32' -D PROGRAMS=132 \
# RUN:   -D BM=128 -D BN=256 -D BK=64 -D SUBTILE=False --emit=ptx | FileCheck %s --check-prefix=PTX
# The outer loop replaced by one with more iter args keeps its attributes
# (tl.range's num_stages, which its K loop inherits: 2 slots).
# RUN: ln-compile %s --kernel ranged --num-warps 8 --num-stages 4 \
# RUN:   --signature 'tensordesc<fp16[128,64]>,tensordesc<fp16[128,64]>,*fp16:16,i32,i32,i32' \
# RUN:   -D BM=128 -D BN=128 -D BK=64 --emit=tile-layout | FileCheck %s --check-prefix=RANGED
# Left per tile: an epilogue whose exchanges (the fp32 accumulator reshaped
# into subtiles, 128 KB) do not fit beside the slots; tile coordinates carried by the
# outer loop (not a function of its induction variable); and an outer loop
# whose epilogue scratch would cost programs per SM (4 -> 2 here).
# RUN: ln-compile %s --kernel persistent_tma --num-warps 8 --num-stages 2 \
# RUN:   --signature 'tensordesc<fp16[128,64]>,tensordesc<fp16[256,64]>,*fp32:16,i32,i32,i32' -D PROGRAMS=132 \
# RUN:   -D BM=128 -D BN=256 -D BK=64 -D SUBTILE=True --emit=tile-layout | FileCheck %s --check-prefix=LEFT
# Subtiles stored in fp16 are converted before the reshape
# (--tile-narrow-before-shape-ops): the exchange moves 64 KB and fits.
# RUN: ln-compile %s --kernel persistent_tma --num-warps 8 --num-stages 2 \
# RUN:   --signature 'tensordesc<fp16[128,64]>,tensordesc<fp16[256,64]>,*fp16:16,i32,i32,i32' -D PROGRAMS=132 \
# RUN:   -D BM=128 -D BN=256 -D BK=64 -D SUBTILE=True --emit=tile-layout | FileCheck %s --check-prefix=NARROW
# RUN: ln-compile %s --kernel carried_tile --num-warps 8 \
# RUN:   --signature 'tensordesc<fp16[128,64]>,tensordesc<fp16[256,64]>,*fp16:16,i32,i32,i32' -D PROGRAMS=132 \
# RUN:   -D BM=128 -D BN=256 -D BK=64 --emit=tile-layout | FileCheck %s --check-prefix=LEFT
# RUN: ln-compile %s --kernel persistent_ptr --num-warps 4 --num-stages 2 \
# RUN:   --signature '*fp16:16,*fp16:16,*fp32:16,i32,i32:16,i32:16' -D PROGRAMS=1 \
# RUN:   -D BM=128 -D BN=128 -D BK=32 --emit=tile-layout | FileCheck %s --check-prefix=LEFT
import triton
import triton.language as tl

# TMA: %[[A:.*]] = tile.local_alloc
# TMA: %[[B:.*]] = tile.local_alloc
# TMA-NEXT: tile.barrier
# TMA-NEXT: tile.tma_init %[[A]] {arrivals = 2 : i64}
# TMA: %[[RUNS:.*]] = arith.cmpi slt, %{{.*}}, %[[TILES:.*]] : i32
# TMA: %[[P0:.*]] = arith.andi %{{.*}}, %[[RUNS]] : i1
# TMA: tile.tma_copy %{{.*}} into %[[A]][%{{.*}}] if %[[P0]]
# TMA: %{{.*}}:4 = scf.for %[[T:.*]] = %{{.*}} to %[[TILES]] step %c132_i32 iter_args(%{{.*}} = %{{.*}}, %[[COPY:.*]] = %c2_i32, %[[READ:.*]] = %c0_i32{{.*}}, %[[PAR:.*]] = %c0_i32{{.*}})
# TMA: %[[KLOOP:.*]]:4 = scf.for {{.*}} iter_args(%{{.*}} = %cst{{.*}}, %{{.*}} = %[[COPY]], %{{.*}} = %[[READ]], %{{.*}} = %[[PAR]])
# TMA: tile.tma_wait
# TMA: scf.yield
# TMA: tile.dot_wait %[[KLOOP]]#0
# TMA-NEXT: tile.barrier
# TMA-NEXT: %[[NEXT:.*]] = arith.addi %[[T]], %c132_i32
# TMA: %[[NRUNS:.*]] = arith.cmpi slt, %[[NEXT]], %[[TILES]] : i32
# TMA: %[[NP0:.*]] = arith.andi %{{.*}}, %[[NRUNS]] : i1
# TMA: tile.tma_copy %{{.*}} into %[[A]][%[[KLOOP]]#2] if %[[NP0]]
# TMA: tile.tma_copy %{{.*}} into %[[B]][%[[KLOOP]]#2] arrive %[[A]] if %[[NP0]]
# TMA: tile.tma_copy
# TMA: tile.tma_copy
# TMA: tile.store
# TMA: scf.yield %{{.*}}, %[[KLOOP]]#1, %[[KLOOP]]#2, %[[KLOOP]]#3 : i32, i32, i32, i32
# TMA-NEXT: }
# TMA-NEXT: tile.tma_inval %[[A]]
# TMA-NOT: tile.tma_inval

# PTR: tile.local_alloc
# PTR: tile.local_alloc
# PTR: tile.async_copy
# PTR: tile.async_commit
# PTR: scf.for
# PTR: %[[KLOOP:.*]]:3 = scf.for
# PTR: tile.async_wait {pending = 2 : i32}
# PTR: scf.yield
# PTR: tile.async_wait {pending = 0 : i32}
# PTR-NEXT: tile.dot_wait %[[KLOOP]]#0
# PTR-NEXT: tile.barrier
# PTR: tile.async_copy {{.*}}[%[[KLOOP]]#2]
# PTR: tile.async_commit
# PTR: tile.store
# PTR: scf.yield
# PTR-NEXT: }
# PTR-NEXT: tile.async_wait {pending = 0 : i32}

# PTX: mbarrier.init
# PTX: cp.async.bulk.tensor.2d
# PTX: wgmma.mma_async
# PTX: mbarrier.inval

# RANGED: tile.local_alloc : <2x128x64xf16, barriers>
# RANGED: scf.for
# RANGED: scf.for
# RANGED: } {tile.num_stages = 2 : i32}

# NARROW: tile.local_alloc : <2x128x64xf16, barriers>
# NARROW: scf.for
# NARROW: arith.truncf %{{.*}} : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
# NARROW-NEXT: tile.reshape

# LEFT: scf.for
# LEFT: tile.local_alloc
# LEFT: scf.for
# LEFT: scf.yield


@triton.jit
def _tile_pid(tile_id, num_pid_in_group, num_pid_m, GROUP: tl.constexpr):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP
    group_size_m = min(num_pid_m - first_pid_m, GROUP)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def persistent_tma(a_desc, b_desc, c, M, N, K, PROGRAMS: tl.constexpr, BM: tl.constexpr,
                   BN: tl.constexpr, BK: tl.constexpr, SUBTILE: tl.constexpr):
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    tile_c = tl.program_id(0) - PROGRAMS
    for tile in tl.range(tl.program_id(0), num_pid_m * num_pid_n, PROGRAMS, flatten=True):
        pid_m, pid_n = _tile_pid(tile, 8 * num_pid_n, num_pid_m, 8)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(tl.cdiv(K, BK)):
            acc = tl.dot(a_desc.load([pid_m * BM, k * BK]), b_desc.load([pid_n * BN, k * BK]).T, acc)
        tile_c += PROGRAMS
        pid_m, pid_n = _tile_pid(tile_c, 8 * num_pid_n, num_pid_m, 8)
        rm = pid_m * BM + tl.arange(0, BM)
        if SUBTILE:
            acc0, acc1 = tl.split(tl.permute(tl.reshape(acc, (BM, 2, BN // 2)), (0, 2, 1)))
            rn = pid_n * BN + tl.arange(0, BN // 2)
            tl.store(c + rm[:, None] * N + rn[None, :], acc0.to(c.dtype.element_ty))
            tl.store(c + rm[:, None] * N + rn[None, :] + BN // 2, acc1.to(c.dtype.element_ty))
        else:
            rn = pid_n * BN + tl.arange(0, BN)
            tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16),
                     mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def carried_tile(a_desc, b_desc, c, M, N, K, PROGRAMS: tl.constexpr, BM: tl.constexpr,
                 BN: tl.constexpr, BK: tl.constexpr):
    num_pid_n = tl.cdiv(N, BN)
    tile = tl.program_id(0)
    for _ in range(tl.program_id(0), tl.cdiv(M, BM) * num_pid_n, PROGRAMS):
        pid_m = tile // num_pid_n
        pid_n = tile % num_pid_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(tl.cdiv(K, BK)):
            acc = tl.dot(a_desc.load([pid_m * BM, k * BK]), b_desc.load([pid_n * BN, k * BK]).T, acc)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))
        tile += PROGRAMS


@triton.jit
def persistent_ptr(a, b, c, M, N, K, PROGRAMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                   BK: tl.constexpr):
    num_pid_n = tl.cdiv(N, BN)
    rk = tl.arange(0, BK)
    for tile in range(tl.program_id(0), tl.cdiv(M, BM) * num_pid_n, PROGRAMS):
        rm = (tile // num_pid_n) * BM + tl.arange(0, BM)
        rn = (tile % num_pid_n) * BN + tl.arange(0, BN)
        rm = tl.max_contiguous(tl.multiple_of(tl.where(rm < M, rm, 0), BM), BM)
        rn = tl.max_contiguous(tl.multiple_of(tl.where(rn < N, rn, 0), BN), BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(tl.cdiv(K, BK)):
            x = tl.load(a + rm[:, None] * K + (k * BK + rk)[None, :],
                        mask=rk[None, :] < K - k * BK, other=0.0)
            y = tl.load(b + (k * BK + rk)[:, None] * N + rn[None, :],
                        mask=rk[:, None] < K - k * BK, other=0.0)
            acc = tl.dot(x, y, acc)
        tl.store(c + rm[:, None] * N + rn[None, :], acc.to(c.dtype.element_ty))


@triton.jit
def ranged(a_desc, b_desc, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    num_pid_n = tl.cdiv(N, BN)
    for tile in tl.range(tl.program_id(0), tl.cdiv(M, BM) * num_pid_n, 132, num_stages=2):
        pm = tile // num_pid_n
        pn = tile % num_pid_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(tl.cdiv(K, BK)):
            acc = tl.dot(a_desc.load([pm * BM, k * BK]), b_desc.load([pn * BN, k * BK]).T, acc)
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))
