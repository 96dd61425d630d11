// Kernel parameter blocks: the one contract between host planning and device code.
//
// Plain structs, no CUDA headers, identical layout under g++ and nvcc: the host fills one and passes
// it by value as a kernel's single parameter.  Every problem reaches a kernel in canonical form
// (row-major D, see canonicalize in csrc/plan/gemm_args.h), so kernels never look at the public
// order or ops.
#pragma once

#include <stdint.h>

#include "kernels/common/host_device.h"

namespace asyncgemm {

// Element types, with the public asyncgemm_dtype_t values.  The 8-bit floats (OCP FP8 E4M3 and
// E5M2) are inputs only.
enum DType : int32_t { kF32 = 0, kF16 = 1, kBF16 = 2, kE4M3 = 3, kE5M2 = 4 };

// Whether a DType (or asyncgemm_dtype_t value) is one of the 8-bit floats.
ASYNCGEMM_HOST_DEVICE constexpr bool is_eight_bit(int32_t dtype) { return dtype == kE4M3 || dtype == kE5M2; }

// Bytes of one element of A or B.
ASYNCGEMM_HOST_DEVICE constexpr int input_element_bytes(int32_t type_ab) {
    return type_ab == kF32 ? 4 : is_eight_bit(type_ab) ? 1 : 2;
}

// D[m][n] = alpha * A[m][k] * B[k][n] + beta * C[m][n], all row-major in the canonical problem, for
// batch_count problems.  Element (i, p) of A is a[i * lda + p] when a_k_major, else a[p * lda + i];
// element (p, j) of B is b[j * ldb + p] when b_k_major, else b[p * ldb + j].  C and D share type_cd
// and are row-major with ldc / ldd.  c is null when beta == 0.  Strides are in elements; 0 broadcasts.
struct GemmParams {
    int64_t m, n, k;
    const void *a;
    int64_t lda, stride_a;
    const void *b;
    int64_t ldb, stride_b;
    const void *c;
    int64_t ldc, stride_c;
    void *d;
    int64_t ldd, stride_d;
    int64_t batch_count;
    float alpha, beta;
    int32_t type_ab;   // DType of A, and of B unless type_b differs
    int32_t type_b;    // DType of B: type_ab, or for 8-bit A the other 8-bit format (e4m3 x e5m2),
                       // which SIMT's and SM90's 8-bit kernels and the f16 copies (WidenParams) read
    int32_t type_cd;   // DType of C and D
    int32_t a_k_major, b_k_major;
    int32_t vec_a, vec_b;  // elements per global->shared copy of A and B (a power of two, 1 = scalar)
    int32_t tiles_m, tiles_n;    // output tiles of the kernel's tile shape
    int32_t raster_group;        // tile rows walked together so A and B tiles stay in L2
    // Split-K (SIMT and the sm80 family): K is cut into `splits` ranges of slices_per_split K-slices
    // (the last may be shorter), one block each; their fp32 partial tiles meet in `partials` and the
    // last block of a tile to finish, counted in `tile_counters` (zero between launches), adds them in
    // split order and stores D.  splits == 1: no split, slices_per_split covers all of K, both
    // pointers null.
    int32_t splits;
    int32_t slices_per_split;
    void *partials;
    void *tile_counters;
    // The fused epilogue (asyncgemm_matmul): D = act(alpha * A·B + beta * C + bias) in fp32, rounded
    // once.  bias null: none; else bias[i] is added to row i of D (bias_per_row) or to column i,
    // elements of type_bias (kF32 or type_cd), batches stride_bias elements apart (0 broadcasts).
    // activation: an Activation (kernels/common/epilogue_math.h).  Every family fuses it.
    const void *bias;
    int64_t stride_bias;
    int32_t bias_per_row;
    int32_t type_bias;
    int32_t activation;
    int32_t reserved_epilogue;
    // Dequantizing scales of 8-bit A and B (ASYNCGEMM_SCALE_TENSOR): one fp32 each in device memory,
    // read by the kernel and folded into alpha; null: 1.
    const float *scale_a;
    const float *scale_b;
    // Block scales of 8-bit A and B (ASYNCGEMM_SCALE_BLOCK_*, kernels/common/block_scale.h): fp32
    // per block_rows_a rows of A and per block_cols_b columns of B (1 or 128), each over 128 of K,
    // applied to the products of each K block; null: none (the operand's scale, if any, is a tensor
    // scale).  Set only where there is a product (k > 0, alpha != 0).
    const float *block_scale_a;
    const float *block_scale_b;
    int32_t block_rows_a, block_cols_b;
    // MX scales of 8-bit A and B (ASYNCGEMM_SCALE_MX_32, kernels/common/mx_scale.h): one UE8M0 byte
    // per row of A (column of B) and 32 of K, both set or neither; null: none.  Set only where there
    // is a product.
    const uint8_t *mx_scale_a;
    const uint8_t *mx_scale_b;
};

// True when 8-bit A and B have MX scales (set only where there is a product, on both or neither).
ASYNCGEMM_HOST_DEVICE inline bool has_mx_scales(const GemmParams &params) { return params.mx_scale_a != nullptr; }

// True when 8-bit A and B are of the two formats (e4m3 x e5m2): SIMT's and SM90's 8-bit kernels read
// them, the sm80 families multiply f16 copies (plan/widened_inputs.h), SM100's kernels read one format.
ASYNCGEMM_HOST_DEVICE inline bool has_mixed_eight_bit_inputs(const GemmParams &params) {
    return is_eight_bit(params.type_ab) && is_eight_bit(params.type_b) && params.type_b != params.type_ab;
}

// The DType of B: type_b where it is the other 8-bit format, else type_ab (also for parameters built
// without type_b).
ASYNCGEMM_HOST_DEVICE inline int32_t b_dtype(const GemmParams &params) {
    return has_mixed_eight_bit_inputs(params) ? params.type_b : params.type_ab;
}

// dst[rows][cols] = alpha * op(src), row-major.  op N: src[i][j] at src[i * ld_src + j];
// op T: dst[i][j] = src[j * ld_src + i] (src is cols x rows).
struct CopyParams {
    int64_t rows, cols;
    const void *src;
    int64_t ld_src;
    void *dst;
    int64_t ld_dst;
    float alpha;
    int32_t dtype;        // DType of src and dst
    int32_t vec;          // elements per vector access (1, 2, 4 or 8)
    int32_t layout;       // asyncgemm_smem_layout_t value: PLAIN, PADDED or SWIZZLED (AUTO resolved)
    int32_t tiles_rows, tiles_cols;  // tiles of the kernel's tile shape over dst
    int32_t reserved;
};

// 8-bit float matrices widened to f16 (exact: f16 holds every e4m3 and e5m2 value), for the
// families without 8-bit kernels: batch_count matrices of rows x cols, row-major, stride_src and
// stride_dst elements apart (0: one matrix), src of dtype (kE4M3 or kE5M2) with leading dimension
// ld_src, dst f16 with ld_dst.
struct WidenParams {
    int64_t rows, cols, batch_count;
    const void *src;
    int64_t ld_src, stride_src;
    void *dst;
    int64_t ld_dst, stride_dst;
    int32_t dtype;
    int32_t reserved;
};

}  // namespace asyncgemm
