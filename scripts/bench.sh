#!/usr/bin/env bash
# Builds the library and runs asyncgemm-bench on the seed workloads (needs an NVIDIA GPU).
#   scripts/bench.sh [asyncgemm-bench options, e.g. --csv out.csv --shape 8192x8192x8192:f16:NN]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh --target asyncgemm-bench
"${BUILD_DIR:-build}/bench/asyncgemm-bench" "$@"
