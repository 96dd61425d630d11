// A GEMM call as the public API states it, before any checking, and its canonical form.  Every entry
// point makes one: asyncgemm_matmul from its descriptor (plan/matmul_desc.h), asyncgemm_gemm and
// asyncgemm_gemm_strided_batched through a descriptor of their arguments.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "asyncgemm.h"
#include "kernels/common/params.h"

namespace asyncgemm::plan {

struct GemmArgs {
    asyncgemm_order_t order = ASYNCGEMM_ORDER_ROW;
    asyncgemm_op_t op_a = ASYNCGEMM_OP_N, op_b = ASYNCGEMM_OP_N;
    int64_t m = 0, n = 0, k = 0;
    float alpha = 1.0f;
    const void *a = nullptr;
    asyncgemm_dtype_t type_a = ASYNCGEMM_R_32F;
    int64_t lda = 0, stride_a = 0;
    const void *b = nullptr;
    asyncgemm_dtype_t type_b = ASYNCGEMM_R_32F;
    int64_t ldb = 0, stride_b = 0;
    float beta = 0.0f;
    const void *c = nullptr;
    asyncgemm_dtype_t type_c = ASYNCGEMM_R_32F;
    int64_t ldc = 0, stride_c = 0;
    void *d = nullptr;
    asyncgemm_dtype_t type_d = ASYNCGEMM_R_32F;
    int64_t ldd = 0, stride_d = 0;
    int64_t batch_count = 1;
    asyncgemm_algo_t algo = ASYNCGEMM_ALGO_AUTO;
    // Version 0.2's epilogue and input scales (asyncgemm_matmul_desc_t).
    asyncgemm_bias_t bias_mode = ASYNCGEMM_BIAS_NONE;
    const void *bias = nullptr;
    asyncgemm_dtype_t type_bias = ASYNCGEMM_R_32F;
    int64_t stride_bias = 0;
    asyncgemm_activation_t activation = ASYNCGEMM_ACT_NONE;
    asyncgemm_scale_t scale_mode_a = ASYNCGEMM_SCALE_NONE, scale_mode_b = ASYNCGEMM_SCALE_NONE;
    const void *scale_a = nullptr, *scale_b = nullptr;
    // How messages name the arguments: "" for asyncgemm_gemm's ("lda"), "desc->" for asyncgemm_matmul's
    // ("desc->lda").
    const char *names = "";
};

// Throws Error naming the first bad argument (INVALID_VALUE, or MISALIGNED for a pointer that is
// not aligned to its element size), then NOT_SUPPORTED naming what no algorithm of this version
// serves (block scales of 8-bit inputs, a bias of a third type).  Needs no GPU; checks every argument
// that does not depend on the device (which GPUs serve 8-bit inputs: plan/gemm_plan.cpp).
void validate(const GemmArgs &args);

// True when the call has no output to write (m, n or batch_count is 0).
bool is_empty(const GemmArgs &args);

// The row-major canonical problem of a validated call (see GemmParams): a column-major problem
// D = A·B becomes the row-major D' = B'·A' with m and n swapped.  Tile fields are left zero.
GemmParams canonicalize(const GemmArgs &args);

// As in BLAS, alpha == 0 or k == 0 gives D = beta * C: A and B are neither read nor described.
inline bool has_product(const GemmParams &params) { return params.k > 0 && params.alpha != 0.f; }

// True when A and B are 8-bit floats (e4m3 or e5m2).
inline bool has_eight_bit_inputs(const GemmParams &params) {
    return is_eight_bit(params.type_ab);
}

// True when 8-bit A or B has block scales (they are set only where there is a product).
inline bool has_block_scales(const GemmParams &params) {
    return params.block_scale_a != nullptr || params.block_scale_b != nullptr;
}

size_t dtype_size(int32_t dtype);
const char *dtype_name(int32_t dtype);
const char *algo_name(asyncgemm_algo_t algo);

}  // namespace asyncgemm::plan
