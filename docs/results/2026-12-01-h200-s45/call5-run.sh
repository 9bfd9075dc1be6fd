#!/usr/bin/env bash
# Session 45, call 5: SASS of three corpus kernels as the local ptxas 13.0 builds them whole-program
# (sm_90a; the cubins compiled here from the session's final PTX, .ext/sass/), disassembled by
# Triton's cuobjdump on the device, to compare their K loops with Triton's (call 4's SASS).
CUOBJ=$(python3 -c "import triton,os;print(os.path.dirname(triton.__file__))")/backends/nvidia/bin/cuobjdump; mkdir -p $OUT/s; for f in .ext/sass/*.cubin; do $CUOBJ -sass $f > $OUT/s/$(basename $f .cubin).sass 2>&1; done; ls -la $OUT/s; $(dirname $CUOBJ)/ptxas --version | tail -1
