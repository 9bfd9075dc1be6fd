# Debugging builtins. tl.device_assert (and a runtime `assert`) become
# tile.assert only in debug builds (--debug, KILN_DEBUG=1 or
# @triton.jit(debug=True)); otherwise they are compiled out. A mask makes the
# masked-off lanes pass. tl.static_print prints at compile time to stderr.
# RUN: ln-compile %s --kernel k --signature '*i32,i32' -D BLOCK=128 --emit=tile --debug 2>%t.err | FileCheck %s --check-prefix=DEBUG
# RUN: FileCheck %s --check-prefix=STATIC < %t.err
# RUN: env KILN_DEBUG=1 ln-compile %s --kernel k --signature '*i32,i32' -D BLOCK=128 --emit=tile 2>/dev/null | FileCheck %s --check-prefix=DEBUG
# RUN: ln-compile %s --kernel k --signature '*i32,i32' -D BLOCK=128 --emit=tile 2>/dev/null | FileCheck %s --check-prefix=NODEBUG
# RUN: env KILN_DEBUG=0 ln-compile %s --kernel k --signature '*i32,i32' -D BLOCK=128 --emit=tile 2>/dev/null | FileCheck %s --check-prefix=NODEBUG
# RUN: ln-compile %s --kernel kd --signature '*i32,i32' --emit=tile | FileCheck %s --check-prefix=JITDEBUG
# RUN: ln-compile %s --kernel k --signature '*i32,i32' -D BLOCK=128 --emit=tile --debug --print-debuginfo 2>/dev/null | FileCheck %s --check-prefix=LOC
import triton
import triton.language as tl


@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=1)
    tl.device_assert(x > 0, "x must be positive", mask=offs < N)
    assert N > 0, "N must be positive"
    assert BLOCK >= 16  # constexpr: checked at compile time, no op
    tl.static_print("BLOCK =", BLOCK, x, tl.float16, None, (1, "a"), sep="|")
    tl.static_print(N)
    tl.device_print("x", x, hex=True)

# DEBUG-LABEL: func.func @k(
# DEBUG: %[[M:[^ ]+]] = arith.cmpi slt, %{{.*}} : tensor<128xi32>
# DEBUG: %[[X:[^ ]+]] = tile.load
# DEBUG: %[[POS:[^ ]+]] = arith.cmpi sgt, %[[X]], %{{.*}} : tensor<128xi32>
# DEBUG: %[[NOTM:[^ ]+]] = arith.xori %{{.*}}, %{{.*}} : tensor<128xi1>
# DEBUG: %[[C:[^ ]+]] = arith.ori %[[POS]], %[[NOTM]] : tensor<128xi1>
# DEBUG: tile.assert %[[C]], "x must be positive" : tensor<128xi1>
# DEBUG: %[[NP:[^ ]+]] = arith.cmpi sgt, %arg1, %{{.*}} : i32
# DEBUG: tile.assert %[[NP]], "N must be positive" : i1
# DEBUG-NOT: tile.assert
# DEBUG: tile.print "x" hex %[[X]] : tensor<128xi32>

# NODEBUG-LABEL: func.func @k(
# NODEBUG-NOT: tile.assert
# NODEBUG: tile.print "x" hex

# STATIC: BLOCK =|128|int32[128]|fp16|None|(1, 'a')
# STATIC-NEXT: int32[]

# LOC: tile.assert {{.*}}debug.py:20:5
# LOC: tile.assert {{.*}}debug.py:21:5


@triton.jit(debug=True)
def kd(X, N):
    tl.device_assert(tl.load(X) != 0)

# JITDEBUG-LABEL: func.func @kd(
# JITDEBUG: %[[V:[^ ]+]] = tile.load
# JITDEBUG: %[[C:[^ ]+]] = arith.cmpi ne, %[[V]], %{{.*}} : i32
# JITDEBUG: tile.assert %[[C]], "" : i1
