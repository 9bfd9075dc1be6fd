#!/usr/bin/env bash
# The main job behind `make run`: compile the built-in LayerNorm kernels to PTX
# (and validate them with ptxas when the CUDA toolkit is present); with a GPU,
# run the example against the CPU reference and a short benchmark.
set -euo pipefail
build=${1:-build}
bin=$build/bin
out=$build/kiln-out

if [ -x "$bin/ln-compile" ]; then
  "$bin/ln-compile" -o "$out" --time
  ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
  if [ -x "$ptxas" ]; then
    for f in "$out"/*.ptx; do
      "$ptxas" -arch=sm_90 "$f" -o /dev/null && echo "ptxas -arch=sm_90 accepts $f"
    done
  else
    echo "ptxas not found: skipping PTX validation"
  fi
else
  "$bin/kiln-opt" --version
  echo "ln-compile is not built yet"
fi

if [ -x "$bin/layernorm-example" ] && { [ -e /dev/nvidia0 ] || command -v nvidia-smi >/dev/null 2>&1; }; then
  "$bin/layernorm-example"
  [ -x "$bin/ln-bench" ] && "$bin/ln-bench" --quick
else
  echo "no CUDA GPU here: skipping the GPU example and benchmark"
fi
