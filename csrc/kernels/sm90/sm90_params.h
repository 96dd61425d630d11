// The Hopper GEMM kernels' parameter block: four tensor maps the host encodes (plan/sm90_plan.cpp)
// and the canonical problem's numbers the kernel still needs.
//
// Passed by value as `const __grid_constant__`, so the maps stay in parameter memory, where
// cp.async.bulk.tensor may read them.  Every map is 3-D, {contiguous dimension, other dimension,
// batch}; an operand with batch stride 0 has a batch extent of 1 and is read at batch coordinate 0.
#pragma once

#include <cuda.h>
#include <stdint.h>

#include "kernels/common/raster.h"

namespace asyncgemm {

struct Sm90Params {
    // K-major A: {k, m}, boxes {block_k, tile_m}; MN-major (16-bit only): {m, k}, boxes {64, 64}
    CUtensorMap a_map;
    CUtensorMap b_map;  // likewise for B, with n and tile_n
    CUtensorMap c_map;  // {n, m}, boxes of one epilogue chunk; unused when beta == 0
    CUtensorMap d_map;  // {n, m}, boxes of one epilogue chunk
    // D as the epilogue writes it where a TMA store cannot or a fused epilogue stores it (see
    // epilogue.cuh), and C as such an epilogue reads it.
    void *d;
    int64_t ldd, stride_d;
    const void *c;
    int64_t ldc, stride_c;
    int32_t m, n;
    int32_t d_rows_whole;  // 1: n elements of D are a whole number of 16-byte units
    int64_t batch_count;
    float alpha, beta;
    int32_t type_cd;              // DType of C and D
    int32_t a_k_major, b_k_major;
    int32_t a_e5m2, b_e5m2;       // 8-bit A (B) is e5m2 (1) or e4m3 (0)
    int32_t a_batched, b_batched, c_batched;  // 1: the batch is the map's third coordinate; 0: broadcast
    int32_t tiles_m, tiles_n;
    PersistentOrder order;  // work item -> tile and K range
    int32_t k_blocks;             // block_k-wide blocks of K per tile; 0 when there is no product
    // Split-K: each tile's K blocks are cut into `splits` ranges of blocks_per_split (the last may be
    // shorter), each range a work item of its own; their fp32 partials meet in `partials` and the last
    // consumer of a tile to finish, counted in `tile_counters` (zero between launches), adds them in
    // split order and stores D.  splits == 1: no split, both pointers null.
    int32_t splits;
    int32_t blocks_per_split;
    float *partials;
    int32_t *tile_counters;
    // The fused epilogue (GemmParams's fields of the same names): D = act(alpha * A·B + beta * C +
    // bias), applied to the tile staged as fp32 and stored by the threads.  bias null and activation
    // 0: none.
    const void *bias;
    int64_t stride_bias;
    int32_t bias_per_row;
    int32_t type_bias;
    int32_t activation;
    // The 8-bit inputs' tensor scales (GemmParams's), folded into alpha by the consumers; null: 1.
    const float *scale_a;
    const float *scale_b;
    // Their block scales (GemmParams's), applied to each K block's products as the consumers add them
    // into the accumulators (block_scaled_mainloop.cuh); null: none.
    const float *block_scale_a;
    const float *block_scale_b;
    int32_t block_rows_a, block_cols_b;
    int32_t scales_per_k_block_a, scales_per_k_block_b;  // scale_blocks(m, block_rows_a), (n, block_cols_b)
};

}  // namespace asyncgemm
