#!/usr/bin/env bash
# Session 58, call 4 (H200): SASS of the kkt solve's BK=64 w1 build with LLVM's machine sinking
# on and off (PTX compiled here from the session-57 compile log line; KILN_LLVM_OPTIONS), to see
# whether freeing the predicates held across the substitution loops lets ptxas interleave them.
set -u
cd "$(dirname "$0")/../../.." || exit 1
r=$OUT/r; mkdir -p $r
for v in sink nosink; do
  ptxas -arch=sm_90a -v .device/kkt-$v.ptx -o /tmp/kkt-$v.cubin > $r/kkt-$v.ptxas.txt 2>&1
  cuobjdump --dump-sass /tmp/kkt-$v.cubin > $r/kkt-$v.sass 2>&1
  echo "$v: $(grep -o 'Used [0-9]* registers' $r/kkt-$v.ptxas.txt) $(grep -c SHFL $r/kkt-$v.sass) SHFL"
done
tar czf $OUT/results.tgz -C $OUT r
