#include "gemm_bench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check.h"
#include "device_memory.h"
#include "enums.h"
#include "epilogue_pass.h"
#include "timing.h"

namespace bench {

namespace {

// Every matrix in the input pool starts on cudaMalloc's own alignment.
constexpr std::size_t kMatrixAlignment = 256;

std::size_t aligned(std::size_t bytes) {
    return (bytes + kMatrixAlignment - 1) / kMatrixAlignment * kMatrixAlignment;
}

std::size_t matrix_bytes(int64_t elements, asyncgemm_dtype_t dtype) {
    return std::size_t(elements) * element_bytes(dtype);
}

// The scales of 8-bit A and B, one fp32 each in device memory (ASYNCGEMM_SCALE_TENSOR; cuBLASLt's
// A_SCALE_POINTER and B_SCALE_POINTER): powers of two, so that scaled values stay exact, and of a
// product other than 1, so that a product that drops both scales is caught as surely as one that
// drops one.
constexpr float kScaleA = 0.5f, kScaleB = 0.25f;
// Each scale 16 bytes into its buffer from the other: cuBLASLt 13.1's cublasLtMatmul refuses a scale
// pointer off a 16-byte boundary (NOT_SUPPORTED, where its heuristic has accepted the plan).
constexpr std::size_t kScaleSlotBytes = 16;

// How many fp32 scales 8-bit A and B have: one each, or with scales=block (asyncgemm.h's layout)
// one array per matrix of the batch.
int64_t a_scales(const GemmWorkload &w) { return w.block_scales ? w.a_block_scales() * w.batch : 1; }
int64_t b_scales(const GemmWorkload &w) { return w.block_scales ? w.b_block_scales() * w.batch : 1; }

// The bytes of `scales` fp32 values rounded up to whole slots: the next operand's scales start on one.
std::size_t scale_slots(int64_t scales) {
    return (std::size_t(scales) * sizeof(float) + kScaleSlotBytes - 1) / kScaleSlotBytes * kScaleSlotBytes;
}

// A's scales, then B's from the next 16-byte boundary, in one buffer.
std::size_t scale_bytes(const GemmWorkload &w) {
    return w.fp8() ? scale_slots(a_scales(w)) + scale_slots(b_scales(w)) : 0;
}

// count block scales of {0.25, 0.5, 1, 2, 4}, each drawn at random: a kernel that takes one block's
// scale for another's is caught, and, powers of two, every scaled 8-bit value stays exact in 16 bits.
std::vector<float> random_block_scales(int64_t count, std::mt19937_64 &rng) {
    std::vector<float> scales(static_cast<std::size_t>(count));
    for (float &scale : scales) scale = std::ldexp(1.0f, int(rng() % 5) - 2);
    return scales;
}

// The widened inputs of the check of an 8-bit workload that cuBLASLt does not multiply, or of the
// cross-check of cuBLASLt's block scales (below): its A and B in a 16-bit type.
std::size_t widened_bytes(const GemmWorkload &w) {
    return w.fp8() ? matrix_bytes(w.a_elements() + w.b_elements(), ASYNCGEMM_R_16BF) : 0;
}

// As many sets of A and B as it takes to exceed twice the L2, laid out one after another in one pool:
// cycling through them, each run reads its inputs from DRAM, as a large problem would, rather than
// finding them in L2 where the run before left them.
class InputRotation {
public:
    InputRotation(const GemmWorkload &w, std::size_t l2_bytes)
        : b_in_set_(aligned(matrix_bytes(w.a_elements(), w.dtype))),
          set_bytes_(b_in_set_ + aligned(matrix_bytes(w.b_elements(), w.b_dtype()))),
          sets_(int64_t(2 * l2_bytes / set_bytes_) + 1) {}

