# --tile-share-dot-operands: a tile that several mma.sync dots stage is stored
# once into a slot of its own and read there by every dot (as A, and through
# a transpose as B), instead of being staged by each dot (two barriers each).
#
# gram_blocks (fla's kkt solve in small: K K^T by 16-row blocks, the second
# block under a branch): with the loads left in the loop (num_stages 1), each
# block is stored where its first product is, after a barrier only the first
# one needs (the second follows the first one's), one barrier after each
# store; the loop then has 3 barriers where it had 7 (one staging per dot).
# RUN: ln-compile %s --kernel gram_blocks --signature '*bf16:16,*fp32:16,i32,i32' \
# RUN:   --num-warps 1 --num-stages 1 --emit=tile-layout | FileCheck %s
# RUN: ln-compile %s --kernel gram_blocks --signature '*bf16:16,*fp32:16,i32,i32' \
# RUN:   --num-warps 1 --num-stages 1 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: ln-compile %s --kernel gram_blocks --signature '*bf16:16,*fp32:16,i32,i32' \
# RUN:   --num-warps 1 --num-stages 1 --emit=ptx | FileCheck %s --check-prefix=NOX2
#
# scaled_queries: a tile computed before the loop (not a load the pipeliner
# could copy) that the loop's dot multiplies every iteration is stored once,
# before the loop.
# RUN: ln-compile %s --kernel scaled_queries --signature '*fp16:16,*fp16:16,*fp32:16,i32' \
# RUN:   --num-warps 2 --emit=tile-layout | FileCheck %s --check-prefix=INVARIANT
#
# outer_inner: a tile loaded in an outer loop and read, as A and transposed as B,
# by the dots of an inner (pipelined) loop: stored once per outer iteration, its
# buffer allocated before the outer loop, a barrier before the store (no earlier
# one in the outer iteration) and after it.
# RUN: ln-compile %s --kernel outer_inner --signature '*fp16:16,*fp16:16,*fp32:16,i32,i32' \
# RUN:   --num-warps 2 --emit=tile-layout | FileCheck %s --check-prefix=NESTED
#
# gram_while: a tile made before an scf.while whose body multiplies it with its
# transpose: stored once before the loop.
# RUN: ln-compile %s --kernel gram_while --signature '*fp16:16,*fp32:16,i32' \
# RUN:   --num-warps 2 --emit=tile-layout | FileCheck %s --check-prefix=WHILE
#
# two_products: x read by two dots whose other operands are read once each:
# the dots would still stage them (their barriers stay), so x stays theirs.
# RUN: ln-compile %s --kernel two_products --signature '*fp16:16,*fp32:16' \
# RUN:   --num-warps 2 --emit=tile-layout | FileCheck %s --check-prefix=UNSHARED
import triton
import triton.language as tl


@triton.jit
def gram_blocks(K, A, T, n_k):
    o = tl.arange(0, 16)
    ok = tl.arange(0, 32)
    a00 = tl.zeros([16, 16], dtype=tl.float32)
    a11 = tl.zeros([16, 16], dtype=tl.float32)
    a10 = tl.zeros([16, 16], dtype=tl.float32)
    for i in range(n_k):
        k0 = tl.load(K + o[:, None] * 128 + i * 32 + ok[None, :])
        a00 += tl.dot(k0, tl.trans(k0))
        if 16 < T:
            k1 = tl.load(K + (16 + o[:, None]) * 128 + i * 32 + ok[None, :])
            a11 += tl.dot(k1, tl.trans(k1))
            a10 += tl.dot(k1, tl.trans(k0))
    p = A + o[:, None] * 16 + o[None, :]
    tl.store(p, a00)
    tl.store(p + 256, a11)
    tl.store(p + 512, a10)


# CHECK-LABEL: func.func @gram_blocks
# CHECK: %[[B0:.*]] = tile.local_alloc : <1x16x32xbf16>
# CHECK-NEXT: %[[B1:.*]] = tile.local_alloc : <1x16x32xbf16>
# CHECK-NEXT: scf.for
# CHECK: %[[K0:.*]] = tile.load
# CHECK-NEXT: tile.barrier
# CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
# CHECK-NEXT: tile.local_store %[[K0]] into %[[B0]][%[[C0]]]
# CHECK-NEXT: tile.barrier
# CHECK-NEXT: %[[S0:.*]] = tile.local_load %[[B0]][%[[C0]]]
# CHECK-NEXT: %[[T0:.*]] = tile.trans %[[S0]], [1, 0]
# CHECK-NEXT: tile.dot %[[S0]], %[[T0]]
# CHECK: scf.if
# CHECK: %[[K1:.*]] = tile.load
# CHECK-NOT: tile.barrier
# CHECK: tile.local_store %[[K1]] into %[[B1]]
# CHECK-NEXT: tile.barrier
# CHECK-NEXT: %[[S1:.*]] = tile.local_load %[[B1]]
# CHECK-NEXT: %[[T1:.*]] = tile.trans %[[S1]], [1, 0]
# CHECK-NEXT: tile.dot %[[S1]], %[[T1]]
# CHECK-NEXT: tile.dot %[[S1]], %[[T0]]

