"""The drop-in `triton`: a sys.meta_path finder that serves `triton` and
`triton.*` from kiln/_triton/ (pure Python over libkiln), in front of any
installed Triton. Modules load under their `triton.*` names, so relative
imports inside kiln/_triton and `isinstance` checks across modules agree."""
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_triton")


class TritonFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != "triton" and not fullname.startswith("triton."):
            return None
        parts = fullname.split(".")[1:]
        base = os.path.join(_ROOT, *parts)
        init = os.path.join(base, "__init__.py")
        if os.path.isfile(init):
            return importlib.util.spec_from_file_location(
                fullname, init, submodule_search_locations=[base])
        if os.path.isfile(base + ".py"):
            return importlib.util.spec_from_file_location(fullname,
                                                          base + ".py")
        # Not provided by the drop-in: a clear ModuleNotFoundError rather
        # than a half-imported real Triton underneath.
        raise ModuleNotFoundError(
            "No module named %r (kiln's drop-in triton does not provide it)"
            % fullname, name=fullname)


_finder = None


def install():
    """Puts the drop-in `triton` in front of the real one. Idempotent. A real
    Triton already imported is an error: its modules cannot be swapped out
    under code that holds them."""
    global _finder
    if _finder is not None and _finder in sys.meta_path:
        return
    loaded = sys.modules.get("triton")
    if loaded is not None and not getattr(loaded, "__kiln__", False):
        raise RuntimeError(
            "kiln.install(): the real triton is already imported (from %s); "
            "call kiln.install() before importing triton" %
            getattr(loaded, "__file__", "?"))
    _finder = TritonFinder()
    sys.meta_path.insert(0, _finder)


def uninstall():
    """Removes the finder and the drop-in's modules (tests, fallback)."""
    global _finder
    if _finder is not None and _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    _finder = None
    for name in [n for n in sys.modules
                 if n == "triton" or n.startswith("triton.")]:
        if getattr(sys.modules[name], "__kiln__", False) or \
                (sys.modules[name].__spec__ and
                 str(sys.modules[name].__spec__.origin).startswith(_ROOT)):
            del sys.modules[name]
