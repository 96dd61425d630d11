// The launch of one sm80 kernel (ALGO_ASYNC_COPY, ALGO_PIPELINED): the fields of the parameter block
// only this family reads, and the grid.  Plain C++17; tests/unit/test_sm80_config.cpp checks it.
#pragma once

#include <stdint.h>

#include "kernels/common/gemm_launch.h"
#include "kernels/common/params.h"
#include "kernels/common/swizzle.h"
#include "kernels/sm80/sm80_traits.h"
#include "plan/sm80_heuristic.h"
#include "plan/sm80_kernels.h"
#include "plan/split_k.h"

namespace asyncgemm::sm80 {

// vec_a / vec_b (elements per copy) for an operand of type_ab: see aligned_vector_width.  A 16-byte
// vector is one cp.async per chunk, 8- and 4-byte ones split it into 8- and 4-byte cp.async, and
// 16-bit elements aligned to 2 bytes only go element by element (cp.async cannot copy 2 bytes).
constexpr int32_t vector_width(int32_t type_ab, uint64_t address, int64_t ld, int64_t batch_stride) {
    const int bytes = element_bytes(type_ab);
    return aligned_vector_width(static_cast<uint64_t>(bytes), kSwizzleChunkBytes / bytes, address, ld, batch_stride);
}

// Tile rows walked together by the grouped raster (kernels/common/raster.h).
inline constexpr int32_t kRasterGroup = 8;

using Launch = GemmLaunch;

// Completes a canonical problem `p` (m, n, k, pointers, leading dimensions, strides, alpha, beta,
// types and majors set; m, n, batch_count >= 1, k >= 0) with the fields only this family reads:
// vec_a, vec_b, tiles_m, tiles_n, raster_group, splits and slices_per_split, for the kernel of
// configuration `config_index` (into kTileConfigs: choose_config's, or an autotuned one) cutting K
// into at most `splits` ranges (fewer where K is short; always 1 for batches, k = 0 or alpha = 0).
// The caller sets partials and tile_counters when p.splits > 1.  Returns the kernel and its launch
// geometry; kernel is -1 (and p untouched) when the types or the configuration have no kernel, the
// tiles do not fit one grid, or K has 2^30 slices or more.
inline Launch prepare_launch_config(GemmParams &p, int config_index, int splits) {
    const Launch none{-1, 0, 0, 0, 0};
    if (!supports_types(p.type_ab, p.type_cd, true, p.a_k_major != 0, p.b_k_major != 0) || p.m < 1 || p.n < 1 ||
        p.k < 0 || p.batch_count < 1)
        return none;
    const int index = kernel_index(p.type_ab, config_index, p.a_k_major != 0, p.b_k_major != 0);
    if (index < 0) return none;
    const KernelInfo &kernel = kKernels[index];
    const TileConfig &config = kTileConfigs[kernel.config];
    const int64_t tiles_m = ceil_div(p.m, config.tile_m);
    const int64_t tiles_n = ceil_div(p.n, config.tile_n);
    const int64_t slices = ceil_div(p.k, slice_elements(config, p.type_ab));
    if (tiles_m > kMaxGridX / tiles_n || slices >= kMaxSlices) return none;
    p.vec_a = vector_width(p.type_ab, reinterpret_cast<uintptr_t>(p.a), p.lda, p.stride_a);
    p.vec_b = vector_width(p.type_ab, reinterpret_cast<uintptr_t>(p.b), p.ldb, p.stride_b);
    return plan::tiled_launch(p, index, tiles_m, tiles_n, slices, splits, kRasterGroup,
                              static_cast<uint32_t>(threads(config)), kernel.dynamic_smem);
}

}  // namespace asyncgemm::sm80
