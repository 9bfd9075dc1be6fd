"""Compile-only sweep of a Triton kernel library never tried: every
@triton.jit function that looks launched (pointer parameters, called by no
other function of its file) compiled for sm_90 through Kiln, without torch
or a GPU, with argument values guessed from the parameters. Prints one line
per kernel and the failures grouped by their first error line.

    PYTHONPATH=python KILN_LIBRARY=build/lib/libkiln.so \\
        python3 bench/library_sweep.py ROOT [-I DIR]... [--timeout S] [--only SUBSTR]
                                             [--ptx-dir DIR] [--bind [PATH::]NAME=EXPR]...

ROOT is the tree to search (a checkout, or one package of it); -I adds import
roots (default: ROOT and its parent); --bind gives a name the library binds in
a host-dependent `if` (ln-compile's --bind, e.g. vLLM's
`vllm/triton_utils/__init__.py::triton=triton`). --ptx-dir writes each compiled kernel's
PTX there (FILE--KERNEL.ptx), to compare two builds of Kiln on the same guesses. Each file compiles in a child process
(a hang or a crash is reported as such, the sweep goes on).

The guesses are what makes this a sweep and not a test: a pointer is a
parameter the body loads from, stores to or offsets (`p + ...`) when named
like one (`*ptr*`, `x`, `out`, or Capitalized but not all-caps: `Input`,
`Q_scale`; never a stride or an all-caps size such as `N_CTX`), with fp16
elements (int32 for names such as `*idx*`, `*ids*`, `*offsets*`); a float a
name such as eps / scale / alpha; any other int 64 (neither a multiple of 16
hidden nor the constant 1); constexprs their default (left to the compiler
when it is not a JSON literal, e.g. `tl.float32`), else BLOCK* 32, other
all-caps flags False, the rest 64. A failure is then Kiln's or the guess's:
re-run it with real values before calling it Kiln's.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import time

FLOATS = re.compile(r"(eps|scale|alpha|beta|gamma|momentum|temperature|"
                    r"softcap|slope|^p$|drop|sm_scale|theta|base|factor|"
                    r"threshold|lambda|^lr$|weight_decay)", re.I)
INDEX_POINTERS = re.compile(r"(idx|ids|index|indices|offsets|offs|seqlens|"
                            r"cu_seq|lens|expert|token|table|mapping|mask)",
                            re.I)


def jit_functions(source):
    """(name, parameter list text, body text) of each @triton.jit def, and of
    each module-level def made one by `name = triton.jit(name)` (unsloth)."""
    out = []
    pattern = re.compile(r"^([ \t]*)@(?:triton\.jit|jit)\b[^\n]*\n"
                         r"(?:\1@[^\n]*\n)*\1def (\w+)\((.*?)\)\s*(?:->[^:]*)?:",
                         re.S | re.M)
    called = set(re.findall(r"^(\w+)\s*=\s*(?:triton\.)?jit\(\s*\1\s*\)", source, re.M))
    plain = re.compile(r"^()def (%s)\((.*?)\)\s*(?:->[^:]*)?:" % "|".join(called or ["(?!)"]),
                       re.S | re.M)
    for m in list(pattern.finditer(source)) + list(plain.finditer(source)):
        indent = m.group(1)
        body_start = m.end()
        end = re.compile(r"^%s\S" % re.escape(indent), re.M).search(
            source, body_start + 1)
        body = source[body_start:end.start() if end else len(source)]
        out.append((m.group(2), m.group(3), body, len(indent)))
    return out


def parameters(text):
    """[(name, annotation, default)] of a def's parameter text."""
    params, depth, cur = [], 0, ""
    text = re.sub(r"#[^\n]*", "", text)  # comments may hold commas
    for ch in text + ",":
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            cur = cur.strip()
            if cur and cur not in ("*", "/") and not cur.startswith("*"):
                name, _, default = cur.partition("=")
                name, _, ann = name.partition(":")
                params.append((name.strip(), ann.strip(),
                               default.strip() or None))
            cur = ""
        else:
            cur += ch
    return params


