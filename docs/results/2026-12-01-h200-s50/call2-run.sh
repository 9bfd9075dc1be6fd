#!/usr/bin/env bash
# Session 50, call 2: where call 1's segfaults (epilogue TMA stores, KILN_EXP_EPILOGUE_TMA=1)
# happen: desc_kernels.host_copy with a TMA store after no loop, under faulthandler / gdb,
# with the driver's linker and with a whole-program JIT.
set -u
for d in . "$(dirname "$0")/.." "$(dirname "$0")/../../.."; do
  [ -f "$d/bench/vllm_bench.py" ] && cd "$d" && break
done
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
which gdb; nvidia-smi | head -4 | tail -2
for jit in link whole; do
  echo "== KILN_JIT=$jit"
  KILN_JIT=$jit KILN_EXP_EPILOGUE_TMA=1 KILN_CACHE_DIR=/tmp/kc-$jit timeout 60 python3 -X faulthandler -m kiln.run .ext/tools/hc_repro.py 2>&1 | tail -25; echo "rc=${PIPESTATUS[0]}"
done
if which gdb >/dev/null; then
  KILN_EXP_EPILOGUE_TMA=1 KILN_CACHE_DIR=/tmp/kc-gdb timeout 120 gdb -batch -ex run -ex bt --args python3 -m kiln.run .ext/tools/hc_repro.py > $r/gdb.txt 2>&1
  grep -A30 "SIGSEGV" $r/gdb.txt | head -40
fi
echo "== attention D64 BM64 BN64"
for i in 1 2 3; do
  KILN_EXP_EPILOGUE_TMA=1 KILN_CACHE_DIR=/tmp/kca-$i timeout 60 python3 -X faulthandler -m kiln.run .ext/tools/attn_epilogue_ab.py "D64 BM64 BN64" 2>&1 | tail -12; echo "rc=${PIPESTATUS[0]}"
done
tar czf $OUT/results.tgz -C /tmp kc-link kc-whole 2>/dev/null
