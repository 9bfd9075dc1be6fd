# Tensor descriptors (tl.make_tensor_descriptor): base, i32 shape and i64
# strides as scalars; desc.load / desc.store at `offsets` are the block
# accesses with every dimension bounds-checked (a TMA copy's semantics:
# zero or NaN padding, out-of-bounds elements not written), lowered to
# vector accesses. Descriptors pass through helpers and loops.
# RUN: ln-compile %s --kernel copy2d --signature '*fp16:16,*fp16:16,i32,i32,i64' \
# RUN:   -D BM=16 -D BN=32 --emit=tile | FileCheck %s --check-prefix=COPY
# RUN: ln-compile %s --kernel loop_sum --signature '*fp32:16,*fp32:16,i32,i32' \
# RUN:   -D BM=16 -D BN=32 --emit=tile | FileCheck %s --check-prefix=LOOP
# RUN: ln-compile %s --kernel attrs --signature '*bf16:16,*i32:16,i32' \
# RUN:   -D B=64 --emit=tile | FileCheck %s --check-prefix=ATTRS
# RUN: ln-compile %s --kernel attrs --signature '*bf16:16,*i32:16,i32' \
# RUN:   -D B=64 --emit=tile 2>&1 >/dev/null | FileCheck %s --check-prefix=PRINT
# RUN: ln-compile %s --kernel atomics --signature '*i32:16,*fp32:16,i32' \
# RUN:   -D B=64 --emit=tile | FileCheck %s --check-prefix=ATOM
# RUN: ln-compile %s --kernel copy2d --signature '*fp16:16,*fp16:16,i32:16,i32:16,i64:16' \
# RUN:   -D BM=16 -D BN=32 --emit=ptx | FileCheck %s --check-prefix=PTX
# A host TensorDescriptor parameter (`tensordesc<T[B...]>` in the signature):
# the kernel takes its base (16-byte aligned), i32 shapes and the i64
# strides but the last (the constant 1; the others multiples of 16 bytes).
# RUN: ln-compile %s --kernel host_desc \
# RUN:   --signature 'tensordesc<fp16[32, 64]>,tensordesc<fp32[32,64],nan>,i32' \
# RUN:   -D BM=32 --emit=tile | FileCheck %s --check-prefix=HOST
# With the last shape entry known divisible by 16 (`div=`), the column mask
# allows 128-bit accesses.
# RUN: ln-compile %s --kernel host_desc \
# RUN:   --signature 'tensordesc<fp16[32,64],div=1x16>,tensordesc<fp32[32,64],div=1x16>,i32' \
# RUN:   -D BM=32 --emit=ptx | FileCheck %s --check-prefix=HOSTV
import triton
import triton.language as tl


