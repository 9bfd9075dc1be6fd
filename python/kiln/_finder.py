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


# torch's own Triton integration (inductor, torch.compile) imports Triton's
# compiler internals (triton.backends.compiler, triton.compiler.compiler,
# ...) as soon as `import triton` succeeds, which the drop-in makes true; and
# torch._dynamo imports it, as do the libraries that import torch._dynamo
# (transformers, peft, ...). So torch is told there is no Triton package:
# torch.compile then reports a missing Triton (its generated kernels need
# Triton's compiler, not the drop-in), and everything else imports.
_TORCH_TRITON = "torch.utils._triton"


def _no_triton_package():
    return False


def _hide_triton_from(module):
    if getattr(module, "has_triton_package", None) is not _no_triton_package:
        module.__kiln_has_triton_package__ = getattr(module, "has_triton_package", None)
        module.has_triton_package = _no_triton_package


def _unhide_triton_from(module):
    original = getattr(module, "__kiln_has_triton_package__", None)
    if original is not None:
        module.has_triton_package = original
        del module.__kiln_has_triton_package__


class _PatchAfterExec(importlib.abc.Loader):
    """Runs a module's own loader, then `patch(module)`."""

    def __init__(self, loader, patch):
        self._loader, self._patch = loader, patch

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._patch(module)


# torch's modules also `try: import triton` at their top (inductor's
# runtime/triton_compat.py, which `@torch.compile` reaches at import time,
# then imports triton.compiler, triton.runtime.cache, ...): while one of
# them runs its top level, `import triton` raises ImportError.
_TORCH_PREFIXES = ("torch.", "functorch.")


class _WithoutTriton(importlib.abc.Loader):
    """Runs a module's own loader with `triton` unimportable."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        # Only the drop-in's own modules (the finder's record, not a scan of
        # sys.modules on each of torch's ~2000 imports); with `triton` None
        # no `triton.*` module can be created meanwhile.
        saved = {n: sys.modules.pop(n) for n in list(_served)
                 if n in sys.modules}
        previous = sys.modules.get("triton", _ABSENT)
        sys.modules["triton"] = None  # `import triton`: ImportError
        try:
            self._loader.exec_module(module)
        finally:
            if previous is _ABSENT or previous is None:
                sys.modules.pop("triton", None)
            if previous is None:  # an outer torch module's own hiding
                sys.modules["triton"] = None
            sys.modules.update(saved)


_ABSENT = object()
# The names of the drop-in modules the finder has served.
_served = set()


# torch.compile under the drop-in: inductor's generated kernels need Triton's
# compiler, which torch does not see. So compiled regions run eagerly: dynamo
# is off (its config.disable: frames are not converted, the same values come
# out), since tracing a region only to have inductor fail on it costs
# seconds per compiled function (2.3 s against 0.4 s for a one-line function
# on the H100). KILN_TORCH_COMPILE=1 keeps dynamo (for other
# backends); a failing backend then runs eagerly (suppress_errors). A user's
# TORCH_COMPILE_DISABLE / TORCHDYNAMO_SUPPRESS_ERRORS wins. Dynamo does not
# trace into kiln's own Python either (a kernel launch is a call it runs as
# it is, not bytecode to capture).
_TORCH_DYNAMO_PATCHES = ("torch._dynamo.config", "torch._dynamo.trace_rules")
# What _patch_dynamo changed in torch._dynamo.config: {name: old value}.
_dynamo_saved = {}


def _patch_dynamo(module):
    if module.__name__ == "torch._dynamo.config":
        wanted = {}
        if os.environ.get("KILN_TORCH_COMPILE") != "1" and \
                "TORCH_COMPILE_DISABLE" not in os.environ:
            wanted["disable"] = True
        if "TORCHDYNAMO_SUPPRESS_ERRORS" not in os.environ:
            wanted["suppress_errors"] = True
        for name, value in wanted.items():
            if hasattr(module, name) and name not in _dynamo_saved:
                _dynamo_saved[name] = getattr(module, name)
                setattr(module, name, value)
        return
    kiln_dir = os.path.dirname(os.path.abspath(__file__)) + os.sep
    skip_dirs = getattr(module, "SKIP_DIRS", None)
    recompile = getattr(module, "_recompile_re", None)
    if isinstance(skip_dirs, list) and callable(recompile) and \
            kiln_dir not in skip_dirs:
        skip_dirs.append(kiln_dir)
        recompile()


class TritonFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.startswith(_TORCH_PREFIXES):
            spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
            if spec is None or spec.loader is None or \
                    not hasattr(spec.loader, "exec_module"):
                return spec
            if fullname == _TORCH_TRITON:
                spec.loader = _PatchAfterExec(spec.loader, _hide_triton_from)
            elif fullname in _TORCH_DYNAMO_PATCHES:
                spec.loader = _PatchAfterExec(spec.loader, _patch_dynamo)
            spec.loader = _WithoutTriton(spec.loader)
            return spec
        if fullname != "triton" and not fullname.startswith("triton."):
            return None
        _served.add(fullname)
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
    if _TORCH_TRITON in sys.modules:
        _hide_triton_from(sys.modules[_TORCH_TRITON])
    for name in _TORCH_DYNAMO_PATCHES:
        if name in sys.modules:
            _patch_dynamo(sys.modules[name])


def uninstall():
    """Removes the finder and the drop-in's modules (tests, fallback)."""
    global _finder
    if _finder is not None and _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    _finder = None
    if _TORCH_TRITON in sys.modules:
        _unhide_triton_from(sys.modules[_TORCH_TRITON])
    config = sys.modules.get("torch._dynamo.config")
    for name, value in list(_dynamo_saved.items()):
        if config is not None:
            setattr(config, name, value)
        del _dynamo_saved[name]
    for name in [n for n in sys.modules
                 if n == "triton" or n.startswith("triton.")]:
        if getattr(sys.modules[name], "__kiln__", False) or \
                (sys.modules[name].__spec__ and
                 str(sys.modules[name].__spec__.origin).startswith(_ROOT)):
            del sys.modules[name]
