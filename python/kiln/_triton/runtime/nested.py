"""Kernels that are not a module-level def of their file.

Kiln compiles a kernel from its .py file, where it looks up module-level
defs. Two kinds of Triton code break that, and both are valid Triton:

* a `@triton.jit` def inside a function (a test, a script's `main()`, a
  factory that builds one kernel per option), which may read the enclosing
  function's variables: Triton compiles it with its capture scope,
  `fn.__globals__ | nonlocals`;
* a kernel whose source was replaced in memory (`JITFunction(fn)` then
  `_unsafe_update_src(...)`: Triton's own tests generate kernels this way).

For those the compiler gets a derived source of the same file: the
top-level statement holding the def is blanked line for line, and the def
(with any `@triton.jit` helpers it captures from the same statement) is
written back dedented at its own lines, so line numbers in messages stay
those of the file (columns are shifted back in the message). The captured
variables, and module-level names that statement bound, become host
bindings (docs/host-bindings.md): a last line `if __kiln_capture__: A = B =
None` marks them as bound by host code, and the values Python holds are
passed as `NAME=EXPR`. Helpers are spelled `__kiln_def__(PATH, NAME, LINE)`
at their line in the derived source.
"""
import ast
import inspect
import os
import re

from .bindings import spelling

__kiln__ = True

# The host-code test of the last line; never evaluated by the compiler.
_CAPTURE_TEST = "__kiln_capture__"


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _first_line(node):
    """The def's first line, decorators included (co_firstlineno)."""
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def _find_def(tree, name, first_line):
    """(top-level statement, def node) of `def name` starting at first_line."""
    for top in tree.body:
        end = getattr(top, "end_lineno", top.lineno)
        if not (top.lineno <= first_line <= end or
                _first_line_of(top) <= first_line <= end):
            continue
        for node in ast.walk(top):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                    node.name == name and _first_line(node) == first_line:
                return top, node
    return None, None


def _dedent(line, indent):
    return line[indent:] if not line[:indent].strip() else line.lstrip()


def _first_line_of(top):
    decorators = getattr(top, "decorator_list", None) or []
    return min([top.lineno] + [d.lineno for d in decorators])


def needs_derived_source(jit_fn):
    """Whether `jit_fn` must be compiled from a derived source: its source
    was replaced, or its def is not at its module's top level."""
    if jit_fn._src_override is not None:
        return True
    return "<locals>" in getattr(jit_fn.fn, "__qualname__", "")


def inside_statement(jit_fn, path):
    """Whether `jit_fn`'s def sits inside a module-level compound statement
    (`if __name__ == "__main__":`), where the file's top level does not
    name it."""
    fn = jit_fn.fn
    try:
        tree = ast.parse(_read(path), path)
    except (OSError, SyntaxError, ValueError):
        return False
    top, node = _find_def(tree, fn.__name__, fn.__code__.co_firstlineno)
    return node is not None and top is not node


def _captured(fn):
    code = getattr(fn, "__code__", None)
    cells = getattr(fn, "__closure__", None) or ()
    out = {}
    for name, cell in zip(getattr(code, "co_freevars", ()), cells):
        try:
            out[name] = cell.cell_contents
        except ValueError:  # a cell not yet assigned
            continue
    return out


def _host_bindings(values, written=None):
    """(`NAME=EXPR` bindings, {name: type name}) of `values`: each value's
    compile-time spelling (`written` overrides it by id: a helper written
    back into the source), or, with none (a tensor, a plain function), its
    type, named in the error of a kernel that uses it."""
    bindings, unspellable = [], {}
    for name in sorted(values):
        value = values[name]
        text_ = (written or {}).get(id(value))
        if text_ is None:
            try:
                text_ = spelling(value)
            except Exception:
                text_ = None
        if text_ is None:
            unspellable[name] = type(value).__name__
        else:
            bindings.append("%s=%s" % (name, text_))
    return tuple(bindings), unspellable


