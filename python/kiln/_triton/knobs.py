"""`triton.knobs` on the host: Triton 3.6's settings objects, so that code
which reads or sets them (`triton.knobs.autotuning.print = True`,
`monkeypatch.setattr(triton.knobs.compilation, "always_compile", True)`)
runs under the drop-in. Kiln honours `autotuning.print` (also
TRITON_PRINT_AUTOTUNING=1); the others are recorded only: Kiln's compiler,
caches and launch have their own settings (docs/dropin.md)."""
import os

__kiln__ = True


def _env_flag(name):
    return os.environ.get(name, "0").lower() in ("1", "true", "on", "yes")


class base_knobs:
    """A group of settings: plain attributes with Triton's defaults."""

    def __init__(self, **defaults):
        self.__dict__.update(defaults)
        self.__dict__["_kiln_defaults"] = dict(defaults)

    def _settings(self):
        return {k: v for k, v in self.__dict__.items()
                if not k.startswith("_kiln")}

    def copy(self):
        new = type(self)(**self._settings())
        new.__dict__["_kiln_defaults"] = dict(self._kiln_defaults)
        return new

    def reset(self):
        """Every setting back to its value at startup; returns self."""
        for k in list(self._settings()):
            if k not in self._kiln_defaults:
                del self.__dict__[k]
        self.__dict__.update(self._kiln_defaults)
        return self

    @property
    def knob_descriptors(self):
        """Triton's environment-backed knobs by name; Kiln's settings are
        plain values (read once at startup), so none."""
        return {}

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%r" % kv for kv in sorted(self._settings().items())
            if not kv[0].startswith("_")))


class _language(base_knobs):
    """`knobs.language`: default_fp_fusion is the enable_fp_fusion of
    launches that do not give it; the drop-in's launchers listen, since
    their hit path never reads it."""

    listeners = []

    def __setattr__(self, name, value):
        old = self.__dict__.get(name)
        super().__setattr__(name, value)
        if name == "default_fp_fusion" and value != old:
            self._changed()

    def reset(self):
        old = self.__dict__.get("default_fp_fusion")
        super().reset()
        if self.__dict__.get("default_fp_fusion") != old:
            self._changed()
        return self

    @staticmethod
    def _changed():
        for listener in list(_language.listeners):
            listener()


class _tool(base_knobs):
    """nvidia.ptxas and friends: a path and a version Kiln does not probe."""


class _driver_jit(_tool):
    """nvidia.ptxas: Kiln runs no ptxas, the driver JIT-compiles its PTX, so
    host code that reads `ptxas.version` to learn which PTX features the
    backend assembles (Triton's test helpers: TMA needs 12.3) gets the
    driver's CUDA version ("13.0"), or without a driver the CUDA release of
    the PTX ISA Kiln emits (8.1: "12.1"). A value set is kept."""

    @property
    def version(self):
        if "_version" not in self.__dict__:
            self.__dict__["_version"] = _driver_cuda_version() or "12.1"
        return self.__dict__["_version"]

    @version.setter
    def version(self, value):
        self.__dict__["_version"] = value


def _driver_cuda_version():
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        v = ctypes.c_int(0)
        if cuda.cuDriverGetVersion(ctypes.byref(v)) != 0 or v.value <= 0:
            return None
        return "%d.%d" % (v.value // 1000, v.value % 1000 // 10)
    except (OSError, AttributeError):
        return None


cache = base_knobs(dir=os.environ.get("TRITON_CACHE_DIR"),
                   dump_dir=os.environ.get("TRITON_DUMP_DIR"),
                   override_dir=os.environ.get("TRITON_OVERRIDE_DIR"),
                   home_dir=os.environ.get("TRITON_HOME"))
compilation = base_knobs(
    override=False, dump_ir=_env_flag("MLIR_ENABLE_DUMP"),
    store_binary_only=False, always_compile=_env_flag("TRITON_ALWAYS_COMPILE"),
    use_ir_loc=None, enable_asan=False, disable_line_info=False,
    front_end_debugging=False,
    allow_non_constexpr_globals=_env_flag("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS"),
    instrumentation_mode="", listener=None)
autotuning = base_knobs(cache=_env_flag("TRITON_CACHE_AUTOTUNING"),
                        print=_env_flag("TRITON_PRINT_AUTOTUNING"))
runtime = base_knobs(interpret=_env_flag("TRITON_INTERPRET"),
                     debug=_env_flag("TRITON_DEBUG"), override_arch=None,
                     launch_enter_hook=None, launch_exit_hook=None,
                     jit_cache_hook=None, jit_post_compile_hook=None,
                     add_stages_inspection_hook=None)
language = _language(fp32_default=None, default_fp_fusion=True)
build = base_knobs(cc=os.environ.get("CC"), backend_dirs=set())
nvidia = base_knobs(
    ptxas=_driver_jit(path=os.environ.get("TRITON_PTXAS_PATH")),
    cuobjdump=_tool(path=None, version=None),
    nvdisasm=_tool(path=None, version=None),
    dump_nvptx=False, disable_ptxas_opt=False, mock_ptx_version=None,
    libdevice_path=os.environ.get("TRITON_LIBDEVICE_PATH"),
    libcuda_path=os.environ.get("TRITON_LIBCUDA_PATH"))
amd = base_knobs()
proton = base_knobs(cupti_lib_dir=None)
propagate_env = True
