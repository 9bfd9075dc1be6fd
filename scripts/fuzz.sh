#!/usr/bin/env bash
# Builds Kiln's libFuzzer targets (clang-22, ASan+UBSan, ./build-fuzz) and runs
# each for SECONDS (default 60), one process at a time. Corpora live in
# ./fuzz-corpus/<target> (git-ignored) and grow from run to run; findings
# (crash-*, timeout-*, leak-*, oom-*) land in ./fuzz-corpus/findings/.
# Exits non-zero on any finding. Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Environment: FUZZ_BUILD (build dir), FUZZ_JOBS (build jobs, default 2),
# FUZZ_NICE=1 to run everything under `nice -n 19`, FUZZ_TIMEOUT (seconds
# per input that count as a hang, default 2), FUZZ_SEED (libFuzzer's -seed;
# unset or 0 picks a random one, CI fixes it so a run can be replayed).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
build=${FUZZ_BUILD:-build-fuzz}
jobs=${FUZZ_JOBS:-2}
nice_cmd=()
[ "${FUZZ_NICE:-0}" = 1 ] && nice_cmd=(nice -n 19)
all=(frontend spec tile-ir pipeline decorators cache-entry)
targets=("$@")
[ $# -eq 0 ] && targets=("${all[@]}")

export CCACHE_NOHASHDIR=1 # -g1 objects: hit the cache from any checkout folder.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
if [ ! -f "$build/build.ninja" ]; then
  "${nice_cmd[@]}" cmake -G Ninja -S . -B "$build" -DKILN_FUZZ=ON \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 "${launcher[@]}" >/dev/null
fi
"${nice_cmd[@]}" cmake --build "$build" -j "$jobs" --target kiln-fuzzers

corpus_root=fuzz-corpus
findings=$corpus_root/findings
mkdir -p "$findings"

# Seeds: the repo's kernels and IR tests, plus fuzz/seeds/<target>.
seed_dirs() {
  case $1 in
    frontend|pipeline|decorators) echo fuzz/seeds/decorators test/Frontend examples ;;
    tile-ir) echo test/Dialect test/Conversion test/Analysis ;;
    spec) echo fuzz/seeds/spec ;;
    cache-entry) echo fuzz/seeds/cache-entry ;;
  esac
}
seed_glob() {
  case $1 in
    frontend|pipeline|decorators) echo '*.py' ;;
    tile-ir) echo '*.mlir' ;;
    *) echo '*' ;;
  esac
}
dict_for() {
  case $1 in
    frontend|pipeline|decorators) echo fuzz/dict/python.dict ;;
    tile-ir) echo fuzz/dict/mlir.dict ;;
  esac
}

# A --split-input-file test (parts separated by `# -----` lines) becomes one
# seed per part: as a whole file only its first kernel would be compiled, and
# every mutant would carry the other parts' cost (docs/reliability.md).
split_seed() {
  local f=$1 dir=$2 base
  base=$(basename "$f")
  if grep -qE '^(#|//) -----' "$f"; then
    [ -e "$dir/${base%.*}-0.${base##*.}" ] && return 0
    awk -v out="$dir/${base%.*}" -v ext="${base##*.}" \
      'BEGIN { n = 0 } /^(#|\/\/) -----/ { close(out "-" n "." ext); n++; next }
       { print > (out "-" n "." ext) }' "$f"
  else
    cp -n "$f" "$dir/"
  fi
}

# allow_user_poisoning=0: see fuzz/AsanOptions.cpp.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
summary=()
for t in "${targets[@]}"; do
  corpus=$corpus_root/$t
  mkdir -p "$corpus"
  for d in $(seed_dirs "$t"); do
    [ -d "$d" ] || continue
    find "$d" -type f -name "$(seed_glob "$t")" -print0 | while IFS= read -r -d '' f; do
      split_seed "$f" "$corpus"
    done
  done
  dict=$(dict_for "$t")
  args=(-max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-2}" -rss_limit_mb=2560 -detect_leaks=1
        -max_len=8192 -print_final_stats=1 -artifact_prefix="$findings/$t-")
  [ -n "$dict" ] && args+=(-dict="$dict")
  [ -n "${FUZZ_SEED:-}" ] && args+=(-seed="$FUZZ_SEED")
  log=$corpus_root/$t.log
  echo "== fuzz $t for ${seconds}s (log: $log)"
  rc=0
  "${nice_cmd[@]}" "$build/bin/kiln-fuzz-$t" "${args[@]}" "$corpus" >"$log" 2>&1 || rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  size=$(find "$corpus" -type f | wc -l)
  if [ $rc -ne 0 ]; then
    status=1
    summary+=("$t: FINDING (exit $rc) after $execs executions; see $log and $findings/")
    grep -E 'ERROR|SUMMARY|kiln fuzz|runtime error|Test unit written|round trip' "$log" | head -8 || true
    # The input itself, so a CI log alone is enough to reproduce the finding.
    unit=$(grep -o 'Test unit written to [^ ]*' "$log" | head -1 | sed 's/^Test unit written to //')
    if [ -n "$unit" ] && [ -f "$unit" ]; then
      echo "input ($(wc -c <"$unit") bytes, base64):"
      head -c 4096 "$unit" | base64
    fi
  else
    summary+=("$t: ${seconds}s, $execs executions, $rate exec/s, corpus $size")
  fi
done
printf '%s\n' "${summary[@]}"
exit $status
