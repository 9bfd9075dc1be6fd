#!/usr/bin/env bash
# Runs a command ON the GPU machine with the Python package of the device
# bundle importable (`import kiln` next to torch and triton):
#
#   scripts/kiln-pytest-env.sh python3 my_test.py      # any command
#   scripts/kiln-pytest-env.sh --smoke                 # python/tests/gpu_smoke.py
#
# It unpacks .device/kiln-bundle.tar.xz (scripts/build-device-bundle.sh) to
# /tmp/kiln-bundle unless that is already the bundle's copy, then sets
#   PYTHONPATH     /tmp/kiln-bundle/python (prepended)
#   KILN_LIBRARY   /tmp/kiln-bundle/python/kiln/libkiln.so
#   KILN_CACHE_DIR /tmp/kiln-cache (unless set)
# Outside the bundle (a build tree), set KILN_LIBRARY=build/lib/libkiln.so
# and PYTHONPATH=python yourself.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${KILN_BUNDLE_DIR:-/tmp/kiln-bundle}
bundle=$root/.device/kiln-bundle.tar.xz

if [ -f "$bundle" ]; then
  stamp=$(sha256sum "$bundle" | cut -d' ' -f1)
  if [ "$(cat "$dest/.bundle-sha256" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$dest" && mkdir -p "$dest"
    if command -v xz >/dev/null; then
      tar -xJf "$bundle" -C "$dest"
    else
      python3 -c "import tarfile,sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
        "$bundle" "$dest"
    fi
    echo "$stamp" > "$dest/.bundle-sha256"
  fi
fi
if [ ! -f "$dest/python/kiln/libkiln.so" ]; then
  echo "error: $dest/python/kiln/libkiln.so missing: run scripts/build-device-bundle.sh and carry .device" >&2
  exit 1
fi

export PYTHONPATH=$dest/python${PYTHONPATH:+:$PYTHONPATH}
export KILN_LIBRARY=$dest/python/kiln/libkiln.so
export KILN_CACHE_DIR=${KILN_CACHE_DIR:-/tmp/kiln-cache}
export PYTHONUNBUFFERED=1

if [ "${1:-}" = "--smoke" ]; then
  shift
  exec python3 "$dest/python/tests/gpu_smoke.py" "$@"
fi
[ $# -gt 0 ] || { echo "usage: $0 --smoke | COMMAND [ARGS...]" >&2; exit 2; }
exec "$@"
