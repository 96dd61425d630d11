// Split-K reduction of one output tile: the blocks of a tile's K ranges meet here after their
// mainloops, and the last one to arrive adds every range's partial in split order, so the sum's
// rounding (and hence D) is the same bits on every run, whichever block happens to finish last.
//
// Each block stores its fp32 accumulators as they lie in registers: accumulator group v (4 floats,
// one mma tile) of thread t at float4 (split * kVectors + v) * threads + t of the tile's area, so
// every store and load of a warp is 512 contiguous bytes.  Thread 0 counts the block in the tile's
// counter (split_arrival.cuh: a release/acquire handshake between two block barriers); the last block
// reads every partial back and sets the counter to zero for the next launch.
#pragma once

#include <stdint.h>

#include "kernels/common/params.h"
#include "kernels/common/split_arrival.cuh"
#include "kernels/sm80/sm80_config.h"
#include "kernels/sm80/warp_tile.cuh"

namespace asyncgemm::sm80 {

// Where the partials of tile `tile_index` lie: kVectors float4 per thread and split, split-major.
template <int Config>
__device__ __forceinline__ float4 *partial_area(const GemmParams &p, int tile_index) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kVectors = mma_tiles_m(kC) * mma_tiles_n(kC);
    return static_cast<float4 *>(p.partials) + static_cast<int64_t>(tile_index) * p.splits * kVectors * threads(kC);
}

// Stores this block's partial of the tile and counts its arrival.  Returns true in every thread of
// the block that arrives last, which then sums the tile (add_splits) and stores it; false in every
// thread of the others, which have nothing more to do for the tile.
template <typename T, int Config>
__device__ __forceinline__ bool arrive_split(const WarpTile<T, Config> &tile, const GemmParams &p, int tile_index,
                                             int split, int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kThreads = threads(kC);
    constexpr int kTilesM = mma_tiles_m(kC), kTilesN = mma_tiles_n(kC);
    constexpr int kVectors = kTilesM * kTilesN;
    int32_t *counter = static_cast<int32_t *>(p.tile_counters) + tile_index;

    float4 *mine = partial_area<Config>(p, tile_index) + split * kVectors * kThreads + thread;
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
        for (int j = 0; j < kTilesN; ++j) {
            const float *a = tile.acc[i][j];
            mine[(i * kTilesN + j) * kThreads] = make_float4(a[0], a[1], a[2], a[3]);
        }
    }
    // One arrival per block, counted only once every thread has stored (the first barrier: the
    // second one's argument is evaluated before it waits), and the verdict handed to all.  The
    // last block sets the counter back to zero for the next launch, which cannot start before this
    // one's reads are done.
    __syncthreads();
    const bool last = __syncthreads_or(thread == 0 && arrive_last_split(counter, p.splits)) != 0;
    if (last && thread == 0) *counter = 0;
    return last;
}

// Rows of mma tiles the last block sums and stores at a time: 16 float4 of partials per thread.
template <int Config>
ASYNCGEMM_HOST_DEVICE constexpr int split_rows_per_group() {
    constexpr int kTilesM = mma_tiles_m(kTileConfigs[Config]), kTilesN = mma_tiles_n(kTileConfigs[Config]);
    constexpr int kFit = 16 / kTilesN > 0 ? 16 / kTilesN : 1;
    constexpr int kRows = kFit < kTilesM ? kFit : kTilesM;
    static_assert(kTilesM % kRows == 0, "row groups must tile the warp tile");
    return kRows;
}

// The sum of every split's partial, in split order, into tile.acc rows of mma tiles i0 .. i0 +
// Rows - 1, each split's part loaded at once (one L2 round trip per split).  The caller adds and
// stores a few rows at a time, so that the stores of one group keep ptxas from hoisting the next
// group's loads: a whole tile's loads in flight beside the accumulators would spill.
template <int Rows, typename T, int Config>
__device__ __forceinline__ void add_splits(WarpTile<T, Config> &tile, const GemmParams &p, int tile_index, int i0,
                                           int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kThreads = threads(kC);
    constexpr int kTilesN = mma_tiles_n(kC);
    constexpr int kVectors = mma_tiles_m(kC) * kTilesN;
    const float4 *area = partial_area<Config>(p, tile_index) + thread;
    const auto add_split = [&](int s, bool first) {
        float4 partial[Rows][kTilesN];
#pragma unroll
        for (int i = 0; i < Rows; ++i) {
#pragma unroll
            for (int j = 0; j < kTilesN; ++j)
                partial[i][j] = __ldcg(area + (s * kVectors + (i0 + i) * kTilesN + j) * kThreads);
        }
#pragma unroll
        for (int i = 0; i < Rows; ++i) {
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) {
                float *a = tile.acc[i0 + i][j];
                a[0] = first ? partial[i][j].x : a[0] + partial[i][j].x;
                a[1] = first ? partial[i][j].y : a[1] + partial[i][j].y;
                a[2] = first ? partial[i][j].z : a[2] + partial[i][j].z;
                a[3] = first ? partial[i][j].w : a[3] + partial[i][j].w;
            }
        }
    };
    add_split(0, true);
    for (int s = 1; s < p.splits; ++s) add_split(s, false);
}

}  // namespace asyncgemm::sm80
