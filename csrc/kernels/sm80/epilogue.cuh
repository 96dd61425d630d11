// D = alpha * acc + beta * C for the block's tile, through shared memory: the warps write their
// accumulators row by row into a staging tile in the (now free) stages, and the block stores it
// (kernels/common/staged_store.cuh says how, and why this way).
#pragma once

#include <stdint.h>

#include <type_traits>

#include "kernels/common/convert.cuh"
#include "kernels/common/element_type.cuh"
#include "kernels/common/epilogue_math.h"
#include "kernels/common/staged_store.cuh"
#include "kernels/sm80/sm80_traits.h"
#include "kernels/sm80/warp_tile.cuh"

namespace asyncgemm::sm80 {

// A staged row's stride in elements of S (fp32 accumulators, or 16-bit D): 16 bytes of padding make
// it 16 bytes past a multiple of 128 (tile_n is a multiple of 64), so a warp's writes (rows g of 8,
// column pairs t of 4, lane = 4g + t: 8-byte pairs of fp32, 4-byte ones of 16-bit) spread over
// distinct banks, in two wavefronts and one.
template <typename S>
ASYNCGEMM_HOST_DEVICE constexpr int stage_stride(const TileConfig &c) {
    return c.tile_n + 16 / static_cast<int>(sizeof(S));
}
// Rows of the tile staged at once: as many whole mma rows (16) as the stages hold.
template <typename S>
constexpr int stage_rows(const TileConfig &c) {
    const uint32_t row_bytes = static_cast<uint32_t>(stage_stride<S>(c)) * sizeof(S);
    const int fit = static_cast<int>(smem_bytes(c) / row_bytes) / kMmaM * kMmaM;
    return fit < c.tile_m ? fit : c.tile_m;
}
constexpr bool stages_hold_a_row_group() {
    for (const TileConfig &c : kTileConfigs)
        if (stage_rows<float>(c) < kMmaM) return false;
    return true;
}
static_assert(stages_hold_a_row_group(), "the epilogue stages at least one mma row of the tile at a time");
template <typename S, int Config>
inline constexpr int kStageRows = stage_rows<S>(kTileConfigs[Config]);

// Writes the warp's accumulators of tile rows [first_row, first_row + rows) into `stage` (row 0 =
// first_row): as they are for fp32 S, alpha applied and rounded to S otherwise.  Mma tile (i, j)'s
// four values are rows g and g + 8, columns 2t and 2t + 1 of lane (g, t).  Unrolled: accumulator
// indices must be constants.
template <typename S, int Config, typename T>
__device__ __forceinline__ void stage_warp_tile(const WarpTile<T, Config> &tile, S *stage, int first_row, int rows,
                                                float alpha, int lane) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kStride = stage_stride<S>(kC);
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int i = 0; i < mma_tiles_m(kC); ++i) {
        const int row = tile.warp_m0 + kMmaM * i - first_row;
        if (row < 0 || row >= rows) continue;
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            S *out = stage + (row + g + 8 * half) * kStride + tile.warp_n0 + 2 * t;
#pragma unroll
            for (int j = 0; j < mma_tiles_n(kC); ++j) {
                const float x = tile.acc[i][j][2 * half], y = tile.acc[i][j][2 * half + 1];
                Vector<S, 2> pair;
                if constexpr (sizeof(S) == 4) {
                    pair.v[0] = x, pair.v[1] = y;
                } else {
                    pair.v[0] = from_float<S>(scaled_product(alpha, x));
                    pair.v[1] = from_float<S>(scaled_product(alpha, y));
                }
                *reinterpret_cast<Vector<S, 2> *>(out + kMmaN * j) = pair;
            }
        }
    }
}