POINTER_NAMES = re.compile(r"(ptr|Ptr|PTR|pointer|^[A-Z]$|^[A-Z][A-Za-z]?$|^(x|y|z|out|"
                           r"output|input|inp|weight|bias|grad\w*|d[a-z]+)$)")


SIZE_LETTERS = set("BCDEGHKLMNST")

# Capitalized, not all-caps: tensors by Triton's convention (SageAttention's
# `Input`, `Output`, `Scale`, `Q_scale`; flash attention's `Out`, `Lse`);
# all-caps names are sizes and flags (`N_CTX`, `HEAD_DIM`).
CAPITALIZED = re.compile(r"^[A-Z][A-Za-z0-9_]*$")
SIZE_WORDS = re.compile(r"len|size|num|dim|count|stride|step|max|min", re.I)


def tensor_like(name):
    return (bool(POINTER_NAMES.search(name))
            or (bool(CAPITALIZED.match(name)) and not name.isupper()
                and not SIZE_WORDS.search(name)))


def is_pointer(name, body):
    """Used as the base of a memory access (directly, or offset and named
    like a pointer)."""
    n = re.escape(name)
    if re.search(r"tl\.(load|store|atomic_\w+|make_block_ptr|make_tensor_descriptor)"
                 r"\(\s*(base\s*=\s*|pointer\s*=\s*)?%s\b(?!\s*[*/])" % n, body):
        return True
    if re.search(r"(?<![\w.])%s\s*\.dtype\.element_ty" % n, body):
        return True
    # Sizes named by one capital (M, N, K, H, ...) are offset like pointers
    # (`M + 1`): only a direct access makes them one.
    if name in SIZE_LETTERS or "stride" in name.lower():
        return False
    return tensor_like(name) and bool(
        re.search(r"(?<![\w.])%s\s*(\+|\[|\+=)" % n, body))


def guess(params, body):
    """(runtime args as JSON-able specs, constexprs) for one kernel."""
    args, constexprs = [], {}
    for name, ann, default in params:
        if "constexpr" in ann:
            if default is not None:
                try:
                    constexprs[name] = json.loads(default.replace("True", "true")
                                                  .replace("False", "false")
                                                  .replace("None", "null"))
                    continue
                except ValueError:  # `tl.float32`: the compiler takes the default
                    continue
            if name.upper().startswith("BLOCK") or "BLOCK" in name.upper():
                constexprs[name] = 32
            elif name.isupper() and not re.search(r"SIZE|DIM|NUM|^N|^K|^M|^D", name):
                constexprs[name] = False
            else:
                constexprs[name] = 64
        elif default is not None:
            try:
                args.append(["value", json.loads(default.replace("True", "true")
                                                 .replace("False", "false")
                                                 .replace("None", "null"))])
            except ValueError:
                args.append(["int", 64])
        elif is_pointer(name, body):
            args.append(["ptr", "int32" if INDEX_POINTERS.search(name) else "float16"])
        elif FLOATS.search(name) or ann in ("float", "tl.float32"):
            args.append(["float", 0.5])
        else:
            args.append(["int", 64])
    return args, constexprs


def launched(functions, source):
    """The defs that look launched: a pointer parameter, not called by name
    elsewhere in the file."""
    kernels = []
    for name, ptext, body, indent in functions:
        params = parameters(ptext)
        if indent:
            continue  # defs inside functions: their module-level text is not the kernel
        called = re.search(r"(?<![\w.])%s\s*\(" % name,
                           source.replace("def %s(" % name, ""))
        if called:
            continue
        if any(is_pointer(p[0], body) for p in params if "constexpr" not in p[1]):
            kernels.append((name, params, body))
    return kernels


