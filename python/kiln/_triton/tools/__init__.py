"""`triton.tools` under Kiln's drop-in."""
__kiln__ = True
