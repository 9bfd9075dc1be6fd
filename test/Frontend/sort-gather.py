# tl.sort / tl.bitonic_merge / tl.topk / tl.flip / tl.gather / tl.histogram /
# tl.swizzle2d with Triton 3.6's arguments: sort along the last dimension
# (signed, unsigned, descending), bitonic_merge (the sort's last stage), topk
# as a descending sort plus a gather of the first k columns (widened like
# Triton's tl.max for narrow types), flip as a gather with reversed
# coordinates, histogram with a mask.
# RUN: ln-compile %s --kernel k --signature '*fp32,*i32,*u8,*fp16' -D BM=4 -D BN=64 \
# RUN:   --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel k --signature '*fp32,*i32,*u8,*fp16' -D BM=4 -D BN=64 \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=PTX
import triton
import triton.language as tl


@triton.jit
def k(X, I, U, H, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    offs = rows * BN + cols
    x = tl.load(X + offs)
    i = tl.load(I + offs)
    u = tl.load(U + tl.arange(0, BN))
    h = tl.load(H + offs)
    tl.store(X + offs, tl.sort(x))
    tl.store(I + offs, tl.sort(i, dim=1, descending=True))
    tl.store(U + tl.arange(0, BN), tl.sort(u))
    tl.store(X + offs, tl.bitonic_merge(x))
    tl.store(I + offs, tl.bitonic_merge(i, dim=1, descending=True))
    tl.store(X + rows * 8 + tl.arange(0, 8)[None, :], tl.topk(x, 8))
    tl.store(X + rows * 8 + tl.arange(0, 8)[None, :], tl.topk(h, 8))
    tl.store(X + offs, x.flip(0))
    tl.store(X + offs, tl.flip(x))
    tl.store(X + offs, tl.gather(x, i, 1))
    tl.store(I + tl.arange(0, 16), tl.histogram(u, 16, mask=u < 200))
    a, b = tl.swizzle2d(tl.program_id(0), tl.program_id(1), 64, 32, 8)
    tl.store(I + a, b)

# CHECK-LABEL: func.func @k(
# CHECK: tile.sort %{{.*}} : tensor<4x64xf32>
# CHECK: tile.sort %{{.*}} descending : tensor<4x64xi32>
# uint8 compares unsigned.
# CHECK: tile.sort %{{.*}} unsigned : tensor<64xi8>
# tl.bitonic_merge: the sort's last stage alone.
# CHECK: tile.sort %{{.*}} merge : tensor<4x64xf32>
# CHECK: tile.sort %{{.*}} merge descending : tensor<4x64xi32>
# topk(x, 8): the whole row sorted descending, its first 8 columns gathered.
# CHECK: %[[DESC:.*]] = tile.sort %{{.*}} descending : tensor<4x64xf32>
# CHECK: %[[COL:.*]] = tile.arange 0 to 8 : tensor<8xi32>
# CHECK: %[[COL2:.*]] = tile.expand_dims %[[COL]], 0 : tensor<8xi32> -> tensor<1x8xi32>
# CHECK: %[[IDX:.*]] = tile.broadcast %[[COL2]] : tensor<1x8xi32> -> tensor<4x8xi32>
# CHECK: tile.gather %[[DESC]], %[[IDX]], 1 : tensor<4x64xf32>, tensor<4x8xi32> -> tensor<4x8xf32>
# fp16 topk with k < n: the result widens to fp32, as Triton's tl.max does.
# CHECK: tile.sort %{{.*}} descending : tensor<4x64xf16>
# CHECK: %[[H8:.*]] = tile.gather %{{.*}} : tensor<4x64xf16>, tensor<4x8xi32> -> tensor<4x8xf16>
# CHECK: arith.extf %[[H8]] : tensor<4x8xf16> to tensor<4x8xf32>
# flip(x, 0): coordinates 3 - arange(0, 4) along dimension 0.
# CHECK: %[[R:.*]] = tile.arange 0 to 4 : tensor<4xi32>
# CHECK: arith.subi %{{.*}}, %[[R]] : tensor<4xi32>
# CHECK: tile.gather %{{.*}}, %{{.*}}, 0 : tensor<4x64xf32>, tensor<4x64xi32> -> tensor<4x64xf32>
# CHECK: tile.gather %{{.*}}, %{{.*}}, 1 : tensor<4x64xf32>, tensor<4x64xi32> -> tensor<4x64xf32>
# CHECK: tile.gather %{{.*}}, %{{.*}}, 1 : tensor<4x64xf32>, tensor<4x64xi32> -> tensor<4x64xf32>
# histogram of uint8: widened (zero-extended) to 32 bits, with its mask.
# CHECK: arith.cmpi
# CHECK: %[[W:.*]] = arith.extui %{{.*}} : tensor<64xi8> to tensor<64xi32>
# CHECK: tile.histogram %[[W]] mask %{{.*}} : tensor<64xi1> : tensor<64xi32> -> tensor<16xi32>
# swizzle2d: integer arithmetic on the program ids.
# CHECK: arith.minsi
# CHECK: arith.remsi
# CHECK: arith.divsi

# The whole kernel lowers: bitonic steps across lanes are shuffles, across
# warps go through shared memory; the histogram counts with shared atomics.
# PTX: shfl.sync.bfly.b32
# PTX: bar.sync
# PTX: atom.shared.add.u32