def _capture_line(bindings):
    """The last line marking the bound names as host-bound."""
    names = [b.split("=", 1)[0] for b in bindings]
    return ["if %s: %s = None" % (_CAPTURE_TEST, " = ".join(names))] if names else []


class DerivedSource:
    """The derived source of `jit_fn`'s file and what goes with it."""

    def __init__(self, jit_fn, path):
        from .jit import JITFunction
        self.path = path
        text = _read(path)
        lines = text.splitlines()
        tree = ast.parse(text, path)
        fn = jit_fn.fn
        top, node = _find_def(tree, fn.__name__, fn.__code__.co_firstlineno)
        if node is None:
            raise LookupError(
                "kernel `%s`: no `def %s` at line %d of %s (the file changed "
                "since it was imported?)" % (jit_fn.__name__, fn.__name__,
                                             fn.__code__.co_firstlineno, path))
        start, end = _first_line_of(top), top.end_lineno
        # The defs written back: the kernel, then the @triton.jit helpers it
        # captures (transitively) that are defined in the same statement.
        kept = [(jit_fn, node)]
        values = {}
        todo = [jit_fn]
        seen = {id(jit_fn)}
        while todo:
            current = todo.pop()
            for name, value in _captured(current.fn).items():
                if isinstance(value, JITFunction) and id(value) not in seen:
                    inner = getattr(value.fn, "__code__", None)
                    if inner is not None and os.path.abspath(
                            inner.co_filename) == path and \
                            start <= inner.co_firstlineno <= end:
                        _, helper = _find_def(tree, value.fn.__name__,
                                              inner.co_firstlineno)
                        if helper is not None:
                            seen.add(id(value))
                            kept.append((value, helper))
                            todo.append(value)
                values.setdefault(name, value)
        kept.sort(key=lambda k: _first_line(k[1]))

        # Lines before the statement, the statement's region, lines after.
        region = []
        self.indents = []  # (first derived line, last, columns removed)
        self.def_lines = {}  # id(JITFunction) -> its first derived line
        cursor = start
        for kfn, knode in kept:
            first = _first_line(knode)
            if first < cursor:  # inside a def already written
                continue
            region += [""] * (first - cursor)
            indent = knode.col_offset
            span = knode.end_lineno - first + 1
            body = [_dedent(line, indent)
                    for line in lines[first - 1:knode.end_lineno]]
            if kfn._src_override is not None:
                # Triton's src starts at `def` and is dedented already.
                body = body[:knode.lineno - first] + \
                    kfn._src_override.rstrip("\n").split("\n")
                body += [""] * (span - len(body))
            derived_first = len(region) + start
            region += body
            self.indents.append((derived_first, len(region) + start - 1,
                                 indent))
            self.def_lines[id(kfn)] = derived_first
            cursor = knode.end_lineno + 1
        region += [""] * max(0, end + 1 - cursor)
        out = lines[:start - 1] + region + lines[end:]
        # Another top-level def of the kernel's name would be the one found.
        grown = len(out) - len(lines)
        for other in tree.body:
            if other is not top and isinstance(
                    other, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                    other.name == jit_fn.__name__:
                shift = grown if other.lineno > end else 0
                for i in range(_first_line_of(other) - 1 + shift,
                               other.end_lineno + shift):
                    out[i] = ""

        # Names the blanked statement bound at module level (a def inside an
        # `if __name__ == "__main__":`): the module's values, as bindings.
        bound = set()
        if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef,
                                ast.ClassDef)):
            from .bindings import _bound_names
            _bound_names(top, bound)
            for name in bound:
                if name in fn.__globals__:
                    values.setdefault(name, fn.__globals__[name])
        written = {id(k): "__kiln_def__(%r, %r, %d)" % (path, k.__name__,
                                                       self.def_lines[id(k)])
                   for k, _ in kept if id(k) in self.def_lines}
        self.bindings, self.unspellable = _host_bindings(values, written)
        self.text = "\n".join(out + _capture_line(self.bindings)) + "\n"

    def explain(self, message):
        """`message` with file columns fixed and, for a name the kernel
        captured but Kiln could not pass, what that name holds."""
        message = self.fix_columns(message)
        m = re.search(r"name `(\w+)` is not defined", message)
        if m and m.group(1) in self.unspellable:
            message += (
                "\n  (`%s` is captured from the function enclosing the kernel: "
                "a %s, which is no compile-time value; kernels capture "
                "constexprs, numbers, strings, dtypes and @triton.jit "
                "functions)" % (m.group(1), self.unspellable[m.group(1)]))
        return message

    def fix_columns(self, message):
        """Kiln's FILE:LINE:COL for the dedented lines, as in the file."""
        if not self.indents:
            return message
        pattern = re.compile(re.escape(self.path) + r":(\d+):(\d+)")

        def shift(m):
            line, col = int(m.group(1)), int(m.group(2))
            for first, last, indent in self.indents:
                if first <= line <= last:
                    return "%s:%d:%d" % (self.path, line, col + indent)
            return m.group(0)
        return pattern.sub(shift, message)


