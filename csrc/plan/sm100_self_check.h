// The problems of ALGO_SM100_TCGEN05's self-check and the GPU run that compares the family with the
// established ones on them.  The run happens in the helper program asyncgemm-selfcheck
// (csrc/selfcheck/), never in the library's caller's process; plan/self_check.h decides when it
// runs and keeps the outcome.
#pragma once

#include <cuda.h>

#include <stdint.h>

#include <vector>

#include "asyncgemm.h"
#include "plan/gemm_args.h"
#include "plan/self_check.h"
#include "runtime/handle.h"

namespace asyncgemm::plan {

// One small GEMM as a caller states it.  Between them the problems cover every pair of canonical
// operand majors for 16-bit inputs, f32 (tf32) inputs in two majors, ragged tile and K-block edges,
// a batch, 16-bit and f32 outputs, and C both ways: loaded into the accumulator by tcgen05.cp (f32 C,
// unscaled and scaled by beta/alpha) and applied in the epilogue (f16 C); a fused bias per row and
// per column with an activation, after each way of adding C; 8-bit inputs with tensor scales and
// with MX scales (kind::mxf8f6f4.block_scale, its scale tiles copied by tcgen05.cp).
struct SelfCheckProblem {
    asyncgemm_dtype_t type_ab, type_cd;
    asyncgemm_order_t order;
    asyncgemm_op_t op_a, op_b;
    int64_t m, n, k, batch_count;
    float alpha, beta;
    bool scaled = false;  // 8-bit inputs with tensor scales (kScaleA, kScaleB in device memory)
    bool mx = false;      // 8-bit inputs with MX scales, random powers of two 2^-3 .. 2^3
    // The fused epilogue: a random bias of D's type, one set per batch, and the activation.
    asyncgemm_bias_t bias = ASYNCGEMM_BIAS_NONE;
    asyncgemm_activation_t activation = ASYNCGEMM_ACT_NONE;
};

// The problems of `check`, in the order they run: the family's (the MX-scaled ones are the other
// check's, so that a fault of those disables MX scales alone).
const std::vector<SelfCheckProblem> &sm100_self_check_problems(Sm100Check check);

// The call `problem` makes, pointers left null: every leading dimension is the stored row (or
// column) length rounded up to 8 elements, plus 8 (16 of 8-bit elements; 16-byte multiples, which TMA can describe, and a
// pitch unlike the extent, which a kernel that confuses the two gets wrong), batches packed back to
// back (stride = lines x leading dimension, also for one batch).  The runner passes c only when
// beta != 0.
GemmArgs self_check_args(const SelfCheckProblem &problem);

// Runs every problem of `check` on `stream` in the handle's context through the family and through
// ALGO_PIPELINED (16-bit inputs) or ALGO_SIMT (f32 inputs, exact fp32 against tf32; 8-bit inputs,
// which SIMT converts to fp32 as it loads them), on inputs drawn
// from a fixed seed; the first disagreement beyond tolerance fails it.  Allocates, copies and
// synchronises the stream.  Throws Error on a driver error (a fault of the family's kernels among them).
SelfCheckOutcome run_sm100_self_check(const Handle &handle, CUstream stream, Sm100Check check);

}  // namespace asyncgemm::plan
