"""The real Triton next to the drop-in, for KILN_FALLBACK=triton. Both use
the module names `triton.*`, so the real one lives in a private table and is
swapped into sys.modules (with the drop-in's finder set aside) around each
import and launch of a fallback kernel."""
import contextlib
import sys
import types

_real = None       # name -> module of the real Triton
_tried = False


def _is_triton(name):
    return name == "triton" or name.startswith("triton.")


@contextlib.contextmanager
def swapped():
    """sys.modules holds the real Triton inside the block."""
    from . import _finder
    ours = {n: m for n, m in sys.modules.items() if _is_triton(n)}
    for n in ours:
        del sys.modules[n]
    finder = _finder._finder
    if finder in sys.meta_path:
        sys.meta_path.remove(finder)
    sys.modules.update(_real or {})
    try:
        yield
    finally:
        for n in [n for n in sys.modules if _is_triton(n)]:
            _real[n] = sys.modules.pop(n)
        sys.modules.update(ours)
        if finder is not None and finder not in sys.meta_path:
            sys.meta_path.insert(0, finder)


def load():
    """The real `triton` module, or None when it is not installed."""
    global _real, _tried
    if _tried:
        return _real.get("triton") if _real else None
    _tried = True
    _real = {}
    try:
        with swapped():
            import triton  # noqa: F401
            import triton.language  # noqa: F401
    except ImportError:
        _real = None
        return None
    return _real.get("triton")


def _translate(value, memo):
    """A drop-in object in a kernel's globals -> its real-Triton twin."""
    if isinstance(value, types.ModuleType) and _is_triton(value.__name__):
        return _real.get(value.__name__, value)
    if isinstance(value, type) and _is_triton(value.__module__ or ""):
        # Annotations such as `tl.constexpr` (the class itself).
        real = _real.get(value.__module__) or _real.get("triton.language")
        return getattr(real, value.__name__, value)
    cls = type(value).__name__
    mod = getattr(type(value), "__module__", "") or ""
    if not _is_triton(mod):
        return value
    if cls == "JITFunction":
        return _rejit_raw(value, _real["triton"], memo)
    if cls == "constexpr":
        return _real["triton.language"].constexpr(value.value)
    if cls == "dtype":
        return getattr(_real["triton.language"], repr(value).rsplit(".")[-1])
    return value


def rejit(jit_fn, real):
    """Triton's JITFunction for the same Python function, its globals
    pointing at the real Triton, launched with the real Triton swapped in."""
    return _Swapping(_rejit_raw(jit_fn, real, {}))


def _rejit_raw(jit_fn, real, memo):
    if id(jit_fn) in memo:
        return memo[id(jit_fn)]
    fn = jit_fn.fn
    glob = dict(fn.__globals__)
    memo[id(jit_fn)] = None
    for name, value in list(glob.items()):
        glob[name] = _translate(value, memo)
    copy = types.FunctionType(fn.__code__, glob, fn.__name__,
                              fn.__defaults__, fn.__closure__)
    copy.__annotations__ = {k: _translate(v, memo)
                            for k, v in fn.__annotations__.items()}
    copy.__module__ = fn.__module__
    copy.__qualname__ = fn.__qualname__
    with swapped():
        out = real.jit(copy)
    memo[id(jit_fn)] = out
    return out


class _Swapping:
    """Launches the real kernel with the real Triton in sys.modules."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            with swapped():
                return self.kernel[grid](*args, **kwargs)
        return launch
