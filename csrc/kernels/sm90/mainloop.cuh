// A consumer warpgroup's K loop for one tile: for each K block, wait for the stage to land, issue
// kMmaSteps wgmma.mma_async on it (k16 of f16/bf16 or k8 of tf32 each; operands straight from the
// swizzled TMA tiles through their matrix descriptors), commit them as one group, wait until only
// the configuration's groups_in_flight groups are still running, and release the stage of the one
// that finished: MMAs stay queued behind the running one while the loop comes round.  Work of the
// warpgroup's own that can run beside the MMAs (the last tile's stores) goes at the end of a block.
#pragma once

#include <type_traits>

#include "kernels/common/mbarrier.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/shared_storage.cuh"

namespace asyncgemm::sm90 {

// The warpgroup's place in the tile: rows 64 * wg_m, columns warpgroup_n(kC) * wg_n.
struct WarpgroupTile {
    int wg_m, wg_n;
};

// The descriptors of the first K step of the warpgroup's A rows and B columns in a stage.
template <bool AKMajor>
__device__ __forceinline__ uint64_t a_descriptor(uint32_t a_tile, WarpgroupTile wg) {
    return AKMajor ? k_major_descriptor(MmaUnit::Wgmma, a_tile, 64 * wg.wg_m, 0)
                   : mn_major_descriptor(MmaUnit::Wgmma, a_tile, wg.wg_m, 0, 2);
}
template <int Config, bool BKMajor>
__device__ __forceinline__ uint64_t b_descriptor(uint32_t b_tile, WarpgroupTile wg) {
    constexpr int kN = warpgroup_n(kTileConfigs[Config]);
    return BKMajor ? k_major_descriptor(MmaUnit::Wgmma, b_tile, kN * wg.wg_n, 0)
                   : mn_major_descriptor(MmaUnit::Wgmma, b_tile, kN / 64 * wg.wg_n, 0, 2);
}

// Bytes from one K step's descriptor to the next (MN-major operands are 16-bit: tf32 is K-major).
template <bool KMajor>
__device__ __forceinline__ constexpr uint32_t step_bytes() {
    return KMajor ? k_major_step_bytes() : mn_major_step_bytes(2);
}

// Bytes from the descriptor of an N-column B operand to that of its right half: N / 2 rows of a
// K-major tile, N / 128 blocks of 64 columns of an MN-major one.
template <bool KMajor, int N>
__device__ __forceinline__ constexpr uint32_t half_column_bytes() {
    static_assert(KMajor || N % 128 == 0, "an MN-major half is whole 64-column blocks");
    return KMajor ? N / 2 * kRowBytes : N / 128 * mn_block_bytes(2);
}

// The accumulators of the left or right half of a warpgroup's columns (wgmma's layout keeps each
// half's registers together: column 8j + c is in d[4j ..]).
template <int Half, int R>
__device__ __forceinline__ float (&column_half(float (&acc)[R]))[R / 2] {
    return *reinterpret_cast<float(*)[R / 2]>(&acc[Half * R / 2]);
}

// One K step's MMA into a 64 x N accumulator tile.
template <typename T, int N, bool AKMajor, bool BKMajor>
__device__ __forceinline__ void mma_step(float (&acc)[N / 2], uint64_t a, uint64_t b, bool accumulate) {
    if constexpr (std::is_same_v<T, float>) {
        static_assert(AKMajor && BKMajor, "tf32 operands are K-major");
        wgmma_m64k8_tf32<N>(acc, a, b, accumulate);
    } else {
        wgmma_m64k16<T, N, !AKMajor, !BKMajor>(acc, a, b, accumulate);
    }
}

// Which of a warpgroup's N columns a K block's MMAs cover: all (m64nN MMAs) or one half (m64n(N/2)).
enum class Columns { All, Left, Right };

// Issues one K block's kMmaSteps steps into the warpgroup's 64 x N accumulators, from the descriptors
// of the block's first step; `first` (the tile's first block) starts the sum with scale-d 0.
template <typename T, int N, bool AKMajor, bool BKMajor, Columns Cover>
__device__ __forceinline__ void issue_block(float (&acc)[N / 2], uint64_t a_first, uint64_t b_first, bool first) {
#pragma unroll
    for (int step = 0; step < kMmaSteps; ++step) {
        const uint64_t a = advance_descriptor(a_first, step * step_bytes<AKMajor>());
        const uint64_t b = advance_descriptor(b_first, step * step_bytes<BKMajor>());
        const bool accumulate = !first || step > 0;
        if constexpr (Cover == Columns::All) {
            mma_step<T, N, AKMajor, BKMajor>(acc, a, b, accumulate);
        } else if constexpr (Cover == Columns::Left) {
            mma_step<T, N / 2, AKMajor, BKMajor>(column_half<0>(acc), a, b, accumulate);
        } else {
            mma_step<T, N / 2, AKMajor, BKMajor>(column_half<1>(acc), a,
                                                 advance_descriptor(b, half_column_bytes<BKMajor, N>()), accumulate);
        }
    }
}

// Multiplies the tile's k_blocks K blocks into acc (overwriting it; untouched when k_blocks == 0),
// advancing `slot` through the ring.  `leader` is one thread of the warpgroup: it releases the stages.
// beside(kb) runs in every thread after block kb's MMAs are issued and the stage before released.
//
// With HalvedTail > 0 the last HalvedTail blocks are issued by column halves, all their left halves
// first: the left half of the tile is then done while the tensor pipe still has the right half's
// MMAs, and left_done() (which may read the left half's accumulators, not the right's) runs beside
// them.  It runs once per tile, before the function returns, whatever k_blocks is.
template <typename T, int Config, bool AKMajor, bool BKMajor, int HalvedTail, typename Beside, typename LeftDone>
__device__ __forceinline__ void multiply_tile(float (&acc)[warpgroup_n(kTileConfigs[Config]) / 2],
                                              const SharedStorage<Config> &smem, int k_blocks, WarpgroupTile wg,
                                              bool leader, RingPosition<kTileConfigs[Config].stages> &slot,
                                              const Beside &beside, const LeftDone &left_done) {
    constexpr int kN = warpgroup_n(kTileConfigs[Config]);
    constexpr int kCluster = kTileConfigs[Config].cluster_m;
    constexpr int kStages = kTileConfigs[Config].stages;
    constexpr int kInFlight = kTileConfigs[Config].groups_in_flight;
    static_assert(kInFlight >= 1 && kInFlight + 1 < kStages, "the producer keeps a stage to fill");
    static_assert(HalvedTail + kInFlight < kStages, "a halved tail leaves the producer a stage");
    // The ring's barriers (8 bytes each) as shared::cta addresses.  In the SASS of 548a66d ptxas still
    // forms this base from %cluster_ctaid (S2R) at the top of every K block rather than keep it in a
    // register (bench/RESULTS.md, twenty-ninth session).
    const uint32_t full0 = smem_addr(smem.full);
    const uint32_t empty0 = smem_addr(smem.empty);
    const auto wait_landed = [&](RingPosition<kStages> at) {
        while (!mbarrier_try_wait_parity_shared(full0 + 8 * static_cast<uint32_t>(at.index), at.phase)) {
        }
    };
    // In a cluster the stage is released in both blocks: the peer's producer multicasts into it.
    const auto release = [&](int stage) {
        if (!leader) return;
        const uint32_t empty = empty0 + 8 * static_cast<uint32_t>(stage);
        if constexpr (kCluster > 1) {
#pragma unroll
            for (uint32_t rank = 0; rank < kCluster; ++rank) mbarrier_arrive_cluster(map_shared_rank(empty, rank));
        } else {
            mbarrier_arrive_shared(empty);
        }
    };
    // The oldest stage the tile still holds: released in ring order, kInFlight blocks behind `slot`.
    RingPosition<kStages> held = slot;
    const auto release_until = [&](RingPosition<kStages> end) {
        for (; held.index != end.index || held.phase != end.phase; held.advance()) release(held.index);
    };
    // A stage's descriptors are stage 0's advanced by the stages before it: a multiply-add per K
    // block instead of rebuilding every field.
    const uint64_t a_stage0 = a_descriptor<AKMajor>(smem_addr(smem.a_tile(0)), wg);
    const uint64_t b_stage0 = b_descriptor<Config, BKMajor>(smem_addr(smem.b_tile(0)), wg);
    const auto a_first = [&](RingPosition<kStages> at) {
        return advance_descriptor(a_stage0, static_cast<uint32_t>(at.index) * stage_bytes(kTileConfigs[Config]));
    };
    const auto b_first = [&](RingPosition<kStages> at) {
        return advance_descriptor(b_stage0, static_cast<uint32_t>(at.index) * stage_bytes(kTileConfigs[Config]));
    };

    const int body = k_blocks - HalvedTail;
    for (int kb = 0; kb < body; ++kb, slot.advance()) {
        wait_landed(slot);
        wgmma_fence();
        issue_block<T, kN, AKMajor, BKMajor, Columns::All>(acc, a_first(slot), b_first(slot), kb == 0);
        wgmma_commit_group();
        // The group kInFlight blocks back has finished reading its stage.
        wgmma_wait_group<kInFlight>();
        if (kb >= kInFlight) {
            release(held.index);
            held.advance();
        }
        beside(kb);
    }
    if constexpr (HalvedTail > 0) {
        const RingPosition<kStages> tail = slot;
        uint64_t a[HalvedTail], b[HalvedTail];
#pragma unroll
        for (int t = 0; t < HalvedTail; ++t, slot.advance()) {
            wait_landed(slot);
            a[t] = a_first(slot);
            b[t] = b_first(slot);
        }
        wgmma_fence();
#pragma unroll
        for (int t = 0; t < HalvedTail; ++t)
            issue_block<T, kN, AKMajor, BKMajor, Columns::Left>(acc, a[t], b[t], body + t == 0);
        wgmma_commit_group();
#pragma unroll
        for (int t = 0; t < HalvedTail; ++t)
            issue_block<T, kN, AKMajor, BKMajor, Columns::Right>(acc, a[t], b[t], body + t == 0);
        wgmma_commit_group();
        // The left halves, and every block before the tail, are done.
        wgmma_wait_group<1>();
        release_until(tail);
        wgmma_fence_operands(column_half<0>(acc));
        left_done();
    }
    wgmma_wait_group<0>();
    // Release the stages of the last groups, still held.
    release_until(slot);
    wgmma_fence_operands(acc);
}

}  // namespace asyncgemm::sm90
