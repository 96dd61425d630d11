// One GEMM call as a test sees it: the case (shape, layouts, dtypes, pointers, batches), its buffers
// on the device, random inputs, the fp64 reference, and the verdict on what the call left in D.
//
// Memory is laid out to catch what a kernel must never do: A, B and C end exactly at their last
// element (compute-sanitizer flags a read past it), their padding and batch gaps hold NaN (a kernel
// that reads them into a sum leaves NaN in D), and D sits between poisoned guards whose bits, like D's
// padding and gaps, must survive the call unchanged.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "asyncgemm.h"
#include "device_buffer.h"
#include "elements.h"
#include "matrix_layout.h"
#include "test_env.h"

namespace agtest {

// Where the call's c argument points.
enum class CSource {
    Buffer,     // a C of its own
    Null,       // c = NULL (beta must be 0)
    SameAsD,    // c == d, in place (ldc = ldd, stride_c = stride_d)
    NanBuffer,  // a C full of NaN with beta = 0: C must not be read
};

struct GemmCase {
    asyncgemm_algo_t algo = ASYNCGEMM_ALGO_AUTO;
    asyncgemm_order_t order = ASYNCGEMM_ORDER_ROW;
    asyncgemm_op_t op_a = ASYNCGEMM_OP_N, op_b = ASYNCGEMM_OP_N;
    asyncgemm_dtype_t type_ab = ASYNCGEMM_R_32F, type_cd = ASYNCGEMM_R_32F;
    // B's type where it is not A's (8-bit A and B of the two formats, e4m3 x e5m2).
    std::optional<asyncgemm_dtype_t> type_b;
    asyncgemm_dtype_t b_type() const { return type_b.value_or(type_ab); }
    int64_t m = 1, n = 1, k = 1;
    int64_t batch_count = 1;
    bool batched_api = false;  // call asyncgemm_gemm_strided_batched even for one batch
    bool via_matmul = false;   // call asyncgemm_matmul with the call's descriptor instead
    // asyncgemm_matmul's fused epilogue (any of these set: the call goes through asyncgemm_matmul).
    asyncgemm_bias_t bias_mode = ASYNCGEMM_BIAS_NONE;
    bool bias_f32 = false;        // the bias in f32, else in D's type
    bool broadcast_bias = false;  // one bias for every batch (stride_bias 0)
    asyncgemm_activation_t activation = ASYNCGEMM_ACT_NONE;
    bool fused() const { return bias_mode != ASYNCGEMM_BIAS_NONE || activation != ASYNCGEMM_ACT_NONE; }
    // 8-bit inputs' tensor scales (ASYNCGEMM_SCALE_TENSOR, one fp32 each in device memory); 0: none
    // (SCALE_NONE).  Either set: the call goes through asyncgemm_matmul.
    float scale_a = 0.0f, scale_b = 0.0f;
    // 8-bit inputs' block scales (ASYNCGEMM_SCALE_BLOCK_1x128, BLOCK_128x128 or MX_32, the last on
    // both or neither; NONE: none), random powers of two, in place of the operand's tensor scale.
    asyncgemm_scale_t block_a = ASYNCGEMM_SCALE_NONE, block_b = ASYNCGEMM_SCALE_NONE;
    bool scaled() const {
        return scale_a != 0.0f || scale_b != 0.0f || block_a != ASYNCGEMM_SCALE_NONE || block_b != ASYNCGEMM_SCALE_NONE;
    }
    int64_t lda_pad = 0, ldb_pad = 0, ldc_pad = 0, ldd_pad = 0;  // leading dimension beyond the minimum
    bool offset_a = false, offset_b = false, offset_c = false, offset_d = false;  // one element in
    bool broadcast_a = false, broadcast_b = false, broadcast_c = false;         // batch stride 0
    int64_t batch_gap = 0;  // elements between consecutive matrices beyond their span
    // Leading dimensions and batch strides rounded up to 16 bytes (as TMA needs: ALGO_SM90_TMA_WGMMA
    // refuses anything else); set the offsets false too.
    bool aligned16 = false;
    float alpha = 1.0f, beta = 0.0f;
    CSource c_source = CSource::Null;
    bool nan_operands = false;  // A and B hold NaN everywhere: for alpha = 0, which must not read them

