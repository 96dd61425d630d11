// How the Hopper family (ALGO_SM90_TMA_WGMMA) is chosen for a problem: its tile configuration and
// split of K.  Plain C++17 over the family's traits; tests/unit/test_sm90_encoding.cpp checks it.
#pragma once

#include <stdint.h>

#include "kernels/common/smem_descriptor.h"
#include "kernels/sm90/sm90_traits.h"
#include "plan/split_k.h"

namespace asyncgemm::sm90 {

// The problem as the heuristic sees it.  Its K is counted in blocks of 64 elements whatever the
// input type (a tf32 block holds 32, an 8-bit one 128): the weights were fitted on 16-bit problems,
// and counting 8-bit K in its own blocks measured slower (bench/RESULTS.md, "Tried and dropped").
struct Shape {
    int64_t m, n, k, batch_count;
    bool block_scaled = false;  // 8-bit inputs with block scales: configurations that apply them
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

// Each configuration's MMA throughput relative to 128 x 256 where every SM is busy (the suites'
// large shapes, autotuned on an H200: 128 x 256 540 us, 128 x 128 570, 64 x 256 591, 64 x 128 849,
// 128 x 64 962, 64 x 64 1076 at 8192 x 6144 x 4096; 128 x 192 on an H100, 558 us against 128 x 256's
// 537 over the same number of tile elements there), in the order of kTileConfigs.
inline constexpr double kThroughput[] = {1.0, 0.95, 0.91, 0.56, 0.64, 0.50, 0.96};
static_assert(sizeof(kThroughput) / sizeof(kThroughput[0]) == kTileConfigCount, "a throughput per configuration");
// What a split costs beyond its share of the MMAs, per range and element of the tile: storing the
// partial, and the last range's wait and sum (any value from 13 to 40 fits the suites' timings
// alike; 6.4 split 128 x 10240 x 8192 into three ranges of 128 x 256 tiles, 16% slower than whole
// 128 x 128 ones).
inline constexpr double kSplitCost = 25.6;
// The same for rows of 64 (m <= 64): there the product streams B, and a split spreads that stream
// over more SMs.  25.6 kept 64 x 64 tiles whole and lost up to 16% to split 64 x 256 ones on the
// decode shapes; 6.4, fitted to them, took 64 x 128 tiles split in two at 64 x 6144 x 4096, which
// the autotuner timed 14% slower than 64 x 64 ones whole (an H200).  8.0 takes those and leaves every
// other decode shape's choice as 6.4 made it (from 10, 64 x 4096 x 14336 would trade four ranges of
// 64 x 128 for two of 64 x 64).
inline constexpr double kShortSplitCost = 8.0;

// The estimated time of the problem in configuration `config` (with split_count's split), in units
// of one tile element's MMAs over one K block: the waves of work items the SMs run (a partial wave
// costs a whole one), each a whole tile (its rows and columns past the matrix included) over its
// range of K, at the configuration's throughput, plus the split's cost.
constexpr double estimated_time(int config, const Shape &s, int sm_count, double split_cost = kSplitCost) {
    const TileConfig &c = kTileConfigs[config];
    const int64_t k_blocks = k_block_count(s.k > 0 ? s.k : 1, kF16);
    const plan::SplitRanges ranges = plan::split_ranges(k_blocks, split_count(c, s, sm_count));
    const int64_t items = tile_count(c, s) * ranges.count;
    const int64_t waves = (items + sm_count - 1) / sm_count;
    const double tile = static_cast<double>(c.tile_m) * c.tile_n;
    const double split = ranges.count > 1 ? split_cost * tile * ranges.count : 0.0;
    return static_cast<double>(waves) * tile * static_cast<double>(ranges.blocks_per_range) / kThroughput[config] +
           split;
}

// The configuration of least estimated time (the first of equals; of those that apply block scales
// where the problem has them): it weighs larger tiles'
// throughput against the idle SMs of a partial last wave, and the rows and columns of a tile past
// the matrix (n = 128 takes 128 x 128, not 128 x 256).  Where m <= 64, tiles of 64 rows (64 x 256,
// 64 x 128 or 64 x 64); otherwise 128 x 256, 128 x 192, 128 x 128, 128 x 64, or 64 x 64 where those
// make a wave unsplit (128 x 4096 x 4096: 128 tiles, where 128 x 64 split K in two ran 16% slower
// with the weights cold in L2, an H100).  Against the autotuner's timings of every configuration on
// the suites' shapes (an H100; the autotuner reruns one problem, so its operands are warm in L2), the
// choice for m > 64 comes within 1% of the fastest on average and 13% at worst (2048 x 2048 x 128 in
// 32 batches: 128 x 256 against 64 x 256; 1000 x 1000 x 1000: 128 x 64 against 128 x 128); the
// earlier rule (the largest tile that nears a wave) lost up to 37% (4096 x 128 x 4096 in batches, an
// H200).  The choice for m <= 64 comes within 2.3% on the decode shapes (an H200) and 14% at worst
// (64 x 6144 x 4096: 64 x 128 against 64 x 64; 1 x 8192 x 8192: 64 x 128 against 64 x 256), where the
// earlier rule (64 x 256 where it nears a wave, else 64 x 64 for one wave, else 64 x 128) came within
// 8% and lost up to 24% (1 x 8192 x 28672: 64 x 64 against 64 x 256).
constexpr int choose_config(const Shape &s, int sm_count) {
    constexpr int kRows128[] = {kConfigWide, kConfigMedium, kConfigSquare, kConfigNarrow, kConfigSingle};
    constexpr int kRows64[] = {kConfigShortM, kConfigShortNarrow, kConfigSingle};
    const bool short_m = s.m <= 64;
    const double split_cost = short_m ? kShortSplitCost : kSplitCost;
    const auto least = [&](const auto &candidates) {
        int best = -1;
        for (int config : candidates) {
            if (s.block_scaled && !applies_block_scales(kTileConfigs[config])) continue;
            if (best < 0 || estimated_time(config, s, sm_count, split_cost) < estimated_time(best, s, sm_count, split_cost))
                best = config;
        }
        return best;
    };
    return short_m ? least(kRows64) : least(kRows128);
}

// f16 and bf16 A and B in any majors; f32 A and B as tf32 (when the caller allows it) and e4m3 or
// e5m2 A and B, K-major only: wgmma transposes 16-bit operands alone.
constexpr bool supports_types(int32_t type_ab, int32_t type_cd, bool tf32, bool a_k_major, bool b_k_major) {
    const bool cd = type_cd == kF32 || type_cd == kF16 || type_cd == kBF16;
    if (type_ab == kF16 || type_ab == kBF16) return cd;
    const bool k_major_type = (type_ab == kF32 && tf32) || is_eight_bit(type_ab);
    return k_major_type && a_k_major && b_k_major && cd;
}

}  // namespace asyncgemm::sm90
