#!/usr/bin/env bash
# The reliability stage of CI (issue 13, docs/reliability.md), run by .ci/run
# after the README's test command (KILN_CI_RELIABILITY=0 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
# Reliability (docs/reliability.md): the test suite again under ASan+UBSan,
# then every libFuzzer target for a bounded time, in one clang build
# (./build-fuzz: -fsanitize=fuzzer-no-link,address,undefined) so CI compiles
# Kiln twice, not three times. Ends with one "N passed, N failed" line.
jobs=${JOBS:-$(nproc)}
fuzz_seconds=${KILN_CI_FUZZ_SECONDS:-45}
logs=$(mktemp -d)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# -g1 objects: let ccache hit across checkouts in other folders.
export CCACHE_NOHASHDIR=1
start=$SECONDS
[ -f build-fuzz/build.ninja ] || cmake -G Ninja -S . -B build-fuzz -DKILN_FUZZ=ON \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 "${launcher[@]}" >/dev/null
# Everything but the shared libkiln.so (lib/CAPI), whose -Wl,--no-undefined
# link cannot take sanitizer runtimes (they live in the executable); its
# tests (CAPI.*, Python.*, Install.*) run in `make test` above.
san_targets=(kiln-fuzzers kiln-opt ln-compile kiln_fake_cuda AnalysisTests
             FrontendTests RuntimeFakeDriverTests RuntimeGpuTests RuntimeTests
             TargetTests TileDialectTests AOTRuntimeTests aot-layernorm)
cmake --build build-fuzz -j "$jobs" --target "${san_targets[@]}"
echo "ci: sanitizer+fuzz build took $((SECONDS - start)) s"

# GPU tests skip; tests of the shared library (and the bench/install ones,
# which need it or a GPU) are left out.
# allow_user_poisoning=0: LLVM headers poison memory that the uninstrumented
# LLVM archives then use (fuzz/AsanOptions.cpp says more).
export ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
san_rc=0
step=$SECONDS
(cd build-fuzz && ctest --output-on-failure -j "$jobs" -E '^(Python|Install|CAPI|bench)[./]') \
  2>&1 | tee "$logs/san.log" || san_rc=$?
echo "ci: sanitizer ctest took $((SECONDS - step)) s"
summary=$(grep -E 'tests passed, [0-9]+ tests failed out of' "$logs/san.log" | tail -1)
san_total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$summary")
san_failed=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$summary")
: "${san_total:=0}" "${san_failed:=1}"

# A 5 s hang limit: the frontend's unrolling-limit path takes ~2 s under
# ASan+coverage on a loaded 2-core machine (test/regressions/frontend).
fuzz_rc=0
step=$SECONDS
# A fixed seed: a CI run's mutations can be replayed (KILN_CI_FUZZ_SEED=0
# explores at random).
FUZZ_SEED=${KILN_CI_FUZZ_SEED:-20261123} FUZZ_TIMEOUT=${KILN_CI_FUZZ_TIMEOUT:-5} FUZZ_BUILD=build-fuzz FUZZ_JOBS=$jobs scripts/fuzz.sh "$fuzz_seconds" \
  2>&1 | tee "$logs/fuzz.log" || fuzz_rc=$?
echo "ci: fuzz step took $((SECONDS - step)) s"
fuzz_failed=$(grep -c ': FINDING' "$logs/fuzz.log" || true)
fuzz_passed=$(grep -c ' exec/s, corpus ' "$logs/fuzz.log" || true)

passed=$((san_total - san_failed + fuzz_passed))
failed=$((san_failed + fuzz_failed))
if [ "$failed" -eq 0 ] && { [ "$san_rc" -ne 0 ] || [ "$fuzz_rc" -ne 0 ]; }; then
  failed=1
fi
echo "reliability: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
