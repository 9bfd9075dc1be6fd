#!/usr/bin/env bash
# Session 33, call 1: the first GPU run of TMA copies of host-descriptor blocks (sm_90). The new
# tma family against Triton (every slot swizzle, odd shapes, negative offsets, NaN padding,
# mma.sync loops, a transposed operand, a persistent loop) with the descriptor / dot / block-pointer
# families as a regression check; the synchronization checked by compute-sanitizer (racecheck,
# synccheck) on two TMA kernels; the fused-attention tutorial's own pytest under Kiln; its forward
# benchmarked under Triton and Kiln in this call.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
KILN_CACHE_DIR=/tmp/kc1 timeout 150 python3 test/gpu/compare_kernels.py --only tma,desc,dot,blockptr > $OUT/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $OUT/compare.txt | cut -c1-300 | tail -30
date -u >> $OUT/device.txt
cat > /tmp/tma_one.py <<'PY'
import os, sys, torch
sys.path.insert(0, "test/gpu")
import kiln
from triton.tools.tensor_descriptor import TensorDescriptor
k = kiln.jit("test/gpu/tma_kernels.py")
for nw, st in ((4, 3), (2, 5)):
    a = torch.randn(200, 304, device="cuda", dtype=torch.float16)
    b = torch.randn(300, 136, device="cuda", dtype=torch.float16)
    c = torch.empty(200, 136, device="cuda", dtype=torch.float32)
    k.tma_mm[(4, 3)](TensorDescriptor(a, [200, 300], [304, 1], [64, 64]),
                     TensorDescriptor(b, [300, 136], [136, 1], [64, 64]), c, 200, 136, 300,
                     BM=64, BN=64, BK=64, SHIFT=0, num_warps=nw, num_stages=st)
    torch.cuda.synchronize()
    ref = a[:, :300].float() @ b.float()
    print(nw, st, "max err", (c - ref).abs().max().item())
PY
for tool in racecheck synccheck memcheck; do
  KILN_CACHE_DIR=/tmp/kcs timeout 60 compute-sanitizer --tool $tool python3 /tmp/tma_one.py > $OUT/sanitizer-$tool.txt 2>&1; echo "sanitizer $tool rc=$?"; tail -3 $OUT/sanitizer-$tool.txt
done
date -u >> $OUT/device.txt
(KILN_CACHE_DIR=/tmp/kc6p timeout 150 python3 -m kiln.run -m pytest -x -q .ext/triton-tutorials/06-fused-attention.py > $OUT/t06-pytest.txt 2>&1; echo "t06 pytest rc=$?"); tail -3 $OUT/t06-pytest.txt
date -u >> $OUT/device.txt
TRITON_CACHE_DIR=/tmp/tc6 timeout 100 python3 bench/tutorial06_bench.py --modes fwd --json $OUT/t06-triton.json > $OUT/t06-triton.txt 2>&1; echo "t06 triton rc=$?"
KILN_CACHE_DIR=/tmp/kc6 timeout 80 python3 -m kiln.run --report bench/tutorial06_bench.py --modes fwd --json $OUT/t06-kiln.json > $OUT/t06-kiln.txt 2>&1; echo "t06 kiln rc=$?"
tail -4 $OUT/t06-kiln.txt
date -u >> $OUT/device.txt
python3 - $OUT <<'PY'
import json, math, sys
d = sys.argv[1]
t = {(r["head_dim"], r["mode"], r["causal"], r["n_ctx"]): r for r in json.load(open(d + "/t06-triton.json"))}
logs = []
for r in json.load(open(d + "/t06-kiln.json")):
    key = (r["head_dim"], r["mode"], r["causal"], r["n_ctx"])
    a = t.get(key, {})
    if "tflops" in a and "tflops" in r:
        logs.append(math.log(r["tflops"] / a["tflops"]))
        print(key, "triton %.0f kiln %.0f  %.2f" % (a["tflops"], r["tflops"], r["tflops"] / a["tflops"]), r.get("config"))
    else:
        print(key, a.get("error"), r.get("error"))
if logs:
    print("geomean %.3f over %d" % (math.exp(sum(logs) / len(logs)), len(logs)))
PY
