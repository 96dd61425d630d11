// The row-major canonical form every GEMM kernel receives (see GemmParams in params.h).
#include "plan/gemm_args.h"

namespace asyncgemm::plan {
namespace {

// The kernels' view of an operand's scale: its fp32 where the mode is TENSOR (validate refuses the
// other modes), null (1) otherwise.
const float *tensor_scale(asyncgemm_scale_t mode, const void *scale) {
    return mode == ASYNCGEMM_SCALE_TENSOR ? static_cast<const float *>(scale) : nullptr;
}

// The rows (of B, columns) one block scale of the mode covers; 0 for the other modes.
int32_t block_rows(asyncgemm_scale_t mode) {
    return mode == ASYNCGEMM_SCALE_BLOCK_1x128 ? 1 : mode == ASYNCGEMM_SCALE_BLOCK_128x128 ? 128 : 0;
}

// The kernels' view of the canonical operands' block and MX scales: the caller's A's and B's, swapped
// with the operands where the problem is (validate accepts MX_32 on both operands or neither).
void set_block_scales(GemmParams &p, asyncgemm_scale_t mode_a, const void *scale_a, asyncgemm_scale_t mode_b,
                      const void *scale_b) {
    if (!has_product(p)) return;  // no scale is read
    if (block_rows(mode_a) != 0) {
        p.block_scale_a = static_cast<const float *>(scale_a);
        p.block_rows_a = block_rows(mode_a);
    }
    if (block_rows(mode_b) != 0) {
        p.block_scale_b = static_cast<const float *>(scale_b);
        // One column: per column and per 128 columns are the same scales, and the Hopper kernels
        // apply the second.
        p.block_cols_b = p.n == 1 ? 128 : block_rows(mode_b);
    }
    if (mode_a == ASYNCGEMM_SCALE_MX_32) {
        p.mx_scale_a = static_cast<const uint8_t *>(scale_a);
        p.mx_scale_b = static_cast<const uint8_t *>(scale_b);
    }
}

}  // namespace

size_t dtype_size(int32_t dtype) {
    switch (dtype) {
    case ASYNCGEMM_R_32F: return 4;
    case ASYNCGEMM_R_8F_E4M3:
    case ASYNCGEMM_R_8F_E5M2: return 1;
    default: return 2;
    }
}

const char *dtype_name(int32_t dtype) {
    switch (dtype) {
    case kF32: return "f32";
    case kF16: return "f16";
    case kBF16: return "bf16";
    case ASYNCGEMM_R_8F_E4M3: return "e4m3";
    case ASYNCGEMM_R_8F_E5M2: return "e5m2";
    default: return "unknown dtype";
    }
}

const char *algo_name(asyncgemm_algo_t algo) {
    switch (algo) {
    case ASYNCGEMM_ALGO_AUTO: return "ASYNCGEMM_ALGO_AUTO";
    case ASYNCGEMM_ALGO_SIMT: return "ASYNCGEMM_ALGO_SIMT";
    case ASYNCGEMM_ALGO_ASYNC_COPY: return "ASYNCGEMM_ALGO_ASYNC_COPY";
    case ASYNCGEMM_ALGO_PIPELINED: return "ASYNCGEMM_ALGO_PIPELINED";
    case ASYNCGEMM_ALGO_SM90_TMA_WGMMA: return "ASYNCGEMM_ALGO_SM90_TMA_WGMMA";
    case ASYNCGEMM_ALGO_SM100_TCGEN05: return "ASYNCGEMM_ALGO_SM100_TCGEN05";
    }
    return "unknown algorithm";
}

GemmParams canonicalize(const GemmArgs &args) {
    GemmParams p{};
    p.k = args.k;
    p.batch_count = args.batch_count;
    p.alpha = args.alpha;
    p.beta = args.beta;
    p.type_cd = args.type_d;
    p.c = args.beta != 0.0f ? args.c : nullptr;
    p.ldc = args.ldc;
    p.stride_c = args.stride_c;
    p.d = args.d;
    p.ldd = args.ldd;
    p.stride_d = args.stride_d;
    p.bias = args.bias_mode != ASYNCGEMM_BIAS_NONE ? args.bias : nullptr;
    p.stride_bias = args.stride_bias;
    p.type_bias = args.type_bias;
    p.activation = args.activation;
    // Canonical D is D itself for row-major calls and D transposed for column-major ones.
    p.bias_per_row = (args.bias_mode == ASYNCGEMM_BIAS_PER_ROW) == (args.order == ASYNCGEMM_ORDER_ROW);
    if (args.order == ASYNCGEMM_ORDER_ROW) {
        // A(i,p) = a[i*lda + p] when op_a is N; B(p,j) = b[j*ldb + p] when op_b is T.
        p.m = args.m;
        p.n = args.n;
        p.a = args.a, p.lda = args.lda, p.stride_a = args.stride_a, p.type_ab = args.type_a;
        p.b = args.b, p.ldb = args.ldb, p.stride_b = args.stride_b, p.type_b = args.type_b;
        p.a_k_major = args.op_a == ASYNCGEMM_OP_N;
        p.b_k_major = args.op_b == ASYNCGEMM_OP_T;
        p.scale_a = tensor_scale(args.scale_mode_a, args.scale_a);
        p.scale_b = tensor_scale(args.scale_mode_b, args.scale_b);
        set_block_scales(p, args.scale_mode_a, args.scale_a, args.scale_mode_b, args.scale_b);
    } else {
        // Column-major D (m x n) is row-major D^T (n x m) = op_b(B)^T · op_a(A)^T: the canonical A is
        // the caller's B and is K-major when op_b is N; the canonical B is the caller's A and is
        // K-major when op_a is T.
        p.m = args.n;
        p.n = args.m;
        p.a = args.b, p.lda = args.ldb, p.stride_a = args.stride_b, p.type_ab = args.type_b;
        p.b = args.a, p.ldb = args.lda, p.stride_b = args.stride_a, p.type_b = args.type_a;
        p.a_k_major = args.op_b == ASYNCGEMM_OP_N;
        p.b_k_major = args.op_a == ASYNCGEMM_OP_T;
        p.scale_a = tensor_scale(args.scale_mode_b, args.scale_b);
        p.scale_b = tensor_scale(args.scale_mode_a, args.scale_a);
        set_block_scales(p, args.scale_mode_b, args.scale_b, args.scale_mode_a, args.scale_a);
    }
    // Without a product no scale is read, nor checked (validate): none reaches a kernel.
    if (!has_product(p)) p.scale_a = p.scale_b = nullptr;
    return p;
}

}  // namespace asyncgemm::plan
