import os

RELEASE = os.environ.get("SOME_RELEASE", "1")
