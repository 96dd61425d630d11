#!/usr/bin/env bash
# The full GPU check, in one go (on the lent H100): build for sm_90, GPU tests, compute-sanitizer
# memcheck and racecheck on them, SASS facts of the kernels, and the benchmark.  Logs go to $OUT
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

for tool in memcheck racecheck; do
    : > "$out/sanitizer-$tool.log"
    for t in "$build"/tests/gpu/asyncgemm-gpu-tests*; do
        [ -x "$t" ] || continue
        AG_TEST_QUICK=1 compute-sanitizer --tool "$tool" --error-exitcode 99 "$t" >> "$out/sanitizer-$tool.log" 2>&1
        summary+=("sanitizer $tool $(basename "$t"): exit $?, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitizer-$tool.log" | tail -1)")
    done
done

for fb in "$build"/fatbins/*/*.sm_90*.cubin; do
    cuobjdump -sass "$fb" > "$out/$(basename "$fb").sass" 2>&1
    summary+=("$(basename "$fb"): LDGSTS $(grep -c LDGSTS "$out/$(basename "$fb").sass") LDS.128 $(grep -c 'LDS.128' "$out/$(basename "$fb").sass") FFMA $(grep -c FFMA "$out/$(basename "$fb").sass") LDL/STL $(grep -cE 'LDL|STL' "$out/$(basename "$fb").sass")")
done
tar czf "$out/sass.tgz" -C "$out" $(cd "$out" && ls *.sass) 2>/dev/null && rm -f "$out"/*.sass

"$build/bench/asyncgemm-bench" --csv "$out/bench.csv" "$@" > "$out/bench.txt" 2> >(tr '\r' '\n' | tail -20 > "$out/bench-stderr.log")
summary+=("bench exit $?")
cat "$out/ctest.log" | tail -25
cat "$out/bench.txt"
printf '%s\n' "${summary[@]}"
