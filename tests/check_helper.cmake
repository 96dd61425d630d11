# cmake -DHELPER=<path of asyncgemm-selfcheck> -P check_helper.cmake
# Fails unless the self-check's helper is at HELPER, runs, and answers a call it cannot serve by its
# protocol (csrc/plan/self_check_helper.h): one "error: " line and exit status 2.  The argument is a
# bad device ordinal, so the answer is the same with or without a GPU.
if(NOT EXISTS ${HELPER})
    message(FATAL_ERROR "${HELPER} does not exist: the library would not find its self-check helper")
endif()
execute_process(COMMAND ${HELPER} not-a-device RESULT_VARIABLE status OUTPUT_VARIABLE output)
if(NOT status EQUAL 2 OR NOT output STREQUAL "error: DEVICE must be a CUDA device ordinal, not \"not-a-device\"\n")
    message(FATAL_ERROR "${HELPER} answered status ${status}, output \"${output}\"")
endif()
# The MX check's option goes first; anywhere else it is a usage error, also without a GPU.
execute_process(COMMAND ${HELPER} 0 --mx RESULT_VARIABLE status OUTPUT_VARIABLE output)
if(NOT status EQUAL 2 OR NOT output STREQUAL "error: usage: asyncgemm-selfcheck [--mx] DEVICE [UUID]\n")
    message(FATAL_ERROR "${HELPER} 0 --mx answered status ${status}, output \"${output}\"")
endif()
execute_process(COMMAND ${HELPER} --mx not-a-device RESULT_VARIABLE status OUTPUT_VARIABLE output)
if(NOT status EQUAL 2 OR NOT output STREQUAL "error: DEVICE must be a CUDA device ordinal, not \"not-a-device\"\n")
    message(FATAL_ERROR "${HELPER} --mx not-a-device answered status ${status}, output \"${output}\"")
endif()
message(STATUS "${HELPER} answers by the self-check helper's protocol")
