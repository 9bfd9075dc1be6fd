"""Not valid Python (imports.test)."""
def helper(x:
    return x
