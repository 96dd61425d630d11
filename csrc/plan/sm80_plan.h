// ALGO_ASYNC_COPY and ALGO_PIPELINED: launches the tensor-core GEMM family with asynchronous copies
// (csrc/kernels/sm80) for a canonical problem.
#pragma once

#include "asyncgemm.h"
#include "kernels/common/params.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// True when the family serves the problem's types: f16 or bf16 A and B, any C and D type.
bool sm80_supports(const GemmParams &params);

// Completes `params` (vectors, tiles, raster), picks the kernel for `algo` (ASYNCGEMM_ALGO_ASYNC_COPY
// or ASYNCGEMM_ALGO_PIPELINED; PIPELINED's configuration autotuned where the handle asks for it,
// plan/autotune.h) and launches on `stream`.  `params` must be sm80_supports(); throws NOT_SUPPORTED
// for a problem too large for one launch.
void launch_sm80(const Handle &handle, GemmParams params, asyncgemm_algo_t algo, void *stream);

// The same with the configuration given: `config` indexes sm80::kTileConfigs.
void launch_sm80_config(const Handle &handle, GemmParams params, int config, void *stream);

}  // namespace asyncgemm::plan
