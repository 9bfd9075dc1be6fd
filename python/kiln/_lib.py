"""ctypes bindings of libkiln.so (include/kiln/kiln.h).

The library is found through, in order: $KILN_LIBRARY (a file), the package's
own directory, the directory above it (the device bundle's layout), and the
install prefix's lib/ (the package lives in PREFIX/lib/python3/site-packages).
"""
import ctypes
import os

OK = 0
ERROR_INVALID_ARGUMENT = 1
ERROR_IO = 2
ERROR_COMPILE = 3
ERROR_NOT_FOUND = 4
ERROR_LAUNCH = 5
ERROR_NO_DRIVER = 6
ERROR_BUFFER_TOO_SMALL = 7

# kiln_arg_kind
ARG_POINTER, ARG_INT, ARG_INT32, ARG_INT64, ARG_UINT = 0, 1, 2, 3, 4
ARG_FLOAT32, ARG_FLOAT64, ARG_BOOL, ARG_NONE = 5, 6, 7, 8
# An int never specialized on its value (Triton's do_not_specialize).
ARG_INT_NOSPEC = 9
ARG_TENSORDESC = 10
ARG_TUPLE = 11
# A compile-time value by its spelling (a @triton.jit function, a tl one).
ARG_CONSTEXPR = 12

# kiln_dtype
DTYPES = {"i1": 0, "i8": 1, "i16": 2, "i32": 3, "i64": 4, "u32": 5,
          "fp16": 6, "bf16": 7, "fp32": 8, "fp64": 9, "u8": 10, "u16": 11,
          "u64": 12, "fp8e4nv": 13, "fp8e5": 14}

PACKED_HEADER = "<IIIIQ"  # grid x, y, z, reserved, stream


class _Value(ctypes.Union):
    _fields_ = [("ptr", ctypes.c_uint64), ("i", ctypes.c_int64),
                ("u", ctypes.c_uint64), ("f", ctypes.c_double)]


class Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int32), ("dtype", ctypes.c_int32),
                ("value", _Value), ("byte_size", ctypes.c_uint64)]


class ParamInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("is_constexpr", ctypes.c_int),
                ("default_value", ctypes.c_char_p)]


class ModuleConfig(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint),
                ("include_dirs", ctypes.POINTER(ctypes.c_char_p)),
                ("num_include_dirs", ctypes.c_size_t),
                ("host_bindings", ctypes.POINTER(ctypes.c_char_p)),
                ("num_host_bindings", ctypes.c_size_t)]


MODULE_IGNORE_DECORATORS = 1


class Grid(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint32), ("y", ctypes.c_uint32),
                ("z", ctypes.c_uint32)]


