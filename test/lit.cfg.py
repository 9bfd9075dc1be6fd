# -*- Python -*-
# lit configuration for Kiln's regression tests.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "Kiln"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
# .py files are Triton-language kernels; only those with RUN lines are tests,
# kernels used as inputs live in Inputs/ folders.
config.suffixes = [".mlir", ".py", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kiln_obj_root, "test")

llvm_config.use_default_substitutions()
# Sanitizer builds (docs/reliability.md) configure the runtimes through these.
llvm_config.with_system_environment(["ASAN_OPTIONS", "UBSAN_OPTIONS"])
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
config.substitutions.append(("%kiln_src_root", config.kiln_src_root))
config.substitutions.append(
    ("%layernorm_py", os.path.join(config.kiln_src_root, "examples", "layernorm", "layer_norm.py")))

tool_dirs = [config.kiln_tools_dir, config.llvm_tools_dir]
tools = ["kiln-opt", "ln-compile", "FileCheck", "not", "count", "split-file"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
else:
    lit_config.note("ptxas not found (no CUDA toolkit): PTX validation tests are skipped")

# Third-party files fetched for testing (never committed): .ext/ at the
# repository root, or the folder named by KILN_EXT_DIR. Tests that read them
# REQUIRE these features, so a clean clone skips them.
ext_dir = os.environ.get("KILN_EXT_DIR") or os.path.join(config.kiln_src_root, ".ext")
config.substitutions.append(("%ext_dir", ext_dir))
if os.path.isfile(os.path.join(ext_dir, "triton-tutorials", "05-layer-norm.py")):
    config.available_features.add("triton-tutorial")
if os.path.isfile(os.path.join(ext_dir, "flash-attention", "layer_norm.py")):
    config.available_features.add("flash-attention")

# The Python standard library of the interpreter running lit: every file of
# it that CPython's own parser accepts must parse in Kiln.
import sys
import sysconfig
stdlib_dir = os.environ.get("KILN_PYTHON_STDLIB") or sysconfig.get_paths().get("stdlib", "")
if stdlib_dir and os.path.isdir(stdlib_dir):
    config.available_features.add("python-stdlib")
    config.substitutions.append(("%stdlib_dir", stdlib_dir))
    config.substitutions.append(("%kiln_python", sys.executable))

# libdevice (CUDA toolkit): log/sin/cos lower to its functions, as in Triton.
_libdevice = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "nvvm",
                          "libdevice", "libdevice.10.bc")
if os.path.exists(_libdevice) or os.path.exists(
        "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"):
    config.available_features.add("libdevice")
