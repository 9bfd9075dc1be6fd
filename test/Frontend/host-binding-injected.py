# Host bindings for names the source alone cannot resolve (FlagGems' forms):
# a name the file never binds, put in the module's namespace by host code
# (`m.__dict__["scalar_fn"] = fn`), and a decorated def a host decorator
# replaced (`use_tl_extra` returns libdevice's function of that name).
# RUN: ln-compile %s --kernel k --signature '*fp32' \
# RUN:   --bind "SCALE=3.0" --bind "div_rn=triton.language.extra.cuda.libdevice.div_rn" \
# RUN:   --emit=tile | FileCheck %s
# Without the bindings the injected name is undefined (and the unknown
# decorator would be refused: ln-compile applies decorators itself).
# RUN: not ln-compile %s --kernel k --signature '*fp32' 2>&1 \
# RUN:   | FileCheck %s --check-prefix=NOBIND
import triton
import triton.language as tl


def use_extra(fn):
    return fn


@use_extra
@triton.jit
def div_rn(x, y):
    return tl.floor(x / y + 0.5)


@triton.jit
def k(X):
    offs = tl.arange(0, 16)
    tl.store(X + offs, div_rn(SCALE, tl.load(X + offs)))
# CHECK-LABEL: func.func @k
# CHECK: arith.constant dense<3.000000e+00>
# CHECK: tile.extern_elementwise "__nv_fdiv_rn"
# CHECK-NOT: math.floor
# NOBIND: host-binding-injected.py:[[@LINE-5]]:31: error: name `SCALE` is not defined
