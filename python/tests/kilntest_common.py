"""Shared by the Python package's tests: stand-in tensors and kernels, and
the launches the stand-in driver recorded."""
import ctypes
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

TUNED_SOURCE = '''import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=2),
                          triton.Config({"BLOCK": 128}, num_warps=4),
                          triton.Config({"BLOCK": 256}, num_warps=8)],
                 key=["n"])
@triton.jit
def tuned_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + tl.load(y_ptr + offs, mask=mask), mask=mask)
'''

NONE_SOURCE = '''import triton
import triton.language as tl

@triton.jit
def k(out_ptr, bias_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(out_ptr + offs, mask=offs < n)
    if bias_ptr is not None:
        v = v + tl.load(bias_ptr + offs, mask=offs < n)
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


def fake_launches(fake):
    """Every launch the stand-in driver `fake` (its ctypes CDLL) recorded, in
    order: kernel name, grid, block, stream and the packed parameters."""
    fake.kilnFakeLaunch.argtypes = [
        ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t,
        ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_void_p),
        ctypes.POINTER(ctypes.c_uint64), ctypes.c_int]
    out = []
    for i in range(fake.kilnFakeLaunchCount()):
        name = ctypes.create_string_buffer(128)
        dims = (ctypes.c_uint * 7)()
        stream = ctypes.c_void_p()
        params = (ctypes.c_uint64 * 32)()
        n = fake.kilnFakeLaunch(i, name, 128, dims, ctypes.byref(stream),
                                params, 32)
        out.append({"kernel": name.value.decode(), "grid": tuple(dims[:3]),
                    "block": dims[3], "stream": stream.value or 0,
                    "params": list(params[:n])})
    return out
