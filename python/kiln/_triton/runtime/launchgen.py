"""The drop-in's launch path as generated Python: per kernel, a run function
with the def's own signature that keys and looks up the specialization; per
specialization, its launch function (device, grid, one struct.pack, one
ctypes call) and a run of its own with that launch inline
(docs/dropin.md, "Launch"). LaunchCodegen is a mixin of JITFunction (jit.py).
"""
import ctypes
import functools
import struct
import sys

from kiln import _jit as _kjit
from kiln import _lib
from kiln import _report
from kiln.errors import LaunchError, check
from ..language.core import constexpr as _constexpr

_SCALARS = frozenset((int, float, bool, type(None)))


def _raw_stream_fn():
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    try:
        if not torch.cuda.is_available():
            return None
    except Exception:
        return None
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is None:
        def raw(d):
            return torch.cuda.current_stream(d).cuda_stream
    return raw


def _current_device():
    torch = sys.modules.get("torch")
    if torch is not None:
        try:
            if torch.cuda.is_available():
                return torch.cuda.current_device()
        except Exception:
            pass
    return 0


def _fail(status):
    check(status, LaunchError)


def _key_expr(name):
    """The specialization key part of runtime argument `name`: the dtype
    object for tensors; the class for float/bool/None; for ints, whether
    it fits in i32 (True), is a u64 (2: from 2^63) or else (False).
    Anything else raises (AttributeError) -> slow path."""
    return ("(%(n)s.dtype if %(n)s.__class__ not in _k_S else (%(n)s.__class__"
            " if %(n)s.__class__ is not int else (-2147483648 <= %(n)s <= "
            "2147483647 or (%(n)s > 9223372036854775807 and 2))))"
            % {"n": name})


def _tuple_key(v):
    """_key_expr's key for a parameter that has been given tuples: a tuple's
    is its elements' keys (nested), anything else's is _key_expr's."""
    c = v.__class__
    if c is tuple:
        return ("T",) + tuple(_tuple_key(e) for e in v)
    if isinstance(v, tuple):  # a namedtuple: its class names the fields
        return (c,) + tuple(_tuple_key(e) for e in v)
    if c is _constexpr:  # a compile-time element: its value, apart
        return ("cx", v.value.__class__, v.value)
    if c not in _SCALARS:
        # A tensor's dtype; a function passed by value keys as itself.
        return getattr(v, "dtype", v)
    if c is not int:
        return c
    return -2147483648 <= v <= 2147483647 or (v > 9223372036854775807 and 2)


def _tuple_device(v):
    """The device of a tuple parameter's first tensor; -1 when it has none
    (then the launch's other arguments or the current device decide)."""
    d = _kjit._first_device(v)
    return -1 if d is None else d


def _pack_exprs(expr, d):
    """The struct.pack values of described entry `d` (Kernel._describe) of
    the argument `expr`, as source text."""
    code = d[0]
    if code == "n" or (type(code) is str and code.startswith("cx:")):
        return ["0, 0"]
    if code in ("i", "l", "u", "f"):
        return ["%s, 0" % expr]
    if code == "b":
        return ["1 if %s else 0, 0" % expr]
    if type(code) is tuple and code[0] == "tuple":
        out = ["%d, 0" % len(d[2])]
        for k, e in enumerate(d[2]):
            out += _pack_exprs("%s[%d]" % (expr, k), e)
        return out
    if type(code) is tuple:  # a tensor descriptor
        _, _, block, nan, div16 = code
        rank = len(block)
        parts = ["%s.shape[%d], 0" % (expr, k) for k in range(rank)]
        parts += ["%s.strides[%d], 0" % (expr, k) for k in range(rank - 1)]
        return ["%s.base.data_ptr(), %d, %s" % (
            expr, _kjit._descriptor_bits(block, nan, div16), ", ".join(parts))]
    if isinstance(code, str) and code.startswith("cai:"):
        return ["%s.__cuda_array_interface__['data'][0], 0" % expr]
    return ["%s.data_ptr(), 0" % expr]


