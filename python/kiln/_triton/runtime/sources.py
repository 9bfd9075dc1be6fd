"""What the compiler is given about a @triton.jit function's Python module
under the drop-in: its package roots (the `import` search path), the libkiln
module of its file, the compiler's spelling of a constexpr value, and the
function's cache key over its source and what it reads. Split from jit.py,
which launches."""
import inspect
import os
import sys
import types

from kiln import _jit as _kjit
from kiln.errors import LaunchError

__kiln__ = True


def _jit_function_type():
    from .jit import JITFunction  # jit.py imports this module
    return JITFunction


def _root_of(path, package):
    """The directory holding the top-level package of the module at file
    `path` whose package is `package`."""
    root = os.path.dirname(os.path.abspath(path))
    for _ in range(package.count(".") + 1 if package else 0):
        root = os.path.dirname(root)
    return root


def _module_root(fn):
    """The package root of fn's module (the directory holding its top-level
    package), for the compiler's `import` search path. A module Python
    never registered (made from a generated file by
    importlib.util.module_from_spec, as FlagGems' pointwise_dynamic does)
    adds the roots of the packages whose @triton.jit helpers it holds."""
    name = getattr(fn, "__module__", None) or ""
    mod = sys.modules.get(name)
    if mod is not None:
        path = getattr(mod, "__file__", None)
        if not path:
            return []
        return [_root_of(path, getattr(mod, "__package__", None) or "")]
    namespace = getattr(fn, "__globals__", {})
    path = namespace.get("__file__")
    roots = [_root_of(path, namespace.get("__package__") or "")] \
        if isinstance(path, str) else []
    JITFunction = _jit_function_type()
    for value in list(namespace.values()):
        if isinstance(value, JITFunction):
            owner = sys.modules.get(value.module)
        elif isinstance(value, types.ModuleType) and \
                not vars(value).get("__kiln__") and any(
                    isinstance(v, JITFunction)
                    for v in list(vars(value).values())):
            owner = value
        else:
            continue
        file = getattr(owner, "__file__", None) if owner else None
        if isinstance(file, str):
            package = owner.__name__ if os.path.basename(file) == \
                "__init__.py" else (getattr(owner, "__package__", "") or "")
            root = _root_of(file, package)
            if root not in roots:
                roots.append(root)
    return roots


_modules = {}


def _kiln_module(path, include_dirs, host_bindings=(), source=None):
    # Other values of the host bindings are another module (other code); a
    # derived source (nested.py) is another module of the same file.
    key = (path, tuple(include_dirs), tuple(host_bindings), source)
    m = _modules.get(key)
    if m is None:
        m = _modules[key] = _kjit.Module(
            path=None if source is not None else path, source=source,
            filename=path, ignore_decorators=True,
            include_dirs=include_dirs, host_bindings=host_bindings)
    return m


def _literal(name, value):
    """Constexpr text for the compiler; tl.constexpr and dtype objects
    unwrapped."""
    from triton.language.core import constexpr, dtype
    if isinstance(value, constexpr):
        value = value.value
    if isinstance(value, dtype):
        return "tl." + repr(value).rsplit(".", 1)[1]
    from triton.language.core import _Builtin
    if isinstance(value, _Builtin):  # `REDUCE_FN=tl.maximum`
        from .bindings import spelling
        text = spelling(value)
        if text is not None:
            return text
    if isinstance(value, tuple):  # `shape: tl.constexpr` given x.shape
        return "(%s)" % "".join(_literal(name, e) + ", " for e in value)
    if isinstance(value, _jit_function_type()):  # `ACTIVATION_FN=my_activation`
        from .bindings import _def_spelling
        text = _def_spelling(value.fn)
        if text is None:
            raise LaunchError(
                "constexpr `%s`: the @triton.jit function `%s` has no source "
                "file Kiln can read" % (name, value.__name__))
        return text
    return _kjit._literal(name, value)


def cache_key(fn):
    """Triton's JITFunction.cache_key: a hash of `fn`'s source and of the
    @triton.jit functions (their own keys) and constants it names, from its
    globals and closure."""
    return _cache_key(fn, set())


def _cache_key(fn, seen):
    import hashlib
    import re
    from triton.language.core import constexpr
    seen.add(id(fn))
    h = hashlib.sha256(("kiln:" + fn.src).encode())
    try:
        nonlocals = inspect.getclosurevars(fn.fn).nonlocals
    except (TypeError, ValueError):
        nonlocals = {}
    for name in sorted(set(re.findall(r"[A-Za-z_]\w*", fn.src))):
        value = nonlocals.get(name, fn.__globals__.get(name))
        if isinstance(value, _jit_function_type()):
            if id(value) not in seen:
                h.update(("%s=%s;" % (name, _cache_key(value, seen)))
                         .encode())
        elif isinstance(value, constexpr) or \
                type(value) in (int, float, bool, str):
            h.update(("%s=%r;" % (name, value)).encode())
    return h.hexdigest()