# The blocks are read as A (x4) and, transposed, as B from their rows
# (without .trans, two 8-column tiles per x4); no dot stages anything.
# PTX-LABEL: .entry gram_blocks
# PTX-COUNT-3: bar.warp.sync -1;
# PTX-NOT: bar.{{(warp.)?}}sync
# PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# NOX2: .entry gram_blocks
# NOX2-NOT: ldmatrix.sync.aligned.m8n8.x2
# NOX2: ret;


@triton.jit
def scaled_queries(Q, K, out, n):
    r = tl.arange(0, 64)
    q = (tl.load(Q + r[:, None] * 64 + r[None, :]) * 2.0).to(tl.float16)
    acc = tl.zeros([64, 64], dtype=tl.float32)
    for i in range(n):
        k = tl.load(K + i * 4096 + r[:, None] * 64 + r[None, :])
        acc += tl.dot(q, k)
    tl.store(out + r[:, None] * 64 + r[None, :], acc)


# INVARIANT-LABEL: func.func @scaled_queries
# INVARIANT: %[[Q:.*]] = arith.mulf
# INVARIANT: %[[B:.*]] = tile.local_alloc : <1x64x64xf16>
# INVARIANT-NEXT: tile.barrier
# INVARIANT-NEXT: %[[C0:.*]] = arith.constant 0 : i32
# INVARIANT-NEXT: tile.local_store %[[Q]] into %[[B]][%[[C0]]]
# INVARIANT-NEXT: tile.barrier
# INVARIANT-NEXT: %[[S:.*]] = tile.local_load %[[B]][%[[C0]]]
# INVARIANT: scf.for
# INVARIANT: tile.dot %[[S]],


@triton.jit
def two_products(X, out):
    r = tl.arange(0, 32)
    x = tl.load(X + r[:, None] * 32 + r[None, :])
    y1 = tl.load(X + 1024 + r[:, None] * 32 + r[None, :])
    y2 = tl.load(X + 2048 + r[:, None] * 32 + r[None, :])
    tl.store(out + r[:, None] * 32 + r[None, :], tl.dot(x, y1) + tl.dot(x, y2))


# UNSHARED-LABEL: func.func @two_products
# UNSHARED-NOT: tile.local_store
# UNSHARED: tile.dot
# UNSHARED: tile.dot


@triton.jit
def outer_inner(X, Y, out, n, m):
    r = tl.arange(0, 32)
    acc = tl.zeros([32, 32], dtype=tl.float32)
    for i in range(n):
        x = tl.load(X + i * 1024 + r[:, None] * 32 + r[None, :])
        for j in range(m):
            y = tl.load(Y + j * 1024 + r[:, None] * 32 + r[None, :])
            acc += tl.dot(x, y)
            acc += tl.dot(y, tl.trans(x))
    tl.store(out + r[:, None] * 32 + r[None, :], acc)


# NESTED-LABEL: func.func @outer_inner
# NESTED: %[[B:.*]] = tile.local_alloc : <1x32x32xf16>
# NESTED-NEXT: scf.for
# NESTED: %[[X:.*]] = tile.load
# NESTED: tile.barrier
# NESTED-NEXT: %[[C0:.*]] = arith.constant 0 : i32
# NESTED-NEXT: tile.local_store %[[X]] into %[[B]][%[[C0]]]
# NESTED-NEXT: tile.barrier
# NESTED-NEXT: %[[S:.*]] = tile.local_load %[[B]][%[[C0]]]
# NESTED-NEXT: %[[T:.*]] = tile.trans %[[S]], [1, 0]
# NESTED: scf.for
# NESTED: tile.dot %[[S]],
# NESTED-NEXT: tile.dot %{{.*}}, %[[T]],


@triton.jit
def gram_while(X, out, n):
    r = tl.arange(0, 32)
    x = tl.load(X + r[:, None] * 32 + r[None, :])
    acc = tl.zeros([32, 32], dtype=tl.float32)
    i = 0
    while i < n:
        acc += tl.dot(x, tl.trans(x))
        i += 1
    tl.store(out + r[:, None] * 32 + r[None, :], acc)


# WHILE-LABEL: func.func @gram_while
# WHILE: %[[X:.*]] = tile.load
# WHILE: %[[B:.*]] = tile.local_alloc : <1x32x32xf16>
# WHILE-NEXT: tile.barrier
# WHILE-NEXT: %[[C0:.*]] = arith.constant 0 : i32
# WHILE-NEXT: tile.local_store %[[X]] into %[[B]][%[[C0]]]
# WHILE-NEXT: tile.barrier
# WHILE-NEXT: %[[S:.*]] = tile.local_load %[[B]][%[[C0]]]
# WHILE-NEXT: %[[T:.*]] = tile.trans %[[S]], [1, 0]
# WHILE: scf.while
# WHILE: } do {
# WHILE-NOT: tile.local_store
# WHILE: tile.dot %[[S]], %[[T]],
