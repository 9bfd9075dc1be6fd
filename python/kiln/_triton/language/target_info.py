"""`triton.language.target_info` under Kiln's drop-in: what host code (and
`@triton.constexpr_function`s run on the host) asks of the GPU it compiles
for. Kernels calling these get the same answers from Kiln's compiler for the
architecture it compiles for (lib/Frontend/Builtins/CompileTime.cpp)."""
from .core import constexpr_function

__kiln__ = True


@constexpr_function
def current_target():
    """The active driver's target (`GPUTarget("cuda", 90, 32)` on an H100),
    or None when no driver can be loaded."""
    from ..runtime import driver
    try:
        return driver.active.get_current_target()
    except Exception:  # no libcuda / no device: Triton's answer is None too
        return None


def _backend_is(name):
    target = current_target()
    return target is not None and target.backend == name


@constexpr_function
def is_cuda():
    return _backend_is("cuda")


@constexpr_function
def is_hip():
    return _backend_is("hip")


@constexpr_function
def is_hip_cdna3():
    return False  # Kiln compiles for NVIDIA GPUs only


@constexpr_function
def is_hip_cdna4():
    return False


@constexpr_function
def cuda_capability_geq(major, minor=0):
    """Whether the CUDA target's compute capability is at least
    major.minor (false on any other backend)."""
    target = current_target()
    if target is None or target.backend != "cuda":
        return False
    return target.arch >= major * 10 + minor
