from torch.utils._triton import has_triton_package

if has_triton_package():
    import triton.backends.compiler  # noqa: F401  (not in the drop-in)
    TRITON = "real"
else:
    TRITON = None
