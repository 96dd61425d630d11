#!/usr/bin/env bash
# The full GPU check, in one go (on a lent H100 or H200): build for sm_90 (and sm_90a), GPU tests,
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
# access of 65,539 launches' worth of blocks); memcheck runs everything.  Every kernel of the table,
# forced with and without split K, runs in the kernel tests: racecheck them all, and synccheck too
# (named barriers, mbarriers).
tests="$build/tests/gpu/asyncgemm-gpu-tests"
kernel_tests="$build/tests/gpu/asyncgemm-kernel-tests"
sanitize() {
    local tool=$1 log=$2; shift 2
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$@" >> "$out/$log" 2>&1
    summary+=("sanitizer $tool $*: exit $?, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$log" | tail -1)")
}
: > "$out/sanitizer-memcheck.log"
: > "$out/sanitizer-racecheck.log"
: > "$out/sanitizer-synccheck.log"
sanitize memcheck sanitizer-memcheck.log "$tests"
sanitize memcheck sanitizer-memcheck.log "$kernel_tests"
sanitize racecheck sanitizer-racecheck.log "$tests" --test-case-exclude='*more batches*'
sanitize racecheck sanitizer-racecheck.log "$kernel_tests"
sanitize synccheck sanitizer-synccheck.log "$kernel_tests"
AG_TEST_ALGOS=SM90_TMA_WGMMA sanitize synccheck sanitizer-synccheck.log "$tests" --test-suite=gemm,streams

# SASS facts per family, summed over its units' sm_90 cubins: the instructions each path is built on,
# and no local memory (LDL/STL).
count() { grep -cE "$1" "$2"; }
for family in copy simt sm80 sm90; do
    sass="$out/$family.sm_90.sass"
    for fb in "$build"/kernels/$family/*.sm_90*.cubin; do cuobjdump -sass "$fb"; done > "$sass" 2>&1
    summary+=("$family sm_90: HMMA $(count HMMA "$sass") HGMMA $(count HGMMA "$sass") UTMALDG $(count UTMALDG "$sass") UTMASTG $(count UTMASTG "$sass") LDSM $(count LDSM "$sass") STSM $(count STSM "$sass") LDGSTS $(count LDGSTS "$sass") FFMA $(count FFMA "$sass") LDL/STL $(count 'LDL|STL' "$sass")")
done
# The Blackwell family cannot run here, but its SASS can be read: tcgen05 instructions (UTC*), tensor
# memory loads (LDTM), TMA loads, and no local memory.
sass="$out/sm100.sm_100a.sass"
for fb in "$build"/kernels/sm100/*.sm_100a.cubin; do cuobjdump -sass "$fb"; done > "$sass" 2>&1
summary+=("sm100 sm_100a: $(grep -oE '\bUTC[A-Z0-9]+' "$sass" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')LDTM $(count LDTM "$sass") UTMALDG $(count UTMALDG "$sass") LDL/STL $(count 'LDL|STL' "$sass")")
tar czf "$out/sass.tgz" -C "$out" $(cd "$out" && ls *.sass) 2>/dev/null && rm -f "$out"/*.sass

"$build/bench/asyncgemm-bench" --csv "$out/bench.csv" "$@" > "$out/bench.txt" 2> >(tr '\r' '\n' | tail -20 > "$out/bench-stderr.log")
summary+=("bench exit $?")
cat "$out/ctest.log" | tail -25
cat "$out/bench.txt"
printf '%s\n' "${summary[@]}"
