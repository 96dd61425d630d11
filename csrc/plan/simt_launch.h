// The launch of one SIMT kernel (ALGO_SIMT): the fields of the parameter block only this family
// reads, and the grid.  Plain C++17; tests/unit/test_simt_layout.cpp checks it.
#pragma once

#include <stdint.h>

#include "kernels/common/gemm_launch.h"
#include "kernels/common/params.h"
#include "kernels/simt/simt_traits.h"
#include "plan/simt_kernels.h"
#include "plan/split_k.h"

namespace asyncgemm::simt {

// Widest global->shared copy, in elements, of an operand: MN-major runs of 4 (16-byte cp.async for
// fp32, 8-byte loads for 16-bit); a K-major operand is copied one element at a time.
constexpr int32_t max_vector(bool k_major) { return k_major ? 1 : kSmemVectorFloats; }

// vec_a / vec_b (elements per copy) for an operand: see aligned_vector_width.
constexpr int32_t vector_width(int32_t type, bool k_major, uint64_t address, int64_t ld, int64_t batch_stride) {
    return aligned_vector_width(input_element_bytes(type), max_vector(k_major), address, ld, batch_stride);
}

// Tile rows walked together by the grouped raster (kernels/common/raster.h): 8 tile rows of A
// (8 x 128 rows) stay in L2 while the blocks in flight sweep across B.
inline constexpr int32_t kRasterGroup = 8;

using Launch = GemmLaunch;

// How this family cuts K where its tiles leave SMs idle: a range keeps at least 4 slices (128 of K)
// so that its loads outweigh the partials' round trip.  The SMs are counted as holding the tile
// configuration's min_blocks_per_sm blocks (two on sm_80/90/100; one fits on sm_86/89/120, where the
// ranges then fill two waves).
inline constexpr plan::SplitRule kSplitRule{4, 8};

// The ranges K is cut into for `p` (m, n, k, batch_count set) on `sm_count` SMs: split_count's where
// one wave of blocks would leave SMs idle, else 1.
constexpr int splits_for(const GemmParams &p, int sm_count) {
    const TileConfig &c = kTileConfigs[kConfig];
    const int64_t tiles = ceil_div(p.m, c.tile_m) * ceil_div(p.n, c.tile_n) * p.batch_count;
    const int64_t slots = int64_t{c.min_blocks_per_sm} * sm_count;
    return tiles < slots ? plan::split_count(kSplitRule, tiles, ceil_div(p.k, c.tile_k), slots) : 1;
}

// Completes a canonical problem `p` (m, n, k, pointers, leading dimensions, strides, alpha, beta,
// types and majors set; m, n, batch_count >= 1, k >= 0) with the fields only this family reads:
// vec_a, vec_b, tiles_m, tiles_n, raster_group, splits and slices_per_split, cutting K into at most
// `splits` ranges (fewer where K is short; always 1 for batches, k = 0 or alpha = 0).  The caller
// sets partials and tile_counters when p.splits > 1.  Returns the kernel (of the inputs' type, and of
// their MX scales where they have them) and its launch geometry; kernel is -1 (and p untouched) when
// type_ab has no kernel, the tiles do not fit one grid, or K
// has 2^30 slices or more (K >= 2^35).
inline Launch prepare_launch(GemmParams &p, int splits) {
    const Launch none{-1, 0, 0, 0, 0};
    const int index = kernel_index(p.type_ab, p.a_k_major != 0, p.b_k_major != 0, has_mx_scales(p));
    if (index < 0 || p.m < 1 || p.n < 1 || p.k < 0 || p.batch_count < 1) return none;
    const KernelInfo &kernel = kKernels[index];
    const TileConfig &config = kTileConfigs[kernel.config];
    const int64_t tiles_m = ceil_div(p.m, config.tile_m);
    const int64_t tiles_n = ceil_div(p.n, config.tile_n);
    const int64_t slices = ceil_div(p.k, config.tile_k);
    if (tiles_m > kMaxGridX / tiles_n || slices >= kMaxSlices) return none;
    p.vec_a = vector_width(p.type_ab, a_k_major(kernel.majors), reinterpret_cast<uintptr_t>(p.a), p.lda, p.stride_a);
    p.vec_b = vector_width(p.type_ab, b_k_major(kernel.majors), reinterpret_cast<uintptr_t>(p.b), p.ldb, p.stride_b);
    return plan::tiled_launch(p, index, tiles_m, tiles_n, slices, splits, kRasterGroup,
                              static_cast<uint32_t>(config.threads), kernel.dynamic_smem);
}

}  // namespace asyncgemm::simt
