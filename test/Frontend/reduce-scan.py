# tl.reduce / tl.associative_scan with @triton.jit combiners (tuples too),
# and the builtins built on them: argmax/argmin, max/min with indices,
# xor_sum, reduce_or, unsigned max, cumsum/cumprod with Triton's dtypes.
# RUN: ln-compile %s --kernel k --signature '*fp32,*i32,*i8,*u32' -D BLOCK=128 \
# RUN:   --emit=tile | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def add(a, b):
    return a + b


@triton.jit
def first_max(v1, i1, v2, i2):
    take = v1 >= v2
    return tl.where(take, v1, v2), tl.where(take, i1, i2)


@triton.jit
def k(X, I, B, U, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    i = tl.load(I + offs)
    b = tl.load(B + offs)
    u = tl.load(U + offs)
    tl.store(X, tl.reduce(x, 0, add))
    vm, im = tl.reduce((x, i), 0, first_max)
    tl.store(I, im)
    tl.store(X + offs, tl.associative_scan(x, 0, add, reverse=True))
    tl.store(I, tl.argmax(x, 0))
    tl.store(I, tl.argmin(x, axis=0, tie_break_left=False))
    mv, mi = tl.max(x, 0, return_indices=True)
    tl.store(I, mi)
    tl.store(I, tl.xor_sum(i, 0))
    tl.store(I, i.reduce_or(0))
    tl.store(U, tl.max(u, 0))
    tl.store(I + offs, tl.cumsum(b, 0))
    tl.store(X + offs, x.cumprod(0))
    tl.store(X + offs, tl.cumsum(x, 0, dtype=tl.float32))

# CHECK-LABEL: func.func @k(
# tl.reduce with a jit combiner: inlined into the region.
# CHECK: tile.reduce(%{{.*}}) axis = 0 : (tensor<128xf32>) -> f32 {
# CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
# CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
# CHECK-NEXT: tile.yield %[[S]] : f32
# A tuple reduction.
# CHECK: tile.reduce(%{{.*}}, %{{.*}}) axis = 0 : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) {
# CHECK: arith.cmpf oge
# CHECK: tile.yield %{{.*}}, %{{.*}} : f32, i32
# CHECK: tile.scan(%{{.*}}) axis = 0 reverse : (tensor<128xf32>) -> tensor<128xf32> {
# CHECK: arith.addf
# argmax: (value, index) with the left tie break.
# CHECK: %[[IDX:.*]] = tile.arange 0 to 128 : tensor<128xi32>
# CHECK: tile.reduce(%{{.*}}, %[[IDX]]) axis = 0 : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) {
# CHECK-NEXT: ^bb0(%[[V1:.*]]: f32, %[[I1:.*]]: i32, %[[V2:.*]]: f32, %[[I2:.*]]: i32):
# CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[V1]], %[[V2]] : f32
# CHECK-NEXT: %[[EQ:.*]] = arith.cmpf oeq, %[[V1]], %[[V2]] : f32
# CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[I1]], %[[I2]] : i32
# CHECK-NEXT: %[[TIE:.*]] = arith.andi %[[EQ]], %[[LT]] : i1
# CHECK-NEXT: %[[WIN:.*]] = arith.ori %[[GT]], %[[TIE]] : i1
# CHECK-NEXT: %[[V:.*]] = arith.select %[[WIN]], %[[V1]], %[[V2]] : f32
# CHECK-NEXT: %[[I:.*]] = arith.select %[[WIN]], %[[I1]], %[[I2]] : i32
# CHECK-NEXT: tile.yield %[[V]], %[[I]] : f32, i32
# argmin without the tie break: a strict less-than alone.
# CHECK: tile.reduce
# CHECK-NEXT: ^bb0
# CHECK-NEXT: arith.cmpf olt
# CHECK-NEXT: arith.cmpf oeq
# CHECK-NEXT: arith.select
# max with return_indices.
# CHECK: tile.reduce
# CHECK: arith.cmpf ogt
# xor_sum, reduce_or.
# CHECK: tile.reduce(%{{.*}}) axis = 0 : (tensor<128xi32>) -> i32 {
# CHECK: arith.xori
# CHECK: tile.reduce(%{{.*}}) axis = 0 : (tensor<128xi32>) -> i32 {
# CHECK: arith.ori
# max of uint32: an unsigned maximum.
# CHECK: tile.reduce(%{{.*}}) axis = 0 : (tensor<128xi32>) -> i32 {
# CHECK: arith.maxui
# cumsum of int8 widens to int32 first.
# CHECK: arith.extsi %{{.*}} : tensor<128xi8> to tensor<128xi32>
# CHECK: tile.scan(%{{.*}}) axis = 0 : (tensor<128xi32>) -> tensor<128xi32> {
# CHECK: arith.addi
# CHECK: tile.scan(%{{.*}}) axis = 0 : (tensor<128xf32>) -> tensor<128xf32> {
# CHECK: arith.mulf
# CHECK: tile.scan
# CHECK: arith.addf
