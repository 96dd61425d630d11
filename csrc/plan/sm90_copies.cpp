#include "plan/sm90_copies.h"

#include "common/error.h"
#include "kernels/sm90/sm90_traits.h"
#include "plan/copy_plan.h"
#include "plan/gemm_args.h"
#include "plan/gemm_tma.h"
#include "plan/sm90_heuristic.h"
#include "plan/sm90_plan.h"
#include "runtime/workspace.h"

namespace asyncgemm::plan {
namespace {

constexpr size_t kTmaAlignment = 16;
constexpr size_t kScratchAlignment = 256;

// What the estimate of sm90_copies_pay assumes (an H100 or H200): a copy launch's fixed cost, the
// device-to-device copy's bandwidth (bytes read and written), the Hopper family's rate on a problem
// large enough to pay for copies, and PIPELINED's on operands it reads with narrow copies (52-89
// TFLOP/s on the odd suite, an H200).  SIMT falls further behind (0.13x cuBLAS TF32): copies always pay.
constexpr double kCopyLaunchSeconds = 4e-6;
constexpr double kCopyBytesPerSecond = 3.0e12;
constexpr double kHopperFlopsPerSecond = 6.0e14;
constexpr double kFallbackFlopsPerSecond = 8.0e13;

bool tma_describable(const void *base, int64_t ld, int64_t stride, bool is_batched, size_t element) {
    return reinterpret_cast<uintptr_t>(base) % kTmaAlignment == 0 && static_cast<size_t>(ld) * element % kTmaAlignment == 0 &&
           (!is_batched || static_cast<size_t>(stride) * element % kTmaAlignment == 0);
}

// `count` elements rounded up to a whole number of 16-byte chunks.
int64_t aligned_ld(int64_t count, size_t element) {
    const auto per_chunk = static_cast<int64_t>(kTmaAlignment / element);
    return (count + per_chunk - 1) / per_chunk * per_chunk;
}

int64_t copied_rows(const ScratchCopy &copy, int64_t batch_count) {
    return copy.batch_rows > 0 ? (batch_count - 1) * copy.batch_rows + copy.rows : copy.rows;
}

class Layout {
public:
    Layout(const GemmParams &p) : p_(p) {}

