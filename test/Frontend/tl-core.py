# tl.core's and tl.standard's own names that libraries reach: tl.standard._log2
# (bitonic sorts), CONSTEXPR_0 as a parameter
# default (flash-linear-attention's argsort), get_int_dtype to bitcast a
# float to the integer of its width, TRITON_MAX_TENSOR_NUMEL; other tl.core
# names are tl's.
# RUN: ln-compile %s --kernel k --signature '*fp32' --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel k --signature '*fp16' --emit=tile | FileCheck %s --check-prefix=F16
# RUN: not ln-compile %s --kernel bad_width --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=WIDTH
import triton
import triton.language as tl


@triton.jit
def k(X, descending: tl.constexpr = tl.core.CONSTEXPR_0):
    offs = tl.core.arange(0, 16)
    x = tl.load(X + offs)
    idt: tl.constexpr = tl.core.get_int_dtype(bitwidth=x.dtype.primitive_bitwidth, signed=True)
    y = x.to(idt, bitcast=True)
    tl.static_assert(descending == 0)
    tl.static_assert(tl.core.TRITON_MAX_TENSOR_NUMEL == 1048576)
    tl.static_assert(tl.core.get_int_dtype(8, False) == tl.uint8)
    tl.static_assert(tl.standard._log2(x.shape[0]) == 4)
    tl.static_assert(tl.standard._log2(1) == 0)
    tl.static_assert(tl.standard.cdiv(5, 2) == 3)
    tl.store(X + offs, (y + 1).to(x.dtype, bitcast=True))
# CHECK-LABEL: func.func @k
# CHECK: arith.bitcast %{{.*}} : tensor<16xf32> to tensor<16xi32>
# CHECK: arith.bitcast %{{.*}} : tensor<16xi32> to tensor<16xf32>
# F16: arith.bitcast %{{.*}} : tensor<16xf16> to tensor<16xi16>


@triton.jit
def bad_width(X):
    tl.store(X, tl.load(X).to(tl.core.get_int_dtype(24, True), bitcast=True))
# WIDTH: tl-core.py:[[@LINE-1]]:53: error: `tl.core.get_int_dtype`: unsupported bitwidth 24 (1, 8, 16, 32 or 64)
