# tl.dot and `@` -> tile.dot: result dtypes (fp16/bf16/fp32 -> f32, int8 ->
# i32, fp16 with out_dtype=float16 -> f16, fp64 -> f64), the zero
# accumulator when `acc` is not given, input_precision / allow_tf32.
# RUN: ln-compile %s --kernel mm --signature '*fp16,*fp16,*fp32' -D BM=64 -D BN=32 -D BK=16 \
# RUN:   --emit=tile | FileCheck %s --check-prefix=F16
# RUN: ln-compile %s --kernel mm --signature '*bf16,*bf16,*fp32' -D BM=16 -D BN=16 -D BK=16 \
# RUN:   --emit=tile | FileCheck %s --check-prefix=BF16
# RUN: ln-compile %s --kernel mm --signature '*i8,*i8,*i32' -D BM=32 -D BN=32 -D BK=32 \
# RUN:   --emit=tile | FileCheck %s --check-prefix=I8
# RUN: ln-compile %s --kernel variants --signature '*fp32,*fp32,*fp32,*fp16,*fp64' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=VAR
import triton
import triton.language as tl


@triton.jit
def mm(A, B, C, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(A + rm[:, None] * BK + rk[None, :])
    b = tl.load(B + rk[:, None] * BN + rn[None, :])
    c = tl.dot(a, b)
    tl.store(C + rm[:, None] * BN + rn[None, :], c)

# F16: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
# F16: tile.dot %{{.*}}, %{{.*}}, %[[Z]] : tensor<64x16xf16>, tensor<16x32xf16> -> tensor<64x32xf32>
# BF16: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
# I8: %[[Z:.*]] = arith.constant dense<0> : tensor<32x32xi32>
# I8: tile.dot %{{.*}}, %{{.*}}, %[[Z]] : tensor<32x32xi8>, tensor<32x32xi8> -> tensor<32x32xi32>


@triton.jit
def variants(A, B, C, H, D):
    r = tl.arange(0, 16)
    offs = r[:, None] * 16 + r[None, :]
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    acc = tl.load(C + offs)
    # VAR: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
    # VAR-NOT: inputPrecision
    x = tl.dot(a, b, acc)
    # VAR: tile.dot {{.*}} {inputPrecision = #tile<input_precision ieee>} : tensor<16x16xf32>
    y = tl.dot(a, b, x, input_precision="ieee")
    # VAR: tile.dot {{.*}} {inputPrecision = #tile<input_precision tf32x3>} : tensor<16x16xf32>
    y = tl.dot(a, b, y, input_precision="TF32x3")
    # VAR: tile.dot {{.*}} {inputPrecision = #tile<input_precision ieee>} : tensor<16x16xf32>
    y = tl.dot(a, b, y, allow_tf32=False)
    # VAR: tile.dot {{.*}} : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
    y = a @ b + y
    tl.store(C + offs, y)
    h = tl.load(H + offs)
    # VAR: tile.dot {{.*}} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
    tl.store(H + offs, tl.dot(h, h, out_dtype=tl.float16))
    d = tl.load(D + offs)
    # VAR: tile.dot {{.*}} : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    tl.store(D + offs, tl.dot(d, d))


# input_precision="bf16x3" / "bf16x6" (Triton's): each fp32 operand split into
# 2 / 3 bf16 terms, the product the sum of 3 / 6 bf16 dots, smallest first.
# RUN: ln-compile %s --kernel split_dot --signature '*fp32,*fp32' -D PREC="'bf16x3'" \
# RUN:   --emit=tile | FileCheck %s --check-prefix=X3
# RUN: ln-compile %s --kernel split_dot --signature '*fp32,*fp32' -D PREC="'bf16x6'" \
# RUN:   --emit=tile | FileCheck %s --check-prefix=X6
@triton.jit
def split_dot(A, C, PREC: tl.constexpr):
    r = tl.arange(0, 16)
    a = tl.load(A + r[:, None] * 16 + r[None, :])
    tl.store(C + r[:, None] * 16 + r[None, :], tl.dot(a, a, input_precision=PREC))
# X3-LABEL: func.func @split_dot
# X3: %[[HI:.+]] = arith.truncf %[[A:.+]] : tensor<16x16xf32> to tensor<16x16xbf16>
# X3: %[[HIF:.+]] = arith.extf %[[HI]]
# X3: %[[REST:.+]] = arith.subf %[[A]], %[[HIF]]
# X3: %[[MID:.+]] = arith.truncf %[[REST]]
# X3: %[[D1:.+]] = tile.dot %[[HI]], %[[MID2:[^,]+]], %{{.+}} : tensor<16x16xbf16>
# X3: %[[D2:.+]] = tile.dot %{{[^,]+}}, %{{[^,]+}}, %[[D1]]
# X3: %[[D3:.+]] = tile.dot %{{[^,]+}}, %{{[^,]+}}, %[[D2]]
# X3-NOT: tile.dot
# X3: tile.store {{.*}}%[[D3]]
# X6-COUNT-6: tile.dot {{.*}} : tensor<16x16xbf16>
# X6-NOT: tile.dot
