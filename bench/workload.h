// A GEMM workload: one row-major problem D = op_a(A) · op_b(B) with tight leading dimensions, and its
// spelling on the command line, "MxNxK:dtype:ops" (4096x4096x4096:f16:NN, 2048x2048x256:f32:NT).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "asyncgemm.h"

namespace bench {

struct GemmWorkload {
    int64_t m, n, k;
    asyncgemm_dtype_t dtype;  // of A, B and D alike
    asyncgemm_op_t op_a, op_b;
    bool tf32 = false;  // f32 data multiplied in TF32 by both libraries (ASYNCGEMM_MATH_TF32, FAST_TF32)

    // Row-major storage: A is m x k (k x m when transposed), B is k x n (n x k), D is m x n.
    int64_t lda() const { return op_a == ASYNCGEMM_OP_N ? k : m; }
    int64_t ldb() const { return op_b == ASYNCGEMM_OP_N ? n : k; }
    int64_t ldd() const { return n; }
    int64_t a_elements() const { return m * k; }
    int64_t b_elements() const { return k * n; }
    int64_t d_elements() const { return m * n; }
    double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};

// "4096x4096x4096 f16 NN"
std::string describe(const GemmWorkload &workload);

// Throws std::invalid_argument naming what is wrong with the spec.
GemmWorkload parse_workload(const std::string &spec);

// The seed workloads: the Tilus tutorials' two f16 shapes, the MoYe C = A·Bᵀ in fp32, and SGEMM.
std::vector<GemmWorkload> default_workloads();

}  // namespace bench
