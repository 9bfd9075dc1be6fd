#!/usr/bin/env bash
# Installs the build into a temporary prefix, moves the prefix (the install
# must be relocatable), builds consumer/ against it with find_package(Kiln),
# and runs the C and C++ consumers and the Python package without a CUDA
# driver: each must compile a kernel and report the no-driver error.
#   run-install-test.sh BUILD_DIR [--no-cxx]
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cxx=ON
[ "${2:-}" = "--no-cxx" ] && cxx=OFF
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/staged" > "$tmp/install.log"
mv "$tmp/staged" "$tmp/prefix"
p=$tmp/prefix
for f in bin/ln-compile bin/kiln-opt include/kiln/kiln.h \
         include/kiln/Runtime/Module.h include/kiln/Runtime/AOTRuntime.h \
         lib/libkiln.so lib/libKilnRuntime.a lib/libKilnAOTRuntime.a \
         lib/cmake/Kiln/KilnConfig.cmake lib/cmake/Kiln/KilnConfigVersion.cmake \
         lib/cmake/Kiln/KilnAddKernel.cmake \
         lib/python3/site-packages/kiln/__init__.py; do
  [ -e "$p/$f" ] || { echo "missing in the install: $f" >&2; exit 1; }
done
"$p/bin/ln-compile" --version

gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$here/consumer" -B "$tmp/consumer" "${gen[@]}" "${launcher[@]}" \
  -DCMAKE_PREFIX_PATH="$p" -DCMAKE_BUILD_TYPE=Release \
  $([ "$cxx" = OFF ] && echo -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON) \
  > "$tmp/configure.log" || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/consumer" -j 2 > "$tmp/build.log" ||
  { tail -50 "$tmp/build.log"; exit 1; }

export KILN_CUDA_DRIVER=/nonexistent/libcuda.so.1
export KILN_CACHE_DIR=$tmp/cache
expect() { # name, command...: output must carry the no-driver message
  local name=$1 out
  shift
  out=$("$@" 2>&1) || { echo "$name failed:"; echo "$out"; exit 1; }
  echo "$out"
  grep -q "no CUDA driver found: cannot load /nonexistent/libcuda.so.1" <<<"$out" ||
    { echo "$name: no-driver message missing" >&2; exit 1; }
}
expect consumer_c "$tmp/consumer/consumer_c"
expect consumer_aot "$tmp/consumer/consumer_aot"
grep -q 'argument #1 `X`: null device pointer' <<<"$("$tmp/consumer/consumer_aot" 2>&1)" ||
  { echo "consumer_aot: argument check missing" >&2; exit 1; }
if nm -C "$tmp/consumer/consumer_aot" | grep -qE '(llvm|mlir)::'; then
  echo "consumer_aot contains LLVM/MLIR symbols" >&2; exit 1
fi
if [ "$cxx" = ON ]; then
  [ -x "$tmp/consumer/consumer_cxx" ] || { echo "consumer_cxx not built" >&2; exit 1; }
  expect consumer_cxx "$tmp/consumer/consumer_cxx"
  expect consumer_c_static "$tmp/consumer/consumer_c_static"
  if ldd "$tmp/consumer/consumer_c_static" | grep -q libkiln; then
    echo "consumer_c_static links libkiln.so" >&2; exit 1
  fi
fi
# The Python package finds PREFIX/lib/libkiln.so by itself.
expect python env -u KILN_LIBRARY P="$p" \
  PYTHONPATH="$p/lib/python3/site-packages" python3 -c '
import kiln, os
assert os.path.realpath(kiln.library_path) == os.path.realpath(os.environ["P"] + "/lib/libkiln.so"), kiln.library_path
try:
    kiln.device_count()
except kiln.NoDriverError as e:
    print("python:", e)
'
echo "install test passed"
