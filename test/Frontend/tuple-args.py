# Tuple arguments (Triton passes a Python tuple as one parameter and
# specializes it element by element; flash-linear-attention's attnres passes
# its residual sources so): the runtime elements become consecutive function
# arguments named `srcs.0`, `srcs.1.0`, ..., constant elements (None, the
# integer 1) fold, and the name is a tuple indexed with constants, through
# helpers and tl.static_range. Pointers take tl.multiple_of hints (bytes).
# RUN: ln-compile %s --kernel k --signature '*fp32:16,((*fp16:16,*fp16),fp32,None,1),i32' -D L=2 --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel k --signature '*fp32:16,((*fp16:16,*fp16),fp32,None,1),i32:16' -D L=2 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: not ln-compile %s --kernel k --signature '*fp32:16,((*fp16:16,),fp32,None,1),i32' -D L=2 2>&1 | FileCheck %s --check-prefix=RANGE
# RUN: not ln-compile %s --kernel k --signature '*fp32,((*fp16,*fp16),fp32,None,1,i32' -D L=2 2>&1 | FileCheck %s --check-prefix=PAREN
# RUN: not ln-compile %s --kernel k --signature '*fp32,((*fp16,*fp16),fp32,Nope,1),i32' -D L=2 2>&1 | FileCheck %s --check-prefix=ELEM
# RUN: not ln-compile %s --kernel k --signature '*fp32,((*fp16,tensordesc<fp16[16]>),fp32,None,1),i32' -D L=2 2>&1 | FileCheck %s --check-prefix=DESC
import triton
import triton.language as tl


@triton.jit
def _src(srcs, i: tl.constexpr):
    return srcs[0][i]


@triton.jit
def k(out, srcs, N, L: tl.constexpr):
    offs = tl.arange(0, 1024)
    acc = tl.zeros([1024], dtype=tl.float32)
    for i in tl.static_range(L):
        p = tl.multiple_of(_src(srcs, i) + offs * 0, 16)
        acc += tl.load(p + offs).to(tl.float32)
    acc *= srcs[1]
    if srcs[2] is None:
        acc += len(srcs) + srcs[3]
    tl.store(out + offs, acc, mask=offs < N)
# CHECK: tile.constexprs = {L = "2", srcs.2 = "None", srcs.3 = "1"}
# CHECK-LABEL: func.func @k(
# CHECK-SAME: %arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.name = "out"}
# CHECK-SAME: %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32, tile.name = "srcs.0.0"}
# CHECK-SAME: %arg2: !tile.ptr<f16> {tile.name = "srcs.0.1"}
# CHECK-SAME: %arg3: f32 {tile.name = "srcs.1"}
# CHECK-SAME: %arg4: i32 {tile.name = "N"}
# CHECK: tile.splat %arg1
# CHECK: tile.multiple_of {{.*}}, [16] : tensor<1024x!tile.ptr<f16>>
# CHECK: tile.splat %arg2
# CHECK: tile.multiple_of {{.*}}, [16] : tensor<1024x!tile.ptr<f16>>
# CHECK: tile.splat %arg3
# len(srcs) + srcs[3] = 4 + 1
# CHECK: arith.constant dense<5.000000e+00>
# The hint makes the second (unaligned) source's loads vector loads too.
# PTX-NOT: ld.global.b16
# PTX-COUNT-4: ld.global.v2.b32
# PTX-NOT: ld.global.b16
# RANGE: tuple-args.py:19:20: error: tuple index 1 out of range for a tuple of 1
# PAREN: error: --signature: signature entry 2 `((*fp16,*fp16),fp32,None,1,i32`: missing `)`
# ELEM: error: --signature: signature entry 2 `((*fp16,*fp16),fp32,Nope,1)`: in the tuple: signature entry 3 `Nope`: unknown type `Nope`
# DESC: error: --signature: signature entry 2 {{.*}}: a tensor descriptor inside a tuple is not supported
