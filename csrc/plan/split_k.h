// The host side of deterministic split-K (kernels/common/split_k.cuh), shared by the families that
// split: how many K ranges a problem is cut into, how long each is, and the scratch they need.
#pragma once

#include <stdint.h>

#include "kernels/common/gemm_launch.h"
#include "kernels/common/params.h"

namespace asyncgemm::plan {

// A tile configuration of a family and how many ranges K is cut into (1: not split).
struct KernelChoice {
    int config;
    int splits;
};

// How a family cuts K: each range at least min_blocks_per_split of its K blocks (below that a
// range's loads cost less than the partials' round trip), at most max_splits ranges.
struct SplitRule {
    int min_blocks_per_split;
    int max_splits;
};

// The ranges that let `tiles` tiles fill `slots` blocks at once (slots / tiles of them), within the
// rule for K of `k_blocks` blocks; 1 where that leaves fewer than two.
constexpr int split_count(const SplitRule &rule, int64_t tiles, int64_t k_blocks, int64_t slots) {
    int64_t splits = tiles > 0 ? slots / tiles : 1;
    if (splits > k_blocks / rule.min_blocks_per_split) splits = k_blocks / rule.min_blocks_per_split;
    if (splits > rule.max_splits) splits = rule.max_splits;
    return splits < 2 ? 1 : static_cast<int>(splits);
}

// K blocks per range when k_blocks are cut into at most `splits` ranges, and how many ranges that
// makes (fewer where K is short: no range is empty).  k_blocks == 0 is one empty range.
struct SplitRanges {
    int count;
    int64_t blocks_per_range;
};
constexpr SplitRanges split_ranges(int64_t k_blocks, int splits) {
    if (k_blocks == 0 || splits <= 1) return {1, k_blocks};
    const int64_t per = (k_blocks + splits - 1) / splits;
    return {static_cast<int>((k_blocks + per - 1) / per), per};
}

// Scratch of a split launch: one int32 counter per tile and group of threads that reduces (a block,
// or each consumer warpgroup), and one fp32 partial tile per tile and range.
struct WorkspaceNeed {
    int64_t counters;
    int64_t partial_bytes;
};
constexpr WorkspaceNeed split_workspace(int64_t tiles, int splits, int tile_m, int tile_n, int groups_per_tile) {
    return {tiles * groups_per_tile, tiles * splits * tile_m * tile_n * static_cast<int64_t>(sizeof(float))};
}

// What the families whose kernels take GemmParams (SIMT, the sm80 family) set alike once the kernel
// and its tiles are known: p's tile grid, raster group and K's `slices` cut into at most `splits`
// ranges (fewer where K is short; one for batches and alpha = 0, which never split; partials and
// tile counters null: the caller sets them for a split launch), and the grid: a block per tile
// along x, per range along y, per batch along z (batches past kMaxGridZ are looped inside the
// kernel).
inline GemmLaunch tiled_launch(GemmParams &p, int kernel, int64_t tiles_m, int64_t tiles_n, int64_t slices, int splits,
                               int32_t raster_group, uint32_t threads, uint32_t dynamic_smem) {
    const bool can_split = p.batch_count == 1 && p.alpha != 0.f;
    const SplitRanges ranges = split_ranges(slices, can_split ? splits : 1);
    p.tiles_m = static_cast<int32_t>(tiles_m);
    p.tiles_n = static_cast<int32_t>(tiles_n);
    p.raster_group = raster_group;
    p.splits = ranges.count;
    p.slices_per_split = static_cast<int32_t>(ranges.blocks_per_range);
    p.partials = nullptr;
    p.tile_counters = nullptr;
    GemmLaunch launch{kernel, static_cast<uint32_t>(tiles_m * tiles_n),
                      static_cast<uint32_t>(p.batch_count < kMaxGridZ ? p.batch_count : kMaxGridZ), threads,
                      dynamic_smem};
    launch.grid_y = static_cast<uint32_t>(ranges.count);
    return launch;
}

}  // namespace asyncgemm::plan
