"""Kernels whose decorator arguments live in other modules (host-imports.test)."""
