# Bad @triton.autotune / @triton.heuristics decorators are reported where they
# are written, with what Kiln cannot evaluate.
# RUN: ln-compile %s --kernel k --signature '*fp32,i32' -D BLOCK=128 \
# RUN:   --emit=tile --verify-diagnostics --split-input-file
import triton
import triton.language as tl


# expected-error @+1 {{@triton.autotune: reset_to_zero names `M`, which is not a parameter of `k`}}
@triton.autotune(configs=[], key=["N"], reset_to_zero=["M"])
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


# expected-error @+1 {{@triton.autotune: unknown argument `warmups`}}
@triton.autotune(configs=[], key=["N"], warmups=3)
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


# expected-error @+1 {{@triton.autotune: configs must be a list of triton.Config, got 128}}
@triton.autotune(configs=[128], key=["N"])
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


# expected-error @+1 {{@triton.autotune: a config sets `BLOCK_M`, which is not a parameter of `k`}}
@triton.autotune(configs=[triton.Config(dict(BLOCK_M=64))], key=["N"])
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


def configs():
    # expected-error @+1 {{`triton.runtime.driver.active.get_current_target` is a host call Kiln cannot evaluate}}
    target = triton.runtime.driver.active.get_current_target()
    return []


@triton.autotune(configs=configs(), key=["N"])
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


def hook(args):
    pass


# expected-error @+1 {{@triton.autotune: pre_hook must be None (Kiln cannot run host functions while tuning)}}
@triton.autotune(configs=[], key=["N"], pre_hook=hook)
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


# expected-error @+1 {{`triton.Config`: pre_hook must be None (Kiln cannot run host hooks)}}
@triton.autotune(configs=[triton.Config(dict(), pre_hook=len)], key=["N"])
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


# expected-error @+1 {{@triton.heuristics: expected a dict of `"NAME": lambda args: ...`, got a list}}
@triton.heuristics([1])
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


@triton.jit
# expected-error @+1 {{`@triton.autotune` must be above `@triton.jit`}}
@triton.autotune(configs=[], key=["N"])
def k(X, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


@triton.autotune(configs=[], key=["N"])
# expected-error @+1 {{more than one @triton.autotune on `k`}}
@triton.autotune(configs=[], key=["N"])
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    pass

# -----
import triton
import triton.language as tl


# expected-error @+1 {{unsupported decorator `@functools.cache`}}
@functools.cache
@triton.jit
def k(X, N, BLOCK: tl.constexpr):
    pass
