# Whether triton is installed, as a library that also runs without it
# computes it (vLLM's triton_utils does this).
from importlib.util import find_spec

HAS_TRITON = find_spec("triton") is not None