def _candidates():
    env = os.environ.get("KILN_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    names = ["libkiln.so"]
    dirs = [here, os.path.dirname(here),
            os.path.normpath(os.path.join(here, "..", "..", ".."))]
    return [os.path.join(d, n) for d in dirs for n in names]


def _libdevice_from_triton():
    """Triton's own libdevice.10.bc, for machines with Triton but no CUDA
    toolkit: Kiln lowers log/sin/cos to libdevice as Triton does (the compiler
    reads KILN_LIBDEVICE once, at its first compile)."""
    if "KILN_LIBDEVICE" in os.environ:
        return
    home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    if os.path.exists(os.path.join(home, "nvvm", "libdevice", "libdevice.10.bc")):
        return
    try:
        import importlib.util
        spec = importlib.util.find_spec("triton")
    except (ImportError, ValueError):
        return
    if spec is None or not spec.submodule_search_locations:
        return
    for root in spec.submodule_search_locations:
        path = os.path.join(root, "backends", "nvidia", "lib", "libdevice.10.bc")
        if os.path.exists(path):
            os.environ["KILN_LIBDEVICE"] = path
            return


def _load():
    _libdevice_from_triton()
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            # RTLD_LOCAL (ctypes' default): Kiln's static LLVM stays private.
            return ctypes.CDLL(path), path
        tried.append(path)
    raise ImportError(
        "kiln: cannot find libkiln.so (tried " + ", ".join(tried) +
        "); set KILN_LIBRARY to its path")


lib, path = _load()

_P = ctypes.c_void_p
_S = ctypes.c_size_t
_CP = ctypes.c_char_p
_I = ctypes.c_int


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


GRID_FN = ctypes.CFUNCTYPE(_I, _P, ctypes.POINTER(Grid), _P)

version = _fn("kiln_version", _CP)
last_error = _fn("kiln_last_error", _CP)
options_create = _fn("kiln_options_create", _I, ctypes.POINTER(_P))
options_destroy = _fn("kiln_options_destroy", None, _P)
options_set_num_warps = _fn("kiln_options_set_num_warps", _I, _P, ctypes.c_uint)
options_set_num_stages = _fn("kiln_options_set_num_stages", _I, _P,
                             ctypes.c_uint)
options_set_constexpr = _fn("kiln_options_set_constexpr", _I, _P, _CP, _CP)
options_set_device = _fn("kiln_options_set_device", _I, _P, _I)
options_set_stream = _fn("kiln_options_set_stream", _I, _P, _P)
options_set_cooperative = _fn("kiln_options_set_cooperative", _I, _P, _I)
options_set_pdl = _fn("kiln_options_set_pdl", _I, _P, _I)
options_set_null_pointers = _fn("kiln_options_set_null_pointers", _I, _P, _I)
options_set_fp_fusion = _fn("kiln_options_set_fp_fusion", _I, _P, _I)
options_set_arch = _fn("kiln_options_set_arch", _I, _P, _CP)
module_from_file = _fn("kiln_module_from_file", _I, _CP, ctypes.POINTER(_P))
module_from_source = _fn("kiln_module_from_source", _I, _CP, _CP,
                         ctypes.POINTER(_P))
module_create = _fn("kiln_module_create", _I, _CP, _CP,
                    ctypes.POINTER(ModuleConfig), ctypes.POINTER(_P))
module_destroy = _fn("kiln_module_destroy", None, _P)
module_kernel_count = _fn("kiln_module_kernel_count", _I, _P,
                          ctypes.POINTER(_S))
module_kernel_name = _fn("kiln_module_kernel_name", _I, _P, _S,
                         ctypes.POINTER(_CP))
module_get_kernel = _fn("kiln_module_get_kernel", _I, _P, _CP,
                        ctypes.POINTER(_P))
kernel_destroy = _fn("kiln_kernel_destroy", None, _P)
kernel_param_count = _fn("kiln_kernel_param_count", _I, _P,
                         ctypes.POINTER(_S))
kernel_param = _fn("kiln_kernel_param", _I, _P, _S, ctypes.POINTER(ParamInfo))
kernel_launch = _fn("kiln_kernel_launch", _I, _P, Grid, ctypes.POINTER(Arg),
                    _S, _P)
kernel_launch_grid_fn = _fn("kiln_kernel_launch_grid_fn", _I, _P, GRID_FN, _P,
                            ctypes.POINTER(Arg), _S, _P)
kernel_is_decorated = _fn("kiln_kernel_is_decorated", _I, _P)
meta_count = _fn("kiln_meta_count", _S, _P)
meta_entry = _fn("kiln_meta_entry", _I, _P, _S, ctypes.POINTER(_CP),
                 ctypes.POINTER(_CP))
kernel_last_meta = _fn("kiln_kernel_last_meta", _I, _P, _CP,
                       ctypes.POINTER(_S))
kernel_bind = _fn("kiln_kernel_bind", _I, _P, ctypes.POINTER(Arg), _S, _P,
                  ctypes.POINTER(_P))
launcher_launch = _fn("kiln_launcher_launch", _I, _P, _CP, _S)
# The same entry point without argtypes, for callers that pass prebuilt
# c_void_p / c_size_t objects and bytes (no per-call conversion).
launcher_launch_raw = lib["kiln_launcher_launch"]
launcher_launch_raw.restype = _I
# Compile and load without launching (same packed buffer); called from
# threads: ctypes drops the GIL around it.
launcher_prepare_raw = lib["kiln_launcher_prepare"]
launcher_prepare_raw.restype = _I
launcher_destroy = _fn("kiln_launcher_destroy", None, _P)
kernel_compile = _fn("kiln_kernel_compile", _I, _P, ctypes.POINTER(Arg), _S,
                     _P, ctypes.POINTER(_P), ctypes.POINTER(_P))
free = _fn("kiln_free", None, _P)
take_warnings = _fn("kiln_take_warnings", _I, ctypes.POINTER(_P))
device_count = _fn("kiln_device_count", _I, ctypes.POINTER(_I))
device_name = _fn("kiln_device_name", _I, _I, ctypes.POINTER(_CP))
device_arch = _fn("kiln_device_arch", _I, _I, ctypes.POINTER(_I),
                  ctypes.POINTER(_I), ctypes.POINTER(_CP))
device_synchronize = _fn("kiln_device_synchronize", _I, _I)
set_occupancy_paused = _fn("kiln_set_occupancy_paused", _I, _I, ctypes.POINTER(_I))
dtype_name = _fn("kiln_dtype_name", _CP, _I)

# The element types this library's compiler supports.
SUPPORTED = frozenset(name for name, value in DTYPES.items()
                      if dtype_name(value) is not None)


def take_string(p):
    """Copies and frees a malloc'ed C string from kiln_kernel_compile."""
    if not p:
        return None
    try:
        return ctypes.string_at(p).decode()
    finally:
        free(p)
