#!/usr/bin/env bash
# Builds the library and runs asyncgemm-bench on the seed workloads (needs an NVIDIA GPU).
#   scripts/bench.sh [asyncgemm-bench options, e.g. --csv out.csv --shape 8192x8192x8192:f16:NN]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PATH:/usr/local/cuda/bin"
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${ASYNCGEMM_ARCHS:+-DASYNCGEMM_ARCHS=$ASYNCGEMM_ARCHS}
cmake --build "$build" --target asyncgemm-bench
"$build/bench/asyncgemm-bench" "$@"
