"""Kernels generated at import from source text, as triton_kernels'
specialize() makes them: a template function's code object wrapped with new
globals (types.FunctionType), a triton.JITFunction built with the template's
attributes read through JITFunction.__init__'s signature, its source set by
_unsafe_update_src. Kiln compiles such a kernel from its text alone."""
import inspect
import textwrap
import types

import triton
import triton.language as tl

SCALE = 3.0


@triton.jit
def double(x):
    return x + x


@triton.jit
def act_kernel(X, Y, n, ACT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n)
    tl.store(Y + offs, ACT(x) * SCALE, mask=offs < n)


def from_text(src, attrs, **scope):
    """A JITFunction whose source is `src` and whose globals are `scope`."""
    def _template():
        pass
    f = types.FunctionType(_template.__code__, dict(globals(), **scope))
    src = textwrap.dedent(src)
    src = src[src.index("def "):]
    name = src[4:src.index("(")].strip()
    made = {}
    exec(src, dict(f.__globals__, triton=triton, tl=tl), made)
    f.__signature__ = inspect.signature(made[name])
    f.__name__ = name
    jit = triton.JITFunction(f, **attrs)
    jit._unsafe_update_src(src)
    return jit


def bind_constexprs(fn, constants, name=None):
    """`fn` with some constexpr parameters fixed: they leave the signature
    and become `NAME: tl.constexpr = VALUE` lines (functions by name)."""
    src = textwrap.dedent(inspect.getsource(fn.fn))
    header, body = src[src.index("def "):].split(":\n", 1)
    params = [p.strip() for p in header[header.index("(") + 1:].rstrip(")").split(",")]
    kept = [p for p in params if p.split(":")[0].strip() not in constants]
    lines = ["def %s(%s):" % (name or fn.__name__, ", ".join(kept))]
    lines += ["    %s: tl.constexpr = %s" % (k, getattr(v, "__name__", v))
              for k, v in constants.items()]
    sig = inspect.signature(triton.runtime.jit.JITFunction.__init__)
    attrs = {p.name: getattr(fn, p.name, p.default)
             for p in list(sig.parameters.values())[2:]
             if p.kind is not inspect.Parameter.VAR_KEYWORD}
    base = attrs["repr"]
    attrs["repr"] = lambda spec: base(spec) + "_bound"
    scope = fn.get_capture_scope()
    scope.update({getattr(v, "__name__", k): v for k, v in constants.items()
                  if isinstance(v, triton.runtime.jit.JITFunction)})
    return from_text("\n".join(lines) + "\n" + body, attrs, **scope)


doubled = bind_constexprs(act_kernel, {"ACT": double})

# A generated helper used by another generated kernel.
quad = from_text("""
def quad(x):
    return double(double(x))
""", {}, double=double)
quadrupled = bind_constexprs(act_kernel, {"ACT": quad}, name="act_quad")

# A generated kernel naming a global that is no compile-time value.
calls_host = from_text("""
def calls_host(X):
    tl.store(X, host_fn(3))
""", {}, host_fn=len)
