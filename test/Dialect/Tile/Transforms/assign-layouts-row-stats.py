# Rows reduced to one value each, stored per row (attention backward's
# preprocess, a per-row norm's statistics): the 2-D loads, contiguous along
# the columns, choose the layout (16-byte vectors along dimension 1), not
# the 1-D store of the reduction, which is contiguous along the rows and
# moves 64 times fewer elements.
# RUN: ln-compile %s --kernel row_dots --signature '*fp16:16,*fp16:16,*fp32:16' --emit=tile-layout | FileCheck %s
# RUN: ln-compile %s --kernel row_dots --signature '*fp16:16,*fp16:16,*fp32:16' --emit=ptx | FileCheck %s --check-prefix=PTX
import triton
import triton.language as tl


@triton.jit
def row_dots(O, DO, Delta, BLOCK_M: tl.constexpr = 128, HEAD: tl.constexpr = 64):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, HEAD)
    o = tl.load(O + rows[:, None] * HEAD + cols[None, :]).to(tl.float32)
    do = tl.load(DO + rows[:, None] * HEAD + cols[None, :]).to(tl.float32)
    tl.store(Delta + rows, tl.sum(o * do, axis=1))

# CHECK: #[[B:.*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
# CHECK: #[[S:.*]] = #tile.slice<dim = 1, parent = #[[B]]>
# CHECK: tile.load {{.*}} : tensor<128x64x!tile.ptr<f16>, #[[B]]>
# CHECK: tile.sum {{.*}} : tensor<128x64xf32, #[[B]]> -> tensor<128xf32, #[[S]]>
# PTX-COUNT-16: ld.global.v4.b32
# PTX-NOT: ld.global.b16
