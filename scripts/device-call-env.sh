# Sourced (not run) by a one-off device call script kept under docs/results/DATE-KIND-sN/:
#
#   . "$(dirname "$0")/../../../scripts/device-call-env.sh" || exit 1
#
# Runs ON the GPU machine. Moves to the repository root, unpacks the carried
# bundle (scripts/kiln-pytest-env.sh), points Python at its package and
# library, makes $r (= $OUT/r) for the results and defines `pack`, which
# appends the time to $r/device.txt and tars $r into $OUT/results.tgz: the
# device tool returns at most 8 files, so a call packs after each step and
# nothing already measured is lost when a later step runs past the limit.
cd "$(dirname "${BASH_SOURCE[0]}")/.." || return 1
export PYTHONUNBUFFERED=1
scripts/kiln-pytest-env.sh true || return 1
export PYTHONPATH=/tmp/kiln-bundle/python KILN_LIBRARY=/tmp/kiln-bundle/python/kiln/libkiln.so
r=$OUT/r
mkdir -p "$r"
pack() { date -u >> "$r/device.txt"; tar czf "$OUT/results.tgz" -C "$OUT" r; }
nvidia-smi -L > "$r/device.txt" 2>&1
date -u >> "$r/device.txt"
