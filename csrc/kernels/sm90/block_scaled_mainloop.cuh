// 8-bit inputs with block scales (ASYNCGEMM_SCALE_BLOCK_*): the producer's copies of each K block's
// scales into shared memory beside the stage, and a consumer warpgroup's K loop that applies them.
//
// The products of each K block (128 elements of K, the depth one block scale covers) are multiplied
// into a register tile of their own, then added into the fp32 accumulators times their rows' and
// columns' scales.  This promotion, as DeepGEMM names it, also bounds how long the tensor core's own
// running sum (narrower than fp32 for 8-bit inputs) grows: one K block.  A block's wgmma must finish
// before its products are read, so the warpgroup keeps no group in flight across blocks; the other
// consumer warpgroup's MMAs keep the tensor cores busy while this one adds.
//
// The scales travel with the stage: the producer warp copies them (cp.async) into a slot of the
// stage's own and the copies complete on the stage's full barrier, so they arrive as far ahead as
// the operands do.  Loaded by the consumers from global memory one block ahead, they stalled the
// K loop for most of its time (ncu, an H200: long-scoreboard stalls the first reason).  The slots
// take the ring's last stage, which block-scaled launches leave to them (kBlockScaledStages).
#pragma once

#include <stdint.h>

#include "kernels/common/block_scale.h"
#include "kernels/common/cp_async.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/persistent_scheduler.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/mainloop.cuh"
#include "kernels/sm90/shared_storage.cuh"
#include "kernels/sm90/sm90_params.h"

namespace asyncgemm::sm90 {

static_assert(kRowBytes == kScaleBlockK, "an 8-bit K block is one block scale's depth");

// The stages of a block-scaled launch's ring: one fewer, whose space holds the scale slots.
template <int Config>
inline constexpr int kBlockScaledStages = kTileConfigs[Config].stages - 1;

// A stage's scale slot: A's scales of the tile's rows, then B's of each consumer's columns (a
// warpgroup's columns share one: applies_block_scales), 16-byte aligned.
template <int Config>
inline constexpr int kScaleSlotFloats = kTileConfigs[Config].tile_m + 4;
template <int Config>
__device__ __forceinline__ float *scale_slot(const SharedStorage<Config> &smem, int stage) {
    static_assert(kBlockScaledStages<Config> * kScaleSlotFloats<Config> * sizeof(float) <=
                      stage_bytes(kTileConfigs[Config]),
                  "the scale slots fit in the stage they take");
    return reinterpret_cast<float *>(smem.a_tile(kBlockScaledStages<Config>)) + stage * kScaleSlotFloats<Config>;
}

// The producer warp's copies of K block kb's scales into `slot` (cp.async, 4 bytes a lane), which the
// caller has each lane's arrival on the stage's full barrier await.  Rows and columns past the
// matrix take the last one's scales: their sums are never stored.
template <int Config>
__device__ __forceinline__ void copy_block_scales(const Sm90Params &p, float *slot, const WorkTile &tile, int kb,
                                                  int lane) {
    constexpr TileConfig kC = kTileConfigs[Config];
    const uint32_t dst = smem_addr(slot);
    if (p.block_scale_a != nullptr) {
        const float *a = p.block_scale_a + (p.a_batched ? tile.batch * p.k_blocks * p.scales_per_k_block_a : 0) +
                         static_cast<int64_t>(kb) * p.scales_per_k_block_a;
        for (int row = lane; row < kC.tile_m; row += 32)
            cp_async_or_zero<4>(dst + 4 * row, a + min(tile.m * kC.tile_m + row, p.m - 1) / p.block_rows_a, false);
    }
    if (p.block_scale_b != nullptr && lane < kC.consumers_n) {
        const float *b = p.block_scale_b + (p.b_batched ? tile.batch * p.k_blocks * p.scales_per_k_block_b : 0) +
                         static_cast<int64_t>(kb) * p.scales_per_k_block_b;
        const int32_t col = tile.n * kC.tile_n + lane * warpgroup_n(kC);
        cp_async_or_zero<4>(dst + 4 * (kC.tile_m + lane), b + min(col, p.n - 1) / p.block_cols_b, false);
    }
}

// Multiplies the tile's k_blocks K blocks into acc (zeroed first), each block's products times the
// scales in its stage's slot as they are added, advancing `slot` through the ring.  `row` is the
// thread's first row within the tile (its second is row + 8: wgmma's m64 layout); `leader` is one
// thread of the warpgroup: it releases the stages.
template <typename T, int Config>
__device__ __forceinline__ void multiply_tile_block_scaled(float (&acc)[warpgroup_n(kTileConfigs[Config]) / 2],
                                                           const Sm90Params &p, const SharedStorage<Config> &smem,
                                                           int k_blocks, WarpgroupTile wg, int row, bool leader,
                                                           RingPosition<kBlockScaledStages<Config>> &slot) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kN = warpgroup_n(kC);
    static_assert(applies_block_scales(kC), "the configuration applies no block scales");
    const uint32_t full0 = smem_addr(smem.full);
    const uint32_t empty0 = smem_addr(smem.empty);
    const uint64_t a_stage0 = a_descriptor(smem_addr(smem.a_tile(0)), wg, true);
    const uint64_t b_stage0 = b_descriptor<Config>(smem_addr(smem.b_tile(0)), wg, true);
    const bool a_scaled = p.block_scale_a != nullptr, b_scaled = p.block_scale_b != nullptr;
#pragma unroll
    for (int i = 0; i < kN / 2; ++i) acc[i] = 0.f;
    for (int kb = 0; kb < k_blocks; ++kb, slot.advance()) {
        wait_parity(full0 + 8 * static_cast<uint32_t>(slot.index), slot.phase);
        const uint32_t stage_offset = static_cast<uint32_t>(slot.index) * stage_bytes(kC);
        const uint64_t a_first = advance_descriptor(a_stage0, stage_offset);
        const uint64_t b_first = advance_descriptor(b_stage0, stage_offset);
        float part[kN / 2];
        wgmma_fence();
#pragma unroll
        for (int step = 0; step < kMmaSteps; ++step)
            wgmma_m64k32_f8<T, kN>(part, advance_descriptor(a_first, step * k_major_step_bytes()),
                                   advance_descriptor(b_first, step * k_major_step_bytes()), step > 0);
        wgmma_commit_group();
        // The stage's scales, read while its MMAs run and before it is released.
        const float *scales = scale_slot(smem, slot.index);
        const float b = b_scaled ? scales[kC.tile_m + wg.wg_n] : 1.f;
        const float lo = a_scaled ? scales[row] * b : b;
        const float hi = a_scaled ? scales[row + 8] * b : b;
        wgmma_wait_group<0>();
        wgmma_fence_operands(part);
        if (leader) arrive(empty0 + 8 * static_cast<uint32_t>(slot.index));
        // wgmma's m64 layout: a thread's d[4j] and d[4j + 1] lie in its row, d[4j + 2] and d[4j + 3]
        // in row + 8.
#pragma unroll
        for (int i = 0; i < kN / 2; ++i) acc[i] = fmaf(part[i], (i & 2) != 0 ? hi : lo, acc[i]);
    }
}

}  // namespace asyncgemm::sm90
