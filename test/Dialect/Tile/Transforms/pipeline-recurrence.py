# Loops that carry a state through memory and registers (fla's chunked linear-attention
# recurrences, test/gpu/dot_kernels.py's dot_state_recurrence, which the GPU dot family
# runs against Triton):
#  - a name assigned only under a constexpr-false `if` (`o_k` under `if USE_GK:`) is not
#    carried: carried unchanged, the copies' offsets were read on both sides of the
#    pipeliner's split, and the loop was not pipelined at all;
#  - the loop's stores go through other kernel arguments than its loads (arguments are
#    taken not to overlap, as Triton's pipeliner takes them), so the loads that are no
#    dot operand (v, the decay vector g) are copied ahead too; a load through an
#    argument the loop also stores through stays where it is (`scan_rows` below), and
#    so do those of a loop that stores and carries no tile (`scale_rows`: its
#    iterations overlap with other programs; fla's recompute_w_u got slower with slots);
#  - the fp32 state, stored and read as a dot operand before `h += tl.dot(k, v_new)`,
#    is carried in the dot's layout and narrowed to bf16 before it is converted for the
#    store (two fp32 exchanges per iteration before, one bf16 one now);
#  - on sm_90 with 4 warps both products are wgmmas: v_new, computed in the
#    accumulator layout, is staged by the dot as wgmma's B;
#  - the fp32 scalar `b_g_last = tl.load(G + last)` is copied ahead too, as a tile of
#    four copies in one thread (a slot row is 16 bytes) read back as one of them, not
#    carried in registers: ptxas waited at its first use for the load started at the
#    end of the iteration before (fla's gated delta state kernel, 1.22x Triton's time).
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_state_recurrence \
# RUN:   --signature '*bf16:16,*bf16:16,*bf16:16,*fp32:16,*bf16:16,*bf16:16,i32' \
# RUN:   -D K=64 -D NV=128 -D BT=64 -D BV=32 -D USE_GK=False --num-warps 4 --num-stages 2 \
# RUN:   --emit=tile-layout | FileCheck %s --check-prefix=STATE
# RUN: ln-compile %S/../../../gpu/dot_kernels.py --kernel dot_state_recurrence \
# RUN:   --signature '*bf16:16,*bf16:16,*bf16:16,*fp32:16,*bf16:16,*bf16:16,i32' \
# RUN:   -D K=64 -D NV=128 -D BT=64 -D BV=32 -D USE_GK=False --num-warps 4 --num-stages 2 \
# RUN:   | FileCheck %s --check-prefix=PTX --implicit-check-not=mma.sync.aligned
# RUN: ln-compile %s --kernel scan_rows --signature '*fp16:16,*fp16:16,*fp16:16,*fp32:16,i32' \
# RUN:   -D BT=64 -D D=64 --num-warps 4 --num-stages 3 --emit=tile-layout \
# RUN:   | FileCheck %s --check-prefix=ALIAS
# RUN: ln-compile %s --kernel scale_rows --signature '*fp16:16,*fp16:16,*fp16:16,*fp32:16,i32' \
# RUN:   -D BT=64 -D D=64 --num-warps 4 --num-stages 3 --emit=tile-layout \
# RUN:   | FileCheck %s --check-prefix=INDEP
import triton
import triton.language as tl

