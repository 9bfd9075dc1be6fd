import triton
import triton.language as tl

from .cyc_a import VALUE
from .missing_module import MISSING_CONFIGS
from .hostonly import NUM_SMS, VENDOR_CONFIGS, get_host_configs
from .configs import NOT_THERE


@triton.autotune(configs=[triton.Config({"BLOCK": VALUE})], key=["n"])
@triton.jit
def k_cycle(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=MISSING_CONFIGS, key=["n"])
@triton.jit
def k_missing(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=[triton.Config({"BLOCK": NUM_SMS})], key=["n"])
@triton.jit
def k_device(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=get_host_configs(), key=["n"])
@triton.jit
def k_host_call(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=VENDOR_CONFIGS, key=["n"])
@triton.jit
def k_vendor(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)


@triton.autotune(configs=NOT_THERE, key=["n"])
@triton.jit
def k_not_there(X, n, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), 1.0)
