// The Hopper GEMM family (ASYNCGEMM_ALGO_SM90_TMA_WGMMA): tile shapes, shared-memory plan, the
// persistent tile order, the table of kernels and the heuristic that picks one.
//
// Plain C++17, no CUDA headers: the planner and the kernels share these numbers, and
// tests/unit/test_sm90_encoding.cpp checks them.
#pragma once

#include <stdint.h>

#include "kernels/common/fingerprint.h"
#include "kernels/common/host_device.h"
#include "kernels/common/params.h"
#include "kernels/common/raster.h"
#include "kernels/common/smem_descriptor.h"

namespace asyncgemm::sm90 {

// A block is three warpgroups: one producer (TMA) and two consumers (wgmma).  The consumers split
// the tile_m x tile_n tile into consumers_m x consumers_n warpgroup tiles of 64 rows each; a 64 x 64
// tile is one warpgroup's, and the second consumer then idles (every kernel keeps one launch shape
// and register split).  K is walked in block_k-wide blocks (smem_descriptor.h) through a ring of
// `stages` shared buffers.  With cluster_m == 2 the blocks run in clusters of two on vertically
// adjacent tiles, which share their tile of B: each block loads half of it (half the rows of a
// K-major B, half the K rows of each box of an MN-major one) and TMA multicasts that half into both,
// so B is read from L2 once per pair.  A consumer leaves `groups_in_flight` groups of wgmma (one K
// block each) running when it waits (wgmma.wait_group): one is enough where a group is long (64 x 256: 512
// tensor cycles per warpgroup), the short groups of 64 x 64 warpgroup tiles need more queued behind
// them to cover the loop's own latency; each held group keeps its stage from the producer, which
// costs more than it hides where the loop waits for memory anyway.  The depths are measured (H100,
// RESULTS): 128 x 64 unsplit at 1024 x 1024 x 14336 runs 7% faster with 3 than with 1 and slower with
// 5; 64 x 128 at 16 x 8192 x 8192 2% faster with 5; 128 x 128 is slower with 2 or 3 than with 1; the
// lone 64 x 64 warpgroup 1-2% faster with 1 than with 3 at 128 x 4096 x 4096 and 16 x 8192 x 8192.
struct TileConfig {
    int tile_m, tile_n;
    int consumers_m, consumers_n;
    int stages;
    int cluster_m = 1;
    int groups_in_flight = 1;
};

inline constexpr int kConsumers = 2;  // consumer warpgroups launched; consumers(c) of them multiply
inline constexpr int kWarpgroupThreads = 128;
inline constexpr int kThreads = (1 + kConsumers) * kWarpgroupThreads;
// setmaxnreg moves registers between the warpgroups of a block, within what the block was launched
// with: ptxas gives each thread of a kernel bounded to one block of kThreads the register file's share
// rounded down to 8 (168 of 65,536 / 384), and setmaxnreg.inc waits until the block's pool holds the
// registers it asks for.  Asking for more than the producer's setmaxnreg.dec released never returns:
// 32 and 240 (65,536 in all) hung every launch on an H100 (bench/RESULTS.md, thirty-first session).
inline constexpr int kLaunchRegisters = 65536 / kThreads / 8 * 8;
inline constexpr int kProducerRegisters = 40;
inline constexpr int kConsumerRegisters = 232;
static_assert(kProducerRegisters * kWarpgroupThreads + kConsumers * kConsumerRegisters * kWarpgroupThreads <=
                  kLaunchRegisters * kThreads,
              "setmaxnreg.inc would wait forever for registers the block does not have");

//  0: 128 x 256, two warpgroups of 64 x 256, 4 stages: the most MMA per byte of shared memory read
//  1: 128 x 128, two warpgroups of 64 x 128, 6 stages: twice the tiles, for grids short of a wave
//  2: 64 x 256, two warpgroups of 64 x 128 side by side, 4 stages: short m (m <= 64)
//  3: 128 x 64, two warpgroups of 64 x 64, 8 stages: four times the tiles of 0, so problems with few
//     tiles (1024 x 1024) fill the SMs without splitting K
//  4: 64 x 128, two warpgroups of 64 x 64 side by side, 8 stages: short m with few tiles
//  5: 0 in clusters of two blocks sharing B by multicast: half the L2 reads of B
//  6: 64 x 64, one warpgroup, 13 stages: m <= 128 where 64 x 64 tiles make one wave (16 x 8192,
//     128 x 4096), so K need not be split.  One warpgroup is enough: these shapes are bound by
//     reading memory, 4 x m64n64k16 (128 tensor cycles) per 16 KB stage.  The same tiles in clusters
//     of two measured 10% slower on H100 than alone sharing B, and slower still sharing A (RESULTS)
inline constexpr TileConfig kTileConfigs[] = {
    {128, 256, 2, 1, 4},     {128, 128, 2, 1, 6},        {64, 256, 1, 2, 4},
    {128, 64, 2, 1, 8, 1, 3}, {64, 128, 1, 2, 8, 1, 5}, {128, 256, 2, 1, 4, 2},
    {64, 64, 1, 1, 13},
};
inline constexpr int kTileConfigCount = static_cast<int>(sizeof(kTileConfigs) / sizeof(kTileConfigs[0]));
inline constexpr int kConfigWide = 0;
inline constexpr int kConfigSquare = 1;
inline constexpr int kConfigShortM = 2;
inline constexpr int kConfigNarrow = 3;
inline constexpr int kConfigShortNarrow = 4;
inline constexpr int kConfigWidePair = 5;
inline constexpr int kConfigSingle = 6;

ASYNCGEMM_HOST_DEVICE constexpr int consumers(const TileConfig &c) { return c.consumers_m * c.consumers_n; }

// Each block of a cluster loads its share of the pair's B: of a K-major B, b_rows_per_block rows (N)
// of one 128-byte row of K; of an MN-major B, b_k_rows_per_block rows (K) of every 64-column box
// (the TMA map's box, sm90_plan.cpp).
ASYNCGEMM_HOST_DEVICE constexpr int b_rows_per_block(const TileConfig &c) { return c.tile_n / c.cluster_m; }
ASYNCGEMM_HOST_DEVICE constexpr int b_k_rows_per_block(const TileConfig &c) {
    return row_elements(2) / c.cluster_m;  // MN-major operands are 16-bit
}
// A share starts on a swizzle atom (8 rows), so each block's part lands swizzled as the whole would.
constexpr bool shares_whole_atoms() {
    for (const TileConfig &c : kTileConfigs)
        if (b_rows_per_block(c) % 8 != 0 || b_k_rows_per_block(c) % 8 != 0) return false;
    return true;
}
static_assert(shares_whole_atoms(), "every block's share of B must be whole swizzle atoms");
// Tile rows rounded up to whole clusters: a pair's second tile may lie past m (TMA reads zeros there
// and stores nothing).
ASYNCGEMM_HOST_DEVICE constexpr int64_t cluster_tiles_m(const TileConfig &c, int64_t tiles_m) {
    return (tiles_m + c.cluster_m - 1) / c.cluster_m * c.cluster_m;
}

ASYNCGEMM_HOST_DEVICE constexpr int warpgroup_n(const TileConfig &c) { return c.tile_n / c.consumers_n; }

// FNV-1a over every number of the table (for the autotune cache, plan/autotune_cache.h).
constexpr uint64_t table_fingerprint() {
    uint64_t hash = kFnvOffset;
    for (const TileConfig &c : kTileConfigs)
        hash = fnv1a(hash,
                     {c.tile_m, c.tile_n, c.consumers_m, c.consumers_n, c.stages, c.cluster_m, c.groups_in_flight});
    return hash;
}

// ---- shared memory ---------------------------------------------------------------------------

// Every buffer starts on a 1024-byte boundary (the 128-byte swizzle's atom).
inline constexpr uint32_t kSmemAlign = 1024;
// The epilogue stages D (and C) through shared memory in chunks of 64 rows x 128 bytes, two per
// consumer, so one chunk's TMA store runs while the next is written.
inline constexpr uint32_t kEpilogueChunkRows = 64;
inline constexpr uint32_t kEpilogueChunkBytes = kEpilogueChunkRows * kRowBytes;
inline constexpr int kEpilogueBuffers = 2;

ASYNCGEMM_HOST_DEVICE constexpr uint32_t a_stage_bytes(const TileConfig &c) {
    return static_cast<uint32_t>(c.tile_m) * kRowBytes;
}
ASYNCGEMM_HOST_DEVICE constexpr uint32_t b_stage_bytes(const TileConfig &c) {
    return static_cast<uint32_t>(c.tile_n) * kRowBytes;
}
ASYNCGEMM_HOST_DEVICE constexpr uint32_t stage_bytes(const TileConfig &c) { return a_stage_bytes(c) + b_stage_bytes(c); }
ASYNCGEMM_HOST_DEVICE constexpr uint32_t epilogue_bytes(const TileConfig &c) {
    return static_cast<uint32_t>(consumers(c)) * kEpilogueBuffers * kEpilogueChunkBytes;
}
// Dynamic shared memory at launch: the ring, the epilogue buffers, and slack to align the start.
ASYNCGEMM_HOST_DEVICE constexpr uint32_t smem_bytes(const TileConfig &c) {
    return static_cast<uint32_t>(c.stages) * stage_bytes(c) + epilogue_bytes(c) + kSmemAlign;
}

// Columns of D per epilogue chunk: one 128-byte row of the output type.
ASYNCGEMM_HOST_DEVICE constexpr int chunk_columns(int32_t type_cd) { return type_cd == kF32 ? 32 : 64; }

// ---- kernels ---------------------------------------------------------------------------------

struct KernelInfo {
    const char *name;       // extern "C" symbol in the sm90 fatbin
    DType type_ab;          // f16, bf16, or f32 multiplied as tf32
    int config;             // index into kTileConfigs
    uint32_t dynamic_smem;  // bytes
};

constexpr KernelInfo kernel_info(const char *name, DType type_ab, int config) {
    return {name, type_ab, config, smem_bytes(kTileConfigs[config])};
}

inline constexpr KernelInfo kKernels[] = {
    kernel_info("asyncgemm_sm90_gemm_f16_128x256_s4", kF16, kConfigWide),
    kernel_info("asyncgemm_sm90_gemm_f16_128x128_s6", kF16, kConfigSquare),
    kernel_info("asyncgemm_sm90_gemm_f16_64x256_s4", kF16, kConfigShortM),
    kernel_info("asyncgemm_sm90_gemm_f16_128x64_s8", kF16, kConfigNarrow),
    kernel_info("asyncgemm_sm90_gemm_f16_64x128_s8", kF16, kConfigShortNarrow),
    kernel_info("asyncgemm_sm90_gemm_f16_128x256_s4_c2", kF16, kConfigWidePair),
    kernel_info("asyncgemm_sm90_gemm_bf16_128x256_s4", kBF16, kConfigWide),
    kernel_info("asyncgemm_sm90_gemm_bf16_128x128_s6", kBF16, kConfigSquare),
    kernel_info("asyncgemm_sm90_gemm_bf16_64x256_s4", kBF16, kConfigShortM),
    kernel_info("asyncgemm_sm90_gemm_bf16_128x64_s8", kBF16, kConfigNarrow),
    kernel_info("asyncgemm_sm90_gemm_bf16_64x128_s8", kBF16, kConfigShortNarrow),
    kernel_info("asyncgemm_sm90_gemm_bf16_128x256_s4_c2", kBF16, kConfigWidePair),
    kernel_info("asyncgemm_sm90_gemm_tf32_128x256_s4", kF32, kConfigWide),
    kernel_info("asyncgemm_sm90_gemm_tf32_128x128_s6", kF32, kConfigSquare),
    kernel_info("asyncgemm_sm90_gemm_tf32_64x256_s4", kF32, kConfigShortM),
    kernel_info("asyncgemm_sm90_gemm_tf32_128x64_s8", kF32, kConfigNarrow),
    kernel_info("asyncgemm_sm90_gemm_tf32_64x128_s8", kF32, kConfigShortNarrow),
    kernel_info("asyncgemm_sm90_gemm_f16_64x64_s13", kF16, kConfigSingle),
    kernel_info("asyncgemm_sm90_gemm_bf16_64x64_s13", kBF16, kConfigSingle),
    kernel_info("asyncgemm_sm90_gemm_tf32_64x64_s13", kF32, kConfigSingle),
};
inline constexpr int kKernelCount = static_cast<int>(sizeof(kKernels) / sizeof(kKernels[0]));

constexpr int kernel_index(int32_t type_ab, int config) {
    for (int i = 0; i < kKernelCount; ++i)
        if (kKernels[i].type_ab == type_ab && kKernels[i].config == config) return i;
    return -1;
}

// f16 and bf16 A and B in any majors; f32 A and B as tf32 (when the caller allows it), K-major only:
// wgmma transposes 16-bit operands alone.
constexpr bool supports_types(int32_t type_ab, int32_t type_cd, bool tf32, bool a_k_major, bool b_k_major) {
    const bool cd = type_cd == kF32 || type_cd == kF16 || type_cd == kBF16;
    if (type_ab == kF16 || type_ab == kBF16) return cd;
    return type_ab == kF32 && tf32 && a_k_major && b_k_major && cd;
}

// ---- choosing a kernel -----------------------------------------------------------------------

struct Shape {
    int64_t m, n, k, batch_count;
};

constexpr int64_t tile_count(const TileConfig &c, const Shape &s) {
    return ((s.m + c.tile_m - 1) / c.tile_m) * ((s.n + c.tile_n - 1) / c.tile_n) * s.batch_count;
}

// ---- split-K -----------------------------------------------------------------------------------

inline constexpr int kMaxSplits = 16;
// Below this many K blocks a range's loads cost less than the partials' round trip and the wait for
// the last range (measured on H100: 16 x 8192 x 2048 runs 5% faster unsplit than split in two ranges
// of 16 blocks, 128 x 4096 x 2048 3%; 128 x 4096 x 4096 2% slower unsplit than in two of 32).
inline constexpr int kMinBlocksPerSplit = 24;

// How many ranges to cut K into: where the tiles fill no more than half the SMs, enough work items
// (tile, range) to fill them, each range at least kMinBlocksPerSplit blocks long.  Batched problems
// never split.
constexpr int split_count(const TileConfig &c, const Shape &s, int sm_count) {
    const int64_t tiles = tile_count(c, s);
    if (s.batch_count != 1 || tiles * 2 > sm_count) return 1;
    int64_t splits = sm_count / tiles;
    const int64_t longest = k_block_count(s.k, kF16) / kMinBlocksPerSplit;
    if (splits > longest) splits = longest;
    if (splits > kMaxSplits) splits = kMaxSplits;
    return splits < 1 ? 1 : static_cast<int>(splits);
}

// K blocks per range for `splits` ranges, and the ranges that then remain (none may be empty).
constexpr int blocks_per_split(int64_t k_blocks, int splits) {
    return static_cast<int>((k_blocks + splits - 1) / splits);
}
constexpr int effective_splits(int64_t k_blocks, int splits) {
    if (k_blocks == 0) return 1;
    const int per = blocks_per_split(k_blocks, splits);
    return static_cast<int>((k_blocks + per - 1) / per);
}

// Split-K scratch: one counter per tile and consumer, one fp32 tile per range.
struct WorkspaceNeed {
    int64_t counters;
    int64_t partial_bytes;
};
constexpr WorkspaceNeed workspace_need(const TileConfig &c, int64_t tiles, int splits) {
    return {tiles * consumers(c), tiles * splits * c.tile_m * c.tile_n * static_cast<int64_t>(sizeof(float))};
}

// A configuration and how many ranges K is cut into.
struct Choice {
    int config;
    int splits;
};

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

}  // namespace asyncgemm::sm90
