# The remaining builtins and language forms: `from triton import ...`
# imports, @jit, module-level constexprs, dtype attributes, full/zeros_like,
# math functions (also through tl.math), hints, printing, barriers,
# expand_dims/broadcast_to, num_programs, Python min/max/float on constexprs.
# RUN: ln-compile %s --kernel misc --signature '*fp32:16,*fp16,i32:16' \
# RUN:   --num-warps 1 --arch sm_80 --emit=tile | FileCheck %s
from triton import jit
from triton import language as tl

SCALE = tl.constexpr(4)
WIDTH: tl.constexpr = 2 * SCALE


@jit
def misc(X, Y, N, BLOCK: tl.constexpr = 32):
    """Docstrings are ignored."""
    tl.static_assert(BLOCK % WIDTH == 0, "BLOCK must be a multiple of WIDTH")
    offs = tl.max_contiguous(tl.multiple_of(tl.arange(0, BLOCK), 16), BLOCK)
    n = tl.multiple_of(N, 16)
    x = tl.load(X + offs, mask=offs < n, other=float("-inf"))
    elem = Y.dtype.element_ty
    y = tl.full([BLOCK], 1.5, elem) + tl.zeros_like(x).to(elem)
    z = tl.exp2(x) + tl.log(x) + tl.math.rsqrt(x) + tl.math.exp(x)
    col = tl.expand_dims(z, 1)
    wide = tl.broadcast_to(col, (BLOCK, WIDTH))
    m = tl.min(wide, axis=1, keep_dims=True)
    tl.device_print("m = ", tl.num_programs(0), m)
    tl.debug_barrier()
    limit = max(min(BLOCK, 16), 8) * SCALE
    tl.store(Y + offs, y + limit, mask=offs < min(N, limit))

# CHECK: module attributes {tile.arch = "sm_80", tile.constexprs = {BLOCK = "32"}, tile.num_stages = 3 : i32, tile.num_warps = 1 : i32}
# CHECK-LABEL: func.func @misc(
# A hint is placed right after the value's definition (here the argument's,
# at the top of the body) and holds for all its uses.
# CHECK: %[[N:[^ ]+]] = tile.multiple_of %arg2, [16] : i32
# CHECK: %[[R:[^ ]+]] = tile.arange 0 to 32 : tensor<32xi32>
# CHECK: %[[M16:[^ ]+]] = tile.multiple_of %[[R]], [16] : tensor<32xi32>
# CHECK: %[[OFFS:[^ ]+]] = tile.max_contiguous %[[M16]], [32] : tensor<32xi32>
# CHECK: %[[NEGINF:[^ ]+]] = arith.constant dense<0xFF800000> : tensor<32xf32>
# CHECK: %[[X:[^ ]+]] = tile.load %{{.*}}, mask %{{.*}}, other %[[NEGINF]] : tensor<32x!tile.ptr<f32>>
# CHECK: %[[FULL:[^ ]+]] = arith.constant dense<1.500000e+00> : tensor<32xf16>
# CHECK: %[[ZL:[^ ]+]] = arith.constant dense<0.000000e+00> : tensor<32xf32>
# CHECK: %[[ZH:[^ ]+]] = arith.truncf %[[ZL]] : tensor<32xf32> to tensor<32xf16>
# CHECK: %[[Y:[^ ]+]] = arith.addf %[[FULL]], %[[ZH]] : tensor<32xf16>
# CHECK: math.exp2 %[[X]] : tensor<32xf32>
# CHECK: math.log %[[X]] : tensor<32xf32>
# CHECK: math.rsqrt %[[X]] : tensor<32xf32>
# CHECK: math.exp %[[X]] : tensor<32xf32>
# CHECK: %[[Z:[^ ]+]] = arith.addf %{{.*}}, %{{.*}} : tensor<32xf32>
# CHECK: %[[COL:[^ ]+]] = tile.expand_dims %[[Z]], 1 : tensor<32xf32> -> tensor<32x1xf32>
# CHECK: %[[WIDE:[^ ]+]] = tile.broadcast %[[COL]] : tensor<32x1xf32> -> tensor<32x8xf32>
# CHECK: %[[MIN:[^ ]+]] = tile.min %[[WIDE]], 1 : tensor<32x8xf32> -> tensor<32xf32>
# CHECK: %[[MK:[^ ]+]] = tile.expand_dims %[[MIN]], 1 : tensor<32xf32> -> tensor<32x1xf32>
# CHECK: %[[NP:[^ ]+]] = tile.num_programs 0
# CHECK: tile.print "m = " %[[NP]], %[[MK]] : i32, tensor<32x1xf32>
# CHECK: tile.barrier
# max(min(32, 16), 8) * 4 == 64
# CHECK: %[[LIM:[^ ]+]] = arith.constant dense<6.400000e+01> : tensor<32xf16>
# CHECK: %[[OUT:[^ ]+]] = arith.addf %[[Y]], %[[LIM]] : tensor<32xf16>
# min(N, 64) with a runtime N is tl.minimum
# CHECK: arith.minsi %{{.*}}, %{{.*}} : i32
# CHECK: tile.store %{{.*}}, %[[OUT]], mask %{{.*}} : tensor<32x!tile.ptr<f16>>
