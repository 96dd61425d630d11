// Turning failed calls into messages: a CUDA runtime error or an asyncgemm status, with the call named.
#pragma once

#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

#include "asyncgemm.h"
#include "enums.h"

namespace bench {

// A failure the benchmark cannot go on after: a CUDA error (the context may be gone with it), or a
// library call that failed after the same call had succeeded on the same problem.
class BenchError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline void check_cuda(cudaError_t status, const char *call) {
    if (status != cudaSuccess)
        throw BenchError(std::string(call) + ": " + cudaGetErrorName(status) + " (" +
                         cudaGetErrorString(status) + ")");
}

// "NOT_SUPPORTED: asyncgemm_gemm: <the library's message>"; the message names the entry point.
inline std::string asyncgemm_failure(asyncgemm_status_t status, const char *call) {
    const std::string message = asyncgemm_last_error();
    return status_name(status) + ": " + (message.empty() ? std::string(call) : message);
}

inline void check_asyncgemm(asyncgemm_status_t status, const char *call) {
    if (status != ASYNCGEMM_STATUS_SUCCESS) throw BenchError(asyncgemm_failure(status, call));
}

}  // namespace bench
