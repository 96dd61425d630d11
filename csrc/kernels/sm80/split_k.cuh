// Split-K reduction of one output tile: the blocks of a tile's K ranges meet here after their
// mainloops, and the last one to arrive adds every range's partial in split order, so the sum's
// rounding (and hence D) is the same bits on every run, whichever block happens to finish last.
//
// Each block stores its fp32 accumulators as they lie in registers: accumulator group v (4 floats,
// one mma tile) of thread t at float4 (split * kVectors + v) * threads + t of the tile's area, so
// every store and load of a warp is 512 contiguous bytes.  Thread 0 counts the block in the tile's
// counter (split_arrival.cuh: a release/acquire handshake between two block barriers); the last block
// reads every partial and sets the counter back to zero for the next launch.
#pragma once

#include <stdint.h>

#include "kernels/common/params.h"
#include "kernels/common/split_arrival.cuh"
#include "kernels/sm80/sm80_config.h"
#include "kernels/sm80/warp_tile.cuh"

namespace asyncgemm::sm80 {

// Returns true in every thread of the block that holds the tile's full sum in tile.acc, false in
// every thread of the others (which then have nothing more to do for the tile).
template <typename T, int Config>
__device__ __forceinline__ bool reduce_splits(WarpTile<T, Config> &tile, const GemmParams &p, int tile_index,
                                              int split, int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kThreads = threads(kC);
    constexpr int kTilesM = mma_tiles_m(kC), kTilesN = mma_tiles_n(kC);
    constexpr int kVectors = kTilesM * kTilesN;
    float4 *area = static_cast<float4 *>(p.partials) + static_cast<int64_t>(tile_index) * p.splits * kVectors * kThreads;
    int32_t *counter = static_cast<int32_t *>(p.tile_counters) + tile_index;

    float4 *mine = area + split * kVectors * kThreads + thread;
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
        for (int j = 0; j < kTilesN; ++j) {
            const float *a = tile.acc[i][j];
            mine[(i * kTilesN + j) * kThreads] = make_float4(a[0], a[1], a[2], a[3]);
        }
    }
    // One arrival per block, counted only once every thread has stored (the first barrier: the
    // second one's argument is evaluated before it waits), and the verdict handed to all.
    __syncthreads();
    const bool last = __syncthreads_or(thread == 0 && arrive_last_split(counter, p.splits)) != 0;
    if (!last) return false;

    // Split by split, each split's loads all issued together (one L2 round trip per split, not one
    // per accumulator group), added in split order.
    const auto add_split = [&](int s, bool first) {
#pragma unroll
        for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) {
                const float4 partial = __ldcg(area + (s * kVectors + i * kTilesN + j) * kThreads + thread);
                float *a = tile.acc[i][j];
                a[0] = first ? partial.x : a[0] + partial.x;
                a[1] = first ? partial.y : a[1] + partial.y;
                a[2] = first ? partial.z : a[2] + partial.z;
                a[3] = first ? partial.w : a[3] + partial.w;
            }
        }
    };
    add_split(0, true);
    for (int s = 1; s < p.splits; ++s) add_split(s, false);
    if (thread == 0) *counter = 0;
    return true;
}

}  // namespace asyncgemm::sm80