    int64_t sets() const { return sets_; }
    std::size_t pool_bytes() const { return std::size_t(sets_) * set_bytes_; }
    std::size_t a_offset(int64_t run) const { return std::size_t(run % sets_) * set_bytes_; }
    std::size_t b_offset(int64_t run) const { return a_offset(run) + b_in_set_; }

private:
    std::size_t b_in_set_;
    std::size_t set_bytes_;
    int64_t sets_;
};

// Both sides accumulate in fp32 and round once to the output type, so they differ by at most about a
// unit in the last place of the largest outputs (2^-10 relative for f16, 2^-7 for bf16) plus fp32
// reassociation (~1e-6 at these depths).  The bounds leave a wide margin and still catch a wrong
// tile, or TF32 in an fp32 product (~3e-4 at 4096^3).  Two TF32 products differ by about that
// much again where one rounds its inputs to tf32 and the other truncates them.  The products of
// 8-bit inputs are exact in fp32, but their sums need not be: cuBLASLt's fast accumulation never
// promotes the FP8 tensor cores' partial sums, narrower than fp32, along K, nor need asyncgemm's
// kernels, while the check without cuBLASLt (e5m2) is against cuBLAS's fp32 sums: asyncgemm's first
// FP8 kernels came within 4.3e-3 of those at 4096^3 on an H200.  The bound, whatever D's type, is
// 2e-2 of max |D|: above that drift, far below a dropped scale (a factor of 2 at least) or a wrong
// tile.
double error_tolerance(const GemmWorkload &w) {
    if (w.tf32) return 5e-3;
    if (w.fp8()) return 2e-2;
    switch (w.out) {
    case ASYNCGEMM_R_16F: return 1e-2;
    case ASYNCGEMM_R_16BF: return 5e-2;
    case ASYNCGEMM_R_32F:
    case ASYNCGEMM_R_8F_E4M3:
    case ASYNCGEMM_R_8F_E5M2: break;  // 8-bit floats are inputs only
    }
    return 5e-5;
}

// The type whose tolerance a workload is checked with.
const char *tolerance_name(const GemmWorkload &w) {
    return w.tf32 ? "tf32" : dtype_name(w.fp8() ? w.dtype : w.out);
}

// max |out - ref| / max |ref| over the elements of D (not the padding past each row); NaN when out
// holds a NaN (the poison of an unwritten element, say).
double max_relative_error(const std::vector<double> &out, const std::vector<double> &ref, const GemmWorkload &w) {
    double max_difference = 0.0, max_reference = 0.0;
    for (int64_t row = 0; row < w.m * w.batch; ++row)
        for (int64_t col = 0; col < w.n; ++col) {
            const std::size_t i = std::size_t(row * w.ldd() + col);
            const double difference = std::fabs(out[i] - ref[i]);
            if (std::isnan(difference)) return difference;
            max_difference = std::fmax(max_difference, difference);
            max_reference = std::fmax(max_reference, std::fabs(ref[i]));
        }
    return max_reference > 0.0 ? max_difference / max_reference : max_difference;
}

// Why a result with this error is wrong, if it is.
std::optional<std::string> error_verdict(double error, const GemmWorkload &w) {
    if (std::isnan(error)) return std::string("D holds NaN: elements left unwritten or computed from garbage");
    if (error <= error_tolerance(w)) return std::nullopt;
    char note[64];
    std::snprintf(note, sizeof note, "error above the %s tolerance %.0e", tolerance_name(w), error_tolerance(w));
    return std::string(note);
}

// A named algorithm may decline a problem it was not built for; AUTO must serve every problem but
// those of 8-bit inputs where the Hopper family (which alone multiplies them) does not run.
bool declined(const Session &s, const GemmWorkload &w, asyncgemm_algo_t algo, asyncgemm_status_t status) {
    if (algo != ASYNCGEMM_ALGO_AUTO)
        return status == ASYNCGEMM_STATUS_NOT_SUPPORTED || status == ASYNCGEMM_STATUS_MISALIGNED;
    int hopper = 0;
    return w.fp8() && status == ASYNCGEMM_STATUS_NOT_SUPPORTED &&
           asyncgemm_algo_available(s.handle, ASYNCGEMM_ALGO_SM90_TMA_WGMMA, &hopper) == ASYNCGEMM_STATUS_SUCCESS &&
           hopper == 0;
}

// Whether a workload has a reference row (the progress counts it): cuBLAS's, or cuBLASLt's where the
// workload needs it.  Where cuBLASLt refuses a workload and cuBLAS cannot stand in (it was not
// opened, or the inputs are 8-bit, which it does not multiply), the row is a skipped one saying why.
bool has_reference(const Session &s, const GemmWorkload &w) {
    return s.cublas != nullptr || (w.needs_matmul() && s.cublaslt != nullptr);
}

// An 8-bit operand as stored (every matrix of the batch, rows ld apart) and its scales: x is a row of
// op(A) or a column of op(B), extent their count; a block scale of (x, k) of a matrix is at
// k / 128 * groups + x / rows_per_scale of its array (asyncgemm.h), groups = ceil(extent /
// rows_per_scale); rows_per_scale 0 is a tensor scale.
struct ScaledOperand {
    int64_t elements, ld, stride, extent;
    bool x_rows;             // the stored rows are x (A not transposed, B transposed), else k
    int64_t rows_per_scale;  // 1 for BLOCK_1x128 (A), 128 for BLOCK_128x128 (B), 0 for TENSOR
};

ScaledOperand scaled_a(const GemmWorkload &w) {
    return {w.a_elements(), w.lda(), w.a_stride(), w.m, w.op_a == ASYNCGEMM_OP_N, w.block_scales ? 1 : 0};
}
ScaledOperand scaled_b(const GemmWorkload &w) {
    return {w.b_elements(), w.ldb(), w.b_stride(), w.n, w.op_b == ASYNCGEMM_OP_T, w.block_scales ? 128 : 0};
}

// The scale of the stored element at index; 1 for the padding past a row, which no product reads.
float element_scale(const ScaledOperand &op, int64_t k, const std::vector<float> &scales, int64_t index) {
    if (op.rows_per_scale == 0) return scales[0];
    const int64_t matrix = index / op.stride, row = index % op.stride / op.ld, col = index % op.ld;
    const int64_t x = op.x_rows ? row : col, depth = op.x_rows ? col : row;
    if (x >= op.extent || depth >= k) return 1.0f;
    const int64_t groups = (op.extent + op.rows_per_scale - 1) / op.rows_per_scale;
    return scales[std::size_t(matrix * groups * ((k + 127) / 128) + depth / 128 * groups + x / op.rows_per_scale)];
}

// An 8-bit operand at src, of type `dtype`, each value times its scale, as floats on the host.
std::vector<float> widened(const void *src, asyncgemm_dtype_t dtype, const ScaledOperand &op, const GemmWorkload &w,
                           const std::vector<float> &scales, cudaStream_t stream) {
    const std::vector<double> narrow = download_as_double(src, std::size_t(op.elements), dtype, stream);
    std::vector<float> values(narrow.size());
    for (std::size_t i = 0; i < narrow.size(); ++i)
        values[i] = float(narrow[i]) * element_scale(op, w.k, scales, int64_t(i));
    return values;
}

// Sets D's storage to C's values before a checked run of a workload with beta != 0 (cuBLAS's C is
// its D, and so is asyncgemm's in place), or to NaN (all-ones bytes, a NaN in f32, f16 and bf16
// alike) without: an element the kernel never writes cannot pass for a result.
void prepare_output(void *d, const void *c, std::size_t bytes, cudaStream_t stream) {
    if (c != nullptr) check_cuda(cudaMemcpyAsync(d, c, bytes, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync");
    else check_cuda(cudaMemsetAsync(d, 0xFF, bytes, stream), "cudaMemsetAsync");
}

// The name of the separate-pass row, and the algorithm whose plain GEMM it runs.
constexpr const char *kPassRow = "GEMM+pass";
constexpr asyncgemm_algo_t kPassAlgorithm = ASYNCGEMM_ALGO_AUTO;

// One workload on the device: its rotating inputs, C where beta != 0, its bias, the scales of 8-bit
// inputs, an output for the reference and one for asyncgemm, and what the reference row leaves for
// the others to be measured against.
class WorkloadRun {
public:
    WorkloadRun(const Session &session, const GemmWorkload &workload, const InputRotation &rotation)
        : s_(session), w_(workload), rotation_(rotation), pool_(rotation.pool_bytes()),
          c_(workload.reads_c() ? d_bytes() : 0), bias_(bias_bytes(workload)),
          scales_(scale_bytes(workload)), d_cublas_(d_bytes()), d_asyncgemm_(d_bytes()) {
        for (int64_t set = 0; set < rotation_.sets(); ++set) {
            upload(pool_.data() + rotation_.a_offset(set), random_uniform(w_.a_elements(), s_.rng), w_.dtype,
                   s_.stream);
            upload(pool_.data() + rotation_.b_offset(set), random_uniform(w_.b_elements(), s_.rng), w_.b_dtype(),
                   s_.stream);
        }
        if (w_.reads_c()) upload(c_.data(), random_uniform(w_.d_elements(), s_.rng), w_.out, s_.stream);
        if (w_.bias != ASYNCGEMM_BIAS_NONE)
            upload(bias_.data(), random_uniform(w_.bias_elements(), s_.rng), w_.bias_type(), s_.stream);
        if (w_.fp8()) upload_scales();
        choose_reference();
    }

    static std::size_t bias_bytes(const GemmWorkload &w) { return matrix_bytes(w.bias_elements(), w.bias_type()); }

    // Whether there is a reference row, and its name.
    bool has_reference() const { return bench::has_reference(s_, w_); }
    const char *reference_name() const { return lt_plan_ || !s_.cublas || w_.fp8() ? "cuBLASLt" : "cuBLAS"; }

    // Runs the reference once and keeps its D; the row says why where it fails.  Without a cuBLASLt
    // epilogue the reference D is cuBLAS's GEMM followed by the separate pass, and the time the plain
    // GEMM's.  Without cuBLASLt's FP8 matmul, the reference row of an 8-bit workload is skipped, with
    // D kept from cuBLAS's GEMM of the same values widened to 16 bits, where cuBLAS is there.
    GemmResult check_reference() {
        GemmResult row{w_, reference_name()};
        row.reference = true;
        row.note = reference_note_;
        if (!lt_plan_ && (w_.fp8() || !s_.cublas)) {
            row.outcome = Outcome::skipped;
            if (w_.fp8() && s_.cublas) keep_widened_reference(row);
            return row;
        }
        prepare_output(d_cublas_.data(), c(), d_bytes(), s_.stream);
        const cublasStatus_t status = run_reference(0);
        if (status != CUBLAS_STATUS_SUCCESS) {
            row.outcome = Outcome::failed;
            row.note = reference_call() + ": " + reference_status(status);
            return row;
        }
        if (w_.has_epilogue() && !lt_plan_)
            check_cuda(launch_epilogue_pass(epilogue_pass(w_, d_cublas_.data(), bias_.data()), s_.stream),
                       "the epilogue pass");
        reference_ = download_as_double(d_cublas_.data(), std::size_t(w_.d_elements()), w_.out, s_.stream);
        if (w_.block_scales && s_.cublas) cross_check_block_scales(row);
        return row;
    }

    // Runs the algorithm once and compares its D with the reference's.
    GemmResult check_algorithm(asyncgemm_algo_t algo) {
        GemmResult row{w_, algo_name(algo)};
        prepare_output(d_asyncgemm_.data(), w_.in_place ? c() : nullptr, d_bytes(), s_.stream);
        const asyncgemm_status_t status = run_asyncgemm(algo, 0);
        if (status != ASYNCGEMM_STATUS_SUCCESS) {
            row.outcome = declined(s_, w_, algo, status) ? Outcome::skipped : Outcome::failed;
            row.note = asyncgemm_failure(status, asyncgemm_call());
            return row;
        }
        compare(row);
        return row;
    }

    // Runs the plain GEMM and the separate pass once and compares their D with the reference's.
    GemmResult check_gemm_and_pass() {
        GemmResult row{w_, kPassRow};
        prepare_output(d_asyncgemm_.data(), w_.in_place ? c() : nullptr, d_bytes(), s_.stream);
        const asyncgemm_status_t status = run_plain_asyncgemm(kPassAlgorithm, 0);
        if (status != ASYNCGEMM_STATUS_SUCCESS) {
            row.outcome = Outcome::failed;
            row.note = asyncgemm_failure(status, "asyncgemm_gemm_strided_batched");
            return row;
        }
        check_cuda(launch_epilogue_pass(epilogue_pass(w_, d_asyncgemm_.data(), bias_.data()), s_.stream),
                   "the epilogue pass");
        compare(row);
        return row;
    }

    void launch_reference(int64_t run) {
        const cublasStatus_t status = run_reference(run);
        if (status != CUBLAS_STATUS_SUCCESS) throw BenchError(reference_call() + ": " + reference_status(status));
    }
    void launch_asyncgemm(asyncgemm_algo_t algo, int64_t run) {
        check_asyncgemm(run_asyncgemm(algo, run), asyncgemm_call());
    }
    void launch_gemm_and_pass(int64_t run) {
        check_asyncgemm(run_plain_asyncgemm(kPassAlgorithm, run), "asyncgemm_gemm_strided_batched");
        check_cuda(launch_epilogue_pass(epilogue_pass(w_, d_asyncgemm_.data(), bias_.data()), s_.stream),
                   "the epilogue pass");
    }

private:
    std::size_t d_bytes() const { return matrix_bytes(w_.d_elements(), w_.out); }
    const void *a(int64_t run) const { return pool_.data() + rotation_.a_offset(run); }
    const void *b(int64_t run) const { return pool_.data() + rotation_.b_offset(run); }
    const void *c() const { return w_.reads_c() ? c_.data() : nullptr; }
    const float *scale_a() const { return reinterpret_cast<const float *>(scales_.data()); }
    std::size_t b_scales_offset() const { return scale_slots(a_scales(w_)); }
    const float *scale_b() const { return reinterpret_cast<const float *>(scales_.data() + b_scales_offset()); }
    const char *asyncgemm_call() const {
        return w_.needs_matmul() ? "asyncgemm_matmul" : "asyncgemm_gemm_strided_batched";
    }

    // cuBLASLt for a workload with an epilogue it has, or with 8-bit inputs it multiplies; cuBLAS
    // otherwise, with a note saying why where the workload needs cuBLASLt.
    void choose_reference() {
        if (!w_.needs_matmul()) return;
        std::string why_not = "cuBLASLt not opened (the header says why)";
        if (const std::optional<std::string> missing = CublasLt::missing_epilogue(w_)) why_not = *missing;
        else if (s_.cublaslt) lt_plan_ = s_.cublaslt->plan(w_, bias_.data(), scale_a(), scale_b(), why_not);
        if (lt_plan_) {
            if (lt_plan_->row_major()) reference_note_ = "row-major layouts (CUBLASLT_ORDER_ROW)";
            return;
        }
        const char *instead = w_.fp8() ? "; checked against cuBLAS's GEMM of the values in 16 bits, untimed"
                                       : "; timed: cuBLAS's plain GEMM";
        reference_note_ = s_.cublas ? why_not + instead : why_not;
    }

    // The scales of 8-bit A and B, on the device and kept on the host for the widened product.
    void upload_scales() {
        scales_a_ = w_.block_scales ? random_block_scales(a_scales(w_), s_.rng) : std::vector<float>{kScaleA};
        scales_b_ = w_.block_scales ? random_block_scales(b_scales(w_), s_.rng) : std::vector<float>{kScaleB};
        upload(scales_.data(), scales_a_, ASYNCGEMM_R_32F, s_.stream);
        upload(scales_.data() + b_scales_offset(), scales_b_, ASYNCGEMM_R_32F, s_.stream);
    }

    // cuBLAS multiplies no 8-bit type, but f16 and bf16 hold every e4m3 and e5m2 value exactly, times
    // its scale (a power of two, the tensor's or its block's) too, and their products are exact in
    // fp32: cuBLAS's GEMM of run 0's inputs so widened on the host is the scaled product in fp32, the
    // one asyncgemm's FP8 computes.  Its D, in d_cublas_ and returned; none where cuBLAS fails, with
    // why_not.
    std::vector<double> widened_product(std::string &why_not) {
        GemmWorkload wide = w_;
        wide.dtype = w_.out == ASYNCGEMM_R_16F ? ASYNCGEMM_R_16F : ASYNCGEMM_R_16BF;  // a pair cublasGemmEx takes
        wide.b_other_format = false;
        const DeviceBuffer a(matrix_bytes(w_.a_elements(), wide.dtype)), b(matrix_bytes(w_.b_elements(), wide.dtype));
        upload(a.data(), widened(this->a(0), w_.dtype, scaled_a(w_), w_, scales_a_, s_.stream), wide.dtype,
               s_.stream);
        upload(b.data(), widened(this->b(0), w_.b_dtype(), scaled_b(w_), w_, scales_b_, s_.stream), wide.dtype,
               s_.stream);
        prepare_output(d_cublas_.data(), c(), d_bytes(), s_.stream);
        const cublasStatus_t status = s_.cublas->gemm(wide, a.data(), b.data(), d_cublas_.data());
        if (status != CUBLAS_STATUS_SUCCESS) {
            why_not = "cublasGemmEx: " + s_.cublas->status_string(status);
            return {};
        }
        return download_as_double(d_cublas_.data(), std::size_t(w_.d_elements()), w_.out, s_.stream);
    }

    // Where cuBLASLt has no FP8 matmul for the workload, the widened product's D is kept for the
    // check; the row stays skipped, and is not timed.
    void keep_widened_reference(GemmResult &row) {
        std::string why_not;
        reference_ = widened_product(why_not);
        if (reference_.empty()) row.note += "; " + why_not + ", D not checked";
    }

    // cuBLASLt's D of a block-scaled workload against the widened product: nothing documents that
    // cuBLASLt reads its VEC128 and BLK128x128 scales in asyncgemm.h's layout, which both libraries
    // are given.  Where the two differ, cuBLASLt's row FAILS with the error, and the widened product
    // becomes the reference the other rows are checked against.
    void cross_check_block_scales(GemmResult &row) {
        std::string why_not;
        std::vector<double> exact = widened_product(why_not);
        if (exact.empty()) {
            row.note = why_not + ": cuBLASLt's D not checked against the widened values";
            return;
        }
        row.max_rel_err = max_relative_error(reference_, exact, w_);
        if (const std::optional<std::string> wrong = error_verdict(*row.max_rel_err, w_)) {
            row.outcome = Outcome::failed;
            row.note = "against cuBLAS's GEMM of the block-scaled values in 16 bits, " + *wrong +
                       " (is cuBLASLt's scale layout asyncgemm.h's?); the other rows are checked against that "
                       "GEMM";
            reference_ = std::move(exact);
        }
    }

    cublasStatus_t run_reference(int64_t run) {
        if (lt_plan_) return s_.cublaslt->matmul(*lt_plan_, a(run), b(run), d_cublas_.data());
        return s_.cublas->gemm(w_, a(run), b(run), d_cublas_.data());
    }
    std::string reference_call() const { return lt_plan_ ? "cublasLtMatmul" : "cublasGemmEx"; }
    std::string reference_status(cublasStatus_t status) const {
        return lt_plan_ ? s_.cublaslt->status_string(status) : s_.cublas->status_string(status);
    }

    // The product with the workload's epilogue fused where it has one, or with the scales of its 8-bit
    // inputs (asyncgemm_matmul), else the call it has always been timed with.
    asyncgemm_status_t run_asyncgemm(asyncgemm_algo_t algo, int64_t run) {
        if (!w_.needs_matmul()) return run_plain_asyncgemm(algo, run);
        asyncgemm_matmul_desc_t desc;
        asyncgemm_matmul_desc_init(&desc);
        void *d = d_asyncgemm_.data();
        const void *c_arg = w_.in_place ? d : c();
        const bool batched = w_.batch > 1;
        desc.order = ASYNCGEMM_ORDER_ROW;
        desc.op_a = w_.op_a, desc.op_b = w_.op_b;
        desc.m = w_.m, desc.n = w_.n, desc.k = w_.k, desc.batch_count = w_.batch;
        desc.alpha = 1.0f, desc.beta = w_.beta;
        desc.a = a(run), desc.type_a = w_.dtype, desc.lda = w_.lda(), desc.stride_a = batched ? w_.a_stride() : 0;
        desc.b = b(run), desc.type_b = w_.b_dtype(), desc.ldb = w_.ldb(), desc.stride_b = batched ? w_.b_stride() : 0;
        desc.c = c_arg, desc.type_c = w_.out, desc.ldc = w_.ldd();
        desc.stride_c = batched && c_arg != nullptr ? w_.d_stride() : 0;
        desc.d = d, desc.type_d = w_.out, desc.ldd = w_.ldd(), desc.stride_d = batched ? w_.d_stride() : 0;
        desc.bias_mode = w_.bias, desc.bias = bias_.data(), desc.type_bias = w_.bias_type(), desc.stride_bias = 0;
        desc.activation = w_.activation;
        if (w_.fp8()) {
            desc.scale_mode_a = w_.block_scales ? ASYNCGEMM_SCALE_BLOCK_1x128 : ASYNCGEMM_SCALE_TENSOR;
            desc.scale_mode_b = w_.block_scales ? ASYNCGEMM_SCALE_BLOCK_128x128 : ASYNCGEMM_SCALE_TENSOR;
            desc.scale_a = scale_a(), desc.scale_b = scale_b();
        }
        desc.algo = algo;
        return asyncgemm_matmul(s_.handle, &desc, s_.stream);
    }

    // In place, C is D; else C is the workload's own (read-only) C.
    asyncgemm_status_t run_plain_asyncgemm(asyncgemm_algo_t algo, int64_t run) {
        void *d = d_asyncgemm_.data();
        const void *c_arg = w_.in_place ? d : c();
        const int64_t stride = w_.batch > 1 ? w_.d_stride() : 0;
        return asyncgemm_gemm_strided_batched(
            s_.handle, ASYNCGEMM_ORDER_ROW, w_.op_a, w_.op_b, w_.m, w_.n, w_.k, 1.0f, a(run), w_.dtype, w_.lda(),
            w_.batch > 1 ? w_.a_stride() : 0, b(run), w_.dtype, w_.ldb(), w_.batch > 1 ? w_.b_stride() : 0, w_.beta,
            c_arg, w_.out, w_.ldd(), c_arg != nullptr ? stride : 0, d, w_.out, w_.ldd(), stride, w_.batch, algo,
            s_.stream);
    }

    // The row's D against the reference's, where there is one.
    void compare(GemmResult &row) {
        if (reference_.empty()) return;
        row.max_rel_err = max_relative_error(
            download_as_double(d_asyncgemm_.data(), std::size_t(w_.d_elements()), w_.out, s_.stream), reference_, w_);
        if (const std::optional<std::string> wrong = error_verdict(*row.max_rel_err, w_)) {
            row.outcome = Outcome::failed;
            row.note = *wrong;
        }
    }

    const Session &s_;
    const GemmWorkload &w_;
    const InputRotation &rotation_;
    DeviceBuffer pool_, c_, bias_, scales_, d_cublas_, d_asyncgemm_;
    std::unique_ptr<LtMatmul> lt_plan_;  // the reference where cuBLASLt has the workload's epilogue or FP8
    std::string reference_note_;         // how the reference row was made, where that needs saying
    std::vector<double> reference_;      // the reference's D for the inputs of run 0
    std::vector<float> scales_a_, scales_b_;  // the scales of 8-bit A and B, as uploaded
};

// One row to check and time: its name (for the progress line), its check, and its launch.
struct Contender {
    std::string name;
    std::function<GemmResult()> check;
    std::function<void(int64_t run)> launch;
};

std::vector<Contender> contenders(WorkloadRun &run, const GemmWorkload &w,
                                  const std::vector<asyncgemm_algo_t> &algorithms) {
    std::vector<Contender> all;
    if (run.has_reference())
        all.push_back({run.reference_name(), [&run] { return run.check_reference(); },
                       [&run](int64_t r) { run.launch_reference(r); }});
    for (asyncgemm_algo_t algo : algorithms)
        all.push_back({algo_name(algo), [&run, algo] { return run.check_algorithm(algo); },
                       [&run, algo](int64_t r) { run.launch_asyncgemm(algo, r); }});
    if (w.has_epilogue())
        all.push_back({kPassRow, [&run] { return run.check_gemm_and_pass(); },
                       [&run](int64_t r) { run.launch_gemm_and_pass(r); }});
    return all;
}

// Whether a checked row is timed: every one that ran (a wrong result is still timed and shown).
bool ran(const GemmResult &row) {
    return row.outcome == Outcome::ok || (row.outcome == Outcome::failed && row.max_rel_err);
}

void record(GemmResult &row, const Timing &timing) {
    row.median_ms = timing.median_ms;
    row.sm_mhz = timing.sm_mhz;
    row.mj_per_run = timing.mj_per_run;
    row.temperature_c = timing.temperature_c;
}

}  // namespace

int gemm_steps(const Session &session, const GemmWorkload &w, const std::vector<asyncgemm_algo_t> &algorithms) {
    return (has_reference(session, w) ? 1 : 0) + int(algorithms.size()) + (w.has_epilogue() ? 1 : 0);
}

void bench_gemm_workload(const Session &s, const GemmWorkload &w, const std::vector<asyncgemm_algo_t> &algorithms,
                         std::vector<GemmResult> &results) {
    const InputRotation rotation(w, s.l2_bytes);
    const std::size_t d_bytes = matrix_bytes(w.d_elements(), w.out);
    const std::size_t c_bytes = w.reads_c() ? d_bytes : 0;
    const std::size_t needed = rotation.pool_bytes() + 2 * d_bytes + c_bytes + WorkloadRun::bias_bytes(w) +
                               scale_bytes(w) + widened_bytes(w);
    if (const std::optional<std::string> shortfall = memory_shortfall(needed)) {
        GemmResult skipped{w, "-"};
        skipped.outcome = Outcome::skipped;
        skipped.note = *shortfall;
        results.push_back(skipped);
        s.progress.skip(gemm_steps(s, w, algorithms));
        return;
    }

    WorkloadRun run(s, w, rotation);
    // The handle's math mode for this workload's asyncgemm rows, back to exact fp32 after them.
    check_asyncgemm(asyncgemm_set_math_mode(s.handle, w.tf32 ? ASYNCGEMM_MATH_TF32 : ASYNCGEMM_MATH_DEFAULT),
                    "asyncgemm_set_math_mode");
    const std::size_t first = results.size();
    const std::vector<Contender> rows = contenders(run, w, algorithms);
    if (s.timing == TimingMode::events) {
        // Each row timed on its own, right after its check.
        for (const Contender &row : rows) {
            s.progress.start(describe(w) + " " + row.name);
            results.push_back(row.check());
            if (ran(results.back())) record(results.back(), time_runs(s.stream, s.min_runs, row.launch, s.monitor));
        }
    } else {
        // Every row checked first, then all timed together, in interleaved bursts (or graphs of them).
        std::vector<std::function<void(int64_t)>> launches;
        std::vector<std::size_t> timed_rows;
        s.progress.start(describe(w) + " checks");
        for (const Contender &row : rows) {
            results.push_back(row.check());
            if (!ran(results.back())) continue;
            launches.push_back(row.launch);
            timed_rows.push_back(results.size() - 1);
        }
        s.progress.start(describe(w) + " timing");
        if (!launches.empty()) {
            const std::vector<Timing> timings = s.timing == TimingMode::graphs
                                                    ? time_graphs(s.stream, s.min_runs, launches, s.monitor)
                                                    : time_bursts(s.stream, s.min_runs, launches, s.monitor);
            for (std::size_t i = 0; i < timed_rows.size(); ++i) record(results[timed_rows[i]], timings[i]);
        }
        s.progress.skip(std::max(0, gemm_steps(s, w, algorithms) - 2));  // the checks and the timing were two
    }
    std::optional<double> reference_ms;
    if (results.size() > first && results[first].reference && results[first].outcome == Outcome::ok)
        reference_ms = results[first].median_ms;
    for (std::size_t i = first; i < results.size(); ++i)
        if (reference_ms && results[i].median_ms) results[i].vs_cublas = *reference_ms / *results[i].median_ms;
    check_asyncgemm(asyncgemm_set_math_mode(s.handle, ASYNCGEMM_MATH_DEFAULT), "asyncgemm_set_math_mode");
}

}  // namespace bench
