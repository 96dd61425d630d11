// How the sm80 family (ALGO_ASYNC_COPY, ALGO_PIPELINED) is chosen for a problem: its tile
// configuration and split of K.  Plain C++17 over the family's traits; tests/unit/test_sm80_config.cpp
// checks it.
#pragma once

#include <stdint.h>

#include "kernels/common/gemm_launch.h"
#include "kernels/sm80/sm80_traits.h"
#include "plan/sm80_kernels.h"
#include "plan/split_k.h"

namespace asyncgemm::sm80 {

// What the heuristic knows of the device.
struct DeviceLimits {
    int sm_count;
    int smem_per_block;  // bytes a block may opt in to
};

// The kernel of `config` can run on the device: its shared memory fits one block.
constexpr bool kernel_fits(int config, const DeviceLimits &device) {
    return smem_bytes(kTileConfigs[config]) <= static_cast<uint32_t>(device.smem_per_block);
}

// The problem as the heuristic sees it; element_bytes of A and B (4: tf32) sets K per slice.
struct Shape {
    int64_t m, n, k, batch_count;
    int element_bytes = kElementBytes;
};

constexpr int64_t tile_count(int config, const Shape &s) {
    const TileConfig &c = kTileConfigs[config];
    return ceil_div(s.m, c.tile_m) * ceil_div(s.n, c.tile_n) * s.batch_count;
}

// Each range keeps at least 8 K-slices (so the pipeline fills and the partial tile's round trip
// stays small beside the product), at most 16 ranges.
inline constexpr plan::SplitRule kSplitRule{8, 16};

// K ranges per tile for `config`: as many as fill the SMs once the tiles alone do not (64 tiles of
// 1024 x 1024 on 132 SMs, one block per SM: 2), counting every block an SM holds at once; 1 for
// batches (their tiles fill the SMs, or are too few to matter) and for a K too short to cut.
constexpr int split_count(int config, const Shape &s, int sm_count) {
    if (s.batch_count != 1) return 1;
    const int64_t slices = ceil_div(s.k * s.element_bytes, kTileConfigs[config].tile_k * kElementBytes);
    return plan::split_count(kSplitRule, tile_count(config, s), slices,
                             int64_t{sm_count} * kTileConfigs[config].min_blocks_per_sm);
}

// The split for `config`: split_count once its tiles leave SMs idle, else 1.
constexpr int splits_for(int config, const Shape &s, int sm_count) {
    return tile_count(config, s) < sm_count ? split_count(config, s, sm_count) : 1;
}

// The 4-warp 128 x 128 kernel pays off only two to an SM: where one block may take twice its
// shared memory (H100's 227 KB; not A100's 163 KB nor the 99 KB of sm_86/89/120).
constexpr bool runs_paired(const DeviceLimits &device) {
    return 2 * smem_bytes(kTileConfigs[kConfigPaired]) <= static_cast<uint32_t>(device.smem_per_block);
}

// The configuration and split for a problem.  ASYNC_COPY has one configuration and never splits.
// PIPELINED, from what was measured on H100 and H200 (bench/RESULTS.md): the 64 x 128 tile for m <=
// 64, and the 128 x 64 tile for one row of 128 x 128 tiles (m <= 128) or for one problem of less
// than a wave of 128 x 64 tiles with an unsplit K, split K where they leave SMs idle; otherwise 128 x 256 tiles (3 stages) once they
// fill every SM, where 144 KB fit (on H100 they run
// 4096^3 5% faster than the paired kernel in the same cycles at a fixed clock: presumably a higher
// clock, as they read a quarter less per product); else the paired 4-warp 128 x 128 kernel where it
// pairs, split likewise; else 128 x 128 tiles, split K where those leave SMs idle and K is long
// enough, else 128 x 64 tiles.
constexpr plan::KernelChoice choose_config(bool pipelined, const Shape &s, const DeviceLimits &device) {
    if (!pipelined) return {kConfigAsyncCopy, 1};
    if (s.m <= kTileConfigs[kConfigShortM].tile_m) return {kConfigShortM, splits_for(kConfigShortM, s, device.sm_count)};
    const bool one_row = s.m <= kTileConfigs[kConfigPipelinedLarge].tile_m;
    const bool warp_tiles_64x64 = s.element_bytes == kElementBytes;  // tf32 has no such kernels
    if (warp_tiles_64x64 && kernel_fits(kConfigWide, device) && tile_count(kConfigWide, s) >= device.sm_count)
        return {kConfigWide, 1};
    // One problem whose 128 x 64 tiles make less than a wave, with a K too short to split: the most
    // tiles finish first (an H200, unaligned rows: 200x300x100 9.7 against the paired kernel's
    // 15.4 us, 300x200x500 13.6 against 22.9).  Batches were not measured.
    if (s.batch_count == 1 && tile_count(kConfigPipelinedSmall, s) < device.sm_count &&
        split_count(kConfigPipelinedSmall, s, device.sm_count) == 1) {
        // Tiny problems (64 x 64 tiles a quarter wave or less): more, lighter blocks (an H200:
        // 100^3 5.3 us against 128 x 64 tiles' 6.8, 200x300x100 5.7 against 7.9).
        if (tile_count(kConfigTiny, s) * 4 <= device.sm_count) return {kConfigTiny, 1};
        return {kConfigPipelinedSmall, 1};
    }
    if (warp_tiles_64x64 && !one_row && runs_paired(device))
        return {kConfigPaired, splits_for(kConfigPaired, s, device.sm_count)};
    if (tile_count(kConfigPipelinedLarge, s) >= device.sm_count) return {kConfigPipelinedLarge, 1};
    const int splits = split_count(kConfigPipelinedLarge, s, device.sm_count);
    if (splits > 1 && !one_row) return {kConfigPipelinedLarge, splits};
    return {kConfigPipelinedSmall, splits_for(kConfigPipelinedSmall, s, device.sm_count)};
}

// True when the family serves these inputs: f16 or bf16 A and B in any majors, or f32 ones as tf32
// (where the caller allows it) with both K-major; any C/D type.
constexpr bool supports_types(int32_t type_ab, int32_t type_cd, bool tf32, bool a_k_major, bool b_k_major) {
    const bool cd = type_cd == kF32 || type_cd == kF16 || type_cd == kBF16;
    if (type_ab == kF16 || type_ab == kBF16) return cd;
    return type_ab == kF32 && tf32 && a_k_major && b_k_major && cd;
}

}  // namespace asyncgemm::sm80
