# cmake -DBENCH=<path of asyncgemm-bench> -P check_bench_suites.cmake
# Fails unless `asyncgemm-bench --list` prints the suites the benchmark promises (bench/README.md),
# at least 80 workloads in all, without a GPU, and every workload it lists parses back as a --shape;
# and unless an 8-bit workload in any op pair parses, as does one of two formats (typeb=), and one with
# a bias or a typeb= of its own format is refused as it is parsed.
execute_process(COMMAND ${BENCH} --list RESULT_VARIABLE status OUTPUT_VARIABLE listing)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "asyncgemm-bench --list exited ${status}")
endif()
foreach(suite llm-prefill llm-decode training batched odd fp32 epilogue epilogue-fused fp8)
    if(NOT listing MATCHES "(^|\n)${suite}: ")
        message(FATAL_ERROR "asyncgemm-bench --list has no suite ${suite}")
    endif()
endforeach()
string(REGEX MATCHALL "\n  [0-9]+x[0-9]+x[0-9]+:[^ ]+" specs "${listing}")
list(LENGTH specs count)
if(count LESS 80)
    message(FATAL_ERROR "asyncgemm-bench --list lists ${count} workloads, fewer than 80")
endif()
set(arguments --help)
foreach(spec IN LISTS specs)
    string(STRIP "${spec}" spec)
    list(APPEND arguments --shape ${spec})
endforeach()
execute_process(COMMAND ${BENCH} ${arguments} RESULT_VARIABLE status ERROR_VARIABLE errors OUTPUT_QUIET)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "a listed workload does not parse as --shape: ${errors}")
endif()
execute_process(COMMAND ${BENCH} --help --shape 4096x4096x4096:e4m3:TN:pad=3 RESULT_VARIABLE status ERROR_VARIABLE errors
                OUTPUT_QUIET)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "asyncgemm-bench refuses 4096x4096x4096:e4m3:TN:pad=3: ${errors}")
endif()
execute_process(COMMAND ${BENCH} --help --shape 4096x4096x4096:e4m3:NT:typeb=e5m2 RESULT_VARIABLE status
                ERROR_VARIABLE errors OUTPUT_QUIET)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "asyncgemm-bench refuses 4096x4096x4096:e4m3:NT:typeb=e5m2: ${errors}")
endif()
execute_process(COMMAND ${BENCH} --help --shape 4096x4096x4096:e4m3:NT:typeb=e4m3 RESULT_VARIABLE status OUTPUT_QUIET
                ERROR_QUIET)
if(status EQUAL 0)
    message(FATAL_ERROR "asyncgemm-bench takes 4096x4096x4096:e4m3:NT:typeb=e4m3; typeb is the other format")
endif()
execute_process(COMMAND ${BENCH} --help --shape 4096x4096x4096:e4m3:NT:bias=col RESULT_VARIABLE status OUTPUT_QUIET
                ERROR_QUIET)
if(status EQUAL 0)
    message(FATAL_ERROR "asyncgemm-bench takes 4096x4096x4096:e4m3:NT:bias=col; 8-bit workloads take no epilogue")
endif()
message(STATUS "asyncgemm-bench lists ${count} workloads, each of which parses as --shape")
