# As torch 2.11's: directories whose code dynamo does not trace.
import re

SKIP_DIRS = ["<frozen importlib"]
SKIP_DIRS_RE = re.compile(r"match nothing^")


def _recompile_re():
    global SKIP_DIRS_RE
    SKIP_DIRS_RE = re.compile("^(%s)" % "|".join(map(re.escape, SKIP_DIRS)))
