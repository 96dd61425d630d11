// A GEMM workload: one row-major problem D = op_a(A) · op_b(B) + beta·C, possibly a strided batch,
// and its spelling on the command line:
//   MxNxK:dtype:ops[:option...]      4096x4096x4096:f16:NN, 128x6144x4096:bf16:NT:b=8:out=f32
// dtype is that of A and B (and of C and D unless out= says otherwise: bf16 for the 8-bit e4m3 and
// e5m2, which are inputs only); the options are
//   b=N      N matrices in a strided batch, each matrix right after the one before
//   out=T    C and D of type T (f32, f16, bf16)
//   pad=P    every leading dimension P elements longer than the row it holds
//   beta=X   D = A·B + X·C, C a matrix of its own
//   inplace  C is D (beta 1 unless beta= says otherwise)
//   bias=B   a bias vector added to D: row (m values, one per row of D), col (n values, one per
//            column), row32 or col32 (the same in f32 rather than D's type)
//   act=F    an activation applied last: relu, gelu (the tanh form), gelu_erf, silu
//   scales=block
//            8-bit A's scales ASYNCGEMM_SCALE_BLOCK_1x128 (the activations'), B's BLOCK_128x128 (the
//            weights'), rather than one fp32 each (ASYNCGEMM_SCALE_TENSOR, the default)
//   typeb=T  8-bit B of the other format T (e4m3 by e5m2, or e5m2 by e4m3)
// A workload with a bias or an activation goes through asyncgemm_matmul with the epilogue fused.
// An 8-bit workload (e4m3, e5m2) goes through asyncgemm_matmul with a scale for A and one for B (or
// their block scales), against cuBLASLt's FP8 matmul (which takes NT with 16-byte rows alone; other forms are checked
// against cuBLAS's GEMM of the values widened to 16 bits), in any ops and pads, and takes no bias=
// or act=; scales=block is for 8-bit workloads alone.
// describe() writes a workload back in this form, so every row of a table can be rerun with --shape.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "asyncgemm.h"

namespace bench {

struct GemmWorkload {
    int64_t m = 0, n = 0, k = 0;
    asyncgemm_dtype_t dtype = ASYNCGEMM_R_32F;  // of A and B
    asyncgemm_op_t op_a = ASYNCGEMM_OP_N, op_b = ASYNCGEMM_OP_N;
    bool tf32 = false;  // f32 data multiplied in TF32 by both libraries (ASYNCGEMM_MATH_TF32, FAST_TF32)
    asyncgemm_dtype_t out = ASYNCGEMM_R_32F;  // of C and D
    int64_t batch = 1;
    int64_t pad = 0;        // elements past each row of every stored matrix
    float beta = 0.0f;
    bool in_place = false;  // C is D
    asyncgemm_bias_t bias = ASYNCGEMM_BIAS_NONE;
    bool bias_f32 = false;  // the bias in f32 rather than D's type (only where D is not f32)
    asyncgemm_activation_t activation = ASYNCGEMM_ACT_NONE;
    bool block_scales = false;  // scales=block: A's scales BLOCK_1x128, B's BLOCK_128x128 (8-bit only)
    bool b_other_format = false;  // typeb=: 8-bit B of the other format
    std::string label;      // what the workload stands for ("Llama-3-8B qkv"); empty for --shape
    std::string suite;      // the suite it came from; empty for --shape and the seed workloads

