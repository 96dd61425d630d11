// A consumer warpgroup's K loop for 8-bit inputs with block scales (ASYNCGEMM_SCALE_BLOCK_*): the
// products of each K block (128 elements of K, the depth one block scale covers) are multiplied into
// a register tile of their own, then added into the fp32 accumulators times their rows' and columns'
// scales.  This promotion, as DeepGEMM names it, also bounds how long the tensor core's own running
// sum (narrower than fp32 for 8-bit inputs) grows: one K block.
//
// A block's wgmma must finish before its products are read, so the warpgroup keeps no group in flight
// across blocks: every instruction between a block's wait and the next block's issue (the promotion's
// FMAs, the scales' loads, the next stage's descriptors) is time the warpgroup's tensor work waits
// for, and the kernel is bound by issuing them, not by its MMAs (ncu: bench/RESULTS.md).  (Reading one
// register tile while another's wgmma runs, inside the K loop, makes ptxas serialize every wgmma of
// the kernel: bench/RESULTS.md.)
// A block's scales are loaded from global memory kScaleLoadsAhead blocks before it is promoted, after
// a prefetch into L2 further ahead: loaded one block ahead, the loads' latency outlasted the block's
// MMAs, and the K loop waited on them (bench/RESULTS.md).
#pragma once

#include <stdint.h>

#include "kernels/common/block_scale.h"
#include "kernels/common/global_load.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/mainloop.cuh"
#include "kernels/sm90/shared_storage.cuh"
#include "kernels/sm90/sm90_params.h"

namespace asyncgemm::sm90 {

static_assert(kRowBytes == kScaleBlockK, "an 8-bit K block is one block scale's depth");

// How many K blocks ahead of its promotion a block's scales are loaded into registers, and how far
// ahead of that load they are prefetched into L2 (H200: prefetching 8 blocks ahead of a load one
// block ahead was 3-17% faster than 1 on the block-scaled shapes measured, 4 in between;
// bench/RESULTS.md).  The K loop is unrolled kScaleLoadsAhead times, so that each block's scales
// stay in registers of their own until used: rotated through copies, they would be waited for at the
// copy.
inline constexpr int kScaleLoadsAhead = 4;
inline constexpr int kScalePrefetchBlocks = 8;

// A K block's scales as loaded: A's of the thread's two rows and B's of its warpgroup's columns.
struct LoadedScales {
    float a_lo = 1.f, a_hi = 1.f, b = 1.f;
};

// The scales one thread applies to a K block's products: those of its rows r (lo) and r + 8 (hi),
// each times its columns' one (a warpgroup's columns share one: applies_block_scales).
struct KBlockScales {
    float lo, hi;
};

// A thread's block scales, K block by K block (kernels/common/block_scale.h): A's of its two rows,
// B's of its warpgroup's columns; 1 for an operand without block scales.  It holds three pointers;
// the rest it reads from the parameters where they lie, as the accumulators leave few registers.
class BlockScaleReader {
public:
    // row: the thread's first row in D (its second is row + 8); col: the warpgroup's first column.
    // Rows and columns past the matrix read the last one's scales: their sums are never stored.
    __device__ __forceinline__ BlockScaleReader(const Sm90Params &p, int64_t batch, int32_t row, int32_t col) {
        if (p.block_scale_a != nullptr) {
            const float *a = p.block_scale_a + (p.a_batched ? batch * p.k_blocks * p.scales_per_k_block_a : 0);
            a_lo_ = a + block_scale_offset(min(row, p.m - 1), 0, p.m, p.block_rows_a);
            a_hi_ = a + block_scale_offset(min(row + 8, p.m - 1), 0, p.m, p.block_rows_a);
        }
        if (p.block_scale_b != nullptr)
            b_ = p.block_scale_b + (p.b_batched ? batch * p.k_blocks * p.scales_per_k_block_b : 0) +
                 block_scale_offset(min(col, p.n - 1), 0, p.n, p.block_cols_b);
    }

    // Issues the loads of K block kb's scales (kb counted from the problem's first).
    __device__ __forceinline__ LoadedScales load(const Sm90Params &p, int kb) const {
        LoadedScales s;
        if (p.block_scale_b != nullptr) s.b = __ldg(b_ + static_cast<int64_t>(kb) * p.scales_per_k_block_b);
        if (p.block_scale_a != nullptr) {
            const int64_t step = static_cast<int64_t>(kb) * p.scales_per_k_block_a;
            s.a_lo = __ldg(a_lo_ + step);
            s.a_hi = __ldg(a_hi_ + step);
        }
        return s;
    }

    // The scales of the products of a block whose scales `loaded` holds.
    __device__ __forceinline__ static KBlockScales combine(const LoadedScales &loaded) {
        return {loaded.a_lo * loaded.b, loaded.a_hi * loaded.b};
    }

