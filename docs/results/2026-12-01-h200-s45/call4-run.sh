#!/usr/bin/env bash
# Session 45, call 4: the session's final code (TMA loop fence c07cd24 + tile-rebase-copy-pointers).
# RuntimeGpuTests; vLLM's kernels under both compilers; mamba's SSD tests under Kiln; the
# fused-attention tutorial's own pytest subset under Kiln; compare_kernels tma / desc / blockptr /
# dotscaled / compat. Then SASS of the corpus attention_kernel (large, 1.04-1.05 of Triton) and
# moe_gemm_kernel (odd, 1.07-1.10) under both compilers, for the next step.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kg timeout 120 /tmp/kiln-bundle/bin/RuntimeGpuTests --gtest_brief=1 > $r/gtest.txt 2>&1; echo "gtest rc=$?"; tail -2 $r/gtest.txt
date -u >> $r/device.txt
TRITON_CACHE_DIR=/tmp/tc timeout 150 python3 bench/vllm_bench.py --out $r/vllm-triton.json > $r/vllm-triton.log 2>&1; echo "vllm triton rc=$?"
KILN_CACHE_DIR=/tmp/kc1 timeout 120 python3 -m kiln.run bench/vllm_bench.py --out $r/vllm-kiln.json > $r/vllm-kiln.log 2>&1; echo "vllm kiln rc=$?"
python3 bench/vllm_bench.py --compare $r/vllm-triton.json $r/vllm-kiln.json > $r/vllm-compare.txt 2>&1
grep -v Memcpy $r/vllm-compare.txt | grep -E "^    |geomean|DIFF|differ|same" | cut -c1-200
date -u >> $r/device.txt
ONLY=kiln FILES=tests/ops/triton/test_ssd.py KILN_CACHE_DIR=/tmp/kc3 timeout 110 test/gpu/run_mamba.sh $r/mamba 2 100 > $r/mamba-run.txt 2>&1; echo "mamba rc=$?"
tail -3 $r/mamba-run.txt | cut -c1-200
date -u >> $r/device.txt
(KILN_CACHE_DIR=/tmp/kc6p timeout 100 python3 -m kiln.run -m pytest -x -q .ext/triton-tutorials/06-fused-attention.py -k "128-2-1 or 1024-2-1 or 4096-2-1" > $r/t06-pytest.txt 2>&1; echo "t06 pytest rc=$?"); tail -1 $r/t06-pytest.txt
date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kc0 timeout 150 python3 test/gpu/compare_kernels.py --only tma,desc,blockptr,dotscaled,compat > $r/compare.txt 2>&1; echo "compare rc=$?"
grep -E "^FAIL|passed, " $r/compare.txt | cut -c1-200 | tail -8
date -u >> $r/device.txt
CUOBJ=$(python3 -c "import triton,os;print(os.path.dirname(triton.__file__))")/backends/nvidia/bin/cuobjdump
for k in attention_kernel/large/fp16 moe_gemm_kernel/odd/fp16; do
  n=${k%%/*}
  TRITON_CACHE_DIR=/tmp/tcs-$n timeout 60 python3 bench/corpus_run.py --triton-only --filter $k --warmup 1 --reps 2 > /dev/null 2>&1
  KILN_CACHE_DIR=/tmp/kcs-$n timeout 60 python3 bench/corpus_run.py --kiln-only --filter $k --warmup 1 --reps 2 > /dev/null 2>&1
  tc=$(find /tmp/tcs-$n -name "$n.cubin" | head -1)
  $CUOBJ -sass "$tc" > $r/triton-$n.sass 2>&1
  : > $r/kiln-$n.sass
  for f in $(find /tmp/kcs-$n -name "*.cubin"); do
    python3 -c "import sys; d=open(sys.argv[1],'rb').read(); i=d.find(b'\x7fELF'); open('/tmp/k.cubin','wb').write(d[i:])" "$f"
    $CUOBJ -sass /tmp/k.cubin >> $r/kiln-$n.sass 2>&1
  done
  python3 .ext/tools/sass_loopstat.py $r/triton-$n.sass $r/kiln-$n.sass | cut -c1-300
done 2>&1 | tee $r/sass-loops.txt
gzip -9 $r/*.sass
date -u >> $r/device.txt
tar czf $OUT/results.tgz -C $OUT r
