#!/usr/bin/env bash
# Builds the library and runs asyncgemm-bench (needs an NVIDIA GPU): the seed workloads by default;
# with --suite, the benchmark suites, whose CSV (bench-results/suites.csv unless --csv names one)
# bench/plot.py then turns into one PNG per suite beside it (matplotlib installed where missing).
#   scripts/bench.sh [asyncgemm-bench options, e.g. --csv out.csv --shape 8192x8192x8192:f16:NN]
#   scripts/bench.sh --suite all
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh --target asyncgemm-bench
bench="${BUILD_DIR:-build}/bench/asyncgemm-bench"

suites=false csv=""
args=("$@")
for ((i = 0; i < ${#args[@]}; ++i)); do
    case "${args[i]}" in
    --suite | --suite=*) suites=true ;;
    --csv) csv="${args[i + 1]:-}" ;;
    --csv=*) csv="${args[i]#--csv=}" ;;
    esac
done
if ! $suites; then
    exec "$bench" "$@"
fi
if [ -z "$csv" ]; then
    mkdir -p bench-results
    csv=bench-results/suites.csv
    args+=(--csv "$csv")
fi
status=0
"$bench" "${args[@]}" || status=$?

# A Python with matplotlib: this one, or the system's once its package is installed.
python=python3
if ! "$python" -c "import matplotlib" 2>/dev/null; then
    if ! /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-matplotlib
    fi
    python=/usr/bin/python3
fi
[ -f "$csv" ] && "$python" bench/plot.py "$csv"
exit $status
