"""Shared by the Python package's tests: stand-in tensors and kernels."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))

ADD_SOURCE = '''import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr,
               SCALE: tl.constexpr = 2):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y * SCALE, mask=mask)

@triton.jit
def scale_kernel(out_ptr, alpha, n, flag, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(out_ptr + offs, mask=offs < n)
    if flag:
        v = v * alpha
    tl.store(out_ptr + offs, v, mask=offs < n)
'''

# An undefined name on line 6, column 20 (the `zz`).
BAD_BODY_SOURCE = '''import triton
import triton.language as tl

@triton.jit
def bad(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr, zz)
'''


class Device:
    def __init__(self, kind="cuda", index=0):
        self.type = kind
        self.index = index

    def __str__(self):
        return "%s:%d" % (self.type, self.index)


class FakeTensor:
    """What kiln reads from a torch.Tensor: data_ptr, dtype, element_size,
    numel, device."""

    def __init__(self, ptr, dtype="torch.float32", numel=1024, device=None,
                 element_size=4):
        self.ptr = ptr
        self.dtype = dtype
        self._numel = numel
        self._element_size = element_size
        self.device = device or Device()

    def data_ptr(self):
        return self.ptr

    def element_size(self):
        return self._element_size

    def numel(self):
        return self._numel


class FakeCudaArray:
    """An object with __cuda_array_interface__ (as CuPy or Numba give)."""

    def __init__(self, ptr, typestr="<f4", shape=(1024,)):
        self.__cuda_array_interface__ = {
            "data": (ptr, False), "typestr": typestr, "shape": shape,
            "version": 3}