    std::string describe() const;
};

// A case with random shape and features: each dimension a tail size or uniform in [1, max_dim],
// odd leading-dimension pads, offset pointers, batches with broadcasts, every C source, varied
// alpha and beta; half the cases 16-byte aligned instead (aligned16, no offsets).  The caller sets algo, order, ops and dtypes.
GemmCase random_gemm_case(Rng &rng, int64_t max_dim);

// Relative Frobenius error allowed for D: fp32 accumulation of exact products, then D's rounding.
double gemm_tolerance(asyncgemm_dtype_t type_ab, asyncgemm_dtype_t type_cd, asyncgemm_math_t math);

// The arguments of the call a case makes, as asyncgemm_gemm_strided_batched takes them (a
// non-batched case has batch_count 1 and zero strides).
struct GemmCall {
    asyncgemm_order_t order;
    asyncgemm_op_t op_a, op_b;
    int64_t m, n, k;
    float alpha;
    const void *a;
    int64_t lda, stride_a;
    const void *b;
    int64_t ldb, stride_b;
    float beta;
    const void *c;
    int64_t ldc, stride_c;
    void *d;
    int64_t ldd, stride_d;
    asyncgemm_dtype_t type_ab, type_cd;
    int64_t batch_count;
    asyncgemm_algo_t algo;
    asyncgemm_bias_t bias_mode;
    const void *bias;
    asyncgemm_dtype_t type_bias;
    int64_t stride_bias;
    asyncgemm_activation_t activation;
    asyncgemm_scale_t scale_mode_a;
    const void *scale_a;
    asyncgemm_scale_t scale_mode_b;
    const void *scale_b;
    asyncgemm_dtype_t type_b;  // B's type (type_ab is A's)
};

// The call's arguments as asyncgemm_matmul's descriptor.
asyncgemm_matmul_desc_t matmul_desc(const GemmCall &x);

class GemmProblem {
public:
    explicit GemmProblem(const GemmCase &gemm_case);

    const GemmCase &gemm_case() const { return case_; }

    // Fresh random inputs rounded to their dtypes, a poisoned D (holding C's values in its windows
    // when in place), all uploaded on `stream`.
    void fill(Rng &rng, cudaStream_t stream);

    // The call's arguments, pointing at this problem's buffers.
    GemmCall call() const;

    // The API call; asynchronous, like the library.
    asyncgemm_status_t launch(asyncgemm_handle_t handle, cudaStream_t stream) const;

    // After a successful launch: "" when every batch of D is finite and within tolerance of the fp64
    // reference and every element outside D's windows is unchanged; else what is wrong.
    std::string verify(cudaStream_t stream, asyncgemm_math_t math) const;

    // After a refused launch: "" when D is byte-identical to what fill() left there.
    std::string verify_untouched(cudaStream_t stream) const;

    // D's allocation as it is on the device now, byte for byte (to compare runs).
    std::vector<unsigned char> d_bytes(cudaStream_t stream) const;

private:
    struct Operand {
        MatrixLayout layout;
        int64_t stride = 0;  // elements between batches
        int64_t front = 0;   // elements of the allocation before the base pointer
        HostArray host;
        DeviceBuffer device;
        Operand(const MatrixLayout &layout, int64_t stride, int64_t matrices, int64_t front, int64_t back,
                asyncgemm_dtype_t dtype);
        int64_t index(int64_t batch, int64_t row, int64_t col) const {
            return front + batch * stride + layout.offset(row, col);
        }
        void *base() const;  // the pointer passed to the library
    };

    // "" when batch `batch` of `d` is finite and within `tolerance` of the fp64 reference.
    std::string verify_batch(int64_t batch, const HostArray &d, double tolerance) const;

    GemmCase case_;
    Operand a_, b_, c_;
    Operand d_;  // its host array is D as fill() left it: poison, and C's values when in place
    Operand bias_;  // one row of m (PER_ROW) or n (PER_COL) values a batch; one element without a bias
    DeviceBuffer scales_;  // the tensor scales of A and B, when the case has them
    // An operand's block scales (asyncgemm_scale_t's layout), one array a problem (one for all where
    // the operand is broadcast); one element without.
    // Block scales: fp32 per `rows` rows (of B, columns) and 128 of K; MX scales: UE8M0 bytes per row
    // and 32 of K in the library's tiles (kernels/common/mx_scale.h).
    struct BlockScales {
        int32_t rows = 0;         // rows (of B, columns) one block scale covers; 0: none or MX
        bool mx = false;
        int64_t extent = 0;       // m of A, n of B
        int64_t k = 0;
        int64_t per_problem = 1;  // scales (MX: bytes) of one problem
        HostArray host;           // block scales
        std::vector<uint8_t> mx_host;
        DeviceBuffer device;
        BlockScales(asyncgemm_scale_t mode, int64_t extent, int64_t k, int64_t matrices);
        double at(int64_t matrix, int64_t x, int64_t p) const;  // the scale of element (x, p)
    };
    BlockScales block_a_, block_b_;
};

// Runs one case on `stream` with fresh inputs: "" when the library did what it must (a correct D; or,
// for an explicit algorithm, NOT_SUPPORTED or MISALIGNED with a message and D untouched), else what
// went wrong, starting with the case.  *refused tells which of the two happened.
std::string run_gemm(asyncgemm_handle_t handle, const GemmCase &gemm_case, Rng &rng, cudaStream_t stream,
                     asyncgemm_math_t math, bool *refused);

// The same with the call made by `launch` (the kernel tests' way into the library), whose status
// and asyncgemm_last_error() are judged as the API's.
std::string run_gemm_with(const std::function<asyncgemm_status_t(const GemmCall &)> &launch, const GemmCase &gemm_case,
                          Rng &rng, cudaStream_t stream, asyncgemm_math_t math, bool *refused);

}  // namespace agtest
