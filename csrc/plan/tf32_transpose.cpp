#include "plan/tf32_transpose.h"

#include <stddef.h>
#include <stdint.h>

#include "plan/copy_plan.h"
#include "plan/gemm_args.h"
#include "plan/sm90_plan.h"
#include "runtime/workspace.h"

namespace asyncgemm::plan {
namespace {

// Leading dimension of a K-major copy: k rounded up to 16 bytes of f32, as TMA needs.
int64_t copy_ld(int64_t k) { return (k + 3) / 4 * 4; }

// Bytes of one copy of `rows` K-major rows, rounded up to 256 so the next copy starts aligned.
size_t copy_bytes(int64_t rows, int64_t k) {
    return (static_cast<size_t>(rows) * static_cast<size_t>(copy_ld(k)) * sizeof(float) + 255) / 256 * 256;
}

// The MN-major operand (stored k x rows, leading dimension ld) as rows x k at dst: copy2d's
// transposing copy, row-major D = op T (S).
void transpose(const Handle &handle, const void *src, int64_t ld, int64_t rows, int64_t k, void *dst, void *stream) {
    CopyArgs copy;
    copy.op = ASYNCGEMM_OP_T;
    copy.rows = rows;
    copy.cols = k;
    copy.src = src;
    copy.ld_src = ld;
    copy.dst = dst;
    copy.ld_dst = copy_ld(k);
    copy.dtype = ASYNCGEMM_R_32F;
    copy2d(handle, copy, stream);
}

}  // namespace

GemmParams with_k_major_copies(const GemmParams &p, const void *a_copy, const void *b_copy) {
    GemmParams copies = p;
    if (!p.a_k_major) {
        copies.a = a_copy;
        copies.lda = copy_ld(p.k);
        copies.stride_a = 0;
        copies.a_k_major = 1;
    }
    if (!p.b_k_major) {
        copies.b = b_copy;
        copies.ldb = copy_ld(p.k);
        copies.stride_b = 0;
        copies.b_k_major = 1;
    }
    return copies;
}

bool tf32_transposable(const Handle &handle, const GemmParams &p) {
    if (p.type_ab != kF32 || handle.math_mode() != ASYNCGEMM_MATH_TF32 || (p.a_k_major && p.b_k_major)) return false;
    if (!has_product(p)) return false;  // nothing to transpose: the SIMT family writes beta * C
    if (!handle.family_available(Family::Sm90) || !handle.family_available(Family::Copy)) return false;
    const bool one_copy_a = p.a_k_major || p.batch_count == 1 || p.stride_a == 0;
    const bool one_copy_b = p.b_k_major || p.batch_count == 1 || p.stride_b == 0;
    // The copies sit at 256-byte aligned workspace addresses (null stands for them here).
    return one_copy_a && one_copy_b && sm90_tma_obstacle(with_k_major_copies(p, nullptr, nullptr)).empty();
}

bool launch_sm90_transposed(const Handle &handle, const GemmParams &p, void *stream) {
    const size_t a_bytes = p.a_k_major ? 0 : copy_bytes(p.m, p.k);
    const size_t b_bytes = p.b_k_major ? 0 : copy_bytes(p.n, p.k);
    return handle.workspace().run(0, a_bytes + b_bytes, static_cast<CUstream_st *>(stream), [&](Workspace::Lease lease) {
        char *scratch = static_cast<char *>(lease.partials);
        if (!p.a_k_major) transpose(handle, p.a, p.lda, p.m, p.k, scratch, stream);
        if (!p.b_k_major) transpose(handle, p.b, p.ldb, p.n, p.k, scratch + a_bytes, stream);
        const GemmParams copies = with_k_major_copies(p, scratch, scratch + a_bytes);
        const sm90::Shape shape{p.m, p.n, p.k, p.batch_count};
        launch_sm90_choice(handle, copies, {sm90::choose_config(shape, handle.device().sm_count), 1}, stream);
    });
}

}  // namespace asyncgemm::plan
