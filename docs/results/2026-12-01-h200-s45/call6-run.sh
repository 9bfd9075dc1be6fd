#!/usr/bin/env bash
# Session 45, call 6: does the compiler that turns Kiln's PTX into SASS explain the corpus's
# remaining tensor-core gaps (attention 1.04, moe_gemm odd 1.07-1.10)? The same PTX (the
# session's final code) timed three ways, Kiln's runtime and corpus harness each time: the
# driver's JIT as the backend marks each kernel (KILN_JIT=auto: whole program or linked), the
# driver's linker for all (KILN_JIT=link), and cubins built by a `ptxas` (Triton's 12.8, and the
# CUDA 13.0 one of the build machine) put in place of the linker's cubins in Kiln's disk cache
# (entries re-encoded with their checksums), all without the occupancy builds; auto2 is the
# default runtime (occupancy builds on). Triton once for the ratios.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD/python
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
xz -dc .ext/jitexp/libkiln.so.xz > /tmp/libkiln.so; export KILN_LIBRARY=/tmp/libkiln.so
xz -dc .ext/jitexp/ptxas13.xz > /tmp/ptxas13; chmod +x /tmp/ptxas13
P128=$(python3 -c "import triton,os;print(os.path.dirname(triton.__file__))")/backends/nvidia/bin/ptxas
F=attention_kernel,moe_gemm,block_scaled,matmul_kernel,bmm_bias
TRITON_CACHE_DIR=/tmp/tc timeout 120 python3 bench/corpus_run.py --triton-only --filter $F --json $r/triton.json > $r/triton.txt 2>&1; echo "triton rc=$?"
run() { KILN_OCCUPANCY=${OCC:-off} KILN_CACHE_DIR=$2 timeout 90 python3 bench/corpus_run.py --kiln-only --filter $F --json $r/$1.json > $r/$1.txt 2>&1; echo "$1 rc=$? $(grep -E 'instances correct' $r/$1.txt)"; }
KILN_JIT=auto run auto /tmp/ka
KILN_JIT=link run link /tmp/kl
# Replace the linker's cubins by ptxas builds of the same PTX.
swap() {
python3 - "$1" "$2" <<'PY'
import ctypes, glob, hashlib, json, os, subprocess, sys
src, ptxas = sys.argv[1], sys.argv[2]
v = ctypes.c_int(); ctypes.CDLL("libcuda.so.1").cuDriverGetVersion(ctypes.byref(v))
def decode(path):
    data = open(path, "rb").read(); nl = data.index(b"\n")
    return data[:nl].decode().split(" "), data[nl + 1:]
n = 0
for kf in glob.glob(src + "/v1/*/*.kernel"):
    key = os.path.basename(kf)[:-len(".kernel")]
    hdr, payload = decode(kf)
    ptx = json.loads(payload)["ptx"]
    open("/tmp/x.ptx", "w").write(ptx)
    p = subprocess.run([ptxas, "-arch=sm_90a", "/tmp/x.ptx", "-o", "/tmp/x.cubin"], capture_output=True, text=True)
    if p.returncode:
        print("ptxas failed", key, p.stderr[:200]); continue
    ck = hashlib.sha256(("kiln-cubin 1\nkernel-key %s\ncc 9.0\ndriver %d\n" % (key, v.value)).encode()).hexdigest()
    path = "%s/v1/%s/%s.cubin" % (src, ck[:2], ck)
    if not os.path.exists(path):
        print("no cubin entry for", key); continue
    body = open("/tmp/x.cubin", "rb").read()
    head = "KILNCACHE 1 cubin %s %d %s\n" % (ck, len(body), hashlib.sha256(body).hexdigest())
    open(path, "wb").write(head.encode() + body); n += 1
print("replaced", n, "cubins")
PY
}
for p in 128:$P128 130:/tmp/ptxas13; do
  v=${p%%:*}; x=${p#*:}
  rm -rf /tmp/kp$v; cp -r /tmp/kl /tmp/kp$v
  swap /tmp/kp$v $x
  KILN_JIT=link KILN_LOG=cache run ptxas$v /tmp/kp$v
  grep -c "hit cubin" $r/ptxas$v.txt
done
OCC=auto KILN_JIT=auto run auto2 /tmp/ka2
date -u >> $r/device.txt
python3 - $r > $r/summary.txt <<'PY'
import json, sys
r = sys.argv[1]
def load(n, impl):
    return {x["id"]: (x.get(impl) or {}).get("us") for x in json.load(open(f"{r}/{n}.json"))["results"]}
tri = load("triton", "triton")
runs = {n: load(n, "kiln") for n in ("auto", "link", "ptxas128", "ptxas130", "auto2")}
print("%-48s %8s %8s %8s %8s %8s %8s" % ("instance", "triton", "auto", "link", "ptxas128", "ptxas130", "auto2"))
for k, t in tri.items():
    print("%-48s %8.2f " % (k, t or 0) + " ".join("%8.3f" % ((runs[n].get(k) or 0) / t if t else 0) for n in runs))
PY
cat $r/summary.txt
tar czf $OUT/results.tgz -C $OUT r
