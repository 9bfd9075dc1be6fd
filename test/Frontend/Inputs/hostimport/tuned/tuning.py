# Imported by configs.py (a relative import of an imported module).


def pick_warps(block):
    return 4 if block <= 64 else 8