class LaunchCodegen:
    """Source generation of JITFunction's launch functions."""

    def _key_part(self, name):
        """The key expression of runtime parameter `name`: tuples are keyed
        by their elements once the parameter has been given one."""
        if name in self._tuple_params:
            return "_k_tk(%s)" % name
        return _key_expr(name)

    def _generated_run(self):
        """def run(grid, /, <the kernel's params>, *, num_warps=4,
        num_stages=3, **kw) with the hit path inline."""
        rt = [p.name for p in self.params if not p.is_constexpr]
        ce = [p.name for p in self.params if p.is_constexpr]
        sig = []
        ns = {"_k_S": _SCALARS, "_k_cache": self._cache,
              "_k_slow": self._slow, "_k_tk": _tuple_key}
        for p in self.params:
            if p.has_default:
                ns["_k_d_" + p.name] = p.default
                sig.append("%s=_k_d_%s" % (p.name, p.name))
            else:
                sig.append(p.name)
        extra = []
        # launch_pdl stays on the hit path: True finds the entry stored
        # under the key with its flag (_slow's (key, flags)), whose launcher
        # is a PDL one; specialized runs are for flag-free entries only.
        for opt, default in (("num_warps", "4"), ("num_stages", "3"),
                             ("num_ctas", "1"), ("launch_pdl", "False")):
            if opt not in self.arg_names:
                extra.append("%s=%s" % (opt, default))
        # Launch options that leave the hit path when set; a kernel
        # parameter of such a name is an argument, not the option.
        ctas = "num_ctas" not in self.arg_names
        pdl = "launch_pdl" not in self.arg_names
        self._option_test = (" or num_ctas != 1" if ctas else "") + \
            (" or launch_pdl" if pdl else "")
        generic_test = " or num_ctas != 1" if ctas else ""
        ns["_k_pdlf"] = (("launch_pdl", True),)
        option_kw = ("        if num_ctas != 1:\n"
                     "            _k_kw = dict(_k_kw, num_ctas=num_ctas)\n"
                     if ctas else "") + \
            ("        if launch_pdl:\n"
             "            _k_kw = dict(_k_kw, launch_pdl=True)\n" if pdl else "")
        allp = ", ".join(self.arg_names)
        values = "(%s)" % "".join(n + ", " for n in self.arg_names)
        key = ", ".join([self._key_part(n) for n in rt] + ce +
                        ["num_warps", "num_stages"])
        params = ["_k_grid", "/"] + sig + (["*"] + extra if extra else []) + \
            ["**_k_kw"]
        # Surplus positionals land in *_k_extra rather than in Python's own
        # TypeError, which would count the grid as a parameter.
        ns["_k_too_many"] = self._too_many_positional
        run_params = ["_k_grid", "/"] + sig + ["*_k_extra"] + extra + \
            ["**_k_kw"]
        ns["_k_self"] = self
        src = (
            "def %(fn)s(%(params)s):\n"
            "    if _k_extra:\n"
            "        raise _k_too_many(len(_k_extra))\n"
            "    try:\n"
            "        _k_e = %(lookup)s\n"
            "    except Exception:\n"
            "        _k_e = None\n"
            "    if _k_e is None or _k_kw%(options)s:\n"
            "%(option_kw)s"
            "        return _k_slow(_k_grid, %(values)s, num_warps, "
            "num_stages, _k_kw)\n"
            "    _k_self._run = _k_e.__kiln_run__\n"
            "    return _k_e(_k_grid%(comma)s%(allp)s)\n") % {
                "fn": self.__name__, "params": ", ".join(run_params),
                "key": key, "values": values, "allp": allp,
                "comma": ", " if allp else "", "options": generic_test,
                "option_kw": option_kw,
                "lookup": ("_k_cache[((%s,), _k_pdlf) if launch_pdl else (%s,)]"
                           % (key, key) if pdl else "_k_cache[(%s,)]" % key)}
        exec(compile(src, "<kiln launch of %s>" % self.__name__, "exec"), ns)
        fn = ns[self.__name__]
        # What _specialized_run needs to give one specialization a run
        # function of its own with the launch inline.
        option_names = [e.split("=")[0] for e in extra]
        forward = self.arg_names + ["%s=%s" % (o, o) for o in option_names]
        self._run_parts = (ns, ", ".join(run_params), rt,
                           ce + ["num_warps", "num_stages"],
                           "_k_generic(_k_grid, %s**_k_kw)" % "".join(
                               f + ", " for f in forward))
        self._generic_run = fn
        # warmup's key, bound by the same signature (grid, options and any
        # other keywords land in **_k_kw).
        wkey_src = "def _k_wkey(%s):\n    return (%s,)\n" % (
            ", ".join(params[2:]), key)
        exec(compile(wkey_src, "<kiln warmup key>", "exec"), ns)
        self._wkey = ns["_k_wkey"]
        self._key_src = key
        keyfn_params = self.arg_names + [
            o for o in ("num_warps", "num_stages") if o not in self.arg_names]
        keyfn_src = ("def _k_key(%s):\n    return (%s,)\n" % (
            ", ".join(keyfn_params), key))
        exec(compile(keyfn_src, "<kiln key>", "exec"), ns)
        self._keyfn = ns["_k_key"]
        return fn

    def _specialized_run(self, key, rt_types, entry_src, entry_ns):
        """The run function of the specialization `key` (its runtime
        arguments of classes `rt_types`) with its launch inline (entry_src's
        body): the hot loop of one specialization pays one call frame and
        tests its key part by part, as the generic key would compare. Other
        keys, keywords and num_ctas go to the generic run, which switches
        self._run to the run of the entry it finds."""
        run_ns, params, rt, rest, generic = self._run_parts
        ns = dict(run_ns)
        ns.update(entry_ns)
        ns["_k_generic"] = self._generic_run
        tests = []
        for i, (name, cls) in enumerate(zip(rt, rt_types)):
            ns["_k_m%d" % i] = key[i]
            if name in self._tuple_params:  # keyed by its elements
                tests.append("_k_tk(%s) == _k_m%d" % (name, i))
            elif cls is int:  # the key holds its class (_key_expr)
                if key[i] == 2:  # a u64
                    test = "{n} > 9223372036854775807"
                elif key[i]:  # an i32
                    test = "-2147483648 <= {n} <= 2147483647"
                else:  # an i64
                    test = ("not (-2147483648 <= {n} <= 2147483647) and "
                            "{n} <= 9223372036854775807")
                tests.append(("{n}.__class__ is int and " + test)
                             .format(n=name))
            elif cls in _SCALARS:  # the key holds the class
                tests.append("%s.__class__ is _k_m%d" % (name, i))
            else:  # a tensor: its dtype (scalars have none: AttributeError)
                tests.append("%s.dtype == _k_m%d" % (name, i))
        for j, name in enumerate(rest, len(rt)):
            ns["_k_m%d" % j] = key[j]
            tests.append("%s == _k_m%d" % (name, j))
        body = entry_src.split("\n", 1)[1]
        src = (
            "def %(fn)s(%(params)s):\n"
            "    if _k_extra:\n"
            "        raise _k_too_many(len(_k_extra))\n"
            "    try:\n"
            "        _k_hit = %(tests)s\n"
            "    except Exception:\n"
            "        _k_hit = False\n"
            "    if not _k_hit or _k_kw%(options)s:\n"
            "        return %(generic)s\n%(body)s") % {
                "fn": self.__name__, "params": params,
                "tests": " and ".join(["(%s)" % t for t in tests]) or "True",
                "generic": generic, "body": body, "options": self._option_test}
        exec(compile(src, "<kiln launch of %s>" % self.__name__, "exec"), ns)
        return ns[self.__name__]

    def _entry(self, handle, described, rt_names, first, rt_vals, device,
               num_warps, num_stages, flags=(), run_key=None,
               launched=None):
        """Generates the launch function of one specialization; with
        `run_key` (its key), also the run of its own that the generic run
        switches to (__kiln_run__)."""
        launch = _kjit._Launch(handle, None, None)
        fmt = _lib.PACKED_HEADER + "".join(d[1] + "Q" for d in described)
        packer = struct.Struct(fmt)
        # Prebuilt ctypes objects: the call converts nothing.
        ns = {"_k_pack": packer.pack, "_k_call": _lib.launcher_launch_raw,
              "_k_h": ctypes.c_void_p(handle),
              "_k_len": ctypes.c_size_t(packer.size), "_k_fail": _fail,
              "_k_D": device,
              "_k_other": functools.partial(self._other_device,
                                            flags=flags),
              "_k_owner": launch, "_k_devof": _kjit._device_index,
              "_k_cur": _current_device, "_k_stats": self._stats,
              "_k_grid_error": self._grid_error, "_k_struct_error":
              struct.error, "_k_pack_error": self._pack_error,
              "_k_ck": launched}
        stream_fn = _raw_stream_fn()
        ns["_k_stream"] = stream_fn
        stream = "_k_stream(_k_d)" if stream_fn else "0"
        vals = []
        for name, d in zip(rt_names, described):
            vals += _pack_exprs(name, d)
        ns["_k_tk"] = _tuple_key
        ns["_k_td"] = _tuple_device
        if first is None:
            dev = "_k_cur()"
        elif type(rt_vals[first]) is tuple:  # its first tensor's device
            dev = "_k_td(%s)" % rt_names[first]
        elif hasattr(type(rt_vals[first]), "get_device"):
            dev = "%s.get_device()" % rt_names[first]
        else:
            dev = "_k_devof(%s)" % rt_names[first]
        allp = ", ".join(self.arg_names)
        meta = ", ".join(["%r: %s" % (n, n) for n in self.arg_names] +
                         ["'num_warps': %d" % num_warps,
                          "'num_stages': %d" % num_stages])
        packargs = ", ".join(vals)
        count = ("    _k_stats.launches += 1\n"
                 if _report.counting() else "")
        src = (
            "def _k_entry(_k_grid%(comma)s%(allp)s):\n"
            "    _k_d = %(dev)s\n"
            "    if _k_d != _k_D:\n"
            "        return _k_other(_k_grid, %(values)s, _k_d, %(nw)d, %(ns)d)\n"
            "    if _k_grid.__class__ is not tuple:\n"
            "        if callable(_k_grid):\n"
            "            _k_grid = _k_grid({%(meta)s})\n"
            "        _k_grid = tuple(_k_grid)\n"
            "    _k_n = len(_k_grid)\n"
            "    try:\n"
            "        if _k_n == 1:\n"
            "            _k_b = _k_pack(_k_grid[0], 1, 1, 0, %(stream)s, "
            "%(pack)s)\n"
            "        elif _k_n == 2:\n"
            "            _k_b = _k_pack(_k_grid[0], _k_grid[1], 1, 0, "
            "%(stream)s, %(pack)s)\n"
            "        elif _k_n == 3:\n"
            "            _k_b = _k_pack(_k_grid[0], _k_grid[1], _k_grid[2], 0,"
            " %(stream)s, %(pack)s)\n"
            "        else:\n"
            "            return _k_grid_error(_k_grid)\n"
            "    except _k_struct_error as e:\n"
            "        return _k_pack_error(_k_grid, e, %(values)s)\n"
            "%(count)s"
            "    _k_s = _k_call(_k_h, _k_b, _k_len)\n"
            "    if _k_s:\n"
            "        _k_fail(_k_s)\n"
            "    return _k_ck\n") % {
                "allp": allp, "dev": dev, "meta": meta, "stream": stream,
                "pack": packargs, "count": count, "nw": num_warps,
                "ns": num_stages, "comma": ", " if allp else "",
                "values": "(%s)" % "".join(n + ", " for n in self.arg_names)}
        exec(compile(src, "<kiln launch of %s>" % self.__name__, "exec"), ns)
        fn = ns["_k_entry"]
        fn.__kiln_launch__ = launch  # owns the launcher handle
        # The same packing, compiling and loading without launching (the
        # autotuner builds its configs in threads); another device: nothing.
        prep_src = src.replace(
            "return _k_other(_k_grid, %s, _k_d, %d, %d)" % (
                "(%s)" % "".join(n + ", " for n in self.arg_names),
                num_warps, num_stages), "return None").replace(
            "_k_call(", "_k_prep(").replace(count, "").replace(
            "def _k_entry(", "def _k_prepare(")
        ns["_k_prep"] = _lib.launcher_prepare_raw
        exec(compile(prep_src, "<kiln prepare of %s>" % self.__name__,
                     "exec"), ns)
        fn.__kiln_prepare__ = ns["_k_prepare"]
        fn.__kiln_run__ = self._generic_run if run_key is None else \
            self._specialized_run(run_key, [type(v) for v in rt_vals], src, ns)
        return fn

    def _grid_error(self, grid):
        raise LaunchError("kernel `%s`: grid must have 1 to 3 dimensions, "
                          "got %r" % (self.__name__, grid))

    def _pack_error(self, grid, e, values):
        # Which argument does not fit: the describe step names it (an int
        # outside int64 and uint64 is Triton's OverflowError).
        rt, _ = self._split(values)
        self.kiln_kernel()._describe(rt, False)
        raise LaunchError("kernel `%s`: grid %r or an argument is out of "
                          "range (%s)" % (self.__name__, grid, e))
