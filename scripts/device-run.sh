#!/usr/bin/env bash
# Runs ON the GPU machine, from the repository root, with .device/ (made by
# scripts/build-device-bundle.sh) carried along:
#   1. the GPU GoogleTests (RuntimeGpuTests), 2. the AOT LayerNorm example
#   (examples/aot: forward kernel compiled at build time, no LLVM in the
#   binary) against its CPU reference, 3. the LayerNorm example in three
#   dtypes, 4. ln-bench, 5. bench/compare_triton.py (Triton 3.6 on the same
#   kernel file with the same shapes and launch parameters).
# Everything is written under $OUT (default ./out), at most 8 files:
#   run.log  gtest-gpu.xml  ln-bench.json  triton.json  compare.md
#   performance.md (bench/perf_report.py: the table for docs/performance.md)
#
#   scripts/device-run.sh [--quick] [--skip-tests] [--skip-aot] [--skip-bench]
#                         [--skip-triton] [--gtest-filter=PATTERN]
#                         [--bench-args="..."] [--kiln-json=FILE]
#                         [--sanitize[=TOOLS]] [--sanitize-only[=TOOLS]]
# --sanitize runs compute-sanitizer (memcheck, racecheck, synccheck, initcheck,
# or the comma-separated TOOLS) over the LayerNorm kernels (every GPU test of
# them at small shapes) and the corpus at its small shapes (Kiln only,
# correctness only), with KILN_DEBUG=1 (device asserts compiled in) for the
# corpus; any report fails the step. --sanitize-only skips everything else.
# --quick runs ln-bench --quick (a short sweep); a full run (about 6-9 min)
# can be split: --skip-bench --skip-triton first, then --skip-tests.
# --kiln-json reuses an ln-bench JSON from an earlier call for the Triton
# comparison instead of running ln-bench.
# Exit status: 0 when every step passed, else 1 (later steps still run).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${OUT:-$root/out}
mkdir -p "$out"
log="$out/run.log"
: > "$log"

quick=0 tests=1 aot=1 bench=1 triton=1 filter="" bench_args="" kiln_json="" sanitize=""
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    --skip-tests) tests=0 ;;
    --skip-aot) aot=0 ;;
    --skip-bench) bench=0 ;;
    --skip-triton) triton=0 ;;
    --gtest-filter=*) filter=${a#*=} ;;
    --bench-args=*) bench_args=${a#*=} ;;
    --kiln-json=*) kiln_json=${a#*=} ;;
    --sanitize) sanitize=memcheck,racecheck,synccheck,initcheck ;;
    --sanitize=*) sanitize=${a#*=} ;;
    --sanitize-only) sanitize=memcheck,racecheck,synccheck,initcheck tests=0 aot=0 bench=0 triton=0 ;;
    --sanitize-only=*) sanitize=${a#*=} tests=0 aot=0 bench=0 triton=0 ;;
    *) echo "device-run.sh: unknown option $a" >&2; exit 2 ;;
  esac
done

say() { echo "== $*" | tee -a "$log"; }
status=0
declare -a summary

# Unpack the bundle (xz through tar, or Python's tarfile if xz is missing).
dest=/tmp/kiln-bundle
rm -rf "$dest" && mkdir -p "$dest"
if [ ! -f .device/kiln-bundle.tar.xz ]; then
  echo "error: .device/kiln-bundle.tar.xz missing: run scripts/build-device-bundle.sh and carry .device" | tee -a "$log"
  exit 1
fi
if command -v xz >/dev/null; then
  tar -xJf .device/kiln-bundle.tar.xz -C "$dest"
else
  python3 -c "import tarfile,sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
    .device/kiln-bundle.tar.xz "$dest"
fi
bin=$dest/bin
kernels=$dest/layer_norm.py
[ -f "$kernels" ] || kernels=examples/layernorm/layer_norm.py
compare=$dest/compare_triton.py
[ -f bench/compare_triton.py ] && compare=bench/compare_triton.py

say "device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1); $(date -u +%Y-%m-%dT%H:%M:%SZ)"
export KILN_CACHE_DIR=${KILN_CACHE_DIR:-/tmp/kiln-cache}
export PYTHONUNBUFFERED=1

