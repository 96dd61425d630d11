// The GEMM rows of one workload: the reference first, for time and result (cuBLAS; for a workload
// with a bias or an activation, cuBLASLt with the matching epilogue, or cuBLAS's plain GEMM where
// cuBLASLt has none), then each asyncgemm algorithm, and for a workload with an epilogue the plain
// GEMM followed by a separate pass (GEMM+pass), all on the same rotating inputs.
#pragma once

#include <vector>

#include "asyncgemm.h"
#include "results.h"
#include "session.h"
#include "workload.h"

namespace bench {

// The progress steps of one workload: the reference, when one is loaded, each algorithm, and
// GEMM+pass for a workload with an epilogue.
int gemm_steps(const Session &session, const GemmWorkload &workload, const std::vector<asyncgemm_algo_t> &algorithms);

// Appends a row for the reference, each algorithm and GEMM+pass (or one row saying why the workload
// was skipped).
void bench_gemm_workload(const Session &session, const GemmWorkload &workload,
                         const std::vector<asyncgemm_algo_t> &algorithms, std::vector<GemmResult> &results);

}  // namespace bench
