// The parameter block of the skinny family (csrc/kernels/skinny): a GEMM one of whose sides is a few
// columns, seen as out[s][r] = alpha * sum_k X[s][k] * L[r][k] + beta * C[s][r] over the rows r of the
// large operand L and the few "small" rows s of X.  The planner maps the canonical problem onto it
// (csrc/plan/skinny_launch.h): with m small, X is A and L is B (the rows of L are D's columns); with
// n small, X is B and L is A.  Plain C++, the same layout under g++ and nvcc.
#pragma once

#include <stdint.h>

namespace asyncgemm {

struct SkinnyParams {
    // L[r][k] at large[batch * stride_large + r * ld_large + k] where large_k_major, else at
    // large[batch * stride_large + k * ld_large + r]; 16-byte aligned rows either way.  The kernel
    // that reads it is of that major (skinny_kernels.def).
    const void *large;
    int64_t ld_large, stride_large;
    int32_t large_k_major;
    int32_t reserved_large;
    // X[s][k] at small[batch * stride_small + s * small_s + k * small_k].
    const void *small;
    int64_t small_s, small_k, stride_small;
    // C[s][r] and D[s][r] at c / d + batch * stride + s * (c|d)_s + r * (c|d)_r; c null when beta == 0.
    const void *c;
    int64_t c_s, c_r, stride_c;
    void *d;
    int64_t d_s, d_r, stride_d;
    int64_t rows, smalls, k, batch_count;
    float alpha, beta;
    int32_t type_cd;       // DType of C and D
    int32_t small_vector;  // 1: each X[s][k .. k + 8) is one aligned 16-byte vector (small_k == 1)
    // Split-K: the blocks of a row block cut K into `splits` ranges of chunks_per_split chunks; their
    // fp32 partials meet in `partials` and the last to finish, counted in counters[row block] (zero
    // between launches), sums them in range order.  splits == 1: both pointers null.
    int32_t splits;
    int32_t chunks_per_split;
    void *partials;
    int32_t *counters;
    // The fused epilogue (GemmParams' fields of that name): bias[s] (bias_on_small) or bias[r] added
    // to out[s][r], then the activation.
    const void *bias;
    int64_t stride_bias;
    int32_t type_bias;
    int32_t bias_on_small;
    int32_t activation;
    int32_t reserved;
};

}  // namespace asyncgemm
