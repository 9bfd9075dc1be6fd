import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4),
                          triton.Config({'BLOCK': 256}, num_warps=8)],
                 key=['n'])
@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0,
                    'HALF': lambda args: args['BLOCK'] // 2})
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr, HALF: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)
