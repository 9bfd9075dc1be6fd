from .cyc_a import VALUE  # noqa: F401
