#!/usr/bin/env bash
# Session 32, call 6: the explicit-stream test again, its launch path warmed up first and the side
# stream kept busy for about a second and non-blocking (CuPy's): in call 5 and in this call's first
# two tries (call6a, call6b: a sleep of 2e9 cycles, which may not fit the sleep kernel's count) the
# side stream had finished its queued work before the check (call6c: 5e8 cycles, the same); now ten
# sleeps of 5e7 cycles, timed with events.
set -u
cd "$(dirname "$0")/.."
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
(cd python/tests && KILN_CACHE_DIR=/tmp/ks timeout 60 python3 -m kiln.run gpu_dropin_stream.py > $OUT/stream.txt 2>&1; echo "stream rc=$?"); cat $OUT/stream.txt