@triton.jit
def copy2d(in_ptr, out_ptr, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_tensor_descriptor(in_ptr, shape=[M, N], strides=[stride_m, 1],
                                    block_shape=[BM, BN], padding_option="nan")
    dst = tl.make_tensor_descriptor(out_ptr, [M, N], [stride_m, 1], [BM, BN])
    m = tl.program_id(0) * BM
    x = src.load([m, 0])
    tl.store_tensor_descriptor(dst, [m, 0], x.to(tl.float32) + 1)


# COPY-LABEL: func.func @copy2d
# Triton's rule for a descriptor (16-byte aligned base, row strides of
# 16-byte multiples) is told to the axis analysis on the descriptor's own
# copies of the values: 16 bytes, a stride of 8 halves.
# COPY: tile.multiple_of %arg0, [16] : !tile.ptr<f16>
# COPY-NEXT: %[[S:.*]] = tile.multiple_of %arg4, [8] : i64
# COPY: tile.multiple_of %arg1, [16] : !tile.ptr<f16>
# COPY-NEXT: tile.multiple_of %arg4, [8] : i64
# The tile's first element is a scalar (row offset widened, times the row
# stride); each row is tested in i32 as r < clamp(M - row, 0, BM) and
# r >= clamp(-row, 0, BM) for its in-tile index r: only scalars depend on
# the offset.
# COPY: %[[R:.*]] = arith.extsi %{{.*}} : i32 to i64
# COPY: arith.muli %[[R]], %[[S]] : i64
# COPY: %[[IDX:.*]] = tile.expand_dims %{{.*}}, 1 : tensor<16xi32> -> tensor<16x1xi32>
# COPY: %[[M:.*]] = arith.extsi %arg2 : i32 to i64
# COPY: %[[LEFT:.*]] = arith.subi %[[M]], %[[R]] : i64
# COPY: %[[LO:.*]] = arith.maxsi %[[LEFT]], %{{.*}} : i64
# COPY: %[[HI:.*]] = arith.minsi %[[LO]], %{{.*}} : i64
# COPY: %[[HI32:.*]] = arith.trunci %[[HI]] : i64 to i32
# COPY: %[[HIS:.*]] = tile.splat %[[HI32]] : i32 -> tensor<16x1xi32>
# COPY: arith.cmpi slt, %[[IDX]], %[[HIS]] : tensor<16x1xi32>
# COPY: arith.cmpi sge, %[[IDX]], %{{.*}} : tensor<16x1xi32>
# The column offset is the constant 0: its upper test only.
# COPY: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1x32xi32>
# COPY-NOT: arith.cmpi sge
# NaN padding where the block leaves the tensor: the NaN a TMA load fills
# in on the H100 (0x7FF7 in each 16-bit half), so Kiln matches Triton bitwise.
# COPY: %[[NAN:.*]] = arith.constant dense<0x7FF7> : tensor<16x32xf16>
# The load of a 2-D descriptor made in the kernel also carries the
# descriptor (base, shapes, row stride, NaN padding) and the block's
# coordinates, from which the pipeliner may copy it with TMA.
# COPY: tile.load %{{.*}}, mask %{{.*}}, other %[[NAN]] coords[%{{.*}}, %c0_i32] desc(%0, %arg2, %arg3, %[[S]] : !tile.ptr<f16>, i32, i32, i64) {descNan} : tensor<16x32x!tile.ptr<f16>>
# The stored fp32 value is cast to the descriptor's fp16, then stored masked.
# COPY: arith.truncf %{{.*}} : tensor<16x32xf32> to tensor<16x32xf16>
# The store records its block as the load does (a store in a loop may then
# be a TMA store on sm_90: test/Dialect/Tile/Transforms/tma-stores.py).
# COPY: tile.store %{{.*}}, %{{.*}}, mask %{{.*}} coords[%{{.*}}, %c0_i32{{.*}}] desc(%{{.*}}, %arg2, %arg3, %{{.*}} : !tile.ptr<f16>, i32, i32, i64) : tensor<16x32x!tile.ptr<f16>>

# PTX-LABEL: .entry copy2d
# PTX: ld.global.v2.b32
# PTX: st.global.v2.b32


@triton.jit
def _row_block(desc, r, BN: tl.constexpr):
    return desc.load([r, 0])


@triton.jit
def loop_sum(in_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_tensor_descriptor(in_ptr, [M, N], [N, 1], [BM, BN])
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for r in range(0, M, BM):
        acc += _row_block(src, r, BN)
    out = tl.make_tensor_descriptor(out_ptr, [BM, BN], [BN, 1], [BM, BN])
    out.store([0, 0], acc)


# LOOP-LABEL: func.func @loop_sum
# LOOP: scf.for
# LOOP: tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} : tensor<16x32x!tile.ptr<f32>>
# LOOP: scf.yield
# LOOP: tile.store


@triton.jit
def attrs(x_ptr, out_ptr, n, B: tl.constexpr):
    d = tl.make_tensor_descriptor(x_ptr, [n], [1], [B])
    tl.static_assert(d.block_shape[0] == B)
    tl.static_assert(d.dtype == tl.bfloat16)
    tl.store(out_ptr, d.shape[0])
    tl.store(out_ptr + 1, d.strides[0])
    tl.static_print("desc", d)


# PRINT: desc tensor descriptor of tl.bfloat16 [64]
# ATTRS-LABEL: func.func @attrs
# ATTRS: tile.store %arg1, %arg2 : !tile.ptr<i32>
# The stride (the constant 1, as i64) narrowed to the pointee type.
# ATTRS: arith.trunci %{{.*}} : i64 to i32


@triton.jit
def atomics(cnt_ptr, acc_ptr, n, B: tl.constexpr):
    c = tl.make_tensor_descriptor(cnt_ptr, [n], [1], [B])
    a = tl.make_tensor_descriptor(acc_ptr, [n], [1], [B])
    ones = tl.full([B], 1, tl.int32)
    c.atomic_add([tl.program_id(0) * B], ones)
    c.atomic_max([0], ones)
    c.atomic_xor([0], ones)
    a.atomic_add([0], ones.to(tl.float32))


# ATOM-LABEL: func.func @atomics
# ATOM: tile.atomic_rmw add %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<64x!tile.ptr<i32>>
# ATOM: tile.atomic_rmw max %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<64x!tile.ptr<i32>>
# ATOM: tile.atomic_rmw xor %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<64x!tile.ptr<i32>>
# ATOM: tile.atomic_rmw add %{{.*}}, %{{.*}}, mask %{{.*}} : tensor<64x!tile.ptr<f32>>


@triton.jit
def host_desc(x_desc, y_desc, n, BM: tl.constexpr):
    m = tl.program_id(0) * BM
    y_desc.store([m, 0], x_desc.load([m, 0]))


# HOST-LABEL: func.func @host_desc(
# The base of a host descriptor is marked as such (its block shape): its
# shapes and strides follow it.
# HOST-SAME: %arg0: !tile.ptr<f16> {tile.descriptor = array<i64: 32, 64>, tile.divisibility = 16 : i32, tile.name = "x_desc"},
# HOST-SAME: %arg1: i32 {tile.name = "x_desc.shape0"}, %arg2: i32 {tile.name = "x_desc.shape1"},
# HOST-SAME: %arg3: i64 {tile.divisibility = 8 : i32, tile.name = "x_desc.stride0"},
# HOST-SAME: %arg4: !tile.ptr<f32> {tile.descriptor = array<i64: 32, 64>, tile.divisibility = 16 : i32, tile.name = "y_desc"},
# HOST-SAME: %arg7: i64 {tile.divisibility = 4 : i32, tile.name = "y_desc.stride0"},
# HOST-SAME: %arg8: i32 {tile.name = "n"})
# The load's padding is zero (x_desc); the stored fp16 block becomes fp32.
# The load records its block: the base argument (0) and the offsets as i32,
# from which the pipeliner may copy it with TMA.
# HOST: %[[M:.*]] = arith.muli %{{.*}}, %c32_i32 : i32
# HOST: tile.load %{{.*}}, mask %{{.*}}, other %{{.*}} coords[%[[M]], %c0_i32{{.*}}] {descArg = 0 : i64} : tensor<32x64x!tile.ptr<f16>>
# HOST: arith.extf %{{.*}} : tensor<32x64xf16> to tensor<32x64xf32>
# HOST: tile.store
# HOSTV-LABEL: .entry host_desc
# HOSTV: ld.global.v{{[24]}}.b32
# HOSTV: st.global.v4.b32
