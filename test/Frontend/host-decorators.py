# --host-decorators: the decorators above @triton.jit are the host's, as
# under Python's drop-in `triton` (a library's own autotune wrapper such as
# flash-linear-attention's @fla_cache_autotune is ordinary Python there):
# ln-compile compiles the kernel as plain @triton.jit. Without the flag
# such a decorator is an error.
# RUN: ln-compile %s --kernel k --signature '*fp32,i32' -D BLOCK=128 --host-decorators --emit=tile | FileCheck %s
# RUN: not ln-compile %s --kernel k --signature '*fp32,i32' -D BLOCK=128 2>&1 | FileCheck %s --check-prefix=ERR
import triton
import triton.language as tl
from mylib import my_autotune


@my_autotune(configs=[triton.Config({'BLOCK': 64})], key=['n'])
@triton.heuristics({'EVEN': lambda args: args['n'] % 2 == 0})
@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs, mask=offs < n) * 2, mask=offs < n)
# CHECK-LABEL: func.func @k(
# CHECK: tile.load
# ERR: host-decorators.py:13:2: error: unsupported decorator `@my_autotune(
