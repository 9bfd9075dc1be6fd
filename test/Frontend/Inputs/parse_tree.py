"""Differential parse test: every .py file under a folder that CPython's
parser accepts (ast.parse with this interpreter) must parse with
`ln-compile FILE --emit=ast`. Prints each disagreement; exits 1 if any.

usage: parse_tree.py LN_COMPILE FOLDER
"""
import ast
import os
import subprocess
import sys


def cpython_accepts(path):
    try:
        with open(path, "rb") as f:
            ast.parse(f.read())
        return True
    except (SyntaxError, ValueError):
        return False


def main():
    ln_compile, root = sys.argv[1], sys.argv[2]
    checked = failures = 0
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            result = subprocess.run([ln_compile, path, "--emit=ast"],
                                    stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True,
                                    errors="replace")
            if result.returncode == 0:
                checked += 1
                continue
            if not cpython_accepts(path):
                continue  # CPython rejects it too (e.g. Python 2 test data)
            # Kiln reads UTF-8 only; files declaring another encoding are out
            # of scope.
            with open(path, "rb") as f:
                head = f.read(200)
            if b"coding" in head and b"utf-8" not in head.lower() and b"utf8" not in head.lower():
                continue
            failures += 1
            first = result.stderr.splitlines()[0] if result.stderr else "(no message)"
            print("FAIL " + first)
            checked += 1
    print("parsed %d files, %d failures" % (checked, failures))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