def synthesized(jit_fn):
    """Whether `jit_fn` wraps a function made at run time around another
    def's code object, its source given by `_unsafe_update_src` (a library's
    `define_kernel`: `FunctionType(template.__code__, globals)`, as
    triton_kernels specializes its matmul): its code's file has no def of
    its name, so the compiler gets the source alone (SynthesizedSource)."""
    code = getattr(jit_fn.fn, "__code__", None)
    return jit_fn._src_override is not None and code is not None and \
        code.co_name != jit_fn.fn.__name__


class SynthesizedSource:
    """A compile source made of the override text of a synthesized kernel
    (and of synthesized @triton.jit helpers it names), the imports of the
    modules its globals name, and host bindings for its other globals,
    compiled as `NAME.generated.py` beside the code's file; line numbers in
    messages are this text's (`explain` says so)."""

    def __init__(self, jit_fn, path):
        from .jit import JITFunction
        import textwrap
        import types
        # Not the code's file, whose defs the text may name (`__kiln_def__`):
        # a name of its own in the same directory.
        self.path = os.path.join(os.path.dirname(path),
                                 "%s.generated.py" % jit_fn.__name__)
        self.indents = []
        defs, values, imports = [], {}, {}
        todo, seen = [jit_fn], {id(jit_fn)}
        while todo:
            current = todo.pop(0)
            src = textwrap.dedent(current._src_override or triton_src(current.fn))
            defs.append("@triton.jit\n" + src.rstrip("\n"))
            scope = dict(current.fn.__globals__)
            scope.update(_captured(current.fn))
            used = {n.id for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Name)}
            for name in sorted(used):
                if name not in scope or name in values or name in imports:
                    continue
                value = scope[name]
                if isinstance(value, types.ModuleType):
                    imports[name] = value.__name__
                elif isinstance(value, JITFunction) and synthesized(value):
                    if id(value) not in seen:
                        seen.add(id(value))
                        todo.append(value)
                else:
                    values[name] = value
        header = ["import triton"] + ["import %s as %s" % (module, name)
                                      for name, module in sorted(imports.items())
                                      if name != "triton"]
        self.bindings, self.unspellable = _host_bindings(values)
        out = header + [""] + ["\n\n".join(defs)] + _capture_line(self.bindings)
        self.text = "\n".join(out) + "\n"

    def explain(self, message):
        m = re.search(r"name `(\w+)` is not defined", message)
        if m and m.group(1) in self.unspellable:
            message += ("\n  (`%s` is a global of the generated kernel: a %s, "
                        "which is no compile-time value)" %
                        (m.group(1), self.unspellable[m.group(1)]))
        return message + ("\n  (lines of the kernel's generated source, "
                          "compiled from its `_unsafe_update_src` text)")


def triton_src(fn):
    """Triton's JITFunction.src: the dedented def, from `def` on."""
    import textwrap
    src = textwrap.dedent(inspect.getsource(fn))
    m = re.search(r"^def\s+\w+\s*\(", src, re.MULTILINE)
    return src[m.start():] if m else src
