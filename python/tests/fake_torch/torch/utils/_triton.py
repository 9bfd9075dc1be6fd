import functools


@functools.cache
def has_triton_package() -> bool:
    try:
        import triton  # noqa: F401
        return True
    except ImportError:
        return False


def has_triton() -> bool:
    return has_triton_package()
