// D = alpha * acc + beta * C for the block's tile, through shared memory: the warps write their fp32
// accumulators row by row into a staging tile in the (now free) stages, and the block stores it
// (kernels/common/staged_store.cuh says how, and why this way).  Where the staging tile is larger
// than the stages (the one-stage configuration), the rows go in passes.
#pragma once

#include <stdint.h>

#include "kernels/common/staged_store.cuh"
#include "kernels/sm80/sm80_traits.h"
#include "kernels/sm80/warp_tile.cuh"

namespace asyncgemm::sm80 {

// Columns of a staged row, and the row's stride in floats: 8 floats of padding make the stride 8
// mod 32 banks, so a warp's float2 writes (rows g of 8, column pairs t of 4, lane = 4g + t) fall
// on 64 distinct banks in two wavefronts.
inline constexpr int kStagePad = 8;
ASYNCGEMM_HOST_DEVICE constexpr int stage_stride(const TileConfig &c) { return c.tile_n + kStagePad; }
// Rows of the tile staged at once: as many whole mma rows (16) as the stages hold.
constexpr int stage_rows(const TileConfig &c) {
    const int fit = static_cast<int>(smem_bytes(c) / (static_cast<uint32_t>(stage_stride(c)) * 4u)) / kMmaM * kMmaM;
    return fit < c.tile_m ? fit : c.tile_m;
}
constexpr bool stages_hold_a_row_group() {
    for (const TileConfig &c : kTileConfigs)
        if (stage_rows(c) < kMmaM) return false;
    return true;
}
static_assert(stages_hold_a_row_group(), "the epilogue stages at least one mma row of the tile at a time");
template <int Config>
inline constexpr int kStageRows = stage_rows(kTileConfigs[Config]);

// Writes the warp's accumulators of tile rows [first_row, first_row + rows) into `stage` (fp32,
// stage_stride floats a row, row 0 = first_row).  Unrolled: accumulator indices must be constants.
template <typename T, int Config>
__device__ __forceinline__ void stage_accumulators(const WarpTile<T, Config> &warp, float *stage, int first_row,
                                                   int rows, int lane) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kStride = stage_stride(kC);
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int i = 0; i < mma_tiles_m(kC); ++i) {
        const int row = warp.warp_m0 + kMmaM * i - first_row;
        if (row < 0 || row >= rows) continue;
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            float *out = stage + (row + g + 8 * half) * kStride + warp.warp_n0 + 2 * t;
#pragma unroll
            for (int j = 0; j < mma_tiles_n(kC); ++j)
                *reinterpret_cast<float2 *>(out + kMmaN * j) =
                    make_float2(warp.acc[i][j][2 * half], warp.acc[i][j][2 * half + 1]);
        }
    }
}

// The block's tile of D at (m0, n0) of batch `batch` from the warps' accumulators, through `smem`
// (the stages, which no warp reads and no copy fills any more).  Every thread of the block calls it.
template <typename TOut, typename T, int Config>
__device__ __forceinline__ void store_tile(const WarpTile<T, Config> &warp, const GemmParams &p, int64_t batch,
                                           int64_t m0, int64_t n0, float alpha, char *smem, int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kRows = kStageRows<Config>;
    float *const stage = reinterpret_cast<float *>(smem);
    const TileOutput<TOut> out(p, batch, m0, n0);
#pragma unroll 1
    for (int first_row = 0; first_row < kC.tile_m; first_row += kRows) {
        if (first_row > 0) __syncthreads();  // the last pass's rows are read
        const int rows = min(kRows, kC.tile_m - first_row);
        stage_accumulators(warp, stage, first_row, rows, thread % kWarpSize);
        __syncthreads();
        store_staged<TOut, threads(kC), kC.tile_n, stage_stride(kC)>(out, stage, first_row, rows, alpha, p.beta,
                                                                        thread);
    }
}

}  // namespace asyncgemm::sm80
