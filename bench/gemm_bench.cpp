#include "gemm_bench.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "check.h"
#include "device_memory.h"
#include "enums.h"
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

// As many sets of A and B as it takes to exceed twice the L2, laid out one after another in one pool:
// cycling through them, each run reads its inputs from DRAM, as a large problem would, rather than
// finding them in L2 where the run before left them.
class InputRotation {
public:
    InputRotation(const GemmWorkload &w, std::size_t l2_bytes)
        : b_in_set_(aligned(matrix_bytes(w.a_elements(), w.dtype))),
          set_bytes_(b_in_set_ + aligned(matrix_bytes(w.b_elements(), w.dtype))),
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
// much again where one rounds its inputs to tf32 and the other truncates them.
double error_tolerance(const GemmWorkload &w) {
    if (w.tf32) return 5e-3;
    switch (w.out) {
    case ASYNCGEMM_R_16F: return 1e-2;
    case ASYNCGEMM_R_16BF: return 5e-2;
    case ASYNCGEMM_R_32F: break;
    case ASYNCGEMM_R_8F_E4M3:
    case ASYNCGEMM_R_8F_E5M2: break;  // 8-bit inputs: no GEMM of this version takes them
    }
    return 5e-5;
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
    std::snprintf(note, sizeof note, "error above the %s tolerance %.0e", w.tf32 ? "tf32" : dtype_name(w.out),
                  error_tolerance(w));
    return std::string(note);
}

// A named algorithm may decline a problem it was not built for; AUTO must serve every problem.
bool declined(asyncgemm_algo_t algo, asyncgemm_status_t status) {
    return algo != ASYNCGEMM_ALGO_AUTO &&
           (status == ASYNCGEMM_STATUS_NOT_SUPPORTED || status == ASYNCGEMM_STATUS_MISALIGNED);
}

// Sets D's storage to C's values before a checked run of a workload with beta != 0 (cuBLAS's C is
// its D, and so is asyncgemm's in place), or to NaN (all-ones bytes, a NaN in f32, f16 and bf16
// alike) without: an element the kernel never writes cannot pass for a result.
void prepare_output(void *d, const void *c, std::size_t bytes, cudaStream_t stream) {
    if (c != nullptr) check_cuda(cudaMemcpyAsync(d, c, bytes, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync");
    else check_cuda(cudaMemsetAsync(d, 0xFF, bytes, stream), "cudaMemsetAsync");
}

// One workload on the device: its rotating inputs, C where beta != 0, an output for cuBLAS and one
// for asyncgemm, and what the cuBLAS row leaves for the others to be measured against.
class WorkloadRun {
public:
    WorkloadRun(const Session &session, const GemmWorkload &workload, const InputRotation &rotation)
        : s_(session), w_(workload), rotation_(rotation), pool_(rotation.pool_bytes()),
          c_(workload.reads_c() ? d_bytes() : 0), d_cublas_(d_bytes()), d_asyncgemm_(d_bytes()) {
        for (int64_t set = 0; set < rotation_.sets(); ++set) {
            upload(pool_.data() + rotation_.a_offset(set), random_uniform(w_.a_elements(), s_.rng), w_.dtype,
                   s_.stream);
            upload(pool_.data() + rotation_.b_offset(set), random_uniform(w_.b_elements(), s_.rng), w_.dtype,
                   s_.stream);
        }
        if (w_.reads_c()) upload(c_.data(), random_uniform(w_.d_elements(), s_.rng), w_.out, s_.stream);
    }

    // Runs cuBLAS once and keeps its D as the reference; the row says why where it fails.
    GemmResult check_cublas() {
        GemmResult row{w_, "cuBLAS"};
        prepare_output(d_cublas_.data(), c(), d_bytes(), s_.stream);
        const cublasStatus_t status = s_.cublas->gemm(w_, a(0), b(0), d_cublas_.data());
        if (status != CUBLAS_STATUS_SUCCESS) {
            row.outcome = Outcome::failed;
            row.note = "cublasGemmEx: " + s_.cublas->status_string(status);
            return row;
        }
        reference_ = download_as_double(d_cublas_.data(), std::size_t(w_.d_elements()), w_.out, s_.stream);
        return row;
    }

    // Runs the algorithm once and compares its D with cuBLAS's.
    GemmResult check_algorithm(asyncgemm_algo_t algo) {
        GemmResult row{w_, algo_name(algo)};
        prepare_output(d_asyncgemm_.data(), w_.in_place ? c() : nullptr, d_bytes(), s_.stream);
        const asyncgemm_status_t status = run_asyncgemm(algo, 0);
        if (status != ASYNCGEMM_STATUS_SUCCESS) {
            row.outcome = declined(algo, status) ? Outcome::skipped : Outcome::failed;
            row.note = asyncgemm_failure(status, "asyncgemm_gemm");
            return row;
        }
        if (!reference_.empty()) {
            row.max_rel_err = max_relative_error(
                download_as_double(d_asyncgemm_.data(), std::size_t(w_.d_elements()), w_.out, s_.stream), reference_,
                w_);
            if (const std::optional<std::string> wrong = error_verdict(*row.max_rel_err, w_)) {
                row.outcome = Outcome::failed;
                row.note = *wrong;
            }
        }
        return row;
    }

    void launch_cublas(int64_t run) {
        const cublasStatus_t status = s_.cublas->gemm(w_, a(run), b(run), d_cublas_.data());
        if (status != CUBLAS_STATUS_SUCCESS) throw BenchError("cublasGemmEx: " + s_.cublas->status_string(status));
    }
    void launch_asyncgemm(asyncgemm_algo_t algo, int64_t run) {
        check_asyncgemm(run_asyncgemm(algo, run), "asyncgemm_gemm");
    }

private:
    std::size_t d_bytes() const { return matrix_bytes(w_.d_elements(), w_.out); }
    const void *a(int64_t run) const { return pool_.data() + rotation_.a_offset(run); }
    const void *b(int64_t run) const { return pool_.data() + rotation_.b_offset(run); }
    const void *c() const { return w_.reads_c() ? c_.data() : nullptr; }

    // In place, C is D; else C is the workload's own (read-only) C.
    asyncgemm_status_t run_asyncgemm(asyncgemm_algo_t algo, int64_t run) {
        void *d = d_asyncgemm_.data();
        const void *c_arg = w_.in_place ? d : c();
        const int64_t stride = w_.batch > 1 ? w_.d_stride() : 0;
        return asyncgemm_gemm_strided_batched(
            s_.handle, ASYNCGEMM_ORDER_ROW, w_.op_a, w_.op_b, w_.m, w_.n, w_.k, 1.0f, a(run), w_.dtype, w_.lda(),
            w_.batch > 1 ? w_.a_stride() : 0, b(run), w_.dtype, w_.ldb(), w_.batch > 1 ? w_.b_stride() : 0, w_.beta,
            c_arg, w_.out, w_.ldd(), c_arg != nullptr ? stride : 0, d, w_.out, w_.ldd(), stride, w_.batch, algo,
            s_.stream);
    }

    const Session &s_;
    const GemmWorkload &w_;
    const InputRotation &rotation_;
    DeviceBuffer pool_, c_, d_cublas_, d_asyncgemm_;
    std::vector<double> reference_;   // cuBLAS's D for the inputs of run 0
};

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

int gemm_steps(const Session &session, const std::vector<asyncgemm_algo_t> &algorithms) {
    return (session.cublas ? 1 : 0) + int(algorithms.size());
}

void bench_gemm_workload(const Session &s, const GemmWorkload &w, const std::vector<asyncgemm_algo_t> &algorithms,
                         std::vector<GemmResult> &results) {
    const InputRotation rotation(w, s.l2_bytes);
    const std::size_t d_bytes = matrix_bytes(w.d_elements(), w.out);
    const std::size_t c_bytes = w.reads_c() ? d_bytes : 0;
    if (const std::optional<std::string> shortfall = memory_shortfall(rotation.pool_bytes() + 2 * d_bytes + c_bytes)) {
        GemmResult skipped{w, "-"};
        skipped.outcome = Outcome::skipped;
        skipped.note = *shortfall;
        results.push_back(skipped);
        s.progress.skip(gemm_steps(s, algorithms));
        return;
    }

    WorkloadRun run(s, w, rotation);
    // The handle's math mode for this workload's asyncgemm rows, back to exact fp32 after them.
    check_asyncgemm(asyncgemm_set_math_mode(s.handle, w.tf32 ? ASYNCGEMM_MATH_TF32 : ASYNCGEMM_MATH_DEFAULT),
                    "asyncgemm_set_math_mode");
    const std::size_t first = results.size();
    std::optional<double> cublas_ms;
    if (s.timing == TimingMode::events) {
        // Each row timed on its own, right after its check.
        if (s.cublas) {
            s.progress.start(describe(w) + " cuBLAS");
            results.push_back(run.check_cublas());
            if (results.back().outcome == Outcome::ok) {
                record(results.back(), time_runs(s.stream, s.min_runs, [&](int64_t r) { run.launch_cublas(r); },
                                                 s.monitor));
                cublas_ms = results.back().median_ms;
            }
        }
        for (asyncgemm_algo_t algo : algorithms) {
            s.progress.start(describe(w) + " " + algo_name(algo));
            results.push_back(run.check_algorithm(algo));
            if (!ran(results.back())) continue;
            record(results.back(), time_runs(s.stream, s.min_runs,
                                             [&](int64_t r) { run.launch_asyncgemm(algo, r); }, s.monitor));
        }
    } else {
        // Every row checked first, then all timed together, in interleaved bursts (or graphs of them).
        std::vector<std::function<void(int64_t)>> launches;
        std::vector<std::size_t> timed_rows;
        s.progress.start(describe(w) + " checks");
        if (s.cublas) {
            results.push_back(run.check_cublas());
            if (results.back().outcome == Outcome::ok) {
                launches.push_back([&](int64_t r) { run.launch_cublas(r); });
                timed_rows.push_back(results.size() - 1);
            }
        }
        for (asyncgemm_algo_t algo : algorithms) {
            results.push_back(run.check_algorithm(algo));
            if (!ran(results.back())) continue;
            launches.push_back([&run, algo](int64_t r) { run.launch_asyncgemm(algo, r); });
            timed_rows.push_back(results.size() - 1);
        }
        s.progress.start(describe(w) + " timing");
        if (!launches.empty()) {
            const std::vector<Timing> timings = s.timing == TimingMode::graphs
                                                    ? time_graphs(s.stream, s.min_runs, launches, s.monitor)
                                                    : time_bursts(s.stream, s.min_runs, launches, s.monitor);
            for (std::size_t i = 0; i < timed_rows.size(); ++i) record(results[timed_rows[i]], timings[i]);
        }
        if (s.cublas && results[first].outcome == Outcome::ok) cublas_ms = results[first].median_ms;
        s.progress.skip(std::max(0, gemm_steps(s, algorithms) - 2));  // the checks and the timing were two
    }
    for (std::size_t i = first; i < results.size(); ++i)
        if (cublas_ms && results[i].median_ms) results[i].vs_cublas = *cublas_ms / *results[i].median_ms;
    check_asyncgemm(asyncgemm_set_math_mode(s.handle, ASYNCGEMM_MATH_DEFAULT), "asyncgemm_set_math_mode");
}

}  // namespace bench
