#!/usr/bin/env bash
# Session 43, call 7 (for the next session): SASS of vLLM's block int8 matmul under both
# compilers (Kiln's cubins from its disk cache, Triton's from its cache, Triton's cuobjdump),
# to find where Kiln's 8 % more instructions are (ncu, call 4).
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
B=bench/vllm_bench.py
TRITON_CACHE_DIR=/tmp/tcs timeout 90 python3 $B --only block_int8_matmul --reps 3 --warmup 1 --prof-reps 0 > $r/triton.log 2>&1; echo "triton rc=$?"
KILN_LOG=cache KILN_CACHE_DIR=/tmp/kcs timeout 60 python3 -m kiln.run $B --only block_int8_matmul --reps 3 --warmup 1 --prof-reps 0 > $r/kiln.log 2>&1; echo "kiln rc=$?"
CUOBJ=$(python3 -c "import triton,os;print(os.path.dirname(triton.__file__))")/backends/nvidia/bin/cuobjdump
tc=$(find /tmp/tcs -name "_w8a8_block_int8_matmul.cubin" | head -1)
$CUOBJ -sass "$tc" > $r/triton.sass 2>&1; echo "triton sass lines $(wc -l < $r/triton.sass)"
: > $r/kiln.sass
for f in $(find /tmp/kcs -name "*.cubin"); do
  python3 -c "import sys; d=open(sys.argv[1],'rb').read(); i=d.find(b'\x7fELF'); open('/tmp/k.cubin','wb').write(d[i:])" "$f"
  echo "==== $f" >> $r/kiln.sass; $CUOBJ -sass /tmp/k.cubin >> $r/kiln.sass 2>&1
done
echo "kiln sass lines $(wc -l < $r/kiln.sass)"
for w in triton kiln; do echo "== $w opcodes"; grep -oE "^\s+/\*[0-9a-f]+\*/\s+(@!?U?P[0-9T] )?[A-Z][A-Z0-9_.]*" $r/$w.sass | awk '{print $NF}' | sed -E 's/\..*//' | sort | uniq -c | sort -rn | head -25 | tr '\n' ' '; echo; done
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
