#!/usr/bin/env bash
# Builds the library and every test, then runs them, as many at once as the machine has cores (the
# GPU tests one at a time: RUN_SERIAL).  GPU tests report "skipped" without a GPU.
#   scripts/test.sh [ctest options, e.g. -L gpu]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure --parallel "${CTEST_PARALLEL_LEVEL:-$(nproc)}" "$@"
