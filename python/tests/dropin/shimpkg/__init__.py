"""A package whose __init__ re-exports a module chosen by host code in a
`try` of another file (FlagGems' `tl_extra_shim`)."""
from dropin.shimpkg.helper import shim  # noqa: F401
