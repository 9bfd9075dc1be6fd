# tl.dot_scaled on sm_90, as Triton 3.6 runs it there: operands upcast to
# bf16 (fp16 when a format is fp16), e2m1 codes unpacked low nibble first
# (interleaved along K, or along M / N without k_pack), e8m0 scales shifted
# into the bf16 exponent and broadcast over groups of K / groups elements,
# NaN where a scale is 255 (not with fast_math), then one tl.dot.
# RUN: ln-compile %s --kernel fp4 --signature '*u8:16,*u8:16,*u8:16,*u8:16,*fp32:16' --emit=tile | FileCheck %s --check-prefix=FP4
# RUN: ln-compile %s --kernel fp8_fast --signature '*u8:16,*u8:16,*u8:16,*u8:16,*fp32:16' --emit=tile | FileCheck %s --check-prefix=FAST
# RUN: ln-compile %s --kernel half --signature '*fp16:16,*u8:16,*u8:16,*fp32:16' --emit=tile | FileCheck %s --check-prefix=HALF
# RUN: ln-compile %s --kernel fp4 --signature '*u8:16,*u8:16,*u8:16,*u8:16,*fp32:16' --emit=ptx -o %t.ptx
# RUN: ln-compile %s --kernel fp8_fast --signature '*u8:16,*u8:16,*u8:16,*u8:16,*fp32:16' --emit=ptx -o %t.fast.ptx
# RUN: ln-compile %s --kernel half --signature '*fp16:16,*u8:16,*u8:16,*fp32:16' --emit=ptx -o %t.half.ptx
# RUN: not ln-compile %s --kernel bad_format --signature '*u8:16,*u8:16,*fp32:16' --emit=tile 2>&1 | FileCheck %s --check-prefix=FORMAT
# RUN: ln-compile %s --kernel bf16_scaled --signature '*bf16:16,*u8:16,*u8:16,*fp32:16' --emit=tile | FileCheck %s --check-prefix=SCALE
# RUN: not ln-compile %s --kernel bad_k --signature '*u8:16,*u8:16,*u8:16,*u8:16,*fp32:16' --emit=tile 2>&1 | FileCheck %s --check-prefix=KDIFF
# RUN: not ln-compile %s --kernel bad_packed --signature '*fp16:16,*u8:16,*fp32:16' --emit=tile 2>&1 | FileCheck %s --check-prefix=PACKED
import triton
import triton.language as tl


@triton.jit
def fp4(A, AS, B, BS, C):
    # A: 64 x 32 bytes = 64 x 64 e2m1 (K packed); B: 64 x 32 bytes = 64 x 64
    # along N (rhs_k_pack=False); one scale per 32 along K.
    a = tl.load(A + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(B + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :])
    sa = tl.load(AS + tl.arange(0, 64)[:, None] * 2 + tl.arange(0, 2)[None, :])
    sb = tl.load(BS + tl.arange(0, 64)[:, None] * 2 + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1", rhs_k_pack=False)
    tl.store(C + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :], c)

# FP4-LABEL: func.func @fp4
# FP4: arith.andi %{{.*}} : tensor<64x32xi32>
# FP4: arith.shrsi %{{.*}} : tensor<64x32xi32>
# FP4: arith.bitcast %{{.*}} : tensor<64x32xi16> to tensor<64x32xbf16>
# FP4: tile.join %{{.*}} : tensor<64x32xbf16> -> tensor<64x32x2xbf16>
# FP4: tile.reshape %{{.*}} : tensor<64x32x2xbf16> -> tensor<64x64xbf16>
# The scale: s << 7 as bf16 bits, broadcast over 32 elements.
# FP4: arith.constant dense<7> : tensor<64x2xi32>
# FP4: tile.broadcast %{{.*}} : tensor<64x2x1xbf16> -> tensor<64x2x32xbf16>
# FP4: arith.mulf %{{.*}} : tensor<64x64xbf16>
# FP4: arith.constant dense<-1> : tensor<64x2xi8>
# FP4: arith.cmpi eq
# FP4: arith.constant dense<0x7FC0> : tensor<64x64xbf16>
# FP4: tile.where
# The rhs scale, spread to [N, K], is transposed to the operand's [K, N].
# FP4: tile.trans %{{.*}}, [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
# FP4: tile.dot %{{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>


