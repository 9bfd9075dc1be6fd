#!/usr/bin/env bash
# Session 52, call 6 (final code 971781d): mamba's SSD forward kernels, whose K loops advance their
# copy pointers by `BLOCK_SIZE_K * stride_x_seqlen` (runtime strides: the rebase now takes
# them; locally the chunk state's 64 x 128 / 4 warps config 151 -> 128 registers, Triton's count),
# every config of their autotune lists forced in turn under Triton, Kiln before (deef077) and Kiln
# now; then mamba's own test_ssd.py under Kiln.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
mkdir -p /tmp/before && xz -dc .ext/before/python/kiln/libkiln.so.xz > /tmp/before/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
timeout 120 python3 bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $r/mk-triton.json > $r/mk-triton.txt 2>&1; echo "mk triton rc=$?"
KILN_LIBRARY=/tmp/before/libkiln.so KILN_CACHE_DIR=/tmp/kc-A timeout 90 python3 -m kiln.run bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $r/mk-A.json > $r/mk-A.txt 2>&1; echo "mk before rc=$?"
KILN_CACHE_DIR=/tmp/kc-N timeout 90 python3 -m kiln.run bench/mamba_kernels_bench.py --only chunk_state,chunk_scan --out $r/mk-N.json > $r/mk-N.txt 2>&1; echo "mk now rc=$?"
date -u >> $r/device.txt
python3 - $r <<'PY'
import json, sys, math, re
r = sys.argv[1]
def load(tag):
    out = {}
    for line in open(f"{r}/mk-{tag}.txt"):
        m = re.match(r"^(\w+)\s+(\S+ w\d s\d)\s+.*?kernel\s+([\d.]+) us(.*)$", line.rstrip())
        if m:
            out[(m.group(1), m.group(2))] = (float(m.group(3)), m.group(4).strip())
    return out
t, a, n = load("triton"), load("A"), load("N")
logs = {"A": {}, "N": {}}
print("%-12s %-48s %8s %8s %8s  A/T   N/T" % ("kernel", "config", "triton", "before", "now"))
for k in sorted(set(a) | set(n)):
    tv, av, nv = (x.get(k, (None, ""))[0] for x in (t, a, n))
    ra = av / tv if tv and av else None
    rn = nv / tv if tv and nv else None
    print("%-12s %-48s %8s %8s %8s  %s  %s  %s" % (k[0], k[1], tv, av, nv, "%.3f" % ra if ra else "-",
          "%.3f" % rn if rn else "-", n.get(k, (0, ""))[1][:40]))
    for tag, rv in (("A", ra), ("N", rn)):
        if rv:
            logs[tag].setdefault(k[0], []).append(math.log(rv))
for tag in "AN":
    for kern, v in logs[tag].items():
        print("geomean %s %s / Triton: %.3f over %d" % ("before" if tag == "A" else "now", kern, math.exp(sum(v) / len(v)), len(v)))
PY
( cd .ext/mamba && KILN_CACHE_DIR=/tmp/kcm timeout 100 python3 -m kiln.run -m pytest -q -x tests/ops/triton/test_ssd.py > $r/mamba-pytest.txt 2>&1 ); echo "mamba pytest rc=$?"
tail -3 $r/mamba-pytest.txt
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
