// The producer: one thread walks the block's work items in the scheduler's order and, for each K
// block, waits until the consumers have released the stage, then loads A's and B's tiles into it with
// TMA, announcing the bytes on the stage's full barrier.  Tiles past an edge of the problem are
// zero-filled by TMA and still count whole boxes.
#pragma once

#include <cuda/ptx>

#include "kernels/common/element_type.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/persistent_scheduler.cuh"
#include "kernels/common/ring_position.cuh"
#include "kernels/common/tma_load.cuh"
#include "kernels/sm90/shared_storage.cuh"
#include "kernels/sm90/sm90_params.h"

namespace asyncgemm::sm90 {

template <typename T, int Config>
__device__ __forceinline__ void produce(const Sm90Params &p, const SharedStorage<Config> &smem, OperandMajors majors) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr uint32_t kElement = sizeof(T);
    const PersistentScheduler<Sm90Params> schedule(p);
    RingPosition<kC.stages> slot;
    for (int64_t i = schedule.first; i < schedule.count; i += schedule.stride) {
        const WorkItem work = schedule.item(p, i);
        const WorkTile &tile = work.place;
        const int32_t m0 = tile.m * kC.tile_m;
        const int32_t n0 = tile.n * kC.tile_n;
        const int32_t a_batch = p.a_batched ? static_cast<int32_t>(tile.batch) : 0;
        const int32_t b_batch = p.b_batched ? static_cast<int32_t>(tile.batch) : 0;
        for (int kb = work.first_block; kb < work.first_block + work.blocks; ++kb, slot.advance()) {
            // The first pass over the ring finds every stage free (a fresh barrier's parity 1).
            wait_parity(&smem.empty[slot.index], slot.phase ^ 1u);
            uint64_t *full = &smem.full[slot.index];
            cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                                 cuda::ptx::space_shared, full, stage_bytes(kC));
            const int32_t k0 = kb * block_k(kDTypeOf<T>);
            tma_load_operand<kC.tile_m, kElement>(smem.a_tile(slot.index), &p.a_map, majors.a_k, m0, k0, a_batch, full);
            tma_load_operand<kC.tile_n, kElement>(smem.b_tile(slot.index), &p.b_map, majors.b_k, n0, k0, b_batch, full);
        }
    }
}

}  // namespace asyncgemm::sm90