    void place(ScratchCopy &copy, size_t element) {
        copy.offset = end_;
        const size_t bytes = static_cast<size_t>(copied_rows(copy, p_.batch_count)) * static_cast<size_t>(copy.ld) * element;
        copy.bytes = (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment;
        end_ += copy.bytes;
    }
    size_t end() const { return end_; }

private:
    const GemmParams &p_;
    size_t end_ = 0;
};

// A matrix read by the product (A, B or C), stored `rows` x `cols` at `base` with leading dimension
// ld and batch stride `stride`: copied where TMA cannot describe it, or transposed where `transpose`
// (then `rows` x `cols` is the copy's shape, the matrix stored cols x rows).  False where no single
// copy serves.
bool plan_read(ScratchCopy &copy, const GemmParams &p, const void *base, int64_t rows, int64_t cols, int64_t ld,
               int64_t stride, size_t element, bool transpose) {
    const bool is_batched = batched(p, stride);
    if (!transpose && tma_describable(base, ld, stride, is_batched, element)) return true;
    copy.rows = rows;
    copy.cols = cols;
    copy.ld_src = ld;
    copy.ld = aligned_ld(cols, element);
    copy.transpose = transpose;
    if (is_batched) {
        // One copy of every row from the first matrix to the last: the stride must be whole rows, and
        // a transposing copy cannot step between matrices.
        if (transpose || stride % ld != 0) return false;
        copy.batch_rows = stride / ld;
    }
    return true;
}

const void *at(char *scratch, const ScratchCopy &copy) { return scratch + copy.offset; }

void launch_copy(const Handle &handle, const void *src, int64_t ld_src, void *dst, int64_t ld_dst, int64_t rows,
                 int64_t cols, bool transpose, int32_t dtype, void *stream) {
    if (dtype_size(dtype) == 1) {  // plan_sm90_copies copies 8-bit matrices only to transpose them
        if (!transpose) fail(ASYNCGEMM_STATUS_INTERNAL_ERROR, "sm90 copies: an 8-bit matrix copied untransposed");
        transpose_bytes(handle, src, ld_src, dst, ld_dst, rows, cols, stream);
        return;
    }
    CopyArgs args;
    args.op = transpose ? ASYNCGEMM_OP_T : ASYNCGEMM_OP_N;
    args.rows = rows;
    args.cols = cols;
    args.src = src;
    args.ld_src = ld_src;
    args.dst = dst;
    args.ld_dst = ld_dst;
    args.dtype = static_cast<asyncgemm_dtype_t>(dtype);
    copy2d(handle, args, stream);
}

}  // namespace

std::optional<Sm90Copies> plan_sm90_copies(const GemmParams &p, bool tf32) {
    if (!has_product(p)) return std::nullopt;  // D = beta * C: no operand to read, the fallback is quick
    if (p.m > kMaxTmaCoordinate || p.n > kMaxTmaCoordinate || p.k > kMaxTmaCoordinate ||
        p.batch_count > kMaxTmaCoordinate)
        return std::nullopt;
    const size_t ab = dtype_size(p.type_ab), cd = dtype_size(p.type_cd);
    // wgmma reads tf32 and 8-bit operands K-major only: an MN-major one is copied transposed.
    const bool eight_bit = is_eight_bit(p.type_ab);
    const bool transposes = (tf32 && p.type_ab == kF32) || eight_bit;
    const bool transpose_a = transposes && !p.a_k_major;
    const bool transpose_b = transposes && !p.b_k_major;
    Sm90Copies copies;
    // A is m x k as stored K-major, k x m MN-major (the copy of a transposed one m x k); B likewise.
    const bool a_ok = p.a_k_major || transpose_a
                          ? plan_read(copies.a, p, p.a, p.m, p.k, p.lda, p.stride_a, ab, transpose_a)
                          : plan_read(copies.a, p, p.a, p.k, p.m, p.lda, p.stride_a, ab, false);
    const bool b_ok = p.b_k_major || transpose_b
                          ? plan_read(copies.b, p, p.b, p.n, p.k, p.ldb, p.stride_b, ab, transpose_b)
                          : plan_read(copies.b, p, p.b, p.k, p.n, p.ldb, p.stride_b, ab, false);
    const bool c_ok = p.beta == 0.f || plan_read(copies.c, p, p.c, p.m, p.n, p.ldc, p.stride_c, cd, false);
    if (!a_ok || !b_ok || !c_ok) return std::nullopt;
    // D is written: its copy goes back row for row, so batches must lie one right after another.
    if (!tma_describable(p.d, p.ldd, p.stride_d, batched(p, p.stride_d), cd)) {
        if (p.batch_count > 1 && p.stride_d != p.m * p.ldd) return std::nullopt;
        copies.d.rows = p.m;
        copies.d.cols = p.n;
        copies.d.ld_src = p.ldd;
        copies.d.ld = aligned_ld(p.n, cd);
        copies.d.batch_rows = p.batch_count > 1 ? p.m : 0;
    }
    if (!copies.a.used() && !copies.b.used() && !copies.c.used() && !copies.d.used()) return std::nullopt;
    // 8-bit matrices are copied only to be transposed (transpose_bytes: 4-byte aligned rows); the
    // scratch side is 256-byte aligned, its rows 16-byte multiples.
    if (eight_bit) {
        const auto byte_transpose = [&](const ScratchCopy &copy, const void *src) {
            return !copy.used() || (copy.transpose && transposable_bytes(src, copy.ld_src, nullptr, copy.ld));
        };
        if (!byte_transpose(copies.a, p.a) || !byte_transpose(copies.b, p.b) || copies.c.used() || copies.d.used())
            return std::nullopt;
    }

    Layout layout(p);
    if (copies.a.used()) layout.place(copies.a, ab);
    if (copies.b.used()) layout.place(copies.b, ab);
    if (copies.c.used()) layout.place(copies.c, cd);
    if (copies.d.used()) layout.place(copies.d, cd);
    copies.scratch_bytes = layout.end();

    // The copies sit at 256-byte aligned addresses: any such base stands for the scratch here.
    alignas(kScratchAlignment) static char probe[kScratchAlignment];
    const GemmParams on_scratch = on_copies(p, copies, probe);
    const bool types = sm90::supports_types(on_scratch.type_ab, on_scratch.type_cd, tf32, on_scratch.a_k_major != 0,
                                            on_scratch.b_k_major != 0);
    if (!types || !tma_obstacle(on_scratch, on_scratch.beta != 0.f, true).empty()) return std::nullopt;
    return copies;
}

GemmParams on_copies(const GemmParams &p, const Sm90Copies &copies, char *scratch) {
    GemmParams q = p;
    const auto stride = [](const ScratchCopy &copy, int64_t original) {
        return copy.batch_rows > 0 ? copy.batch_rows * copy.ld : original;  // 0 (broadcast) stays 0
    };
    if (copies.a.used()) {
        q.a = at(scratch, copies.a);
        q.lda = copies.a.ld;
        q.stride_a = stride(copies.a, p.stride_a);
        if (copies.a.transpose) q.a_k_major = 1;
    }
    if (copies.b.used()) {
        q.b = at(scratch, copies.b);
        q.ldb = copies.b.ld;
        q.stride_b = stride(copies.b, p.stride_b);
        if (copies.b.transpose) q.b_k_major = 1;
    }
    if (copies.c.used()) {
        q.c = at(scratch, copies.c);
        q.ldc = copies.c.ld;
        q.stride_c = stride(copies.c, p.stride_c);
    }
    if (copies.d.used()) {
        q.d = scratch + copies.d.offset;
        q.ldd = copies.d.ld;
        q.stride_d = stride(copies.d, p.stride_d);
    }
    return q;
}

bool sm90_copies_pay(const GemmParams &p, const Sm90Copies &copies, bool fallback_simt) {
    if (fallback_simt) return true;
    const double flops = 2.0 * static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k) *
                         static_cast<double>(p.batch_count);
    int launches = 0;
    double moved = 0.0;  // each copy reads and writes its bytes
    for (const ScratchCopy *copy : {&copies.a, &copies.b, &copies.c, &copies.d}) {
        if (!copy->used()) continue;
        ++launches;
        moved += 2.0 * static_cast<double>(copy->bytes);
    }
    const double with_copies =
        launches * kCopyLaunchSeconds + moved / kCopyBytesPerSecond + flops / kHopperFlopsPerSecond;
    return with_copies < flops / kFallbackFlopsPerSecond;
}

bool launch_sm90_on_copies(const Handle &handle, const GemmParams &p, const Sm90Copies &copies, void *stream) {
    const auto copy_in = [&](const ScratchCopy &copy, const void *src, int32_t dtype, char *scratch) {
        if (!copy.used()) return;
        launch_copy(handle, src, copy.ld_src, scratch + copy.offset, copy.ld, copied_rows(copy, p.batch_count),
                    copy.cols, copy.transpose, dtype, stream);
    };
    return handle.workspace().run(0, copies.scratch_bytes, static_cast<CUstream_st *>(stream),
                                  [&](Workspace::Lease lease) {
        char *scratch = static_cast<char *>(lease.partials);
        copy_in(copies.a, p.a, p.type_ab, scratch);
        copy_in(copies.b, p.b, b_dtype(p), scratch);
        copy_in(copies.c, p.c, p.type_cd, scratch);
        const GemmParams q = on_copies(p, copies, scratch);
        const sm90::Shape shape{q.m, q.n, q.k, q.batch_count, has_block_scales(q)};
        launch_sm90_choice(handle, q, {sm90::choose_config(shape, handle.device().sm_count), 1}, stream);
        if (copies.d.used())
            launch_copy(handle, scratch + copies.d.offset, copies.d.ld, p.d, copies.d.ld_src,
                        copied_rows(copies.d, p.batch_count), copies.d.cols, false, p.type_cd, stream);
    });
}

}  // namespace asyncgemm::plan
