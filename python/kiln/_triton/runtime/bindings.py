"""Host bindings: what Python knows about a kernel file's module-level names
that Kiln's compiler cannot work out from the source.

Kiln compiles a kernel from its .py file and resolves module globals
statically; a name bound inside a module-level `if`/`try`/`with`/loop whose
test is host code (Liger-Kernel's `if compare_version("triton", ...):
from triton.language.extra.libdevice import rsqrt else: ...`) is ambiguous
there. Here the module has run, so each global's value is known: every
global that is a drop-in Triton object or a plain constant is passed to
libkiln as `NAME=EXPR` (kiln_module_config.host_bindings), EXPR its
spelling with `triton` in scope. The compiler uses a binding only for a
name it finds ambiguous; anything else keeps its static value.

Bindings are computed once per kernel file (cached by path), when its first
kernel is compiled: never on the launch path. Files of @triton.jit helpers
the kernel file imports get theirs as `PATH::NAME=EXPR`.
"""
import math
import os
import types

__kiln__ = True

# Strings longer than this (docstrings, templates) are never kernel values.
_MAX_STR = 256
# A bound on the files walked from one kernel file.
_MAX_FILES = 64

_cache = {}


def spelling(value):
    """EXPR for `value` when Kiln's compiler can evaluate it as the same
    compile-time value, else None."""
    from triton.language.core import _Builtin, constexpr, dtype
    if isinstance(value, constexpr):
        value = value.value
    t = type(value)
    if value is None or t is bool or t is int:
        return repr(value)
    if t is float:
        return repr(value) if math.isfinite(value) else None
    if t is str:
        return repr(value) if len(value) <= _MAX_STR else None
    if t is dtype:  # not pointer or block types: their repr is no name
        return repr(value)  # "triton.language.float32"
    if t is _Builtin:
        module = value.__module__
        if module == "triton" or module.startswith("triton."):
            return module + "." + value.__name__
        return None
    # The module's own dict: a lazy module's __getattr__ may import.
    if isinstance(value, types.ModuleType) and \
            vars(value).get("__kiln__", False):
        name = value.__name__
        if name == "triton" or name.startswith("triton."):
            return name
    return None


def _module_bindings(namespace):
    """NAME=EXPR for each global of `namespace` with a spelling, sorted."""
    out = []
    for name, value in list(namespace.items()):
        if name.startswith("__") or not name.isidentifier():
            continue
        try:
            text = spelling(value)
        except Exception:  # an object whose type checks misbehave
            continue
        if text is not None:
            out.append("%s=%s" % (name, text))
    return sorted(out)


def _file_of(namespace):
    """The module's file, if a binding can name it (the compiler splits a
    binding at its first `=`)."""
    path = namespace.get("__file__")
    if not isinstance(path, str) or "=" in path:
        return None
    return os.path.abspath(path)


def _imported_namespaces(namespace, jit_type, roots):
    """Module namespaces whose code the compiler may reach from this one:
    those of @triton.jit helpers it holds, and user modules it holds that
    live under the package roots."""
    for value in list(namespace.values()):
        if isinstance(value, jit_type):
            yield value.__globals__
        elif isinstance(value, types.ModuleType):
            own = vars(value)  # not getattr: a lazy module may import
            path = own.get("__file__")
            if not own.get("__kiln__") and isinstance(path, str) and any(
                    os.path.abspath(path).startswith(r + os.sep)
                    for r in roots):
                yield own


def host_bindings(fn, path, roots):
    """The bindings of kernel file `path` (fn's module) and of the files its
    helpers come from, as a tuple of strings (part of the module cache
    key)."""
    cached = _cache.get(path)
    if cached is not None:
        return cached
    from .jit import JITFunction
    main = fn.__globals__
    result = list(_module_bindings(main))
    seen = {path, _file_of(main)}
    todo = [main]
    roots = [os.path.abspath(r) for r in roots]
    while todo and len(seen) < _MAX_FILES:
        for namespace in _imported_namespaces(todo.pop(), JITFunction, roots):
            other = _file_of(namespace)
            if other is None or other in seen:
                continue
            seen.add(other)
            todo.append(namespace)
            result += ["%s::%s" % (other, b)
                       for b in _module_bindings(namespace)]
    _cache[path] = result = tuple(result)
    return result
