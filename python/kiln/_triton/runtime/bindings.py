"""Host bindings: what Python knows about a kernel file's module-level names
that Kiln's compiler cannot work out from the source.

Kiln compiles a kernel from its .py file and resolves module globals
statically; a name bound inside a module-level `if`/`try`/`with`/loop whose
test is host code (Liger-Kernel's `if compare_version("triton", ...):
from triton.language.extra.libdevice import rsqrt else: ...`) is ambiguous
there. Here the module has run, so each global's value is known: every
global the file binds inside a module-level compound statement (or by
unpacking), whose value is a drop-in Triton object or a plain constant, is
passed to libkiln as `NAME=EXPR` (kiln_module_config.host_bindings), EXPR
its spelling with `triton` in scope. The compiler uses a binding only for a
name it finds ambiguous; anything else keeps its static value. Passing only
those names keeps the cache key free of globals that differ between runs
(a start time, a temporary path) but that no kernel can be asking for.

Bindings are computed once per kernel file (cached by path), when its first
kernel is compiled: never on the launch path. Files of @triton.jit helpers
the kernel file imports get theirs as `PATH::NAME=EXPR`.
"""
import ast
import collections
import importlib.util
import math
import os
import sys
import types

__kiln__ = True

# Strings longer than this (docstrings, templates) are never kernel values.
_MAX_STR = 256
# A tl.constexpr string (inline assembly a Python helper generated).
_MAX_CONSTEXPR_STR = 65536
_MAX_TUPLE = 64
# A bound on the files walked from one kernel file.
_MAX_FILES = 64

_cache = {}


def spelling(value):
    """EXPR for `value` when Kiln's compiler can evaluate it as the same
    compile-time value, else None."""
    from triton.language.core import _Builtin, constexpr, dtype
    wrapped = isinstance(value, constexpr)
    if wrapped:
        value = value.value
    t = type(value)
    if value is None or t is bool or t is int:
        return repr(value)
    if t is float:
        return repr(value) if math.isfinite(value) else None
    if t is str:
        limit = _MAX_CONSTEXPR_STR if wrapped else _MAX_STR
        return repr(value) if len(value) <= limit else None
    if (t is tuple or t is list) and len(value) <= _MAX_TUPLE:
        parts = [spelling(v) for v in value]
        if None in parts:
            return None
        if t is list:  # a shape (`[BLOCK_M, BLOCK_N]`): kernels take lists
            return "[%s]" % ", ".join(parts)
        return "(%s%s)" % (", ".join(parts), "," if len(parts) == 1 else "")
    if t is dtype:  # not pointer or block types: their repr is no name
        return repr(value)  # "triton.language.float32"
    if t is _Builtin:
        module = value.__module__
        if module == "triton" or module.startswith("triton."):
            return module + "." + value.__name__
        return None
    from .jit import JITFunction
    if t is JITFunction:
        return _def_spelling(value.fn)
    # The module's own dict: a lazy module's __getattr__ may import.
    if isinstance(value, types.ModuleType) and \
            vars(value).get("__kiln__", False):
        name = value.__name__
        if name == "triton" or name.startswith("triton."):
            return name
    return None


def _def_spelling(fn):
    """__kiln_def__('PATH', 'NAME', LINE) for the @triton.jit function whose
    Python function is `fn` (LINE: its first decorator's, co_firstlineno),
    or None when it has no source file (made by exec, a lambda)."""
    code = getattr(fn, "__code__", None)
    path = getattr(code, "co_filename", "")
    name = getattr(fn, "__name__", "")
    if not path or path.startswith("<") or not name.isidentifier() or \
            not os.path.isfile(path):
        return None
    # Another def's code object (a kernel made around a template function):
    # its file has no def of this name there.
    if code.co_name != name:
        return None
    # A def inside a function is found by its line too, and compiled with
    # the module's names: one that reads its enclosing function's locals
    # has no spelling (its closure values would be lost).
    if code.co_freevars:
        return None
    return "__kiln_def__(%r, %r, %d)" % (os.path.abspath(path), name,
                                         code.co_firstlineno)


