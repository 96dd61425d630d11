#include "copy_bench.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "check.h"
#include "device_memory.h"
#include "enums.h"
#include "timing.h"

namespace bench {

namespace {

// 16384 x 16384 f32 is 1 GiB: no cache holds a meaningful part of it, so every run streams DRAM.
constexpr int64_t kRows = 16384;
constexpr int64_t kCols = 16384;

constexpr asyncgemm_op_t kOps[] = {ASYNCGEMM_OP_N, ASYNCGEMM_OP_T};
constexpr asyncgemm_copy_algo_t kAlgorithms[] = {ASYNCGEMM_COPY_SYNC, ASYNCGEMM_COPY_ASYNC,
                                                 ASYNCGEMM_COPY_PIPELINED, ASYNCGEMM_COPY_TMA};
constexpr asyncgemm_smem_layout_t kLayouts[] = {ASYNCGEMM_SMEM_PLAIN, ASYNCGEMM_SMEM_PADDED,
                                                ASYNCGEMM_SMEM_SWIZZLED};
// 0 lets the library take the widest vector (16 bytes here); 4-byte vectors make a transpose's
// shared-memory traffic four times the instructions, which is where the layouts differ.
constexpr int kVectorBytes[] = {0, 4};

struct Mismatch {
    int64_t row, col;
    float got, expected;
};

uint32_t bits(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

// dst against op(src), bit for bit: with alpha = 1 the copy is exact.  Walks 64 x 64 blocks so that
// the transposed walk through src stays in the host's cache, and looks for the element only in a
// block known to differ, which keeps the common pass free of branches.
std::optional<Mismatch> find_mismatch(const std::vector<float> &src, const std::vector<float> &dst, asyncgemm_op_t op) {
    constexpr int64_t kBlock = 64;
    // Where op(src)(r, c) lies: src is rows x cols row-major as is, cols x rows when transposed.
    const int64_t src_row_stride = op == ASYNCGEMM_OP_N ? kCols : 1;
    const int64_t src_col_stride = op == ASYNCGEMM_OP_N ? 1 : kRows;
    auto differs = [&](int64_t r, int64_t c) {
        return bits(dst[r * kCols + c]) != bits(src[r * src_row_stride + c * src_col_stride]);
    };
    for (int64_t r0 = 0; r0 < kRows; r0 += kBlock)
        for (int64_t c0 = 0; c0 < kCols; c0 += kBlock) {
            const int64_t r_end = std::min(r0 + kBlock, kRows), c_end = std::min(c0 + kBlock, kCols);
            bool block_differs = false;
            for (int64_t r = r0; r < r_end; ++r)
                for (int64_t c = c0; c < c_end; ++c) block_differs |= differs(r, c);
            if (!block_differs) continue;
            for (int64_t r = r0; r < r_end; ++r)
                for (int64_t c = c0; c < c_end; ++c)
                    if (differs(r, c))
                        return Mismatch{r, c, dst[r * kCols + c], src[r * src_row_stride + c * src_col_stride]};
        }
    return std::nullopt;
}

// A combination that cannot work is refused by design (a padding that would misalign the vectors, an
// algorithm the GPU lacks): shown, not failed.
bool declined(asyncgemm_status_t status) {
    return status == ASYNCGEMM_STATUS_INVALID_VALUE || status == ASYNCGEMM_STATUS_NOT_SUPPORTED ||
           status == ASYNCGEMM_STATUS_MISALIGNED;
}

// The copy section on the device: the source, kept on the host as well to check against, the
// destination, and the baseline's time once it has been measured.
class CopyRun {
public:
    explicit CopyRun(const Session &session)
        : s_(session), source_(random_uniform(std::size_t(kRows * kCols), session.rng)), copied_(source_.size()),
          src_(bytes()), dst_(bytes()) {
        copy_to_device(src_.data(), source_.data(), bytes(), s_.stream);
    }

    CopyResult baseline_row() {
        CopyResult row{kRows, kCols, std::nullopt, "D2D", "-", 0};
        d2d_ms_ = median_ms(s_.stream, s_.min_runs, [&](int64_t) {
            check_cuda(cudaMemcpyAsync(dst_.data(), src_.data(), bytes(), cudaMemcpyDeviceToDevice, s_.stream),
                       "cudaMemcpyAsync device to device");
        });
        row.median_ms = d2d_ms_;
        row.vs_d2d = 1.0;
        return row;
    }

    CopyResult copy_row(asyncgemm_op_t op, asyncgemm_copy_algo_t algo, asyncgemm_smem_layout_t layout, int vector_bytes) {
        CopyResult row{kRows, kCols, op, copy_algo_name(algo), layout_name(layout), vector_bytes};
        // All-ones bytes are a NaN, which matches no source element: unwritten output shows.
        check_cuda(cudaMemsetAsync(dst_.data(), 0xFF, bytes(), s_.stream), "cudaMemsetAsync");
        const asyncgemm_status_t status = run_copy2d(op, algo, layout, vector_bytes);
        if (status != ASYNCGEMM_STATUS_SUCCESS) {
            row.outcome = declined(status) ? Outcome::skipped : Outcome::failed;
            row.note = asyncgemm_failure(status, "asyncgemm_copy2d");
            return row;
        }
        copy_to_host(copied_.data(), dst_.data(), bytes(), s_.stream);
        if (const std::optional<Mismatch> mismatch = find_mismatch(source_, copied_, op)) {
            char note[128];
            std::snprintf(note, sizeof note, "dst(%lld, %lld) = %.9g, expected %.9g",
                          static_cast<long long>(mismatch->row), static_cast<long long>(mismatch->col),
                          mismatch->got, mismatch->expected);
            row.outcome = Outcome::failed;
            row.note = note;
        }
        row.median_ms = median_ms(s_.stream, s_.min_runs, [&](int64_t) {
            check_asyncgemm(run_copy2d(op, algo, layout, vector_bytes), "asyncgemm_copy2d");
        });
        row.vs_d2d = d2d_ms_ / *row.median_ms;  // the same bytes either way
        return row;
    }

private:
    static std::size_t bytes() { return std::size_t(kRows * kCols) * sizeof(float); }

    asyncgemm_status_t run_copy2d(asyncgemm_op_t op, asyncgemm_copy_algo_t algo, asyncgemm_smem_layout_t layout,
                                  int vector_bytes) {
        const int64_t ld_src = op == ASYNCGEMM_OP_N ? kCols : kRows;
        return asyncgemm_copy2d(s_.handle, ASYNCGEMM_ORDER_ROW, op, kRows, kCols, 1.0f, src_.data(), ld_src,
                                dst_.data(), kCols, ASYNCGEMM_R_32F, algo, layout, vector_bytes, s_.stream);
    }

    const Session &s_;
    const std::vector<float> source_;
    std::vector<float> copied_;
    DeviceBuffer src_, dst_;
    double d2d_ms_ = 0.0;
};

}  // namespace

int copy_steps() {
    return 1 + int(std::size(kOps) * std::size(kAlgorithms) * std::size(kLayouts) * std::size(kVectorBytes));
}

namespace {

// A row saying why the section cannot run, if the two matrices do not fit.
bool skipped_for_memory(const Session &s, std::vector<CopyResult> &results, int steps) {
    const std::optional<std::string> shortfall = memory_shortfall(2 * std::size_t(kRows * kCols) * sizeof(float));
    if (!shortfall) return false;
    CopyResult skipped{kRows, kCols, std::nullopt, "-", "-", 0};
    skipped.outcome = Outcome::skipped;
    skipped.note = *shortfall;
    results.push_back(skipped);
    s.progress.skip(steps);
    return true;
}

}  // namespace

void bench_copy_baseline(const Session &s, std::vector<CopyResult> &results) {
    if (skipped_for_memory(s, results, 1)) return;
    CopyRun run(s);
    s.progress.start("copy baseline: cudaMemcpyAsync device to device");
    results.push_back(run.baseline_row());
}

void bench_copies(const Session &s, std::vector<CopyResult> &results) {
    if (skipped_for_memory(s, results, copy_steps())) return;
    CopyRun run(s);
    s.progress.start("copy2d baseline: cudaMemcpyAsync device to device");
    results.push_back(run.baseline_row());
    for (asyncgemm_op_t op : kOps)
        for (asyncgemm_copy_algo_t algo : kAlgorithms)
            for (asyncgemm_smem_layout_t layout : kLayouts)
                for (int vector_bytes : kVectorBytes) {
                    s.progress.start(std::string("copy2d f32 ") + op_letter(op) + " " + copy_algo_name(algo) + " " +
                                     layout_name(layout) + " vec " + std::to_string(vector_bytes));
                    results.push_back(run.copy_row(op, algo, layout, vector_bytes));
                }
}

}  // namespace bench
