"""A package that imports its own submodule and re-exports another's names
(trident's language package)."""
from . import acts
from .more import *  # noqa: F403
