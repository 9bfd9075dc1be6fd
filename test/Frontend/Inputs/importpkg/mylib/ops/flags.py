# A flag next to a module-level `if` on a value computed by the host in
# another module (sglang's fla/utils.py: `if torch_release >= (2, 4):`).
from .envvals import RELEASE

FLAG = True

if RELEASE >= "2":
    pass
