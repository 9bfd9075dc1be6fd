# triton.language.extra.cuda helpers: globaltimer and smid as inline PTX
# (Triton's own wrappers are tl.inline_asm_elementwise), num_warps and
# num_threads as constexprs of the launch, gdc_wait / gdc_launch_dependents
# as griddepcontrol (sm_90+), reached as `cuda.x`, `tl.extra.cuda.x` or by
# `from ... import`.
# RUN: ln-compile %s --kernel probe --signature '*i32:16' --num-warps 8 \
# RUN:   --emit=ptx | FileCheck %s
# RUN: not ln-compile %s --kernel probe --signature '*i32:16' --arch sm_80 \
# RUN:   --emit=ptx 2>&1 | FileCheck %s --check-prefix=OLD
import triton
import triton.language as tl
from triton.language.extra import cuda
from triton.language.extra.cuda import smid


@triton.jit
def probe(out_ptr):
    t0 = cuda.globaltimer()
    s = smid()
    cuda.gdc_wait()
    tl.store(out_ptr, s)
    tl.static_assert(cuda.num_warps() == 8)
    tl.static_assert(cuda.num_threads() == 256)
    t1 = tl.extra.cuda.globaltimer()
    tl.store(out_ptr + 1, (t1 - t0).to(tl.int32))
    cuda.gdc_launch_dependents()


# CHECK-LABEL: .entry probe
# CHECK: mov.u64 %rd{{[0-9]+}}, %globaltimer;
# CHECK: mov.u32 %r{{[0-9]+}}, %smid;
# CHECK: griddepcontrol.wait;
# CHECK: mov.u64 %rd{{[0-9]+}}, %globaltimer;
# CHECK: griddepcontrol.launch_dependents;
# OLD: cuda-extras.py:20:5: error: `tl.extra.cuda.gdc_wait` needs sm_90 or newer, the target is sm_80
