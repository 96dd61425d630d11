#!/usr/bin/env bash
# Builds the library and every test, then runs them.  GPU tests report "skipped" without a GPU.
#   scripts/test.sh                          all tests
#   ASYNCGEMM_ARCHS=90 scripts/test.sh       build one architecture only (faster while iterating)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PATH:/usr/local/cuda/bin"
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${ASYNCGEMM_ARCHS:+-DASYNCGEMM_ARCHS=$ASYNCGEMM_ARCHS}
cmake --build "$build"
ctest --test-dir "$build" --output-on-failure "$@"
