#include "plan/widened_inputs.h"

#include "common/error.h"
#include "kernels/copy/copy_tile.h"
#include "plan/copy_kernels.h"
#include "plan/gemm_args.h"
#include "plan/kernel_table.h"
#include "runtime/workspace.h"

namespace asyncgemm::plan {
namespace {

constexpr size_t kCopyAlignment = 256;  // each copy starts on its own 256-byte boundary
constexpr int64_t kF16PerUnit = 8;      // f16 elements per 16 bytes: the copies' rows are whole units

// One operand's widening copy (rows x cols as stored, K-major or not; one matrix where it serves
// every batch) and where it lies in the scratch.
struct Widened {
    WidenParams params{};
    size_t offset = 0;
};

// Plans the copy at `end`, which it advances; false where the copy's size does not fit 64 bits
// (batches of overlapping operands may be many).
bool plan_operand(Widened &w, const GemmParams &p, const void *src, int32_t dtype, bool k_major, int64_t outer,
                  int64_t ld, int64_t stride, size_t &end) {
    WidenParams &x = w.params;
    x.rows = k_major ? outer : p.k;
    x.cols = k_major ? p.k : outer;
    x.batch_count = p.batch_count > 1 && stride != 0 ? p.batch_count : 1;
    x.src = src;
    x.ld_src = ld;
    x.stride_src = x.batch_count > 1 ? stride : 0;
    x.ld_dst = (x.cols + kF16PerUnit - 1) / kF16PerUnit * kF16PerUnit;
    x.stride_dst = x.batch_count > 1 ? x.rows * x.ld_dst : 0;
    x.dtype = dtype;
    w.offset = end;
    uint64_t elements = 0, bytes = 0;
    if (__builtin_mul_overflow(static_cast<uint64_t>(x.batch_count), static_cast<uint64_t>(x.rows), &elements) ||
        __builtin_mul_overflow(elements, static_cast<uint64_t>(x.ld_dst), &elements) ||
        __builtin_mul_overflow(elements, uint64_t{sizeof(uint16_t)}, &bytes) || bytes > (uint64_t{1} << 62))
        return false;
    end += static_cast<size_t>((bytes + kCopyAlignment - 1) / kCopyAlignment * kCopyAlignment);
    return true;
}

void launch_widen(const Handle &handle, const WidenParams &params, void *stream) {
    const int kernel = copy::kernel_index(copy::kCopyWiden, false, 1);
    if (kernel < 0) fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "no widening copy kernel");
    const uint32_t blocks = copy::row_piece_blocks(params.batch_count * params.rows * copy::row_pieces(params.cols));
    handle.launch(family_base(Family::Copy) + static_cast<size_t>(kernel), Dim3{blocks, 1, 1},
                  Dim3{static_cast<uint32_t>(copy::kThreads), 1, 1}, 0, &params, sizeof params, stream);
}

}  // namespace

bool launch_on_widened(const Handle &handle, const GemmParams &p, void *stream,
                       const std::function<void(const GemmParams &)> &multiply) {
    GemmParams q = p;
    q.type_ab = q.type_b = kF16;
    if (!has_product(p)) {  // A and B are neither read nor described
        multiply(q);
        return true;
    }
    size_t end = 0;
    Widened a, b;
    if (!plan_operand(a, p, p.a, p.type_ab, p.a_k_major != 0, p.m, p.lda, p.stride_a, end) ||
        !plan_operand(b, p, p.b, b_dtype(p), p.b_k_major != 0, p.n, p.ldb, p.stride_b, end))
        return false;
    return handle.workspace().run(0, end, static_cast<CUstream_st *>(stream), [&](Workspace::Lease lease) {
        char *scratch = static_cast<char *>(lease.partials);
        a.params.dst = scratch + a.offset;
        b.params.dst = scratch + b.offset;
        launch_widen(handle, a.params, stream);
        launch_widen(handle, b.params, stream);
        q.a = a.params.dst, q.lda = a.params.ld_dst, q.stride_a = a.params.stride_dst;
        q.b = b.params.dst, q.ldb = b.params.ld_dst, q.stride_b = b.params.stride_dst;
        multiply(q);
    });
}

}  // namespace asyncgemm::plan