# Statements whose bindings the compiler cannot resolve from the source.
_COMPOUND = tuple(getattr(ast, n) for n in (
    "If", "Try", "TryStar", "With", "AsyncWith", "For", "AsyncFor", "While",
    "Match") if hasattr(ast, n))
# Scopes of their own: the names bound inside are not module globals.
_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
           ast.GeneratorExp)


def _bound_names(node, out):
    """Adds the module-level names `node` binds (not inside defs, classes,
    lambdas or comprehensions) to `out`."""
    todo = [node]
    while todo:
        for child in ast.iter_child_nodes(todo.pop()):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                  ast.ClassDef)):
                out.add(child.name)
                continue
            if isinstance(child, _SCOPES):
                continue
            if isinstance(child, ast.Name) and \
                    not isinstance(child.ctx, ast.Load):
                out.add(child.id)
            elif isinstance(child, ast.alias) and child.name != "*":
                out.add(child.asname or child.name.split(".")[0])
            elif isinstance(child, ast.ExceptHandler) and child.name:
                out.add(child.name)
            elif getattr(child, "name", None) and \
                    type(child).__name__ in ("MatchAs", "MatchStar"):
                out.add(child.name)
            elif getattr(child, "rest", None) and \
                    type(child).__name__ == "MatchMapping":
                out.add(child.rest)
            todo.append(child)


# Calls the compiler evaluates itself: `tl.constexpr(...)`, `triton.cdiv`.
_TRITON_ROOTS = ("tl", "triton")


