// ALGO_ASYNC_COPY and ALGO_PIPELINED: launches the tensor-core GEMM family with asynchronous copies
// (csrc/kernels/sm80) for a canonical problem.
#pragma once

#include "asyncgemm.h"
#include "kernels/common/params.h"
#include "plan/sm80_heuristic.h"
#include "plan/split_k.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// True when the family serves the problem's types: f16 or bf16 A and B in any majors, or f32 ones
// under ASYNCGEMM_MATH_TF32 with both K-major (mma.sync m16n8k8 tf32; ldmatrix cannot transpose
// 32-bit elements); any C and D type.
bool sm80_supports(const GemmParams &params, asyncgemm_math_t math);

// The heuristic's shape and device view of a canonical problem on the handle's device.
sm80::Shape sm80_shape(const GemmParams &params);
sm80::DeviceLimits sm80_limits(const Handle &handle);

// Picks the configuration for `algo` (ASYNCGEMM_ALGO_ASYNC_COPY or ASYNCGEMM_ALGO_PIPELINED;
// PIPELINED's autotuned where the handle asks for it, plan/autotune.h) and launches it on `stream`.
// `params` must be sm80_supports(); throws NOT_SUPPORTED for a problem too large for one launch.
void launch_sm80(const Handle &handle, const GemmParams &params, asyncgemm_algo_t algo, void *stream);

// The same with the configuration and split given (splits 0: the configuration's heuristic split);
// NOT_SUPPORTED when the configuration has no kernel for the problem's types and majors, or none
// that runs on the handle's device.  A split launch takes its partials from the handle's workspace;
// where that cannot hold them (a capture without a lent workspace, one too small, no device memory)
// it runs unsplit instead (runtime/workspace.h).
void launch_sm80_choice(const Handle &handle, const GemmParams &params, KernelChoice choice, void *stream);

}  // namespace asyncgemm::plan
