"""pytest plugin for Triton's own language tests (python/test/unit/language,
unmodified) under Kiln's drop-in: those tests import helper modules of
Triton's source tree that the drop-in does not serve,
`triton._internal_testing` (numpy_random, to_triton, ...) and
`triton.tools.mxfp` (torch code building MXFP4 test data). When the active
`triton` lacks one, the file of that name in the Triton tree under test
(TRITON_TREE=.../python) is loaded under its own name before the test modules
are collected. Under the real Triton the plugin does nothing.

    python -m kiln.run -m pytest -p triton_internal_testing unit/language/...
"""
import importlib
import importlib.util
import os
import sys

HELPERS = ("triton._internal_testing", "triton.tools.mxfp")


def _load(name, tree):
    path = os.path.join(tree, *name.split(".")) + ".py"
    if not os.path.exists(path):
        raise RuntimeError("%s is missing: set TRITON_TREE to the python/ "
                           "directory of the Triton tree under test (no %s)"
                           % (name, path))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, leaf = name.rpartition(".")
    setattr(importlib.import_module(parent), leaf, module)


def pytest_configure(config):
    tree = os.environ.get("TRITON_TREE", "")
    for name in HELPERS:
        try:
            importlib.import_module(name)
        except ImportError:
            _load(name, tree)
