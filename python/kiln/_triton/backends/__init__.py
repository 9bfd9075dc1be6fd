"""`triton.backends` as host code reads it: `backends`, Triton's registry of
compiler backends, each a (compiler, driver) pair whose driver class answers
is_active(). vLLM enables its Triton kernels only when exactly one driver is
active; Kiln has one backend, CUDA."""
from dataclasses import dataclass

from ..runtime.driver import CudaDriver

__kiln__ = True


@dataclass(frozen=True)
class Backend:
    compiler: type = None
    driver: type = None


backends = {"nvidia": Backend(compiler=None, driver=CudaDriver)}
