#!/usr/bin/env bash
# Session 28, call 5: why mamba's chunk state is 1.10-1.16x Triton: Triton's PTX / SASS of every
# config, ncu of both compilers at 64 x 128 (4 warps, config 4) and 64 x 64 (2 warps, config 8).
set -u
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || exit 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
nvidia-smi -L > $OUT/device.txt; date -u >> $OUT/device.txt
TBIN=$(python3 -c "import triton, os; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin'))")
W=/tmp/w5; mkdir -p $W/triton
TRITON_CACHE_DIR=/tmp/tc5 timeout 100 python3 bench/mamba_kernels_bench.py --only chunk_state > $W/triton-run.txt 2>&1; echo "triton rc=$?"
n=0; for j in $(grep -l '"name": "_chunk_state_fwd_kernel"' /tmp/tc5/*/*.json); do d=$(dirname $j); for f in $d/*.ptx $d/*.cubin $d/*.ttgir; do cp $f $W/triton/cfg$n.${f##*.}; done; n=$((n+1)); done
for f in $W/triton/*.cubin; do $TBIN/cuobjdump -sass $f > $f.sass 2>&1; done
for cfg in 4 8; do for who in triton kiln; do
  if [ $who = kiln ]; then py="python3 -m kiln.run"; else py=python3; fi
  TRITON_CACHE_DIR=/tmp/tc5 KILN_CACHE_DIR=/tmp/kc5 timeout 120 ncu --kernel-name regex:_chunk_state_fwd --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section SchedulerStats --metrics smsp__pcsamp_warps_issue_stalled_long_scoreboard,smsp__pcsamp_warps_issue_stalled_barrier,smsp__pcsamp_warps_issue_stalled_wait,smsp__pcsamp_warps_issue_stalled_math_pipe_throttle,smsp__pcsamp_warps_issue_stalled_short_scoreboard,smsp__pcsamp_warps_issue_stalled_mio_throttle,smsp__pcsamp_warps_issue_stalled_lg_throttle,smsp__pcsamp_warps_issue_stalled_selected,smsp__pcsamp_warps_issue_stalled_not_selected,smsp__pcsamp_warps_issue_stalled_dispatch_stall,smsp__pcsamp_warps_issue_stalled_no_instructions $py bench/mamba_kernels_bench.py --only chunk_state --config $cfg > $W/ncu-$cfg-$who.txt 2>&1; echo "ncu $cfg $who rc=$?"
  grep -E "Duration|Registers Per|Executed Instructions  |Theoretical Occ|Warp Cycles Per Issued|Dynamic Shared" $W/ncu-$cfg-$who.txt
done; done
cd $W && tar czf $OUT/call5.tgz .
