// The producer: one thread walks the block's tiles and fills the ring with TMA loads
// (cp.async.bulk.tensor), each stage A's 128 rows and B's 128 rows of one 128-byte row of K (and,
// with MX scales, their two 512-byte scale tiles by cp.async.bulk), announcing the bytes on the
// stage's full barrier once the MMAs have released it.  Before a tile's
// operands it loads the tile's fp32 C into the seed buffer, when C enters the accumulator.  Boxes
// past an edge of the problem are zero-filled by TMA and still count whole.
#pragma once

#include <cuda/ptx>

#include "kernels/common/ring_position.cuh"
#include "kernels/common/tma_load.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/persistent_scheduler.cuh"
#include "kernels/sm100/shared_storage.cuh"

namespace asyncgemm::sm100 {

namespace ptx = cuda::ptx;

template <typename T>
__device__ __forceinline__ void produce(const Sm100Params &p, const SharedStorage &smem) {
    constexpr uint32_t kElement = sizeof(T);
    const PersistentScheduler<Sm100Params> schedule(p);
    RingPosition<kStages> slot;
    uint32_t seed_phase = 0;
    for (int64_t i = schedule.first; i < schedule.count; i += schedule.stride) {
        const WorkTile tile = schedule.item(p, i).place;
        const int32_t m0 = tile.m * kTileM;
        const int32_t n0 = tile.n * kTileN;
        if (p.seed_c) {
            // A fresh barrier counts as having completed the phase before its first, so the first
            // tile does not wait.
            wait_parity(smem.seed_empty, seed_phase ^ 1u);
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, smem.seed_full,
                                           uint32_t{kSeedBytes});
            const int32_t batch = p.c_batched ? static_cast<int32_t>(tile.batch) : 0;
#pragma unroll
            for (int box = 0; box < kSeedCopy.boxes; ++box)
                tma_load_box(smem.seed_box(box), &p.c_map, n0 + box * kSeedBoxColumns, m0, batch, smem.seed_full);
            seed_phase ^= 1u;
        }
        const int32_t a_batch = p.a_batched ? static_cast<int32_t>(tile.batch) : 0;
        const int32_t b_batch = p.b_batched ? static_cast<int32_t>(tile.batch) : 0;
        // The tile's MX scale tiles along K, one per stage (its row tile of A's, its column tile of B's).
        // A stage's 128 of K are one tile of scales along K: the tile's K tiles are its k_blocks.
        static_assert(row_elements(1) == kMxTileK, "an 8-bit stage is one K tile of MX scales");
        const bool mx = has_mx_scales(p);
        const auto scale_tiles = [&](const uint8_t *scales, int32_t batch, int64_t batch_bytes, int32_t row_tile) {
            return mx ? scales + batch * batch_bytes + static_cast<int64_t>(row_tile) * p.k_blocks * kMxTileBytes
                      : nullptr;
        };
        const uint8_t *a_scales = scale_tiles(p.mx_scale_a, a_batch, p.mx_batch_bytes_a, tile.m);
        const uint8_t *b_scales = scale_tiles(p.mx_scale_b, b_batch, p.mx_batch_bytes_b, tile.n);
        const uint32_t stage_bytes = kStageBytes + (mx ? kMxStageBytes : 0u);
        for (int kb = 0; kb < p.k_blocks; ++kb, slot.advance()) {
            wait_parity(&smem.empty[slot.index], slot.phase ^ 1u);
            uint64_t *full = &smem.full[slot.index];
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, full, stage_bytes);
            const int32_t k0 = kb * row_elements(kElement);
            tma_load_operand<kTileM, kElement>(smem.a_tile(slot.index), &p.a_map, p.a_k_major, m0, k0, a_batch, full);
            tma_load_operand<kTileN, kElement>(smem.b_tile(slot.index), &p.b_map, p.b_k_major, n0, k0, b_batch, full);
            if (mx) {
                const int64_t k_tile = static_cast<int64_t>(kb) * kMxTileBytes;
                bulk_load(smem.a_scales(slot.index), a_scales + k_tile, kMxTileBytes, full);
                bulk_load(smem.b_scales(slot.index), b_scales + k_tile, kMxTileBytes, full);
            }
        }
    }
}

}  // namespace asyncgemm::sm100