@triton.jit
def fp8_fast(A, AS, B, BS, C):
    a = tl.load(A + tl.arange(0, 32)[:, None] * 64 + tl.arange(0, 64)[None, :])
    b = tl.load(B + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :])
    sa = tl.load(AS + tl.arange(0, 32)[:, None] * 2 + tl.arange(0, 2)[None, :])
    sb = tl.load(BS + tl.arange(0, 32)[:, None] * 2 + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, sa, "e4m3", b, sb, "e5m2", fast_math=True)
    tl.store(C + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)

# FAST-LABEL: func.func @fp8_fast
# FAST: arith.bitcast %{{.*}} : tensor<32x64xi8> to tensor<32x64xf8E4M3FN>
# FAST: arith.extf %{{.*}} : tensor<32x64xf8E4M3FN> to tensor<32x64xbf16>
# FAST: arith.bitcast %{{.*}} : tensor<64x32xi8> to tensor<64x32xf8E5M2>
# FAST-NOT: dense<0x7FC0>
# FAST: tile.dot %{{.*}} : tensor<32x64xbf16>, tensor<64x32xbf16>


@triton.jit
def half(A, B, BS, C):
    # An fp16 operand makes fp16 the compute type; the scale goes through fp32.
    a = tl.load(A + tl.arange(0, 16)[:, None] * 64 + tl.arange(0, 64)[None, :])
    b = tl.load(B + tl.arange(0, 64)[:, None] * 16 + tl.arange(0, 16)[None, :])
    sb = tl.load(BS + tl.arange(0, 16)[:, None] * 2 + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, None, "fp16", b, sb, "e4m3")
    tl.store(C + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], c)

# HALF-LABEL: func.func @half
# HALF: arith.constant dense<23> : tensor<16x2xi32>
# HALF: arith.bitcast %{{.*}} : tensor<16x2xi32> to tensor<16x2xf32>
# HALF: arith.truncf %{{.*}} : tensor<16x2xf32> to tensor<16x2xf16>
# HALF: tile.dot %{{.*}} : tensor<16x64xf16>, tensor<64x16xf16>


@triton.jit
def bad_format(A, B, C):
    a = tl.load(A + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])
    tl.dot_scaled(a, None, "e3m2", a, None, "e4m3")

# FORMAT: dot-scaled.py:[[@LINE-2]]:28: error: `tl.dot_scaled`: lhs_format 'e3m2' is not supported (expected 'e2m1', 'e4m3', 'e5m2', 'bf16' or 'fp16')


@triton.jit
def bf16_scaled(A, AS, B, C):
    # A bf16 operand may take a scale too (gemlite passes 127s): applied as to
    # the others, as Triton's decomposition does.
    a = tl.load(A + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])
    sa = tl.load(AS + tl.arange(0, 16)[:, None] + tl.arange(0, 1)[None, :])
    c = tl.dot_scaled(a, sa, "bf16", tl.trans(a), None, "bf16")
    tl.store(C + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], c)

# SCALE-LABEL: func.func @bf16_scaled
# SCALE: %[[S:.*]] = tile.load %{{.*}} : tensor<16x1x!tile.ptr<i8>>
# SCALE: arith.shli
# SCALE: arith.bitcast %{{.*}} : tensor<16x1xi16> to tensor<16x1xbf16>
# SCALE: arith.mulf %{{.*}} : tensor<16x32xbf16>
# SCALE: tile.dot %{{.*}} : tensor<16x32xbf16>, tensor<32x16xbf16>


@triton.jit
def bad_k(A, AS, B, BS, C):
    a = tl.load(A + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(B + tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :])
    tl.dot_scaled(a, None, "e2m1", b, None, "e4m3")

# KDIFF: dot-scaled.py:[[@LINE-2]]:5: error: `tl.dot_scaled`: the operands' K differ (lhs 64, rhs 32, counting two fp4 values per byte)


@triton.jit
def bad_packed(A, B, C):
    a = tl.load(A + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])
    tl.dot_scaled(a, None, "e2m1", a, None, "fp16")

# PACKED: dot-scaled.py:[[@LINE-2]]:19: error: `tl.dot_scaled`: lhs in format 'e2m1' must hold uint8 (two fp4 values per byte), got tensor<16x32xf16>
