// The producer: one thread walks the block's work items in the scheduler's order and, for each K
// block, waits until the consumers have released the stage, then loads A's and B's tiles into it with
// TMA (cp.async.bulk.tensor; B shared with the cluster's other block by multicast), announcing the
// bytes on the stage's full barrier.  Tiles past an edge of
// the problem are zero-filled by TMA and still count whole boxes.
#pragma once

#include <cuda/ptx>

#include "kernels/common/kernel_entry.cuh"
#include "kernels/sm90/shared_storage.cuh"
#include "kernels/sm90/sm90_params.h"
#include "kernels/sm90/tile_scheduler.cuh"

namespace asyncgemm::sm90 {

namespace ptx = cuda::ptx;

template <typename T, int Config>
__device__ __forceinline__ void produce(const Sm90Params &p, const SharedStorage<Config> &smem) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kCluster = kC.cluster_m;
    const TileScheduler<Config> schedule(p);
    // A load of B: into this block alone, or multicast into the same place in both blocks of the
    // cluster, completing on each one's barrier at the same offset.
    const auto load_b = [&](char *dst, const int32_t (&coords)[3], uint64_t *full) {
        if constexpr (kCluster > 1) {
            ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, dst, &p.b_map, coords, full,
                                      uint16_t{(1u << kCluster) - 1});
        } else {
            ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, dst, &p.b_map, coords, full);
        }
    };
    // This block's share of B: rows b0 .. of a K-major B; K rows bk0 .. of each box of an MN-major one.
    const int b0 = schedule.rank * b_rows_per_block(kC);
    const int bk0 = schedule.rank * b_k_rows_per_block(kC);
    RingPosition<kC.stages> slot;
    for (int64_t i = schedule.first; i < schedule.count; i += schedule.stride) {
        const WorkItem work = schedule.item(p, i);
        const WorkTile &tile = work.place;
        const int32_t m0 = tile.m * kC.tile_m;
        const int32_t n0 = tile.n * kC.tile_n;
        const int32_t a_batch = p.a_batched ? static_cast<int32_t>(tile.batch) : 0;
        const int32_t b_batch = p.b_batched ? static_cast<int32_t>(tile.batch) : 0;
        for (int kb = work.first_block; kb < work.first_block + work.blocks; ++kb, slot.advance()) {
            // A fresh barrier counts as having completed the phase before its first, so the first
            // pass over the ring does not wait.  In a cluster the barrier counts the consumers of
            // both blocks: the peer's multicast writes this stage too.
            while (!ptx::mbarrier_try_wait_parity(&smem.empty[slot.index], slot.phase ^ 1u)) {
            }
            uint64_t *full = &smem.full[slot.index];
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, full,
                                           stage_bytes(kC));
            const int32_t k0 = kb * block_k(kDTypeOf<T>);
            char *a = smem.a_tile(slot.index);
            char *b = smem.b_tile(slot.index);
            if (p.a_k_major) {
                const int32_t coords[3] = {k0, m0, a_batch};
                ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, a, &p.a_map, coords, full);
            } else {
                for (int box = 0; box < kC.tile_m / 64; ++box) {
                    const int32_t coords[3] = {m0 + 64 * box, k0, a_batch};
                    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, a + box * mn_block_bytes(2),
                                              &p.a_map, coords, full);
                }
            }
            if (p.b_k_major) {
                const int32_t coords[3] = {k0, n0 + b0, b_batch};
                load_b(b + b0 * kRowBytes, coords, full);
            } else {
#pragma unroll
                for (int box = 0; box < kC.tile_n / 64; ++box) {
                    const int32_t coords[3] = {n0 + 64 * box, k0 + bk0, b_batch};
                    load_b(b + box * mn_block_bytes(2) + bk0 * kRowBytes, coords, full);
                }
            }
        }
    }
}

}  // namespace asyncgemm::sm90
