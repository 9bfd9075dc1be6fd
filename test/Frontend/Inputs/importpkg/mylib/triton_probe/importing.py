from importlib.util import find_spec

HAS_TRITON = find_spec("triton") is not None
if HAS_TRITON:
    try:
        from triton.backends import backends

        if len([b for b in backends.values() if b.driver.is_active()]) != 1:
            HAS_TRITON = False
    except ImportError:
        HAS_TRITON = False
