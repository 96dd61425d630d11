// The MMA thread: for each of the block's tiles, once the epilogue has drained the accumulator it
// will use, copies the scaled C tile into it (tcgen05.cp, 128 lanes x 256 bits at a time) where C
// enters the accumulator, then for each stage issues kMmaSteps tcgen05.mma (M 128, N 128, K 32 bytes
// each: k16 of 16-bit, k8 of tf32, k32 of 8-bit inputs) straight from the swizzled TMA tiles (with MX
// scales, first copies the stage's scale tiles into tensor memory, tcgen05.cp, and multiplies with
// kind::mxf8f6f4.block_scale, K step s scaled by byte s of each scale column) and releases the stage
// with tcgen05.commit, which arrives on its empty barrier when those MMAs (and copies) have completed.  A last commit tells the epilogue the
// accumulator is complete.  Copies, MMAs and commits of one thread run in issue order on the tensor
// core, so the first MMA accumulates onto the copied C without any wait here.
#pragma once

#include <cuda/ptx>

#include <type_traits>

#include "kernels/common/cp_async.cuh"
#include "kernels/common/element_type.cuh"
#include "kernels/common/ring_position.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/persistent_scheduler.cuh"
#include "kernels/sm100/shared_storage.cuh"

namespace asyncgemm::sm100 {

namespace ptx = cuda::ptx;

// The descriptor of K step `step` of a 128-row operand tile, by its major.
template <uint32_t ElementBytes>
__device__ __forceinline__ uint64_t operand_descriptor(uint32_t tile, bool k_major, int step) {
    return k_major ? k_major_descriptor(MmaUnit::Tcgen05, tile, 0, step)
                   : mn_major_descriptor(MmaUnit::Tcgen05, tile, 0, step, ElementBytes);
}

// Copies the C tile of the seed buffer into the accumulator at `accumulator` (its column 0, lane 0).
__device__ __forceinline__ void copy_seed(const SharedStorage &smem, uint32_t accumulator) {
#pragma unroll
    for (int box = 0; box < kSeedCopy.boxes; ++box) {
        const uint32_t address = smem_addr(smem.seed_box(box));
#pragma unroll
        for (int copy = 0; copy < kSeedCopy.copies_per_box; ++copy) {
            const uint32_t column = static_cast<uint32_t>((box * kSeedCopy.copies_per_box + copy) * kSeedCopy.columns);
            ptx::tcgen05_cp_128x256b(ptx::cta_group_1, accumulator + column,
                                     k_major_descriptor(MmaUnit::Tcgen05, address, 0, copy));
        }
    }
}

// Copies stage `stage`'s MX scale tiles into its tensor-memory columns: each 512-byte tile, 32 rows of
// 16 bytes, into 4 columns of lanes 0-31, repeated in the other three lane quarters (.warpx4), where
// the block-scaled MMA reads the scale of row r from lane r, column r / 32, byte = its scale ID.
__device__ __forceinline__ void copy_mx_scales(const SharedStorage &smem, uint32_t tmem_base, int stage) {
    ptx::tcgen05_cp_32x128b_warpx4(ptx::cta_group_1, tmem_base + mx_scale_column(stage, 0),
                                   mx_scale_copy_descriptor(smem_addr(smem.a_scales(stage))));
    ptx::tcgen05_cp_32x128b_warpx4(ptx::cta_group_1, tmem_base + mx_scale_column(stage, 1),
                                   mx_scale_copy_descriptor(smem_addr(smem.b_scales(stage))));
}

template <typename T>
__device__ __forceinline__ void issue_mmas(const Sm100Params &p, const SharedStorage &smem, uint32_t tmem_base) {
    constexpr uint32_t kElement = sizeof(T);
    const bool mx = has_mx_scales(p);
    if (p.k_blocks == 0) return;  // no product: the epilogue reads no accumulator
    const PersistentScheduler<Sm100Params> schedule(p);
    RingPosition<kStages> slot;
    RingPosition<kAccumulators> accumulator;
    uint32_t seed_phase = 0;
    for (int64_t i = schedule.first; i < schedule.count; i += schedule.stride, accumulator.advance()) {
        // A fresh barrier counts as having completed the phase before its first: the first pass over
        // the accumulators does not wait.
        wait_parity(&smem.acc_empty[accumulator.index], accumulator.phase ^ 1u);
        ptx::tcgen05_fence_after_thread_sync();
        const uint32_t d = tmem_address(tmem_base, 0, static_cast<uint32_t>(accumulator.index * kTileN));
        if (p.seed_c) {
            wait_parity(smem.seed_ready, seed_phase);
            ptx::tcgen05_fence_after_thread_sync();
            copy_seed(smem, d);
            ptx::tcgen05_commit(ptx::cta_group_1, smem.seed_empty);
            seed_phase ^= 1u;
        }
        for (int kb = 0; kb < p.k_blocks; ++kb, slot.advance()) {
            wait_parity(&smem.full[slot.index], slot.phase);
            ptx::tcgen05_fence_after_thread_sync();
            const uint32_t a_tile = smem_addr(smem.a_tile(slot.index));
            const uint32_t b_tile = smem_addr(smem.b_tile(slot.index));
            if constexpr (kIsFp8<T>) {
                if (mx) copy_mx_scales(smem, tmem_base, slot.index);
            }
#pragma unroll
            for (int step = 0; step < kMmaSteps; ++step) {
                const uint64_t a = operand_descriptor<kElement>(a_tile, p.a_k_major, step);
                const uint64_t b = operand_descriptor<kElement>(b_tile, p.b_k_major, step);
                const bool accumulate = p.seed_c || kb > 0 || step > 0;
                if constexpr (std::is_same_v<T, float>) {
                    ptx::tcgen05_mma(ptx::kind_tf32, ptx::cta_group_1, d, a, b, p.instruction, accumulate);
                } else if constexpr (kIsFp8<T>) {
                    if (mx)
                        ptx::tcgen05_mma_block_scale_vec_1x(
                            ptx::kind_mxf8f6f4, ptx::cta_group_1, d, a, b, with_scale_ids(p.instruction, step),
                            tmem_base + mx_scale_column(slot.index, 0), tmem_base + mx_scale_column(slot.index, 1),
                            accumulate);
                    else
                        ptx::tcgen05_mma(ptx::kind_f8f6f4, ptx::cta_group_1, d, a, b, p.instruction, accumulate);
                } else {
                    ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, d, a, b, p.instruction, accumulate);
                }
            }
            ptx::tcgen05_commit(ptx::cta_group_1, &smem.empty[slot.index]);
        }
        ptx::tcgen05_commit(ptx::cta_group_1, &smem.acc_full[accumulator.index]);
    }
}

}  // namespace asyncgemm::sm100