    // Starts bringing K block kb's scales into L2: each K block's lie on lines of their own, which a
    // load issued one block ahead would otherwise await from DRAM.
    __device__ __forceinline__ void prefetch(const Sm90Params &p, int kb) const {
        if (p.block_scale_b != nullptr) prefetch_l2(b_ + static_cast<int64_t>(kb) * p.scales_per_k_block_b);
        if (p.block_scale_a != nullptr) prefetch_l2(a_lo_ + static_cast<int64_t>(kb) * p.scales_per_k_block_a);
    }

private:
    const float *a_lo_ = nullptr, *a_hi_ = nullptr, *b_ = nullptr;
};

// Multiplies the K blocks first_block .. first_block + k_blocks - 1 of the tile into acc (zeroed
// first), each block's products scaled as they are added, advancing `slot` through the ring.
// `leader` is one thread of the warpgroup: it releases the stages.
template <int Config>
__device__ __forceinline__ void multiply_tile_block_scaled(float (&acc)[warpgroup_n(kTileConfigs[Config]) / 2],
                                                           const SharedStorage<Config> &smem, int first_block,
                                                           int k_blocks, WarpgroupTile wg, Fp8Formats formats,
                                                           bool leader,
                                                           RingPosition<kTileConfigs[Config].stages> &slot,
                                                           const Sm90Params &p, const BlockScaleReader &scales) {
    constexpr int kN = warpgroup_n(kTileConfigs[Config]);
    static_assert(applies_block_scales(kTileConfigs[Config]), "the configuration applies no block scales");
    const uint32_t full0 = smem_addr(smem.full);
    const uint32_t empty0 = smem_addr(smem.empty);
    const uint64_t a_stage0 = a_descriptor(smem_addr(smem.a_tile(0)), wg, true);
    const uint64_t b_stage0 = b_descriptor<Config>(smem_addr(smem.b_tile(0)), wg, true);
#pragma unroll
    for (int i = 0; i < kN / 2; ++i) acc[i] = 0.f;
    LoadedScales ahead[kScaleLoadsAhead];  // block kb's in ahead[kb % kScaleLoadsAhead]
#pragma unroll
    for (int j = 0; j < kScaleLoadsAhead; ++j)
        if (j < k_blocks) ahead[j] = scales.load(p, first_block + j);
    for (int kb = kScaleLoadsAhead; kb < kScaleLoadsAhead + kScalePrefetchBlocks && kb < k_blocks; ++kb)
        scales.prefetch(p, first_block + kb);
    // Each pair of formats is its own loop (with_fp8_formats), chosen once per tile.
    with_fp8_formats(formats, [&](auto fp8) {
        using Fp8 = decltype(fp8);
        for (int round = 0; round < k_blocks; round += kScaleLoadsAhead) {
#pragma unroll
            for (int j = 0; j < kScaleLoadsAhead; ++j) {
                const int kb = round + j;
                if (kb >= k_blocks) break;
                wait_parity(full0 + 8 * static_cast<uint32_t>(slot.index), slot.phase);
                const uint32_t stage_offset = static_cast<uint32_t>(slot.index) * stage_bytes(kTileConfigs[Config]);
                const uint64_t a_first = advance_descriptor(a_stage0, stage_offset);
                const uint64_t b_first = advance_descriptor(b_stage0, stage_offset);
                float part[kN / 2];
                wgmma_fence();
#pragma unroll
                for (int step = 0; step < kMmaSteps; ++step)
                    wgmma_m64k32_f8<Fp8::a_e5m2, Fp8::b_e5m2, kN>(
                        part, advance_descriptor(a_first, step * k_major_step_bytes()),
                        advance_descriptor(b_first, step * k_major_step_bytes()), step > 0);
                wgmma_commit_group();
                const KBlockScales s = BlockScaleReader::combine(ahead[j]);
                if (kb + kScaleLoadsAhead < k_blocks) ahead[j] = scales.load(p, first_block + kb + kScaleLoadsAhead);
                if (kb + kScaleLoadsAhead + kScalePrefetchBlocks < k_blocks)
                    scales.prefetch(p, first_block + kb + kScaleLoadsAhead + kScalePrefetchBlocks);
                wgmma_wait_group<0>();
                wgmma_fence_operands(part);
                if (leader) arrive(empty0 + 8 * static_cast<uint32_t>(slot.index));
                slot.advance();
                // wgmma's m64 layout: a thread's d[4j] and d[4j + 1] lie in its row r, d[4j + 2] and d[4j + 3]
                // in row r + 8.
#pragma unroll
                for (int i = 0; i < kN / 2; ++i) {
                    const float scale = (i & 2) != 0 ? s.hi : s.lo;
                    acc[i] = fmaf(part[i], scale, acc[i]);
                }
            }
        }
    });
}

}  // namespace asyncgemm::sm90
