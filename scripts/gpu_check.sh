#!/usr/bin/env bash
# The full GPU check, in one go (on the lent H100): build for sm_90 (and sm_90a), GPU tests,
# compute-sanitizer memcheck, racecheck and synccheck on them, SASS facts of the kernels, and the
# benchmark.  Logs go to $OUT
# (or ./gpu-logs); the end of the output is the summary.
#   scripts/gpu_check.sh [asyncgemm-bench options]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-logs}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/build.log" 2>&1
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DASYNCGEMM_ARCHS=${ASYNCGEMM_ARCHS:-90} >> "$out/build.log" 2>&1 &&
    cmake --build "$build" -j16 >> "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }

summary=()
ctest --test-dir "$build" --output-on-failure > "$out/ctest.log" 2>&1
summary+=("ctest: $(grep -E 'tests passed|tests failed' "$out/ctest.log")")

# The 65,539-batch case outlasts any sensible limit under racecheck (it checks every shared-memory
# access of 65,539 launches' worth of blocks); memcheck runs everything.  Then racecheck once more on
# the 128x256 kernel and the paired one with K split, through the cases that split.
tests="$build/tests/gpu/asyncgemm-gpu-tests"
sanitize() {
    local tool=$1 log=$2; shift 2
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$@" >> "$out/$log" 2>&1
    summary+=("sanitizer $tool $*: exit $?, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$log" | tail -1)")
}
: > "$out/sanitizer-memcheck.log"
: > "$out/sanitizer-racecheck.log"
sanitize memcheck sanitizer-memcheck.log "$tests"
sanitize racecheck sanitizer-racecheck.log "$tests" --test-case-exclude='*more batches*'
for config in 3:2 6:4; do
    ASYNCGEMM_SM80_CONFIG=$config AG_TEST_ALGOS=PIPELINED sanitize racecheck sanitizer-racecheck.log "$tests" \
        --test-suite=gemm --test-case='*tails*,*split*,*bigger*,*random*'
done
# The Hopper family: synccheck too (named barriers, mbarriers), and its split and cluster kernels.
: > "$out/sanitizer-synccheck.log"
AG_TEST_ALGOS=SM90_TMA_WGMMA sanitize synccheck sanitizer-synccheck.log "$tests" --test-suite=gemm,streams
for config in 1:3 5 6 6:3; do
    ASYNCGEMM_SM90_CONFIG=$config AG_TEST_ALGOS=SM90_TMA_WGMMA sanitize racecheck sanitizer-racecheck.log "$tests" \
        --test-suite=gemm --test-case='*tails*,*split*,*random*'
done

for fb in "$build"/fatbins/*/*.sm_90*.cubin; do
    sass="$out/$(basename "$fb").sass"
    cuobjdump -sass "$fb" > "$sass" 2>&1
    summary+=("$(basename "$fb"): HMMA $(grep -c HMMA "$sass") HGMMA $(grep -c HGMMA "$sass") UTMALDG $(grep -c UTMALDG "$sass") UTMASTG $(grep -c UTMASTG "$sass") LDSM $(grep -c LDSM "$sass") STSM $(grep -c STSM "$sass") LDGSTS $(grep -c LDGSTS "$sass") FFMA $(grep -c FFMA "$sass") LDL/STL $(grep -cE 'LDL|STL' "$sass")")
done
# The Blackwell family cannot run here, but its SASS can be read: tcgen05 instructions (UTC*), tensor
# memory loads (LDTM), TMA loads, and no local memory.
for fb in "$build"/fatbins/*/*.sm_100a.cubin; do
    sass="$out/$(basename "$fb").sass"
    cuobjdump -sass "$fb" > "$sass" 2>&1
    summary+=("$(basename "$fb"): $(grep -oE '\bUTC[A-Z0-9]+' "$sass" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')LDTM $(grep -c LDTM "$sass") UTMALDG $(grep -c UTMALDG "$sass") LDL/STL $(grep -cE 'LDL|STL' "$sass")")
done
tar czf "$out/sass.tgz" -C "$out" $(cd "$out" && ls *.sass) 2>/dev/null && rm -f "$out"/*.sass

"$build/bench/asyncgemm-bench" --csv "$out/bench.csv" "$@" > "$out/bench.txt" 2> >(tr '\r' '\n' | tail -20 > "$out/bench-stderr.log")
summary+=("bench exit $?")
cat "$out/ctest.log" | tail -25
cat "$out/bench.txt"
printf '%s\n' "${summary[@]}"
