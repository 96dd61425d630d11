// D = alpha * acc + beta * C for the block's tile, through shared memory: the threads write their
// fp32 accumulators into a staging tile in the (now free) stages, and the block stores it
// (kernels/common/staged_store.cuh says how, and why this way).  The stages hold half the tile: the
// rows go in two passes, each thread's first four rows of accumulators in the first, the others in
// the second (thread_row_offset: a thread's rows are two runs of four, tile_m / 2 apart).
#pragma once

#include "kernels/common/staged_store.cuh"
#include "kernels/simt/simt_traits.h"
#include "kernels/simt/thread_tile.cuh"

namespace asyncgemm::simt {

// Rows staged at once: whole halves of the tile (a pass takes one run of each thread's rows), as
// many as the stages hold.  A staged row is tile_n floats: a quarter-warp's 16-byte writes cover one
// row's 128 contiguous bytes, conflict-free without padding.
constexpr int stage_rows(const TileConfig &c) {
    const int run_rows = c.tile_m / (c.thread_m / kFragmentRun);
    const int fit = static_cast<int>(smem_bytes(c) / (static_cast<uint32_t>(c.tile_n) * 4u)) / run_rows * run_rows;
    return fit < c.tile_m ? fit : c.tile_m;
}
template <int Config>
inline constexpr int kStageRows = stage_rows(kTileConfigs[Config]);
static_assert(kStageRows<kConfig> >= kTileConfigs[kConfig].tile_m / (kTileConfigs[kConfig].thread_m / kFragmentRun),
              "the epilogue stages at least one run of every thread's rows at a time");

// Writes the thread's accumulators of tile rows [first_row, first_row + rows) into `stage` (tile_n
// floats a row, row 0 = first_row).  Unrolled: accumulator indices must be constants.
template <int Config>
__device__ __forceinline__ void stage_accumulators(const ThreadTile<Config> &tile, float *stage, int first_row,
                                                   int rows) {
    constexpr TileConfig kC = kTileConfigs[Config];
#pragma unroll
    for (int i = 0; i < kC.thread_m; ++i) {
        const int row = tile.first_row() + thread_row_offset(kC, i) - first_row;
        if (row < 0 || row >= rows) continue;
#pragma unroll
        for (int j = 0; j < kC.thread_n; j += kFragmentRun)
            *reinterpret_cast<float4 *>(stage + row * kC.tile_n + tile.first_col() + thread_col_offset(kC, j)) =
                make_float4(tile.acc[i][j], tile.acc[i][j + 1], tile.acc[i][j + 2], tile.acc[i][j + 3]);
    }
}

// The block's tile of D at (m0, n0) of batch `batch`, through `smem` (the stages, which no thread
// reads and no copy fills any more).  Every thread of the block calls it.
template <typename TOut, int Config>
__device__ __forceinline__ void store_tile(const ThreadTile<Config> &tile, const GemmParams &p, int64_t batch,
                                           int64_t m0, int64_t n0, float alpha, float *smem, int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kRows = kStageRows<Config>;
    const TileOutput<TOut> out(p, batch, m0, n0);
#pragma unroll 1
    for (int first_row = 0; first_row < kC.tile_m; first_row += kRows) {
        if (first_row > 0) __syncthreads();  // the last pass's rows are read
        const int rows = min(kRows, kC.tile_m - first_row);
        stage_accumulators(tile, smem, first_row, rows);
        __syncthreads();
        store_staged<TOut, kC.threads, kC.tile_n, kC.tile_n>(out, smem, first_row, rows, alpha, p.beta, thread);
    }
}

}  // namespace asyncgemm::simt
