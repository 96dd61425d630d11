// A consumer warpgroup's K loop for one tile: for each K block, wait for the stage to land, issue
// kMmaSteps wgmma.mma_async on it (k16 of f16/bf16, k8 of tf32 or k32 of e4m3/e5m2; operands straight from the
// swizzled TMA tiles through their matrix descriptors), commit them as one group, wait until only
// the configuration's groups_in_flight groups are still running, and release the stage of the one
// that finished: MMAs stay queued behind the running one while the loop comes round.  Work of the
// warpgroup's own that can run beside the MMAs (the last tile's stores) goes at the end of a block.
#pragma once

#include <type_traits>

#include "kernels/common/element_type.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/shared_storage.cuh"

namespace asyncgemm::sm90 {

// The warpgroup's place in the tile: rows 64 * wg_m, columns warpgroup_n(kC) * wg_n.
struct WarpgroupTile {
    int wg_m, wg_n;
};

// The descriptors of the first K step of the warpgroup's A rows and B columns in a stage.
__device__ __forceinline__ uint64_t a_descriptor(uint32_t a_tile, WarpgroupTile wg, bool k_major) {
    return k_major ? k_major_descriptor(MmaUnit::Wgmma, a_tile, 64 * wg.wg_m, 0)
                   : mn_major_descriptor(MmaUnit::Wgmma, a_tile, wg.wg_m, 0, 2);
}
template <int Config>
__device__ __forceinline__ uint64_t b_descriptor(uint32_t b_tile, WarpgroupTile wg, bool k_major) {
    constexpr int kN = warpgroup_n(kTileConfigs[Config]);
    return k_major ? k_major_descriptor(MmaUnit::Wgmma, b_tile, kN * wg.wg_n, 0)
                   : mn_major_descriptor(MmaUnit::Wgmma, b_tile, kN / 64 * wg.wg_n, 0, 2);
}

// Bytes from one K step's descriptor to the next (MN-major operands are 16-bit: tf32 and 8-bit
// floats are K-major).
template <bool KMajor>
__device__ __forceinline__ constexpr uint32_t step_bytes() {
    return KMajor ? k_major_step_bytes() : mn_major_step_bytes(2);
}

// The formats of 8-bit operands as immediates of wgmma: e5m2 where true, else e4m3.
template <bool AE5M2, bool BE5M2>
struct Fp8FormatPair {
    static constexpr bool a_e5m2 = AE5M2, b_e5m2 = BE5M2;
};

// Calls body(formats) with the launch's 8-bit formats as an Fp8FormatPair: each pair is its own loop,
// chosen once per tile by a branch the whole warpgroup takes alike, so one kernel reads e4m3, e5m2
// and one of each.
template <typename Body>
__device__ __forceinline__ void with_fp8_formats(Fp8Formats formats, const Body &body) {
    if (formats.a_e5m2) {
        if (formats.b_e5m2) body(Fp8FormatPair<true, true>{});
        else body(Fp8FormatPair<true, false>{});
    } else {
        if (formats.b_e5m2) body(Fp8FormatPair<false, true>{});
        else body(Fp8FormatPair<false, false>{});
    }
}

// Calls body(a_k_major, b_k_major, formats) with the majors as std::bool_constant and the 8-bit
// formats as an Fp8FormatPair (e4m3 by e4m3 for other inputs): the transpose bits and the 8-bit
// types are immediates of wgmma, so each pair of majors (16-bit) or of formats (8-bit, K-major) is its
// own loop.  tf32 operands are K-major.
template <typename T, typename Body>
__device__ __forceinline__ void with_operand_kinds(OperandMajors majors, Fp8Formats formats, const Body &body) {
    using K = std::true_type;
    using MN = std::false_type;
    if constexpr (kIsFp8<T>) {
        with_fp8_formats(formats, [&](auto pair) { body(K{}, K{}, pair); });
    } else if constexpr (kKMajorOnly<T>) {
        body(K{}, K{}, Fp8FormatPair<false, false>{});
    } else if (majors.a_k) {
        if (majors.b_k) body(K{}, K{}, Fp8FormatPair<false, false>{});
        else body(K{}, MN{}, Fp8FormatPair<false, false>{});
    } else {
        if (majors.b_k) body(MN{}, K{}, Fp8FormatPair<false, false>{});
        else body(MN{}, MN{}, Fp8FormatPair<false, false>{});
    }
}

// Multiplies the tile's k_blocks K blocks into acc (overwriting it; untouched when k_blocks == 0),
// advancing `slot` through the ring.  `leader` is one thread of the warpgroup: it releases the stages.
// beside(kb) runs in every thread after block kb's MMAs are issued and the stage before released.
template <typename T, int Config, typename Beside>
__device__ __forceinline__ void multiply_tile(float (&acc)[warpgroup_n(kTileConfigs[Config]) / 2],
                                              const SharedStorage<Config> &smem, int k_blocks, WarpgroupTile wg,
                                              OperandMajors majors, Fp8Formats formats, bool leader,
                                              RingPosition<kTileConfigs[Config].stages> &slot, const Beside &beside) {
    constexpr int kN = warpgroup_n(kTileConfigs[Config]);
    // The ring's barriers (8 bytes each) as shared-window addresses.
    const uint32_t full0 = smem_addr(smem.full);
    const uint32_t empty0 = smem_addr(smem.empty);
    const auto release = [&](int stage) {
        if (leader) arrive(empty0 + 8 * static_cast<uint32_t>(stage));
    };
    constexpr int kStages = kTileConfigs[Config].stages;
    constexpr int kInFlight = kTileConfigs[Config].groups_in_flight;
    static_assert(kInFlight >= 1 && kInFlight + 1 < kStages, "the producer keeps a stage to fill");
    // The oldest stage the tile still holds: released in ring order, kInFlight blocks behind `slot`.
    RingPosition<kStages> held = slot;
    // A stage's descriptors are stage 0's advanced by the stages before it: a multiply-add per K
    // block instead of rebuilding every field.
    const uint64_t a_stage0 = a_descriptor(smem_addr(smem.a_tile(0)), wg, majors.a_k);
    const uint64_t b_stage0 = b_descriptor<Config>(smem_addr(smem.b_tile(0)), wg, majors.b_k);
    with_operand_kinds<T>(majors, formats, [&](auto a_k_major, auto b_k_major, auto fp8) {
        constexpr bool kAK = decltype(a_k_major)::value, kBK = decltype(b_k_major)::value;
        using Fp8 = decltype(fp8);
        for (int kb = 0; kb < k_blocks; ++kb, slot.advance()) {
            wait_parity(full0 + 8 * static_cast<uint32_t>(slot.index), slot.phase);
            const uint32_t stage_offset = static_cast<uint32_t>(slot.index) * stage_bytes(kTileConfigs[Config]);
            const uint64_t a_first = advance_descriptor(a_stage0, stage_offset);
            const uint64_t b_first = advance_descriptor(b_stage0, stage_offset);
            wgmma_fence();
#pragma unroll
            for (int step = 0; step < kMmaSteps; ++step) {
                const uint64_t a = advance_descriptor(a_first, step * step_bytes<kAK>());
                const uint64_t b = advance_descriptor(b_first, step * step_bytes<kBK>());
                if constexpr (std::is_same_v<T, float>)
                    wgmma_m64k8_tf32<kN>(acc, a, b, kb > 0 || step > 0);
                else if constexpr (kIsFp8<T>)
                    wgmma_m64k32_f8<Fp8::a_e5m2, Fp8::b_e5m2, kN>(acc, a, b, kb > 0 || step > 0);
                else
                    wgmma_m64k16<T, kN, !kAK, !kBK>(acc, a, b, kb > 0 || step > 0);
            }
            wgmma_commit_group();
            // The group kInFlight blocks back has finished reading its stage.
            wgmma_wait_group<kInFlight>();
            if (kb >= kInFlight) {
                release(held.index);
                held.advance();
            }
            beside(kb);
        }
    });
    wgmma_wait_group<0>();
    // Release the stages of the last groups, still held.
    for (; held.index != slot.index || held.phase != slot.phase; held.advance()) release(held.index);
    wgmma_fence_operands(acc);
}

}  // namespace asyncgemm::sm90
