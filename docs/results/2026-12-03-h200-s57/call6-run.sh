#!/usr/bin/env bash
# Session 57, call 6 (H200): the LayerNorm forward at 16384 columns under the final plan (whole
# rows except many fp16 rows, chunked), with Kiln's own kernels also run by Triton
# (ours_triton: the same layer_norm_fast.py kernel and launch parameters) to tell code
# generation from algorithm where torch.compile's two-pass kernel is faster.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r; mkdir -p $r
pack() { date -u >> $r/device.txt; tar czf $OUT/results.tgz -C $OUT r; }
nvidia-smi -L > $r/device.txt; date -u >> $r/device.txt
KILN_CACHE_DIR=/tmp/kl TRITON_CACHE_DIR=/tmp/tl timeout 200 python3 bench/layernorm_best.py --out $r/ln --tag fwd16k --mode fwd \
  --dtype fp16,bf16 --M 4096,65536 --N 8192,16384 --columns kiln,compiled,copy --ours-under-triton --max-seconds 170 > $r/ln.log 2>&1
echo "ln rc=$?"; grep "^fwd\|^|" $r/ln.log; pack
