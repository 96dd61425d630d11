// Split-K reduction of one consumer warpgroup's part of a tile: the work items of a tile's K ranges
// meet here after their mainloops, and the last to arrive adds every range's partial in split
// order, so the sum's rounding (and hence D) is the same bits on every run, whichever finishes last.
//
// Each warpgroup stores its fp32 accumulators as they lie in registers: float4 v of thread t at
// v * 128 + t of its area, so every store and load of a warp is 512 contiguous bytes.  The
// warpgroup's leader counts it in the tile's counter (split_arrival.cuh: a release/acquire handshake
// between the warpgroup barriers); the last one reads the partials (with two ranges, only the other
// range's) and sets the counter back to zero for the next launch.
#pragma once

#include <stdint.h>

#include "kernels/common/split_arrival.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/shared_storage.cuh"
#include "kernels/sm90/sm90_params.h"

namespace asyncgemm::sm90 {

// Returns true in every thread of the warpgroup that then holds the tile's full sum in acc, false in
// every thread of the others (which have nothing more to do for the tile).  tile: the tile's index
// among the problem's tiles; thread: the thread's index in its warpgroup.
template <int Config>
__device__ __forceinline__ bool reduce_splits(float (&acc)[warpgroup_n(kTileConfigs[Config]) / 2], const Sm90Params &p,
                                              const SharedStorage<Config> &smem, int consumer, int thread,
                                              int64_t tile, int split) {
    constexpr int kN = warpgroup_n(kTileConfigs[Config]);
    constexpr int kVectors = kN / 8;
    // float4s loaded together, all of a range's at once where the registers allow: each group costs
    // one L2 round trip per range.  Beside 128 accumulators only 16 more registers fit unspilled.
    constexpr int kGroup = kN == 256 ? 4 : kVectors;
    static_assert(kVectors % kGroup == 0, "whole groups");
    constexpr int kActive = consumers(kTileConfigs[Config]);
    float4 *const area = reinterpret_cast<float4 *>(p.partials) +
                         (tile * kActive + consumer) * p.splits * kVectors * kWarpgroupThreads + thread;
    int32_t *const counter = p.tile_counters + tile * kActive + consumer;
    const int barrier_id = 1 + consumer;

    float4 *const mine = area + split * kVectors * kWarpgroupThreads;
#pragma unroll
    for (int v = 0; v < kVectors; ++v)
        mine[v * kWarpgroupThreads] = make_float4(acc[4 * v], acc[4 * v + 1], acc[4 * v + 2], acc[4 * v + 3]);
    named_barrier_sync(barrier_id, kWarpgroupThreads);
    if (thread == 0) smem.split_last[consumer] = arrive_last_split(counter, p.splits);
    named_barrier_sync(barrier_id, kWarpgroupThreads);
    if (!smem.split_last[consumer]) return false;

    // The partials are added in split order straight into acc (a sum beside it would not fit the
    // registers next to 128 accumulators), this range's own read back like the others.  With two
    // ranges acc stands for its own and only the other range's is read: a + b is b + a in floating
    // point, so the sum has the same bits whichever range came last, for one L2 round trip fewer.
    const int kept = p.splits == 2 ? split : -1;
#pragma unroll
    for (int g = 0; g < kVectors; g += kGroup) {
        for (int s = 0; s < p.splits; ++s) {
            if (s == kept) continue;
            const bool first = s == 0 && kept < 0;
#pragma unroll
            for (int v = 0; v < kGroup; ++v) {
                const int i = g + v;
                const float4 part = __ldcg(area + (s * kVectors + i) * kWarpgroupThreads);
                acc[4 * i] = first ? part.x : acc[4 * i] + part.x;
                acc[4 * i + 1] = first ? part.y : acc[4 * i + 1] + part.y;
                acc[4 * i + 2] = first ? part.z : acc[4 * i + 2] + part.z;
                acc[4 * i + 3] = first ? part.w : acc[4 * i + 3] + part.w;
            }
        }
    }
    if (thread == 0) *counter = 0;
    return true;
}

}  // namespace asyncgemm::sm90
