"""Where the host time of one drop-in launch goes (device only; torch + CUDA).

    python3 python/tests/gpu_launch_breakdown.py

Times, as gpu_dropin_bench.py's `host us` does (batches of 256 calls,
synchronized between batches outside the timing, best batch), the pieces a
launch of a 4-argument kernel is made of: the whole drop-in launch, the same
with an empty grid (everything but the driver's launch: Kiln returns before
cuLaunchKernel), the torch calls the launch function makes (data_ptr, dtype,
get_device, the current raw stream), and the floor: cuLaunchKernel of an
empty kernel called from Python through ctypes with prebuilt arguments; then
the launch and the floor on a side stream of torch's instead of the legacy
default stream.
"""
import ctypes
import json
import sys
import time

from gpu_dropin_bench import add_inputs, load_add_kernel

EMPTY_PTX = b"""
.version 8.0
.target sm_90
.address_size 64
.visible .entry empty_kernel(.param .u64 a, .param .u64 b, .param .u64 c,
                             .param .u32 n)
{
    ret;
}
"""


def host_us(torch, body, batches=100, count=256):
    best = float("inf")
    for _ in range(batches):
        torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(count):
            body()
        best = min(best, (time.perf_counter() - t) / count * 1e6)
    torch.cuda.synchronize()
    return best


def driver_floor(torch, x, y, out, n, raw_stream=None, packed=False):
    """cuLaunchKernel of an empty 4-parameter kernel from Python (on the
    current stream of device 0, or on `raw_stream`); `packed`: the
    arguments as one buffer (CU_LAUNCH_PARAM_BUFFER_POINTER) instead of a
    pointer per parameter."""
    cuda = ctypes.CDLL("libcuda.so.1")
    module = ctypes.c_void_p()
    func = ctypes.c_void_p()
    assert cuda.cuModuleLoadData(ctypes.byref(module), EMPTY_PTX) == 0
    assert cuda.cuModuleGetFunction(ctypes.byref(func), module,
                                    b"empty_kernel") == 0
    vals = [ctypes.c_uint64(x.data_ptr()), ctypes.c_uint64(y.data_ptr()),
            ctypes.c_uint64(out.data_ptr()), ctypes.c_uint32(n)]
    params = (ctypes.c_void_p * 4)(*[ctypes.addressof(v) for v in vals])
    extra = None
    if packed:
        # Parameters at their natural offsets: three u64, one u32 (28 bytes).
        buf = (ctypes.c_uint64 * 4)(x.data_ptr(), y.data_ptr(),
                                    out.data_ptr(), n)
        size = ctypes.c_size_t(28)
        extra = (ctypes.c_void_p * 5)(1, ctypes.addressof(buf), 2,
                                      ctypes.addressof(size), 0)
        params = None
    stream = ctypes.c_void_p(torch._C._cuda_getCurrentRawStream(0)
                             if raw_stream is None else raw_stream)
    launch = cuda.cuLaunchKernel
    one = ctypes.c_uint(1)
    threads = ctypes.c_uint(128)
    zero = ctypes.c_uint(0)

    def body():
        launch(func, one, one, one, threads, one, one, zero, stream, params,
               extra)
    assert launch(func, one, one, one, threads, one, one, zero, stream,
                  params, extra) == 0
    return host_us(torch, body)


def main():
    import kiln
    kiln.install()
    import torch
    import triton
    k = load_add_kernel("breakdown_add_kernel")
    n = 1024
    x, y, out = add_inputs(torch, n)
    k[(1,)](x, y, out, n, BLOCK=1024)
    torch.cuda.synchronize()
    assert torch.allclose(out, x + y), "wrong result"
    k[(0,)](x, y, out, n, BLOCK=1024)
    raw = torch._C._cuda_getCurrentRawStream
    rows = {
        "drop-in launch, tuple grid": lambda: k[(1,)](x, y, out, n,
                                                      BLOCK=1024),
        "drop-in launch, empty grid (no cuLaunchKernel)":
            lambda: k[(0,)](x, y, out, n, BLOCK=1024),
        "Python lambda calling nothing": lambda: None,
        "3 x tensor.data_ptr()": lambda: (x.data_ptr(), y.data_ptr(),
                                          out.data_ptr()),
        "3 x tensor.dtype": lambda: (x.dtype, y.dtype, out.dtype),
        "tensor.get_device()": lambda: x.get_device(),
        "torch._C._cuda_getCurrentRawStream(0)": lambda: raw(0),
    }
    result = {"triton": triton.__version__}
    for name, body in rows.items():
        result[name] = host_us(torch, body)
    result["ctypes cuLaunchKernel, empty kernel (floor)"] = driver_floor(
        torch, x, y, out, n)
    result["ctypes cuLaunchKernel, one packed buffer (extra)"] = \
        driver_floor(torch, x, y, out, n, packed=True)
    # The same on a stream of torch's own (not the legacy default stream,
    # which the driver orders against every other blocking stream).
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        result["drop-in launch on a side stream"] = host_us(
            torch, lambda: k[(1,)](x, y, out, n, BLOCK=1024))
    result["ctypes cuLaunchKernel on that side stream"] = driver_floor(
        torch, x, y, out, n, side.cuda_stream)
    for name, v in result.items():
        print("%-50s %s" % (name, ("%.2f us" % v) if isinstance(v, float)
                            else v))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
