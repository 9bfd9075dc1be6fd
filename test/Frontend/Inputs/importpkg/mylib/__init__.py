"""A package of Triton kernels spread over modules (imports.test)."""
