#!/usr/bin/env bash
# Runs every test from a fresh machine: installs system packages, builds (or finds cached) the
# Kubernetes binaries, builds the project in the dev preset (warnings as errors), the asan preset
# (ASan + UBSan) and the tsan preset (Clang, ThreadSanitizer), runs unit and integration tests in
# each, then a libFuzzer smoke run (fuzz preset). The integration tests'
# CTest fixture brings the local clusters up once per preset and down afterwards.
#
# Usage: hack/test.sh [preset...]     (default: dev asan tsan fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."

hack/bootstrap.sh
KUBE_BIN_DIR=$(hack/build-kube-binaries.sh)
# ccache (CMakePresets.json) keeps objects in ~/.cache/ccache; paths relative to the checkout let
# a fresh clone in another directory reuse them.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
export PATH="$KUBE_BIN_DIR:$PATH"

presets=("$@")
[[ ${#presets[@]} -gt 0 ]] || presets=(dev asan tsan fuzz)

for preset in "${presets[@]}"; do
  echo "=== preset $preset: build" >&2
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$(nproc)"
  echo "=== preset $preset: test" >&2
  ctest --preset "$preset" --timeout 900
done
