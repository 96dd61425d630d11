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
#include "kernels/sm80/epilogue.cuh"
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
// the block that arrives last, which then sums the tile (store_split_sum) and stores it; false in every
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

// The last block's sum of every split's partial, in split order, times alpha (plus beta C) into D.
// The block's accumulators are dead by now (its own partial is in memory with the others), so this
// is a rolled loop over batches of the thread's vectors, reading every split's share of a batch at
// once: few round trips to L2, few registers, little code.  Vector v of the thread holds mma tile
// (v / kTilesN, v % kTilesN) of its warp tile.
template <int Config, typename TOut>
__device__ __forceinline__ void store_split_sum(const LaneOutput<TOut> &out, const GemmParams &p, int tile_index,
                                                int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kThreads = threads(kC);
    constexpr int kTilesN = mma_tiles_n(kC);
    constexpr int kVectors = mma_tiles_m(kC) * kTilesN;
    constexpr int kBatch = kVectors < 8 ? kVectors : 8;
    static_assert(kVectors % kBatch == 0, "batches must tile the thread's vectors");
    const float4 *area = partial_area<Config>(p, tile_index) + thread;
#pragma unroll 1
    for (int v0 = 0; v0 < kVectors; v0 += kBatch) {
        float4 sum[kBatch];
#pragma unroll
        for (int b = 0; b < kBatch; ++b) sum[b] = __ldcg(area + (v0 + b) * kThreads);
#pragma unroll 2
        for (int s = 1; s < p.splits; ++s) {
#pragma unroll
            for (int b = 0; b < kBatch; ++b) {
                const float4 partial = __ldcg(area + (s * kVectors + v0 + b) * kThreads);
                sum[b].x += partial.x;
                sum[b].y += partial.y;
                sum[b].z += partial.z;
                sum[b].w += partial.w;
            }
        }
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            const int row = kMmaM * ((v0 + b) / kTilesN), col = kMmaN * ((v0 + b) % kTilesN);
            out.store_pair_checked(row, col, sum[b].x, sum[b].y);
            out.store_pair_checked(row + 8, col, sum[b].z, sum[b].w);
        }
    }
}

}  // namespace asyncgemm::sm80
