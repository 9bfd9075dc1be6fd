#!/usr/bin/env bash
# Session 34, call 2b (the same machine, right after call 2, whose tutorial step had a relative
# path): tutorials 11, 08 and 09, unmodified, under Triton and under Kiln's drop-in, each from a
# cold cache (run_triton_tutorials.py; per-run stdout/stderr in call2b-tutorials-out.tar.gz).
# Code: 4539ef3 (before the hint fix of call 3).
export PYTHONUNBUFFERED=1; scripts/kiln-pytest-env.sh true >/dev/null || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
mkdir -p /tmp/tut2; date -u > $OUT/device.txt
timeout 280 python3 test/gpu/run_triton_tutorials.py $PWD/.ext/triton-tutorials --only 11,08,09 --keep /tmp/tut2 --timeout 120 > $OUT/tutorials.txt 2>&1; echo "tutorials rc=$?"
cut -c1-250 $OUT/tutorials.txt | tail -40; (cd /tmp/tut2 && tar czf $OUT/tutorials-out.tar.gz .); date -u >> $OUT/device.txt
