#!/usr/bin/env bash
# Session 32, call 7: regression check of the block-pointer / descriptor addressing rewrite and the
# descriptor-kernel parameter change on Triton's own tests: test_block_pointer.py and
# test_tensor_descriptor.py under Kiln, every 2nd parametrization (session 30 knew 3 and 14 of
# their tests failing, for reasons listed there); the failures' ids and first errors kept.
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
ONLY=kiln KILN_CACHE_DIR=/tmp/kc-tt timeout 280 test/gpu/tritontests/run.sh $OUT/tt 2 260 unit/language/test_block_pointer.py unit/language/test_tensor_descriptor.py > $OUT/tt.log 2>&1; echo "tests rc=$?"
grep -E "^== |tests:|kernels:" $OUT/tt.log
python3 - $OUT/tt/keep <<'PY' > $OUT/failed.txt
import glob, sys, xml.etree.ElementTree as ET
for f in glob.glob(sys.argv[1] + "/*.xml"):
    for case in ET.parse(f).getroot().iter("testcase"):
        bad = case.find("failure") if case.find("failure") is not None else case.find("error")
        if bad is not None:
            msg = (bad.get("message") or "").splitlines()
            print(case.get("classname"), case.get("name"), "|", msg[0][:200] if msg else "")
PY
wc -l < $OUT/failed.txt; cut -c1-220 $OUT/failed.txt | head -40
rm -rf $OUT/tt/keep
date -u >> $OUT/device.txt
