# `name = triton.constexpr_function(f)` at module level, as TransformerEngine's
# permutation.py and lmdeploy's bitonic top-k write it for Triton >= 3.5:
# wrapping a tl builtin (core.get_int_dtype) leaves it callable with
# compile-time arguments in kernels.
# RUN: ln-compile %s --kernel k --signature '*i16' --emit=tile | FileCheck %s
import triton
import triton.language as tl
from packaging import version
from triton.language import core

get_int_dtype = core.get_int_dtype
if version.parse(triton.__version__) >= version.parse("3.5.0"):
    get_int_dtype = triton.constexpr_function(get_int_dtype)


@triton.jit
def k(X):
    x = tl.load(X + tl.arange(0, 16))
    idtype = get_int_dtype(bitwidth=x.dtype.primitive_bitwidth, signed=True)
    tl.store(X + tl.arange(0, 16), x.to(idtype, bitcast=True) + 1)

# CHECK-LABEL: func.func @k
# CHECK: arith.addi %{{.*}} : tensor<16xi16>
