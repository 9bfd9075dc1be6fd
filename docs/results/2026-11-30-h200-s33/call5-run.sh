#!/usr/bin/env bash
# Session 33, call 5: regression check of the dot-scratch change (a transposed slot operand of a
# wgmma no longer reserves staging scratch) on mamba's op tests under Kiln (every 3rd
# parametrization; its kernels use tl.trans), and what encoding the tensor maps costs a launch:
# host time per launch of a TMA kernel (tma_mm, 2 descriptors) against the same kernel at
# num_stages=1 (not pipelined, no TMA), through the drop-in's hit path.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
cat > /tmp/launch_tma.py <<'PY'
import time, torch, kiln
from triton.tools.tensor_descriptor import TensorDescriptor
k = kiln.jit("test/gpu/tma_kernels.py")
a = torch.randn(64, 64, device="cuda", dtype=torch.float16)
b = torch.randn(64, 64, device="cuda", dtype=torch.float16)
c = torch.empty(64, 64, device="cuda", dtype=torch.float32)
ad = TensorDescriptor(a, [64, 64], [64, 1], [64, 64])
bd = TensorDescriptor(b, [64, 64], [64, 1], [64, 64])
for stages in (3, 1, 3, 1):
    launch = lambda: k.tma_mm[(1, 1)](ad, bd, c, 64, 64, 64, BM=64, BN=64, BK=64, SHIFT=0,
                                       num_warps=4, num_stages=stages)
    for _ in range(200):
        launch()
    torch.cuda.synchronize()
    best = []
    for rep in range(5):
        t0 = time.perf_counter()
        for _ in range(2000):
            launch()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        best.append((t1 - t0) / 2000 * 1e6)
    ref = a.float() @ b.float()
    print(f"num_stages={stages}: {min(best):.2f} us per launch (min of 5 x 2000), max err {(c - ref).abs().max().item():.2e}")
PY
KILN_CACHE_DIR=/tmp/kcl timeout 60 python3 /tmp/launch_tma.py > $OUT/launch.txt 2>&1; echo "launch rc=$?"; cat $OUT/launch.txt
date -u >> $OUT/device.txt
ONLY=kiln KILN_CACHE_DIR=/tmp/kcm timeout 200 test/gpu/run_mamba.sh $OUT/mamba 3 190 > /dev/null 2>&1; echo "mamba rc=$?"
tail -3 $OUT/mamba/mamba.txt; cp $OUT/mamba/mamba.txt $OUT/mamba.txt; rm -rf $OUT/mamba/keep
date -u >> $OUT/device.txt
