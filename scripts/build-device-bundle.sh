#!/usr/bin/env bash
# Builds, here, what the GPU machine runs and packs it into .device/ (ignored
# by git), which the device call carries:
#   .device/kiln-bundle.tar.xz   bin/RuntimeGpuTests bin/ln-bench
#                                bin/layernorm-example layer_norm.py
#                                bin/aot-layernorm (examples/aot: ~200 KB,
#                                no LLVM)
#                                compare_triton.py perf_report.py
#                                python/kiln (the Python package, with
#                                libkiln.so inside it; python/tests/*.py)
#                                (+ $EXTRA_TARGETS)
#   .device/MANIFEST             sizes and checksums
# The binaries are stripped and link LLVM/MLIR statically (no LLVM on the GPU
# machine), so each is large (~70 MB); xz packs them to ~8 MB each, a little
# less in one stream with a window wider than a binary. The folder must stay
# within 60 MiB (the device call carries at most 64 MiB with the tree).
#
#   scripts/build-device-bundle.sh [BUILD_DIR]     (default: build; JOBS=2)
#   EXTRA_TARGETS="ln-compile" adds more executables (about 8 MB each packed).
# Then, on the GPU machine: scripts/device-run.sh (see there).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${1:-build}
jobs=${JOBS:-2}
limit=$((60 * 1024 * 1024))

if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  cmake -G Ninja -S . -B "$build" "${launcher[@]}"
fi
targets=(RuntimeGpuTests ln-bench layernorm-example aot-layernorm)
# shellcheck disable=SC2206
targets+=(${EXTRA_TARGETS:-})
ninja -C "$build" -j "$jobs" "${targets[@]}" kiln

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin"
for t in "${targets[@]}"; do
  exe="$build/bin/$t"
  [ -x "$exe" ] || { echo "error: $exe was not built" >&2; exit 1; }
  if ldd "$exe" 2>/dev/null | grep -E 'libLLVM|libMLIR|libcuda' >&2; then
    echo "error: $exe links a shared LLVM/MLIR or the CUDA driver (above)" >&2
    exit 1
  fi
  strip --strip-all -o "$stage/bin/$t" "$exe"
done
cp examples/layernorm/layer_norm.py bench/compare_triton.py bench/perf_report.py "$stage/"
# The Python package finds libkiln.so next to itself (scripts/kiln-pytest-env.sh).
mkdir -p "$stage/python/kiln" "$stage/python/tests"
# Subpackages too (the drop-in triton in kiln/_triton, test fixtures).
(cd python && find kiln tests -name '*.py' -print0 |
  xargs -0 -I{} install -D -m 644 {} "$stage/python/{}")
if ldd "$build/lib/libkiln.so" 2>/dev/null | grep -E 'libLLVM|libMLIR|libcuda|libstdc' >&2; then
  echo "error: libkiln.so links a shared LLVM/MLIR, libstdc++ or the CUDA driver (above)" >&2
  exit 1
fi
strip --strip-all -o "$stage/python/kiln/libkiln.so" "$build/lib/libkiln.so"

mkdir -p .device
rm -f .device/kiln-bundle.tar.xz .device/MANIFEST
echo "packing (xz, one stream; about a minute on 2 cores)..."
tar -C "$stage" -cf - bin layer_norm.py compare_triton.py perf_report.py python |
  xz -T1 --lzma2=preset=3,dict=192MiB > .device/kiln-bundle.tar.xz
{
  echo "# kiln device bundle, built $(date -u +%Y-%m-%dT%H:%M:%SZ) from $build"
  (cd "$stage" && find . -type f -printf '%s %p\n' | sort -k2)
  sha256sum .device/kiln-bundle.tar.xz
} > .device/MANIFEST
cat .device/MANIFEST

size=$(du -sb .device | cut -f1)
echo "$(du -sh .device | cut -f1) in .device (limit 60 MiB)"
if [ "$size" -gt "$limit" ]; then
  echo "error: .device is $size bytes, above 60 MiB" >&2
  exit 1
fi
