// One row of the output: what was measured, how fast, and whether it was right.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "asyncgemm.h"
#include "enums.h"
#include "workload.h"

namespace bench {

enum class Outcome {
    ok,
    skipped,  // the algorithm declined the problem (NOT_SUPPORTED, ...), or it did not fit in memory
    failed,   // a wrong result, or a call that should have worked and did not
};

struct GemmResult {
    GemmWorkload workload;
    std::string algorithm;                // "cuBLAS", "cuBLASLt", an asyncgemm_algo_t's name, or "GEMM+pass"
    Outcome outcome = Outcome::ok;
    std::optional<double> median_ms{};
    // The reference's median over this one: > 1 is faster than the reference, cuBLAS, or cuBLASLt
    // for a workload with an epilogue that cuBLASLt has.
    std::optional<double> vs_cublas{};
    std::optional<double> max_rel_err{};  // max |D - D_cublas| / max |D_cublas|
    std::string note{};                   // why it was skipped or failed
    // What the GPU did during the timed runs (timing.h): mean SM clock, energy per launch, and the
    // temperature at their end.
    std::optional<double> sm_mhz{};
    std::optional<double> mj_per_run{};
    std::optional<double> temperature_c{};
    bool reference = false;               // the workload's cuBLAS or cuBLASLt row, which the others are read against

    std::optional<double> tflops() const {
        if (!median_ms) return std::nullopt;
        return workload.flops() / (*median_ms * 1e9);
    }
    // The least traffic a product can make (A and B read once, C read where beta != 0, D written),
    // in 10^9 bytes per second: the rate against the memory roofline where one operand is small.
    std::optional<double> gb_per_s() const {
        if (!median_ms) return std::nullopt;
        const GemmWorkload &w = workload;
        const double in = double(element_bytes(w.dtype)), out = double(element_bytes(w.out));
        const double batch = double(w.batch), m = double(w.m), n = double(w.n), k = double(w.k);
        const double bytes = batch * ((m * k + k * n) * in + m * n * out * (w.reads_c() ? 2.0 : 1.0));
        return bytes / (*median_ms * 1e6);
    }
};

struct CopyResult {
    int64_t rows, cols;                   // of dst, f32
    std::optional<asyncgemm_op_t> op;     // none for the cudaMemcpyAsync baseline
    std::string algorithm;                // "D2D" or an asyncgemm_copy_algo_t's name
    std::string layout;                   // an asyncgemm_smem_layout_t's name, "-" for the baseline
    int vector_bytes;                     // as passed to asyncgemm_copy2d: 0 = the library's choice
    Outcome outcome = Outcome::ok;
    std::optional<double> median_ms{};
    std::optional<double> vs_d2d{};       // this bandwidth over the device-to-device copy's
    std::string note{};                   // why it was skipped or failed

    // Bytes read plus bytes written, in 10^9 bytes per second.
    std::optional<double> gb_per_s() const {
        if (!median_ms) return std::nullopt;
        return 2.0 * double(rows) * double(cols) * sizeof(float) / (*median_ms * 1e6);
    }
};

struct Results {
    std::vector<GemmResult> gemm;
    std::vector<CopyResult> copy;

    bool any_failed() const {
        for (const GemmResult &r : gemm) if (r.outcome == Outcome::failed) return true;
        for (const CopyResult &r : copy) if (r.outcome == Outcome::failed) return true;
        return false;
    }
};

}  // namespace bench
