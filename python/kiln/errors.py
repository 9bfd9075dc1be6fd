"""Exceptions raised by the kiln package."""


class KilnError(RuntimeError):
    """Base class of Kiln's errors; the text is the runtime's message."""


class CompilationError(KilnError):
    """The kernel source or a specialization does not compile. The text is
    Kiln's `FILE:LINE:COL: error: ...` diagnostic with the source line."""


class LaunchError(KilnError):
    """The arguments do not fit the kernel (the message names the
    parameter), or the driver refused the launch."""


class ArgumentOverflowError(LaunchError, OverflowError):
    """An integer argument outside int64 and uint64 (Triton raises
    OverflowError)."""


class OutOfResourcesError(LaunchError):
    """The kernel needs more shared memory (or threads) per block than the
    device has, as Triton's OutOfResources: an autotuner skips such a
    config."""


class NoDriverError(LaunchError):
    """No CUDA driver could be loaded."""


class KernelNotFoundError(KilnError, AttributeError, LookupError):
    """No @triton.jit kernel of that name in the file."""


class KilnWarning(UserWarning):
    """Kiln compiled code as Triton does although it likely means something
    else (e.g. `range(a, b, step=s)`, whose keyword Triton drops). The text
    is the `FILE:LINE:COL: warning: ...` diagnostic with the source line."""


def raise_status(status, message, default=KilnError):
    from . import _lib
    cls = {
        _lib.ERROR_COMPILE: CompilationError,
        _lib.ERROR_LAUNCH: LaunchError,
        _lib.ERROR_NO_DRIVER: NoDriverError,
        _lib.ERROR_IO: FileNotFoundError,
    }.get(status, default)
    # The runtime's resource check (validateLaunch) words it so.
    if cls is LaunchError and "allows at most" in message and (
            "of shared memory" in message or "threads" in message):
        cls = OutOfResourcesError
    raise cls(message)


def check(status, default=KilnError):
    """Raises the thread's last Kiln error when `status` is not KILN_OK."""
    if status:
        from . import _lib
        raise_status(status, _lib.last_error().decode(errors="replace"),
                     default)
