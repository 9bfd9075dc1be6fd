#!/usr/bin/env bash
# Session 57, call 5 (H200): why ptxas runs the kkt solve's 4 independent row reductions one
# after another for Kiln's PTX (ncu, call 3) and interleaved for Triton's: both PTX files
# (BK=64 w1; Kiln's from its compile log, Triton's from session 55) through the toolkit's
# ptxas and through the ptxas bundled with Triton, SASS of each.
set -u
cd "$(dirname "$0")/../../.." || exit 1
r=$OUT/r; mkdir -p $r
TP=$(python3 -c "import triton,os;print(os.path.join(os.path.dirname(triton.__file__),'backends/nvidia/bin/ptxas'))")
{ echo "toolkit: $(which ptxas)"; ptxas --version | tail -1; echo "triton: $TP"; $TP --version | tail -1; } > $r/versions.txt
cat $r/versions.txt
for who in kiln triton; do
  for p in toolkit tritonptxas; do
    exe=ptxas; [ $p = tritonptxas ] && exe=$TP
    $exe -arch=sm_90a -v .device/$who-kkt-64-1.ptx -o /tmp/$who-$p.cubin > $r/$who-$p.ptxas.txt 2>&1
    cuobjdump --dump-sass /tmp/$who-$p.cubin | grep -E "^\s+/\*[0-9a-f]+\*/" | sed -E 's/ +\/\* 0x[0-9a-f]+ \*\///' > $r/$who-$p.sass
    echo "$who $p: $(grep -o 'Used [0-9]* registers' $r/$who-$p.ptxas.txt) $(wc -l < $r/$who-$p.sass) instrs"
  done
done
tar czf $OUT/results.tgz -C $OUT r
