// How the Hopper family (ALGO_SM90_TMA_WGMMA) is chosen for a problem: its tile configuration and
// split of K.  Plain C++17 over the family's traits; tests/unit/test_sm90_encoding.cpp checks it.
#pragma once

#include <stdint.h>

#include "kernels/common/smem_descriptor.h"
#include "kernels/sm90/sm90_traits.h"
#include "plan/split_k.h"

namespace asyncgemm::sm90 {

struct Shape {
    int64_t m, n, k, batch_count;
};

constexpr int64_t tile_count(const TileConfig &c, const Shape &s) {
    return ((s.m + c.tile_m - 1) / c.tile_m) * ((s.n + c.tile_n - 1) / c.tile_n) * s.batch_count;
}

// Each range at least 24 K blocks (below that a range's loads cost less than the partials' round
// trip and the wait for the last range; measured on H100: 16 x 8192 x 2048 runs 5% faster unsplit
// than split in two ranges of 16 blocks, 128 x 4096 x 2048 3%; 128 x 4096 x 4096 2% slower unsplit
// than in two of 32), at most 16 ranges.
inline constexpr plan::SplitRule kSplitRule{24, 16};

// How many ranges to cut K into: where the tiles fill no more than half the SMs, enough work items
// (tile, range) to fill them.  Batched problems never split.
constexpr int split_count(const TileConfig &c, const Shape &s, int sm_count) {
    const int64_t tiles = tile_count(c, s);
    if (s.batch_count != 1 || tiles * 2 > sm_count) return 1;
    return plan::split_count(kSplitRule, tiles, k_block_count(s.k, kF16), sm_count);
}

// K at which a tile's MMAs outweigh the cost of splitting K over fewer, larger tiles (measured on
// H100: 1024 x 1024 x 14336 runs 0.88x cuBLAS as 128 x 128 split in two, 0.69x as 128 x 64 whole;
// 128 x 4096 x 4096 runs 0.81x as 128 x 64 split in two, 0.72x as 128 x 128 split in four).
inline constexpr int64_t kLongK = 8192;

// The largest tile whose count comes near a full wave of SMs (within a tenth): larger tiles read
// less per MMA, but a grid short of a wave leaves SMs idle.  Where none does, 128 x 128 for long K
// (its MMAs dominate, split_count cuts K in few ranges), else the smallest tiles.  Rows of 64 where
// m fits one; 64 x 64 tiles where m fits two rows of them and they make one wave: there the shape
// streams its operands once, and any other tile would split K.
constexpr int choose_config(const Shape &s, int sm_count) {
    const auto fills = [&](int config) {
        return tile_count(kTileConfigs[config], s) * 10 >= static_cast<int64_t>(sm_count) * 9;
    };
    const auto one_wave = [&](int config) {
        return fills(config) && tile_count(kTileConfigs[config], s) <= static_cast<int64_t>(sm_count);
    };
    if (s.m <= 64) {
        if (fills(kConfigShortM)) return kConfigShortM;
        return one_wave(kConfigSingle) ? kConfigSingle : kConfigShortNarrow;
    }
    if (fills(kConfigWide)) return kConfigWide;
    if (fills(kConfigSquare) || s.k >= kLongK) return kConfigSquare;
    if (s.m <= 128 && one_wave(kConfigSingle)) return kConfigSingle;
    return kConfigNarrow;
}

// f16 and bf16 A and B in any majors; f32 A and B as tf32 (when the caller allows it), K-major only:
// wgmma transposes 16-bit operands alone.
constexpr bool supports_types(int32_t type_ab, int32_t type_cd, bool tf32, bool a_k_major, bool b_k_major) {
    const bool cd = type_cd == kF32 || type_cd == kF16 || type_cd == kBF16;
    if (type_ab == kF16 || type_ab == kBF16) return cd;
    return type_ab == kF32 && tf32 && a_k_major && b_k_major && cd;
}

}  // namespace asyncgemm::sm90
