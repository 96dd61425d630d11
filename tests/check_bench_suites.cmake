# cmake -DBENCH=<path of asyncgemm-bench> -P check_bench_suites.cmake
# Fails unless `asyncgemm-bench --list` prints the suites the benchmark promises (bench/README.md),
# at least 80 workloads in all, without a GPU, and every workload it lists parses back as a --shape;
# and unless an 8-bit workload in any op pair parses, as does one of two formats (typeb=), and one with
# a bias or a typeb= of its own format is refused as it is parsed; and unless --fuse is taken with
# suites, --list shows the workloads it gives an epilogue (and those it leaves alone), and other
# options and a run without a suite are refused, naming --fuse.
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
execute_process(COMMAND ${BENCH} --help --suite llm-prefill --suite training --fuse bias=col:act=gelu
                RESULT_VARIABLE status ERROR_VARIABLE errors OUTPUT_QUIET)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "asyncgemm-bench refuses --fuse bias=col:act=gelu on suites: ${errors}")
endif()
# --list shows the epilogue --fuse gives: on a prefill projection, not on an 8-bit row, a row with an
# epilogue of its own, or the fp8 suite's bf16 twins.
execute_process(COMMAND ${BENCH} --list --fuse bias=col:act=gelu RESULT_VARIABLE status OUTPUT_VARIABLE fused_listing)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "asyncgemm-bench --list --fuse bias=col:act=gelu exited ${status}")
endif()
foreach(row "2048x6144x4096:bf16:NT:bias=col:act=gelu  Llama-3-8B qkv, 2048 tokens"
            "4096x4096x1024:bf16:NT:bias=col:act=gelu_erf  BERT"
            "4096x4096x4096:e4m3:NT  Llama-3-8B o, 4096 tokens"
            "4096x4096x4096:bf16:NT  Llama-3-8B o, 4096 tokens")
    string(FIND "${fused_listing}" "${row}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "asyncgemm-bench --list --fuse bias=col:act=gelu has no row '${row}'")
    endif()
endforeach()
if(fused_listing MATCHES "e4m3:NT:bias")
    message(FATAL_ERROR "asyncgemm-bench --list --fuse gives an 8-bit row an epilogue")
endif()
foreach(fuse "--fuse;beta=1" "--fuse;inplace" "--fuse;bias" "--fuse;act=tanh")
    execute_process(COMMAND ${BENCH} --help --suite training ${fuse} RESULT_VARIABLE status OUTPUT_QUIET
                    ERROR_VARIABLE errors)
    if(status EQUAL 0 OR NOT errors MATCHES "--fuse")
        message(FATAL_ERROR "asyncgemm-bench takes ${fuse}, or refuses it without naming --fuse: ${errors}")
    endif()
endforeach()
execute_process(COMMAND ${BENCH} --help --fuse act=relu --shape 64x64x64:f16:NN RESULT_VARIABLE status OUTPUT_QUIET
                ERROR_QUIET)
if(status EQUAL 0)
    message(FATAL_ERROR "asyncgemm-bench takes --fuse without a suite or --list")
endif()
message(STATUS "asyncgemm-bench lists ${count} workloads, each of which parses as --shape")
