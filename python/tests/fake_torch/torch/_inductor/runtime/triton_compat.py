# As torch 2.11's: imported by `@torch.compile` (through torch._dynamo) at a
# decorated definition's import time.
try:
    import triton
except ImportError:
    triton = None

if triton is not None:
    from triton.compiler import CompiledKernel  # noqa: F401  (not in the drop-in)
    HAS_TRITON = True
else:
    HAS_TRITON = False
