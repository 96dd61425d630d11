// The Hopper GEMM family (ASYNCGEMM_ALGO_SM90_TMA_WGMMA): tile shapes, warp roles and registers, and
// the shared-memory plan.
//
// Plain C++17, no CUDA headers: the kernels and the planner (csrc/plan/sm90_*) share these numbers,
// and tests/unit/test_sm90_encoding.cpp checks them.
#pragma once

#include <stdint.h>

#include "kernels/common/host_device.h"
#include "kernels/common/params.h"
#include "kernels/common/kernel_list.h"
#include "kernels/common/smem_descriptor.h"

namespace asyncgemm::sm90 {

// A block is three warpgroups: one producer (TMA) and two consumers (wgmma).  The consumers split
// the tile_m x tile_n tile into consumers_m x consumers_n warpgroup tiles of 64 rows each; a 64 x 64
// tile is one warpgroup's, and the second consumer then idles (every kernel keeps one launch shape
// and register split).  K is walked in block_k-wide blocks (smem_descriptor.h) through a ring of
// `stages` shared buffers.  A consumer leaves `groups_in_flight` groups of wgmma (one K
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
    int groups_in_flight = 1;
};

// The operands' majors in a launch: a 16-bit kernel serves every pair, read from its parameters;
// tf32 operands are K-major.
struct OperandMajors {
    bool a_k, b_k;
};

// The formats of 8-bit operands in a launch (e5m2 where true, else e4m3): one kernel reads either for
// A and either for B, taken from its parameters.
struct Fp8Formats {
    bool a_e5m2, b_e5m2;
};

inline constexpr int kConsumers = 2;  // consumer warpgroups launched; consumers(c) of them multiply
inline constexpr int kWarpgroupThreads = 128;
inline constexpr int kThreads = (1 + kConsumers) * kWarpgroupThreads;
// setmaxnreg moves registers between the warpgroups of a block, within what the block was launched
// with: ptxas gives each thread of a kernel bounded to one block of kThreads the register file's share
// rounded down to 8 (168 of 65,536 / 384), and setmaxnreg.inc waits until the block's pool holds the
// registers it asks for.  Asking for more than the producer's setmaxnreg.dec released never returns:
// 32 and 240 (65,536 in all) hung every launch on an H100 (bench/RESULTS.md).
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
//  5: 64 x 64, one warpgroup, 13 stages: short m with the fewest columns per tile (64 x 4096 x 4096,
//     1 x 4096 x 4096), where the estimate (plan/sm90_heuristic.h) finds the most SMs streaming B,
//     and m of about 128 where its tiles make one unsplit wave (128 x 4096 x 4096).
//     One warpgroup is enough: these shapes are bound by reading memory, 4 x m64n64k16 (128 tensor
//     cycles) per 16 KB stage.
//  6: 128 x 192, two warpgroups of 64 x 192, 4 stages: where n is a multiple of 192 (6144, 4608) and
//     128 x 256 tiles leave a quarter of the SMs idle while 128 x 128 ones take two waves, a whole
//     wave of tiles three quarters as wide (512 x 6144: 128 tiles of 128 x 192, 96 of 128 x 256).
// Clusters of two blocks sharing B by TMA multicast measured at best on par with these on H100 and
// 5-8% slower at 4096^3 (bench/RESULTS.md), and are not built.
inline constexpr TileConfig kTileConfigs[] = {
    {128, 256, 2, 1, 4},      {128, 128, 2, 1, 6},      {64, 256, 1, 2, 4},
    {128, 64, 2, 1, 8, 3},    {64, 128, 1, 2, 8, 5},    {64, 64, 1, 1, 13},
    {128, 192, 2, 1, 4},
};
inline constexpr int kTileConfigCount = static_cast<int>(sizeof(kTileConfigs) / sizeof(kTileConfigs[0]));
inline constexpr int kConfigWide = 0;
inline constexpr int kConfigSquare = 1;
inline constexpr int kConfigShortM = 2;
inline constexpr int kConfigNarrow = 3;
inline constexpr int kConfigShortNarrow = 4;
inline constexpr int kConfigSingle = 5;
inline constexpr int kConfigMedium = 6;

ASYNCGEMM_HOST_DEVICE constexpr int consumers(const TileConfig &c) { return c.consumers_m * c.consumers_n; }

ASYNCGEMM_HOST_DEVICE constexpr int warpgroup_n(const TileConfig &c) { return c.tile_n / c.consumers_n; }

// Whether a configuration's 8-bit kernels apply block scales (kernels/sm90/block_scaled_mainloop.cuh):
// a warpgroup then holds each K block's products beside its accumulators (twice the registers: 64
// columns of 256 do not fit) and its columns lie in one 128-column block of B's scales.
ASYNCGEMM_HOST_DEVICE constexpr bool applies_block_scales(const TileConfig &c) {
    return warpgroup_n(c) <= 128 && 128 % warpgroup_n(c) == 0;
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

// Whether a kernel list's shape word names configuration `config`: tile_m x tile_n, stages
// (sm90_kernels.def).
constexpr bool shape_named(int config, const char *shape) {
    const TileConfig &c = kTileConfigs[config];
    return names_numbers(shape, {c.tile_m, c.tile_n, c.stages});
}

}  // namespace asyncgemm::sm90