def child(path, includes, kernels, ptx_dir=None, rel="", binds=()):
    """Runs in a child: compiles each kernel of one file, prints JSON rows."""
    import kiln
    from kiln import _jit

    class Tensor:
        def __init__(self, address, dtype):
            self._address, self.dtype, self.device = address, dtype, "cuda:0"

        def data_ptr(self):
            return self._address

        def element_size(self):
            return 2

        def numel(self):
            return 1 << 20

    rows = []
    try:
        module = _jit.Module(path=path, ignore_decorators=True, include_dirs=includes,
                             host_bindings=binds)
    except kiln.KilnError as e:
        for name, _, _ in kernels:
            rows.append([name, False, str(e), 0.0])
        print(json.dumps(rows))
        return
    address = 0x100000
    for name, spec, cx in kernels:
        args = []
        for kind, value in spec:
            if kind == "ptr":
                args.append(Tensor(address, "torch." + value))
                address += 0x100000
            else:
                args.append(value)
        try:
            k = module[name]
            t0 = time.perf_counter()
            compiled = k.compile(*args, arch="sm_90", **{c: v for c, v in cx.items()
                                                             if c in k.constexprs})
            if ptx_dir:
                out = os.path.join(ptx_dir, rel.replace(os.sep, "_") + "--" + name + ".ptx")
                with open(out, "w") as f:
                    f.write(compiled.ptx)
            rows.append([name, True, "", time.perf_counter() - t0])
        except kiln.KilnError as e:
            rows.append([name, False, str(e), 0.0])
        except Exception as e:  # a guess the host side rejects
            rows.append([name, False, "host: %s: %s" % (type(e).__name__, e), 0.0])
    print(json.dumps(rows))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        spec = json.loads(sys.stdin.read())
        child(spec["path"], spec["includes"], spec["kernels"], spec.get("ptx_dir"),
              spec.get("rel", ""), spec.get("binds", ()))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--only", help="only files whose path contains this")
    ap.add_argument("--ptx-dir", help="write each compiled kernel's PTX here")
    ap.add_argument("--bind", dest="binds", action="append", default=[],
                    help="[PATH::]NAME=EXPR: a name bound in a host-dependent `if`")
    args = ap.parse_args()
    if args.ptx_dir:
        os.makedirs(args.ptx_dir, exist_ok=True)
    root = os.path.abspath(args.root)
    includes = [os.path.abspath(i) for i in args.includes] or [root, os.path.dirname(root)]
    results = []
    for dirpath, dirnames, files in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for fname in sorted(files):
            path = os.path.join(dirpath, fname)
            if not fname.endswith(".py") or (args.only and args.only not in path):
                continue
            try:
                source = open(path, encoding="utf-8").read()
            except (OSError, UnicodeDecodeError):
                continue
            if "jit" not in source:
                continue
            kernels = launched(jit_functions(source), source)
            if not kernels:
                continue
            rel = os.path.relpath(path, root)
            spec = {"path": path, "includes": includes,
                    "kernels": [(n,) + guess(p, b) for n, p, b in kernels],
                    "ptx_dir": args.ptx_dir and os.path.abspath(args.ptx_dir), "rel": rel,
                    "binds": args.binds}
            try:
                r = subprocess.run([sys.executable, __file__, "--child"],
                                   input=json.dumps(spec), text=True,
                                   capture_output=True, timeout=args.timeout)
                rows = json.loads(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 \
                    else [[n, False, "CRASH rc=%d: %s" % (r.returncode,
                                                         r.stderr.strip()[-300:]), 0.0]
                          for n, _, _ in kernels]
            except subprocess.TimeoutExpired:
                rows = [[n, False, "TIMEOUT after %.0f s" % args.timeout, 0.0]
                        for n, _, _ in kernels]
            except (ValueError, IndexError):
                rows = [[n, False, "no result: " + r.stderr.strip()[-300:], 0.0]
                        for n, _, _ in kernels]
            for name, ok, err, secs in rows:
                results.append((rel, name, ok, err, secs))
                print("%-4s %-50s %-36s %s" % (
                    "ok" if ok else "FAIL", rel[-50:], name,
                    "%.0f ms" % (secs * 1e3) if ok else err.splitlines()[0][:200]
                    if err else ""), flush=True)
    ok = sum(r[2] for r in results)
    print("\n%d/%d kernels compile (%.0f%%)" % (ok, len(results),
                                              100.0 * ok / max(1, len(results))))
    causes = collections.Counter()
    for r in results:
        if not r[2]:
            line = r[3].splitlines()[0] if r[3] else "?"
            causes[re.sub(r"^.*?error: ", "", line)[:140]] += 1
    for cause, count in causes.most_common():
        print("%3d  %s" % (count, cause))
    return 0


if __name__ == "__main__":
    sys.exit(main())