// Stages the rows of the block's tile that reach into D (tile_rows, whole mma rows) in passes of as
// many rows as the stages hold (several for the one-stage configuration), each staged by every warp
// from its accumulators and then handed to store(stage, first_row, rows) by the whole block.
template <typename S, int Config, typename T, typename Store>
__device__ __forceinline__ void stage_in_passes(const WarpTile<T, Config> &tile, int tile_rows, S *stage, float alpha,
                                                int thread, const Store &store) {
    constexpr int kRows = kStageRows<S, Config>;
    if constexpr (kRows >= kTileConfigs[Config].tile_m) {
        // One pass: no loop, so that the values are dead before store runs (a fused epilogue's pass
        // beside them spilled in the 128-register configuration).
        stage_warp_tile<S>(tile, stage, 0, tile_rows, alpha, thread % kWarpSize);
        __syncthreads();
        store(stage, 0, tile_rows);
    } else {
#pragma unroll 1
        for (int first_row = 0; first_row < tile_rows; first_row += kRows) {
            if (first_row > 0) __syncthreads();  // the last pass's rows are read
            const int rows = min(kRows, tile_rows - first_row);
            stage_warp_tile<S>(tile, stage, first_row, rows, alpha, thread % kWarpSize);
            __syncthreads();
            store(stage, first_row, rows);
        }
    }
}

// Whole mma rows of the block's tile at row m0 that reach into D.
template <int Config>
__device__ __forceinline__ int rows_to_store(const GemmParams &p, int64_t m0) {
    constexpr int kTileM = kTileConfigs[Config].tile_m;
    const int rows_left = static_cast<int>(min(p.m - m0, int64_t{kTileM}));
    return (rows_left + kMmaM - 1) / kMmaM * kMmaM;
}

// Stores staged fp32 rows of the block's tile to D (store_staged), through the fused epilogue
// where the call has one (store_staged_fused).
template <typename TOut, int Config>
__device__ __forceinline__ void store_staged_rows(const TileOutput<TOut> &out, float *stage, int first_row, int rows,
                                                  float alpha, float beta, int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kStride = stage_stride<float>(kC);
    if (out.fused.none()) {
        store_staged<TOut, threads(kC), kC.tile_n, kStride>(out, stage, first_row, rows, alpha, beta, thread);
        return;
    }
    store_staged_fused<TOut, threads(kC), kC.tile_n, kStride>(out, stage, first_row, rows, alpha, beta, thread);
}

// The block's tile of D at (m0, n0) of batch `batch` from each warp's accumulators (`tile`), through
// `smem` (the stages, which no warp reads and no copy fills
// any more): 16-bit D without C staged rounded and copied out, anything else staged as fp32
// (kernels/common/staged_store.cuh).  Every thread of the block calls it.  Only the mma rows that
// reach into D are staged: a tile of a short m (a few tokens, a bottom edge) takes one pass of a
// few rows.
template <typename TOut, int Config, typename T>
__device__ __forceinline__ void store_tile(const WarpTile<T, Config> &tile, const GemmParams &p, int64_t batch,
                                           int64_t m0, int64_t n0, float alpha, char *smem, int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    const TileOutput<TOut> out(p, batch, m0, n0);
    const int tile_rows = rows_to_store<Config>(p, m0);
    if constexpr (kStagesRounded<TOut>) {
        // Staged rounded only where nothing is added after alpha * acc: no C, no fused epilogue.
        if (p.beta == 0.f && p.bias == nullptr && p.activation == 0) {
            stage_in_passes<TOut>(tile, tile_rows, reinterpret_cast<TOut *>(smem), alpha, thread,
                                  [&](const TOut *stage, int first_row, int rows) {
                copy_staged<TOut, threads(kC), kC.tile_n, stage_stride<TOut>(kC)>(out, stage, first_row, rows, thread);
            });
            return;
        }
    }
    stage_in_passes<float>(tile, tile_rows, reinterpret_cast<float *>(smem), alpha, thread,
                           [&](float *stage, int first_row, int rows) {
        store_staged_rows<TOut, Config>(out, stage, first_row, rows, alpha, p.beta, thread);
    });
}

}  // namespace asyncgemm::sm80
