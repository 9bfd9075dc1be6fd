from .cyc_b import VALUE  # noqa: F401 (each module imports it from the other)
