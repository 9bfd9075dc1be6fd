#!/usr/bin/env bash
# Installs what Kiln needs to build and test on Debian 12 (bookworm):
# LLVM/MLIR 22 (static archives, FileCheck, lit), lld, GoogleTest, CMake, Ninja,
# and clang 22 with its runtimes for the sanitizer/libFuzzer build (.ci/run).
# As root it runs apt-get; otherwise it prints the command and fails.
set -euo pipefail

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22
          libgtest-dev cmake ninja-build g++ zlib1g-dev libzstd-dev ccache python3
          clang-22 libclang-rt-22-dev)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "kiln: missing packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "kiln: run as root: apt-get update && apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}"