run_step() { # name, command...
  local name=$1
  shift
  say "$name: $*"
  local t0=$SECONDS
  "$@" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  summary+=("$(printf '%-22s rc=%-3s %4ss' "$name" "$rc" $((SECONDS - t0)))")
  [ "$rc" -eq 0 ] || status=1
  return "$rc"
}

if [ "$tests" = 1 ]; then
  gargs=(--gtest_output=xml:"$out/gtest-gpu.xml")
  [ -n "$filter" ] && gargs+=(--gtest_filter="$filter")
  run_step gpu-tests "$bin/RuntimeGpuTests" "${gargs[@]}"
fi

if [ "$aot" = 1 ]; then
  if [ -x "$bin/aot-layernorm" ]; then
    # Default 1151 rows, then a larger M; each checks y, mean and rstd.
    run_step aot-example "$bin/aot-layernorm"
    run_step aot-example-4096 "$bin/aot-layernorm" 4096
  else
    say "aot-example: skipped ($bin/aot-layernorm not in the bundle)"
  fi
fi

if [ "$bench" = 1 ]; then
  for dt in fp16 bf16 fp32; do
    run_step "example-$dt" "$bin/layernorm-example" 1151 8192 "$dt"
  done
  bargs=(--json "$out/ln-bench.json")
  [ "$quick" = 1 ] && bargs+=(--quick --dtypes fp16,bf16,fp32)
  # shellcheck disable=SC2206
  [ -n "$bench_args" ] && bargs+=($bench_args)
  run_step ln-bench "$bin/ln-bench" "${bargs[@]}"
  kiln_json=$out/ln-bench.json
fi

if [ "$triton" = 1 ]; then
  if [ -n "$kiln_json" ] && [ -f "$kiln_json" ]; then
    run_step compare-triton python3 "$compare" "$kiln_json" --kernels "$kernels" \
      --markdown "$out/compare.md" --json "$out/triton.json"
  else
    say "compare-triton: skipped (no ln-bench JSON; give --kiln-json=FILE)"
  fi
fi

if [ -n "$kiln_json" ] && [ -f "$kiln_json" ]; then
  rargs=("$kiln_json" -o "$out/performance.md")
  [ -f "$out/triton.json" ] && rargs+=(--triton "$out/triton.json")
  [ -f "$out/gtest-gpu.xml" ] && rargs+=(--gtest "$out/gtest-gpu.xml")
  report=bench/perf_report.py
  [ -f "$report" ] || report=$dest/perf_report.py
  run_step perf-report python3 "$report" "${rargs[@]}"
fi

if [ -n "$sanitize" ]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  # Small shapes: the sanitizers slow kernels down 10-100x.
  ln_filter='Shapes/LayerNormGpu.*1x1*:Shapes/LayerNormGpu.*3x777*:Shapes/LayerNormGpu.*7x3000*'
  ln_filter+=':LayerNormGpuStride.*:GpuLaunch.DynamicSharedMemoryAbove48KB:GpuLaunch.HandWrittenPTXRuns'
  corpus=bench/corpus_run.py
  IFS=, read -r -a tools <<< "$sanitize"
  for tool in "${tools[@]}"; do
    case "$tool" in memcheck|racecheck|synccheck|initcheck) ;;
      *) say "sanitize: unknown tool '$tool'"; status=1; continue ;; esac
    csargs=(--tool "$tool" --error-exitcode 1 --print-limit 20)
    lnargs=("${csargs[@]}")
    # Leak checks on the C++ tests only: under Python, PyTorch's caching
    # allocator keeps its 2 MB blocks to the end of the process by design.
    [ "$tool" = memcheck ] && lnargs+=(--leak-check full)
    run_step "san-$tool-layernorm" "$cs" "${lnargs[@]}" "$bin/RuntimeGpuTests" --gtest_filter="$ln_filter"
    if [ -f "$corpus" ]; then
      # Kiln's kernels only: torch's own kernels are not what is checked here.
      run_step "san-$tool-corpus" env KILN_DEBUG=1 scripts/kiln-pytest-env.sh \
        "$cs" "${csargs[@]}" --target-processes all --kernel-name-exclude kns=at:: \
        python3 "$corpus" --quick --kiln-only --no-timing --instance-timeout 300 \
        --json "$out/sanitize-$tool.json"
    fi
  done
fi

say "summary"
for s in "${summary[@]}"; do echo "  $s" | tee -a "$log"; done
grep -E '^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \] [0-9]|FAILED TESTS?$' "$log" || true
exit $status
