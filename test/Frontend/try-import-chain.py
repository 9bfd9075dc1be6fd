# A module-level `try` whose handler is itself a `try` of imports (FBGEMM's
# rope kernel looks for libdevice's `pow` in four places, each fallback
# nested in the previous `except ImportError:`) binds what Python binds
# under Triton 3.6: the first import in the chain that resolves.
# RUN: ln-compile %s --kernel k --signature '*fp32:16' --emit=tile | FileCheck %s
import triton
import triton.language as tl

try:
    from triton.language.libdevice import pow
except ImportError:
    try:
        from triton.language.no_such_module import pow
    except ImportError:
        try:
            from triton.language.extra.libdevice import pow
        except ImportError:
            from triton.language.extra.cuda.libdevice import pow


@triton.jit
def k(X):
    offs = tl.arange(0, 64)
    x = tl.load(X + offs)
    tl.store(X + offs, pow(x, 0.5))

# CHECK-LABEL: func.func @k
# CHECK: pow
