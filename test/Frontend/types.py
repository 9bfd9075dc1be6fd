# Triton's typing rules: promotion (fp16 * fp32 -> fp32, a Python constant
# does not widen a tensor, fp16 + bf16 -> fp16), `/` is true division (ints
# go through fp32), `//` and `%` truncate like C (divsi/remsi, divui/remui for
# unsigned), unsigned shifts, integer widening, .to() conversions, constexpr
# arithmetic with Python semantics (7 // -2 == -4), tl.cdiv at compile time
# and at run time, unary operators, where/maximum/minimum/fma/abs, stores that
# convert to the pointee type.
# RUN: ln-compile %s --kernel types \
# RUN:   --signature '*fp16,*bf16,*fp32,*i32,*u32,*i64,*fp32,i32,u32' \
# RUN:   --emit=tile | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def types(H, B, F, I, U, L, O, n, u: tl.uint32):
    h = tl.load(H)
    b = tl.load(B)
    f = tl.load(F)
    i = tl.load(I)
    l = tl.load(L)
    w = tl.load(U)
    tl.store(O + 0, h * f)
    tl.store(O + 1, h * 2.0)
    tl.store(O + 2, h / 2)
    tl.store(O + 3, h + b)
    tl.store(O + 4, b * b)
    tl.store(O + 5, i / n)
    tl.store(O + 6, i // n)
    tl.store(O + 7, i % n)
    tl.store(O + 8, w // u)
    tl.store(O + 9, w % u)
    tl.store(O + 10, w >> 1)
    tl.store(O + 11, i >> 1)
    tl.store(O + 12, i * l)
    tl.store(O + 13, i + 1.5)
    tl.store(O + 14, i < w)
    tl.store(O + 15, f.to(tl.int32))
    tl.store(O + 16, f.to(tl.uint32))
    tl.store(O + 17, i.to(tl.int1))
    tl.store(O + 18, (i > 0).to(tl.float32))
    tl.store(O + 19, i.to(tl.int8).to(tl.int32))
    tl.store(O + 20, w.to(tl.int64))
    tl.store(O + 21, h.to(tl.bfloat16))
    tl.store(O + 22, i + (7 // -2) + (-7 % 3) + 2 ** 10 + min(65536 // 2, 8192))
    tl.store(O + 23, tl.cdiv(n, 128) + tl.cdiv(1000, 128))
    tl.store(O + 24, -i + ~i)
    tl.store(O + 25, not (i > 0))
    tl.store(O + 26, tl.where(i > 0, h, 1))
    tl.store(O + 27, tl.maximum(h, f) + tl.minimum(i, n) + tl.maximum(w, 3))
    tl.store(O + 28, tl.fma(f, f, 1.0))
    tl.store(O + 29, tl.abs(i) + tl.abs(h))
    tl.store(O + 30, l + 3000000000)
    tl.store(O + 31, f % 2.0)

# CHECK-LABEL: func.func @types(
# CHECK-SAME: %[[N:[^:]+]]: i32 {tile.name = "n"}, %[[U:[^:]+]]: i32 {tile.name = "u"})
# CHECK: %[[H:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<f16>
# CHECK: %[[B:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<bf16>
# CHECK: %[[F:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<f32>
# CHECK: %[[I:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<i32>
# CHECK: %[[L:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<i64>
# CHECK: %[[W:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<i32>
# h * f
# CHECK: %[[HF:[^ ]+]] = arith.extf %[[H]] : f16 to f32
# CHECK: arith.mulf %[[HF]], %[[F]] : f32
# h * 2.0 stays fp16
# CHECK: %[[TWO:[^ ]+]] = arith.constant 2.000000e+00 : f16
# CHECK: arith.mulf %[[H]], %[[TWO]] : f16
# h / 2 divides in fp32
# CHECK: arith.extf %[[H]] : f16 to f32
# CHECK: arith.divf %{{.*}}, %{{.*}} : f32
# h + b: fp16 wins, bf16 converts through fp32
# CHECK: %[[B32:[^ ]+]] = arith.extf %[[B]] : bf16 to f32
# CHECK: %[[B16:[^ ]+]] = arith.truncf %[[B32]] : f32 to f16
# CHECK: arith.addf %[[H]], %[[B16]] : f16
# b * b
# CHECK: arith.mulf %[[B]], %[[B]] : bf16
# i / n
# CHECK: %[[IF:[^ ]+]] = arith.sitofp %[[I]] : i32 to f32
# CHECK: %[[NF:[^ ]+]] = arith.sitofp %[[N]] : i32 to f32
# CHECK: arith.divf %[[IF]], %[[NF]] : f32
# CHECK: arith.divsi %[[I]], %[[N]] : i32
# CHECK: arith.remsi %[[I]], %[[N]] : i32
# CHECK: arith.divui %[[W]], %[[U]] : i32
# CHECK: arith.remui %[[W]], %[[U]] : i32
# CHECK: arith.shrui %[[W]], %{{.*}} : i32
# CHECK: arith.shrsi %[[I]], %{{.*}} : i32
# i * l widens to i64
# CHECK: %[[I64:[^ ]+]] = arith.extsi %[[I]] : i32 to i64
# CHECK: arith.muli %[[I64]], %[[L]] : i64
# i + 1.5
# CHECK: arith.sitofp %[[I]] : i32 to f32
# CHECK: arith.addf %{{.*}}, %{{.*}} : f32
# i < w compares as uint32
# CHECK: arith.cmpi ult, %[[I]], %[[W]] : i32
# .to() conversions
# CHECK: arith.fptosi %[[F]] : f32 to i32
# CHECK: arith.fptoui %[[F]] : f32 to i32
# CHECK: arith.cmpi ne, %[[I]], %{{.*}} : i32
# CHECK: %[[GT:[^ ]+]] = arith.cmpi sgt, %[[I]], %{{.*}} : i32
# CHECK: arith.uitofp %[[GT]] : i1 to f32
# CHECK: %[[I8:[^ ]+]] = arith.trunci %[[I]] : i32 to i8
# CHECK: arith.extsi %[[I8]] : i8 to i32
# CHECK: arith.extui %[[W]] : i32 to i64
# CHECK: %[[HB:[^ ]+]] = arith.extf %[[H]] : f16 to f32
# CHECK: arith.truncf %[[HB]] : f32 to bf16
# Constexpr arithmetic folds with Python semantics: -4, 2, 1024, 8192.
# CHECK: %[[M4:[^ ]+]] = arith.constant -4 : i32
# CHECK: arith.addi %[[I]], %[[M4]] : i32
# CHECK: arith.constant 2 : i32
# CHECK: arith.constant 1024 : i32
# CHECK: arith.constant 8192 : i32
# tl.cdiv(n, 128) at run time, tl.cdiv(1000, 128) == 8 at compile time.
# CHECK: %[[S1:[^ ]+]] = arith.addi %[[N]], %{{.*}} : i32
# CHECK: %[[S2:[^ ]+]] = arith.subi %[[S1]], %{{.*}} : i32
# CHECK: %[[Q:[^ ]+]] = arith.divsi %[[S2]], %{{.*}} : i32
# CHECK: %[[EIGHT:[^ ]+]] = arith.constant 8 : i32
# CHECK: arith.addi %[[Q]], %[[EIGHT]] : i32
# -i + ~i
# CHECK: arith.subi %{{.*}}, %[[I]] : i32
# CHECK: %[[ONES:[^ ]+]] = arith.constant -1 : i32
# CHECK: arith.xori %[[I]], %[[ONES]] : i32
# not (i > 0)
# CHECK: %[[T:[^ ]+]] = arith.constant true
# CHECK: arith.xori %{{.*}}, %[[T]] : i1
# tl.where(i > 0, h, 1): the constant takes h's type
# CHECK: %[[ONE16:[^ ]+]] = arith.constant 1.000000e+00 : f16
# CHECK: tile.where %{{.*}}, %[[H]], %[[ONE16]] : i1, f16
# CHECK: arith.maxnumf %{{.*}}, %[[F]] : f32
# CHECK: arith.minsi %[[I]], %[[N]] : i32
# CHECK: arith.maxui %[[W]], %{{.*}} : i32
# CHECK: math.fma %[[F]], %[[F]], %{{.*}} : f32
# CHECK: %[[AI:[^ ]+]] = math.absi %[[I]] : i32
# CHECK: %[[AH:[^ ]+]] = math.absf %[[H]] : f16
# CHECK: %[[AIH:[^ ]+]] = arith.sitofp %[[AI]] : i32 to f16
# CHECK: arith.addf %[[AIH]], %[[AH]] : f16
# A constant beyond int32 is fine next to an int64.
# CHECK: %[[BIG:[^ ]+]] = arith.constant 3000000000 : i64
# CHECK: arith.addi %[[L]], %[[BIG]] : i64
# CHECK: arith.remf %[[F]], %{{.*}} : f32
# Every store converts to the fp32 pointee.
# CHECK: tile.store %{{.*}}, %{{.*}} : !tile.ptr<f32>
# CHECK-NEXT: return
