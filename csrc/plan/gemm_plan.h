// GEMM planning: which algorithm serves a call, and the launch that runs it.
#pragma once

#include "asyncgemm.h"
#include "plan/gemm_args.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// True when the algorithm's kernels are built into this library and loaded for the handle's device,
// and, for ALGO_SM100_TCGEN05, its self-check passed there or ASYNCGEMM_SM100=on (decided now if it
// never was, plan/self_check.h).
bool algo_available(const Handle &handle, asyncgemm_algo_t algo);

// Validates, chooses the algorithm (args.algo, or the best available one for AUTO), and launches on
// `stream`.  Throws Error without launching anything when the call cannot be served.
void gemm(const Handle &handle, const GemmArgs &args, void *stream);

}  // namespace asyncgemm::plan
