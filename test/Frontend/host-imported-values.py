# Decorator arguments imported from another module (`from .configs import
# CONFIGS`) are evaluated in that module when Kiln finds its file, as the
# code generator finds it (beside this file, or in a package root given with
# -I). Here `.configs` is not beside this file and `kernels_common` is found
# only with -I: each use of such a name is an error that says the module was
# not found, where it was searched, and points at --host-decorators
# (host-imports.test has modules that are found).
# RUN: not ln-compile %s --kernel k_configs --list-configs 2>&1 | FileCheck %s --check-prefix=CONFIGS
# RUN: not ln-compile %s --kernel k_configs --signature '*fp32,i32' 2>&1 | FileCheck %s --check-prefix=CONFIGS
# RUN: ln-compile %s --kernel k_configs --signature '*fp32,i32' --host-decorators -D B=32 --emit=tile | FileCheck %s --check-prefix=HOST
# RUN: not ln-compile %s --kernel k_prune --list-configs 2>&1 | FileCheck %s --check-prefix=PRUNE
# RUN: not ln-compile %s --kernel k_prune_dict --list-configs 2>&1 | FileCheck %s --check-prefix=PRUNEDICT
# RUN: not ln-compile %s --kernel k_call --list-configs 2>&1 | FileCheck %s --check-prefix=CALL
# RUN: ln-compile %s -I %S/Inputs/hostimport --kernel k_call --list-configs 2>&1 | FileCheck %s --check-prefix=CALLFOUND
# RUN: not ln-compile %s --kernel k_iter --list-configs 2>&1 | FileCheck %s --check-prefix=ITER
# RUN: not ln-compile %s --kernel k_heur --signature '*fp32,i32' 2>&1 | FileCheck %s --check-prefix=HEUR
import triton
import triton.language as tl
from .configs import CONFIGS, prune, PRUNE, HEURISTICS
from kernels_common import get_configs


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def k_configs(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# CONFIGS: host-imported-values.py:[[@LINE-4]]:26: error: `CONFIGS` is imported from module `.configs` (line 19), which Kiln cannot find (searched: {{.*}}Frontend), so Kiln cannot use it as the autotune configs; Kiln evaluates decorators without Python: leave them to the host (ln-compile --host-decorators; the Python drop-in runs them as Python)
# HOST: tile.arange 0 to 32


@triton.autotune(configs=[triton.Config({"B": 32})], key=["n"],
                 prune_configs_by={"early_config_prune": prune})
@triton.jit
def k_prune(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# PRUNE: host-imported-values.py:[[@LINE-4]]:35: error: `prune` is imported from module `.configs` (line 19), which Kiln cannot find (searched: {{.*}}Frontend), so Kiln cannot run it as early_config_prune; Kiln evaluates decorators


@triton.autotune(configs=[triton.Config({"B": 32})], key=["n"], prune_configs_by=PRUNE)
@triton.jit
def k_prune_dict(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# PRUNEDICT: host-imported-values.py:[[@LINE-4]]:82: error: `PRUNE` is imported from module `.configs` (line 19), which Kiln cannot find (searched: {{.*}}Frontend), so Kiln cannot use it as prune_configs_by


@triton.autotune(configs=get_configs(32), key=["n"])
@triton.jit
def k_call(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# CALL: host-imported-values.py:[[@LINE-4]]:26: error: `get_configs` is imported from module `kernels_common` (line 20), which Kiln cannot find (no package roots given: pass -I DIR to ln-compile or include_dirs to the C API), so Kiln cannot call it
# CALLFOUND: 0: B: 32, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None
# CALLFOUND-NEXT: 1: B: 32, num_warps: 8, num_ctas: 1, num_stages: 3, maxnreg: None


@triton.autotune(configs=[c for c in CONFIGS if c.num_warps == 4], key=["n"])
@triton.jit
def k_iter(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# ITER: host-imported-values.py:[[@LINE-4]]:38: error: `CONFIGS` is imported from module `.configs` (line 19), which Kiln cannot find (searched: {{.*}}Frontend), so Kiln cannot iterate over it


@triton.heuristics(HEURISTICS)
@triton.jit
def k_heur(X, n, B: tl.constexpr):
    tl.store(X + tl.arange(0, B), 1)
# HEUR: host-imported-values.py:[[@LINE-4]]:20: error: `HEURISTICS` is imported from module `.configs` (line 19), which Kiln cannot find (searched: {{.*}}Frontend), so Kiln cannot use it as the heuristics
