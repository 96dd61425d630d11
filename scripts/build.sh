#!/usr/bin/env bash
# Installs what the build needs (scripts/setup.sh), configures and builds into $BUILD_DIR (build/).
#   scripts/build.sh [cmake --build options, e.g. --target asyncgemm-bench]
#   ASYNCGEMM_ARCHS=90 scripts/build.sh      kernels for one architecture only (faster while iterating)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PATH:/usr/local/cuda/bin"
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${ASYNCGEMM_ARCHS:+-DASYNCGEMM_ARCHS=$ASYNCGEMM_ARCHS}
cmake --build "$build" "$@"