def _host_call(node):
    """Whether expression `node` calls a function other than triton's (a
    Python helper that computes the value: `_generate_asm(2)`)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            func = sub.func
            while isinstance(func, ast.Attribute):
                func = func.value
            if not (isinstance(func, ast.Name) and func.id in _TRITON_ROOTS):
                return True
    return False


_file_info = {}


def _info(path):
    """_parse_names(path), once per version of the file."""
    try:
        st = os.stat(path)
        key = (path, st.st_mtime_ns, st.st_size)
    except OSError:
        return None
    if key not in _file_info:
        _file_info[key] = _parse_names(path)
    return _file_info[key]


def _ambiguous_names(path):
    info = _info(path)
    return info[0] if info is not None else None


def _from_imports(path):
    """(level, module) of each `from MODULE import ...` of file `path`."""
    info = _info(path)
    return info[1] if info is not None else ()


def _parse_names(path):
    """(_names_of(tree), from-imports) of file `path`, None when it cannot
    be parsed."""
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError):
        return None
    imports = [(n.level, n.module or "") for n in ast.walk(tree)
               if isinstance(n, ast.ImportFrom)]
    return _names_of(tree), imports


def _names_of(tree):
    """(names, computed, bound): the names file `path` binds inside
    module-level compound statements or by unpacking (a superset of those
    the compiler finds ambiguous), those a plain module-level assignment
    computes by calling a host function, and every name the file binds at
    module level (None when it has a star import: then the names it binds
    are unknown) of a module's syntax tree; and `decorated`, the defs
    among its statements with decorators (a host decorator may replace the
    function)."""
    names, computed, bound = set(), set(), set()
    decorated = {n.name for n in _module_statements(tree.body)
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.decorator_list}
    _bound_names(tree, bound)
    if any(isinstance(n, ast.ImportFrom) and
           any(a.name == "*" for a in n.names) for n in ast.walk(tree)):
        bound = None
    for stmt in tree.body:
        if isinstance(stmt, _COMPOUND) or (
                isinstance(stmt, ast.Assign) and any(
                    isinstance(t, (ast.Tuple, ast.List))
                    for t in stmt.targets)):
            _bound_names(stmt, names)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and \
                stmt.value is not None and _host_call(stmt.value):
            targets = stmt.targets if isinstance(stmt, ast.Assign) \
                else [stmt.target]
            computed.update(t.id for t in targets if isinstance(t, ast.Name))
    return names, computed, bound, decorated


def _module_statements(stmts):
    """The statements of a module, those in its compound statements too
    (not in defs or classes)."""
    for stmt in stmts:
        yield stmt
        if isinstance(stmt, _COMPOUND):
            for field in ("body", "orelse", "finalbody"):
                yield from _module_statements(getattr(stmt, field, []))
            for handler in getattr(stmt, "handlers", []):
                yield from _module_statements(handler.body)
            for case in getattr(stmt, "cases", []):
                yield from _module_statements(case.body)


def _is_def_itself(value, name, path):
    """Whether `value` (under any decorator layers: autotune, heuristics, a
    library's launch wrapper) is the @triton.jit function of `def NAME` of
    file `path` itself, i.e. no decorator replaced it."""
    from .jit import JITFunction
    for _ in range(16):
        if isinstance(value, JITFunction):
            code = getattr(value.fn, "__code__", None)
            return code is not None and value.fn.__name__ == name and \
                os.path.abspath(code.co_filename) == os.path.abspath(path)
        value = getattr(value, "fn", None)
        if value is None:
            return False
    return False


def _module_bindings(namespace, path):
    """NAME=EXPR for each global of `namespace` (the module of file `path`)
    that may be ambiguous and has a spelling, sorted."""
    from triton.language.core import constexpr
    found = _ambiguous_names(path)
    out = []
    for name, value in list(namespace.items()):
        if name.startswith("__") or not name.isidentifier():
            continue
        # A computed name only when Python made it a tl.constexpr: meant for
        # kernels, and not a per-run value (a start time) in the cache key.
        # A name the file never binds was put in the namespace by host code
        # (FlagGems' generated modules: `m.__dict__[name] = scalar_fn`).
        injected = found is not None and found[2] is not None and \
            name not in found[2]
        # A decorated def a host decorator replaced (FlagGems' use_tl_extra:
        # libdevice's `div_rn` for the def's fallback).
        replaced = found is not None and name in found[3] and \
            not _is_def_itself(value, name, path)
        if found is not None and name not in found[0] and not (
                name in found[1] and isinstance(value, constexpr)) and \
                not injected and not replaced:
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


def _user_module(value, roots):
    """The namespace of module `value` when it is a user module under the
    package roots, else None."""
    own = vars(value)  # not getattr: a lazy module may import
    path = own.get("__file__")
    if not own.get("__kiln__") and isinstance(path, str) and any(
            os.path.abspath(path).startswith(r + os.sep) for r in roots):
        return own
    return None


def _imported_namespaces(namespace, path, jit_type, roots):
    """Module namespaces whose code the compiler may reach from this one
    (of file `path`): those of @triton.jit helpers it holds, user modules
    it holds that live under the package roots, and the user modules its
    `from M import name` statements import from (the compiler follows
    those to M's file: FlagGems' `from flag_gems.utils import tl_extra_shim`
    reaches the `try` in utils/triton_lang_helper.py through utils'
    __init__.py)."""
    for value in list(namespace.values()):
        if isinstance(value, jit_type):
            yield value.__globals__
        elif isinstance(value, types.ModuleType):
            own = _user_module(value, roots)
            if own is not None:
                yield own
    package = namespace.get("__package__") or ""
    for level, module in _from_imports(path):
        if level:
            try:
                module = importlib.util.resolve_name(
                    "." * level + module, package)
            except ImportError:  # beyond the top-level package
                continue
        value = sys.modules.get(module)
        if isinstance(value, types.ModuleType):
            own = _user_module(value, roots)
            if own is not None:
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
    result = list(_module_bindings(main, path))
    # Not the file main's __file__ names: a generated module that copied
    # another module's globals (FlagGems' pointwise_dynamic) names that
    # module's file, whose own bindings are still needed.
    seen = {path}
    todo = collections.deque([(main, path)])
    roots = [os.path.abspath(r) for r in roots]
    while todo and len(seen) < _MAX_FILES:  # nearest files first
        namespace, file = todo.popleft()
        for other_ns in _imported_namespaces(namespace, file, JITFunction,
                                             roots):
            other = _file_of(other_ns)
            if other is None or other in seen or other_ns is main:
                continue
            seen.add(other)
            todo.append((other_ns, other))
            result += ["%s::%s" % (other, b)
                       for b in _module_bindings(other_ns, other)]
    _cache[path] = result = tuple(result)
    return result
