// The GEMM rows of one workload: cuBLAS first, as the reference for time and result, then each
// asyncgemm algorithm, all on the same rotating inputs.
#pragma once

#include <vector>

#include "asyncgemm.h"
#include "results.h"
#include "session.h"
#include "workload.h"

namespace bench {

// The progress steps of one workload: cuBLAS, when it is loaded, and each algorithm.
int gemm_steps(const Session &session, const std::vector<asyncgemm_algo_t> &algorithms);

// Appends a row for cuBLAS and for each algorithm (or one row saying why the workload was skipped).
void bench_gemm_workload(const Session &session, const GemmWorkload &workload,
                         const std::vector<asyncgemm_algo_t> &algorithms, std::vector<GemmResult> &results);

}  // namespace bench
