"""Kiln from Python: compile and launch Triton-language kernels with
libkiln.so (no LLVM, no Triton needed), next to PyTorch and Triton.

    import kiln
    add = kiln.jit("add.py").add_kernel
    add[lambda meta: (kiln.cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=1024)

See docs/runtime.md ("Python package").
"""
import ctypes as _ctypes

from . import _lib
from .errors import (ArgumentOverflowError, CompilationError,
                     KernelNotFoundError, KilnError,
                     KilnWarning, LaunchError, NoDriverError, OutOfResourcesError)
from ._jit import Compiled, Kernel, Module, jit
from .errors import check as _check

__version__ = _lib.version().decode()
library_path = _lib.path

__all__ = ["jit", "Module", "Kernel", "Compiled", "cdiv", "device_count",
           "device_name", "device_arch", "synchronize", "KilnError",
           "ArgumentOverflowError", "CompilationError", "LaunchError",
           "NoDriverError", "OutOfResourcesError",
           "KernelNotFoundError", "KilnWarning", "install", "uninstall"]


def cdiv(a, b):
    """Ceiling division, as triton.cdiv."""
    return (a + b - 1) // b


def device_count():
    """CUDA devices the driver sees; NoDriverError without a driver."""
    n = _ctypes.c_int()
    _check(_lib.device_count(_ctypes.byref(n)))
    return n.value


def device_name(device=0):
    name = _ctypes.c_char_p()
    _check(_lib.device_name(device, _ctypes.byref(name)))
    return name.value.decode()


def device_arch(device=0):
    """(cc_major, cc_minor, "sm_XX") of a device."""
    major, minor = _ctypes.c_int(), _ctypes.c_int()
    arch = _ctypes.c_char_p()
    _check(_lib.device_arch(device, _ctypes.byref(major), _ctypes.byref(minor),
                            _ctypes.byref(arch)))
    return major.value, minor.value, arch.value.decode()


def synchronize(device=0):
    _check(_lib.device_synchronize(device))


def install():
    """Puts Kiln's drop-in `triton` in front of any installed Triton (a
    sys.meta_path finder): call it before the code that imports triton.
    `python -m kiln.run` does it for a script or module."""
    from ._finder import install as _install
    _install()


def uninstall():
    """Removes the drop-in and its loaded `triton.*` modules."""
    from ._finder import uninstall as _uninstall
    _uninstall()