    // Row-major storage: A is m x k (k x m when transposed), B is k x n (n x k), C and D are m x n.
    int64_t lda() const { return (op_a == ASYNCGEMM_OP_N ? k : m) + pad; }
    int64_t ldb() const { return (op_b == ASYNCGEMM_OP_N ? n : k) + pad; }
    int64_t ldd() const { return n + pad; }
    // One matrix of each, leading dimension included: the batch stride.
    int64_t a_stride() const { return lda() * (op_a == ASYNCGEMM_OP_N ? m : k); }
    int64_t b_stride() const { return ldb() * (op_b == ASYNCGEMM_OP_N ? k : n); }
    int64_t d_stride() const { return ldd() * m; }
    int64_t a_elements() const { return a_stride() * batch; }
    int64_t b_elements() const { return b_stride() * batch; }
    int64_t d_elements() const { return d_stride() * batch; }
    bool reads_c() const { return beta != 0.0f; }
    bool has_epilogue() const { return bias != ASYNCGEMM_BIAS_NONE || activation != ASYNCGEMM_ACT_NONE; }
    bool fp8() const { return dtype == ASYNCGEMM_R_8F_E4M3 || dtype == ASYNCGEMM_R_8F_E5M2; }
    // B's type: A's, or with typeb= the other 8-bit format.
    asyncgemm_dtype_t b_dtype() const {
        if (!b_other_format) return dtype;
        return dtype == ASYNCGEMM_R_8F_E4M3 ? ASYNCGEMM_R_8F_E5M2 : ASYNCGEMM_R_8F_E4M3;
    }
    // asyncgemm_matmul rather than asyncgemm_gemm_strided_batched, and cuBLASLt rather than cuBLAS.
    bool needs_matmul() const { return has_epilogue() || fp8(); }
    asyncgemm_dtype_t bias_type() const { return bias_f32 ? ASYNCGEMM_R_32F : out; }
    // One bias for every matrix of a batch.
    int64_t bias_elements() const {
        return bias == ASYNCGEMM_BIAS_PER_ROW ? m : bias == ASYNCGEMM_BIAS_PER_COL ? n : 0;
    }
    // The block scales of one matrix of a batch, laid out as asyncgemm.h says: A's one per row of
    // op(A) and 128 elements of K, B's one per 128 columns of op(B) and 128 elements of K.
    int64_t k_blocks() const { return (k + 127) / 128; }
    int64_t a_block_scales() const { return m * k_blocks(); }
    int64_t b_block_scales() const { return (n + 127) / 128 * k_blocks(); }
    double flops() const { return 2.0 * double(m) * double(n) * double(k) * double(batch); }
};

// A workload of the given shape, dtype and ops with every option at its default (tight, beta 0,
// D of the input type, or bf16 for 8-bit inputs).
GemmWorkload gemm_workload(int64_t m, int64_t n, int64_t k, asyncgemm_dtype_t dtype, const char *ops);

// "4096x4096x4096:f16:NN", with the options that differ from the defaults
std::string describe(const GemmWorkload &workload);

// The spellings of bias= and act=: "row", "col32", "gelu", ...; "" for none.
std::string bias_text(const GemmWorkload &workload);
const char *activation_text(asyncgemm_activation_t activation);

// The CSV's dtype column, A's and B's type: "bf16", "tf32", "e4m3", "e4m3xe5m2" (typeb=)
std::string type_text(const GemmWorkload &workload);

// Throws std::invalid_argument naming what is wrong with the spec.
GemmWorkload parse_workload(const std::string &spec);

// --fuse's epilogue, "bias=B:act=F" or either alone (the options of those names), given to a suite
// workload that has none of its own, is not 8-bit and not of the fp8 suite (whose bf16 rows are its
// 8-bit rows' twins); the workload otherwise unchanged.  Throws
// std::invalid_argument naming what is wrong with the text.
struct SuiteEpilogue {
    asyncgemm_bias_t bias = ASYNCGEMM_BIAS_NONE;
    bool bias_f32 = false;
    asyncgemm_activation_t activation = ASYNCGEMM_ACT_NONE;
};
SuiteEpilogue parse_fused_epilogue(const std::string &text);
GemmWorkload with_epilogue(GemmWorkload workload, const SuiteEpilogue &epilogue);

// The pieces of `text` between separators ("a:b" -> "a", "b"; "" -> one empty piece).
std::vector<std::string> split(const std::string &text, char separator);

// The seed workloads: the Tilus tutorials' two f16 shapes, the MoYe C = A·Bᵀ in fp32, and SGEMM.
std::vector<GemmWorkload> default_workloads();

}  // namespace bench
