#!/usr/bin/env bash
# Runs Kiln's libFuzzer targets on the GPU machine's CPU cores (16 there, 2
# here): the fuzzers need no GPU, and libFuzzer's fork mode spreads one target
# over every core. Three steps:
#
#   scripts/fuzz-device.sh pack TARGET...     here: .fuzzdev/fuzz.tar.xz holds
#       build-fuzz/bin/kiln-fuzz-TARGET, fuzz-corpus/TARGET and the dictionary
#       (build them first: scripts/fuzz.sh 1 TARGET)
#   scripts/fuzz-device.sh run SECONDS JOBS TARGET...    on the device, with
#       carry [".fuzzdev"]: unpacks to /tmp/fuzzdev, fuzzes each target for
#       SECONDS with -fork=JOBS, and leaves in $OUT per target the log
#       (TARGET.log), the grown corpus (TARGET-corpus.tar.xz) and any finding
#   scripts/fuzz-device.sh unpack DIR         here: merges the corpora and
#       findings the run brought back (DIR = the run's files_at) into
#       fuzz-corpus/ and prints each target's executions
#
# Options are scripts/fuzz.sh's (timeout 2 s per input, 2.5 GB RSS per
# process, leaks detected, 8 KiB inputs); FUZZ_SEED fixes the seed.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
shift || true

dict_for() {
  case $1 in
    frontend|pipeline|decorators) echo fuzz/dict/python.dict ;;
    tile-ir) echo fuzz/dict/mlir.dict ;;
  esac
}

case $mode in
pack)
  [ $# -gt 0 ] || { echo "usage: $0 pack TARGET..." >&2; exit 2; }
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$stage/bin" "$stage/corpus" "$stage/dict"
  for t in "$@"; do
    exe=build-fuzz/bin/kiln-fuzz-$t
    [ -x "$exe" ] || { echo "error: $exe missing: run scripts/fuzz.sh 1 $t first" >&2; exit 1; }
    cp "$exe" "$stage/bin/"
    mkdir -p "$stage/corpus/$t"
    [ -d "fuzz-corpus/$t" ] && cp -r "fuzz-corpus/$t/." "$stage/corpus/$t/"
    d=$(dict_for "$t")
    [ -n "$d" ] && cp "$d" "$stage/dict/$t.dict"
  done
  mkdir -p .fuzzdev
  tar -C "$stage" -cf - . | xz -T2 -6 > .fuzzdev/fuzz.tar.xz
  ls -la .fuzzdev/fuzz.tar.xz
  ;;
run)
  [ $# -ge 3 ] || { echo "usage: $0 run SECONDS JOBS TARGET..." >&2; exit 2; }
  seconds=$1 jobs=$2
  shift 2
  out=${OUT:?run on the device machine, where \$OUT is set}
  work=/tmp/fuzzdev
  rm -rf "$work" && mkdir -p "$work"
  tar -xJf .fuzzdev/fuzz.tar.xz -C "$work"
  export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=1:abort_on_error=1:symbolize=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  status=0
  for t in "$@"; do
    mkdir -p "$work/findings"
    before=$(find "$work/corpus/$t" -type f | wc -l)
    args=(-fork="$jobs" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-2}" -rss_limit_mb=2560
          -detect_leaks=1 -max_len=8192 -artifact_prefix="$work/findings/$t-")
    [ -f "$work/dict/$t.dict" ] && args+=(-dict="$work/dict/$t.dict")
    [ -n "${FUZZ_SEED:-}" ] && args+=(-seed="$FUZZ_SEED")
    rc=0
    (cd "$work" && "$work/bin/kiln-fuzz-$t" "${args[@]}" "corpus/$t") >"$out/$t.log" 2>&1 || rc=$?
    execs=$(grep -oE '^#[0-9]+' "$out/$t.log" | tail -1 | tr -d '#')
    after=$(find "$work/corpus/$t" -type f | wc -l)
    echo "$t: ${seconds}s, -fork=$jobs, ${execs:-0} executions, corpus $before -> $after, exit $rc"
    tar -C "$work/corpus" -cf - "$t" | xz -T0 -6 > "$out/$t-corpus.tar.xz"
    if [ -n "$(ls "$work/findings")" ]; then
      status=1
      tar -C "$work" -cf "$out/$t-findings.tar" findings
      grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$out/$t.log" | head -8 || true
    fi
    rm -rf "$work/findings"
  done
  exit $status
  ;;
unpack)
  dir=${1:?usage: $0 unpack DIR}
  mkdir -p fuzz-corpus/findings
  for c in "$dir"/*-corpus.tar.xz; do
    [ -e "$c" ] || continue
    t=$(basename "$c" -corpus.tar.xz)
    before=$(find "fuzz-corpus/$t" -type f 2>/dev/null | wc -l)
    tmp=$(mktemp -d)
    tar -xJf "$c" -C "$tmp"
    mkdir -p "fuzz-corpus/$t"
    cp -rn "$tmp/$t/." "fuzz-corpus/$t/"
    rm -rf "$tmp"
    echo "$t: corpus $before -> $(find "fuzz-corpus/$t" -type f | wc -l) files"
    [ -f "$dir/$t.log" ] && grep -oE '^#[0-9]+' "$dir/$t.log" | tail -1 |
      sed "s/^#/$t: executions on the device: /"
  done
  for f in "$dir"/*-findings.tar; do
    [ -e "$f" ] && tar -xf "$f" -C fuzz-corpus/ && echo "findings unpacked from $f into fuzz-corpus/findings"
  done
  ;;
*)
  echo "usage: $0 pack TARGET... | run SECONDS JOBS TARGET... | unpack DIR" >&2
  exit 2
  ;;
esac
