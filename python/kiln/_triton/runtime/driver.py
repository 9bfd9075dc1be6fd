"""`triton.runtime.driver.active`: what host code asks the driver (torch's
device, the current device and stream, device properties) — from torch
when it is there, else from libkiln."""
import sys

__kiln__ = True


class GPUTarget:
    def __init__(self, backend, arch, warp_size):
        self.backend = backend
        self.arch = arch
        self.warp_size = warp_size

    def __repr__(self):
        return "GPUTarget(backend=%r, arch=%r, warp_size=%r)" % (
            self.backend, self.arch, self.warp_size)

    def __eq__(self, other):
        return isinstance(other, GPUTarget) and \
            (self.backend, self.arch, self.warp_size) == \
            (other.backend, other.arch, other.warp_size)

    def __hash__(self):
        return hash((self.backend, self.arch, self.warp_size))


def _torch():
    torch = sys.modules.get("torch")
    if torch is None:
        try:
            import torch  # noqa: F811
        except ImportError:
            return None
    return torch


class _Utils:
    def get_device_properties(self, device):
        import kiln
        torch = _torch()
        index = device if isinstance(device, int) else \
            getattr(device, "index", None) or 0
        props = {"max_shared_mem": 232448, "max_num_regs": 65536,
                 "warpSize": 32, "sm_clock_rate": 0, "mem_clock_rate": 0,
                 "mem_bus_width": 0, "multiprocessor_count": 0}
        if torch is not None and torch.cuda.is_available():
            p = torch.cuda.get_device_properties(index)
            props["multiprocessor_count"] = p.multi_processor_count
            props["max_shared_mem"] = getattr(
                p, "shared_memory_per_block_optin", props["max_shared_mem"])
            props["max_num_regs"] = getattr(p, "regs_per_multiprocessor",
                                            props["max_num_regs"])
            props["warpSize"] = getattr(p, "warp_size", 32)
            props["mem_bus_width"] = getattr(p, "memory_bus_width", 0)
            props["mem_clock_rate"] = getattr(p, "memory_clock_rate", 0)
            props["sm_clock_rate"] = getattr(p, "clock_rate", 0)
        else:
            kiln.device_name(index)  # NoDriverError / no such device
        return props


class CudaDriver:
    def __init__(self):
        self.utils = _Utils()
        self.backend = "cuda"

    @staticmethod
    def is_active():
        """Triton's CudaDriver.is_active, a static method: libraries ask the
        class in triton.backends.backends (vLLM enables Triton only when
        exactly one driver is active)."""
        torch = _torch()
        if torch is not None and hasattr(torch, "cuda"):
            return bool(torch.cuda.is_available()) and \
                getattr(torch.version, "hip", None) is None
        return True

    def get_current_device(self):
        torch = _torch()
        if torch is not None and torch.cuda.is_available():
            return torch.cuda.current_device()
        return 0

    def set_current_device(self, device):
        torch = _torch()
        if torch is not None:
            torch.cuda.set_device(device)

    def get_active_torch_device(self):
        import torch
        return torch.device("cuda", self.get_current_device())

    def get_current_stream(self, device=None):
        torch = _torch()
        if torch is None or not torch.cuda.is_available():
            return 0
        if device is None:
            device = self.get_current_device()
        return torch.cuda.current_stream(device).cuda_stream

    def get_current_target(self):
        import kiln
        major, minor, _ = kiln.device_arch(self.get_current_device())
        return GPUTarget("cuda", major * 10 + minor, 32)

    def get_device_interface(self):
        import torch
        return torch.cuda

    def get_benchmarker(self):
        from triton.testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self):
        import torch
        return torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int,
                           device="cuda")

    def clear_cache(self, cache):
        cache.zero_()


class _DriverConfig:
    def __init__(self):
        self.default = CudaDriver()
        self._active = None

    @property
    def active(self):
        return self._active or self.default

    def set_active(self, driver):
        self._active = driver

    def reset_active(self):
        self._active = None


driver = _DriverConfig()


def __getattr__(name):
    # `import triton.runtime.driver as d; d.active` also works.
    if name == "active":
        return driver.active
    raise AttributeError("module 'triton.runtime.driver' has no attribute %r"
                         % name)
