// The skinny family's view of a canonical problem, and its launch: plain C++17, pinned by
// tests/unit/test_skinny_launch.cpp.
#pragma once

#include <stdint.h>

#include <optional>

#include "kernels/common/gemm_launch.h"
#include "kernels/common/params.h"
#include "kernels/skinny/skinny_params.h"
#include "kernels/skinny/skinny_traits.h"
#include "plan/skinny_kernels.h"
#include "plan/split_k.h"

namespace asyncgemm::skinny {

// A block's K range is at least two turns of its k warps (below that the partials' round trip costs
// more than the loads it spreads), and K is cut into at most 16 ranges.
inline constexpr plan::SplitRule kSplitRule{2, 16};

// True when rows of `ld` elements of `element` bytes from `address`, batches `stride` apart, all
// start on 16 bytes.
constexpr bool rows_aligned16(uint64_t address, int64_t ld, int64_t stride, int64_t element) {
    return address % 16 == 0 && ld * element % 16 == 0 && stride * element % 16 == 0;
}

// The skinny view of canonical problem `p` (skinny_params.h), splits 1 and the tile fields unset,
// when the family serves it: f16, bf16 or f32 A and B with a product (k > 0, alpha != 0), one side of
// at most max_smalls whose other operand, the large one, has 16-byte aligned rows in a major the
// family has a kernel of for the type (kernel_index: f32 for 8 small rows of a K-major L alone); X's
// rows 16-byte vectors or, for 8 small rows and a K-major L, any layout.  With both sides small, the
// smaller is.
inline std::optional<SkinnyParams> skinny_view(const GemmParams &p) {
    if ((p.type_ab != kF16 && p.type_ab != kBF16 && p.type_ab != kF32) || p.k < 1 || p.alpha == 0.f || p.m < 1 ||
        p.n < 1)
        return std::nullopt;
    const int64_t element = p.type_ab == kF32 ? 4 : 2;
    const auto view = [&](bool small_m) -> std::optional<SkinnyParams> {
        SkinnyParams s{};
        s.k = p.k;
        s.batch_count = p.batch_count;
        s.alpha = p.alpha;
        s.beta = p.beta;
        s.type_cd = p.type_cd;
        s.c = p.c;
        s.d = p.d;
        s.bias = p.bias;
        s.stride_bias = p.stride_bias;
        s.type_bias = p.type_bias;
        s.activation = p.activation;
        // out[s][r] is D[s][r] for a small m, D[r][s] for a small n.
        s.bias_on_small = (p.bias_per_row != 0) == small_m;
        s.stride_c = p.stride_c;
        s.stride_d = p.stride_d;
        if (small_m) {
            // out[s][r] = D[s][r]: X = A (m x k), L = B's columns.
            if (!rows_aligned16(reinterpret_cast<uintptr_t>(p.b), p.ldb, p.stride_b, element)) return std::nullopt;
            s.smalls = p.m, s.rows = p.n;
            s.large = p.b, s.ld_large = p.ldb, s.stride_large = p.stride_b, s.large_k_major = p.b_k_major;
            s.small = p.a, s.stride_small = p.stride_a;
            s.small_s = p.a_k_major ? p.lda : 1, s.small_k = p.a_k_major ? 1 : p.lda;
            s.c_s = p.ldc, s.c_r = 1, s.d_s = p.ldd, s.d_r = 1;
        } else {
            // out[s][r] = D[r][s]: X = B's columns (k x n), L = A.
            if (!rows_aligned16(reinterpret_cast<uintptr_t>(p.a), p.lda, p.stride_a, element)) return std::nullopt;
            s.smalls = p.n, s.rows = p.m;
            s.large = p.a, s.ld_large = p.lda, s.stride_large = p.stride_a, s.large_k_major = p.a_k_major;
            s.small = p.b, s.stride_small = p.stride_b;
            s.small_s = p.b_k_major ? p.ldb : 1, s.small_k = p.b_k_major ? 1 : p.ldb;
            s.c_s = 1, s.c_r = p.ldc, s.d_s = 1, s.d_r = p.ldd;
        }
        if (s.smalls > max_smalls(s.large_k_major != 0) ||
            kernel_index(p.type_ab, smalls_tile(s.smalls), s.large_k_major != 0) < 0)
            return std::nullopt;
        s.small_vector = s.small_k == 1 &&
                         rows_aligned16(reinterpret_cast<uintptr_t>(s.small), s.small_s, s.stride_small, element);
        if (!s.small_vector && !shape_for(smalls_tile(s.smalls), s.large_k_major != 0).strided) return std::nullopt;
        return s;
    };
    const bool m_fits = p.m <= kMaxSmalls, n_fits = p.n <= kMaxSmalls;
    std::optional<SkinnyParams> by_m = m_fits ? view(true) : std::nullopt;
    std::optional<SkinnyParams> by_n = n_fits ? view(false) : std::nullopt;
    if (by_m && by_n) return p.n < p.m ? by_n : by_m;
    return by_m ? by_m : by_n;
}

// Whether ALGO_AUTO takes the skinny view `v` of inputs of type_ab in TF32 math (`tf32`) or not.
// f32 inputs in TF32 math may go to the tensor-core families instead, which read them faster from a
// few small rows on: the f32 kernel multiplies by FMA, every small row's loads through L1 (an H200,
// the f32 kernel against Hopper's tf32: 1 x 4096 x 4096 26 us against 32, 8 rows 40 against 31,
// 8 x 14336 x 4096 111 against 63; the f32 kernel's 4 rows 33, Hopper's not timed there; on an H100
// the f32 kernel at 1, 2, 3 and 4 rows 1.00, 0.94, 0.87, 0.82x cuBLAS).  It keeps one or two small
// rows, between the rows measured.
inline constexpr int64_t kTf32SkinnySmalls = 2;
constexpr bool auto_takes(const SkinnyParams &v, int32_t type_ab, bool tf32) {
    return !(tf32 && type_ab == kF32 && v.smalls > kTf32SkinnySmalls);
}

struct Launch {
    int kernel;  // index into kKernels; -1: none serves the problem
    uint32_t grid_x, grid_y, grid_z;
    plan::WorkspaceNeed workspace;  // of a split launch (splits > 1)
};

// The split the family takes on a GPU of sm_count SMs: enough blocks for kBlocksPerSm on every SM
// where the row blocks alone leave some idle; never with batches.
constexpr int splits_for(const SkinnyParams &s, int sm_count) {
    const Shape shape = shape_for(smalls_tile(s.smalls), s.large_k_major != 0);
    if (s.batch_count > 1) return 1;
    const int64_t row_blocks = (s.rows + block_rows(shape) - 1) / block_rows(shape);
    const int64_t chunks = (s.k + chunk_k(shape) - 1) / chunk_k(shape);
    const plan::SplitRule rule{kSplitRule.min_blocks_per_split * shape.k_warps, kSplitRule.max_splits};
    return plan::split_count(rule, row_blocks, chunks, int64_t{sm_count} * kBlocksPerSm);
}

// Completes view `s` for at most `splits` K ranges (fewer where K is short; 1 with batches): the
// kernel, the split fields and the grid.  The caller sets partials and counters when s.splits > 1.
inline Launch prepare_launch(SkinnyParams &s, int32_t type_ab, int splits) {
    const Launch none{-1, 0, 0, 0, {0, 0}};
    const int smalls = smalls_tile(s.smalls);
    const int kernel = kernel_index(type_ab, smalls, s.large_k_major != 0);
    const Shape shape = shape_for(smalls, s.large_k_major != 0);
    const int64_t row_blocks = (s.rows + block_rows(shape) - 1) / block_rows(shape);
    const int64_t chunks = (s.k + chunk_k(shape) - 1) / chunk_k(shape);
    if (kernel < 0 || row_blocks > kMaxGridX || chunks > kMaxSlices) return none;
    const plan::SplitRanges ranges = plan::split_ranges(chunks, s.batch_count > 1 ? 1 : splits);
    s.splits = ranges.count;
    s.chunks_per_split = static_cast<int32_t>(ranges.blocks_per_range);
    s.partials = nullptr;
    s.counters = nullptr;
    const plan::WorkspaceNeed need = plan::split_workspace(row_blocks, s.splits, smalls, block_rows(shape), 1);
    return {kernel, static_cast<uint32_t>(row_blocks), static_cast<uint32_t>(s.splits),
            static_cast<uint32_t>(s.batch_count < kMaxGridZ ? s.batch_count : kMaxGridZ),
            s.splits > 1 ? need : plan::WorkspaceNeed{0, 0}};
}

}  // namespace asyncgemm::skinny