# STATE-LABEL: func.func @dot_state_recurrence
# STATE-DAG: tile.local_alloc : <2x64x64xbf16>
# STATE-DAG: tile.local_alloc : <2x64x32xbf16>
# STATE-DAG: tile.local_alloc : <2x1x64xf32>
# STATE-DAG: tile.local_alloc : <2x64x64xbf16, transposed>
# STATE-DAG: %[[GL:[0-9]+]] = tile.local_alloc : <2x1x4xf32>
# STATE: tile.async_copy {{.*}} into %[[GL]][%{{.*}}] : tensor<4x!tile.ptr<f32>, #[[L4:blocked[0-9]*]]>
# STATE: scf.for {{.*}} iter_args(%[[H:arg[0-9]+]] = %{{.*}}, %{{.*}} = %{{.*}}, %[[READ:arg[0-9]+]] = %{{.*}}) -> (tensor<64x32xf32, #mma>, i32, i32)
# STATE: %[[HQ:[0-9]+]] = arith.truncf %[[H]] : tensor<64x32xf32, #mma> to tensor<64x32xbf16, #mma>
# STATE-NEXT: %[[HB:[0-9]+]] = tile.convert_layout %[[HQ]] : tensor<64x32xbf16, #mma> -> tensor<64x32xbf16, #blocked
# STATE: tile.store %{{[0-9]+}}, %[[HB]]
# STATE: tile.dot %{{[0-9]+}}, %[[HB]], %{{.*}} -> tensor<64x32xf32, #mma>
# STATE: %[[G4:[0-9]+]] = tile.local_load %[[GL]][%[[READ]]] : <2x1x4xf32> -> tensor<4xf32, #[[L4]]>
# STATE-NEXT: tile.reduce(%[[G4]]) axis = 0 : (tensor<4xf32, #[[L4]]>) -> f32
# STATE-NOT: tile.convert_layout %{{.*}} : tensor<64x32xf32
# STATE: tile.async_copy {{.*}} -> <2x64x32xbf16>
# STATE: tile.async_copy {{.*}} -> <2x1x64xf32>
# STATE: tile.async_copy {{.*}} -> <2x1x4xf32>
# STATE: scf.yield
# STATE-SAME: tensor<64x32xf32, #mma>, i32, i32

# PTX-LABEL: .entry dot_state_recurrence
# PTX-NOT: ld.global
# PTX: cp.async.ca.shared.global [%r{{[0-9]+}}+12], [%rd{{[0-9]+}}], 4
# PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16
# PTX-NOT: ld.global


# ALIAS-LABEL: func.func @scan_rows
# ALIAS: scf.for
# ALIAS: tile.load %{{[0-9]+}} : tensor<64x64x!tile.ptr<f16>
# ALIAS-DAG: tile.async_copy {{.*}} -> <3x64x64xf16>
# ALIAS-DAG: tile.async_copy {{.*}} -> <3x1x64xf32>
# ALIAS: scf.yield
@triton.jit
def scan_rows(X, W, Y, S, T, BT: tl.constexpr, D: tl.constexpr):
    # A decayed running sum over chunks that also adds the chunk of Y before it, which
    # the loop itself wrote: that load stays in its iteration; X and its row scales S
    # are copied ahead.
    o_d = tl.arange(0, D)
    w = tl.load(W + o_d[:, None] * D + o_d[None, :])
    acc = tl.zeros([BT, D], dtype=tl.float32)
    for i in range(1, tl.cdiv(T, BT)):
        o_t = i * BT + tl.arange(0, BT)
        prev = tl.load(Y + (o_t - BT)[:, None] * D + o_d[None, :])
        s = tl.load(S + o_t)
        x = (tl.load(X + o_t[:, None] * D + o_d[None, :]) * s[:, None]).to(X.dtype.element_ty)
        acc = tl.dot(x, w, acc * 0.5) + prev.to(tl.float32)
        tl.store(Y + o_t[:, None] * D + o_d[None, :], acc.to(Y.dtype.element_ty))


# INDEP-LABEL: func.func @scale_rows
# INDEP: scf.for
# INDEP-NOT: tile.async_copy
# INDEP: tile.load %{{[0-9]+}} : tensor<64x!tile.ptr<f32>
# INDEP: tile.load %{{[0-9]+}} : tensor<64x64x!tile.ptr<f16>
# INDEP: tile.store
# INDEP-NOT: tile.async_copy
@triton.jit
def scale_rows(X, W, Y, S, T, BT: tl.constexpr, D: tl.constexpr):
    # Independent chunks, each stored: the loads stay in their iteration.
    o_d = tl.arange(0, D)
    w = tl.load(W + o_d[:, None] * D + o_d[None, :])
    for i in range(0, tl.cdiv(T, BT)):
        o_t = i * BT + tl.arange(0, BT)
        s = tl.load(S + o_t)
        x = (tl.load(X + o_t[:, None] * D + o_d[None, :]) * s[:, None]).to(X.dtype.element_ty)
        tl.store(Y + o_t[:, None] * D + o_d[None, :], tl.dot(x, w).to(Y.dtype.element_ty))
