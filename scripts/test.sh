#!/usr/bin/env bash
# Builds the library and every test, then runs them.  GPU tests report "skipped" without a GPU.
#   scripts/test.sh [ctest options, e.g. -L gpu]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure "$@"
