// The tensor-core GEMM family with asynchronous copies (ASYNCGEMM_ALGO_ASYNC_COPY and
// ASYNCGEMM_ALGO_PIPELINED): tile shapes, shared-memory layout and which thread copies which chunk.
//
// Plain C++17, no CUDA headers: the kernels and the planner (csrc/plan/sm80_*) share these numbers,
// and tests/unit/test_sm80_config.cpp checks the arithmetic.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "kernels/common/host_device.h"
#include "kernels/common/kernel_list.h"
#include "kernels/common/params.h"
#include "kernels/common/swizzle.h"

namespace asyncgemm::sm80 {

// ---- tile configuration ----------------------------------------------------------------------

// A block computes a tile_m x tile_n tile of D with warps_m x warps_n warps, each owning a
// (tile_m / warps_m) x (tile_n / warps_n) warp tile of mma.sync accumulators.  K is walked in slices
// of tile_k 16-bit elements (tile_k * 2 bytes; an f32 slice holds half as many elements) through
// `stages` shared buffers per operand: 1 is ALGO_ASYNC_COPY (copy, wait, compute), 2 or more is
// ALGO_PIPELINED (stages - 1 slices in flight while one is multiplied).
struct TileConfig {
    int tile_m, tile_n, tile_k;
    int warps_m, warps_n;
    int stages;
    int min_blocks_per_sm;  // to __launch_bounds__
};

// tile_k = 64 makes every shared row, K-major (64 k) or MN-major (64 to 256 x), a multiple of 128
// bytes, so one swizzle (swizzle.h) serves all four majors, and halves the barriers per MMA against
// tile_k = 32.  Configurations 0, 1, 2, 4 and 6 stay within 96 KB, so the family loads on the 99 KB
// SMs of sm_86/89/120 too; the others need more and are used where the device has it (kernel_fits).
//
// What a warp tile costs: per k16 step a 64 x 32 warp tile issues 6 ldmatrix.x4 for 16 MMAs and a
// 64 x 64 one 8 for 32.  Shared memory delivers 128 bytes a clock per SM, so at 64 x 32 the
// ldmatrix traffic alone takes as long as the MMAs at the mma.sync peak; 64 x 64 leaves it a third
// of the time.  Its 128 fp32 accumulators and two steps of fragments take the whole register file
// of one 256-thread block per SM (or of two 128-thread blocks of 128 x 128).
//  0: 128 x 128, 8 warps of 64 x 32, 3 stages  - PIPELINED on 99 KB devices
//  1: 128 x 64,  8 warps of 32 x 32, 4 stages  - PIPELINED, problems with fewer big tiles than SMs
//  2: 128 x 128, 8 warps of 64 x 32, 1 stage   - ASYNC_COPY, the unpipelined baseline; two blocks
//     per SM (128 registers), so one block's copies land while the other multiplies: 1.5x faster at
//     4096^3 than one block of up to 192 registers, on par where K is split (H100).
//  3: 128 x 256, 8 warps of 64 x 64, 3 stages  - PIPELINED, a wave of tiles or more (144 KB)
//  4: 64 x 128,  4 warps of 64 x 32, 2 stages  - short m (m <= 64): half the wasted rows of 128
//  5: 128 x 128, 8 warps of 64 x 32, 5 stages  - 0 with a deeper pipeline (160 KB)
//  6: 128 x 128, 4 warps of 64 x 64, 3 stages  - two blocks per SM (2 x 96 KB): one block's MMAs
//     run through the other's barriers
//  7: 64 x 64,   8 warps of 32 x 16, 2 stages  - tiny problems (100^3): a few tiles, each spread over
//     8 warps, so a warp's copies, MMAs and stores are a third fewer than on 128 x 64
// 128 x 256 with 4 stages (192 KB) was dropped: the autotuner never preferred it to 3 on H100,
// and ptxas spilled in one of its kernels.  The autotune cache stores the indices; a change to the
// table changes its fingerprint (below), which retires every cached winner.
inline constexpr TileConfig kTileConfigs[] = {
    {128, 128, 64, 2, 4, 3, 1}, {128, 64, 64, 4, 2, 4, 2},  {128, 128, 64, 2, 4, 1, 2}, {128, 256, 64, 2, 4, 3, 1},
    {64, 128, 64, 1, 4, 2, 2},  {128, 128, 64, 2, 4, 5, 1}, {128, 128, 64, 2, 2, 3, 2}, {64, 64, 64, 2, 4, 2, 2},
};
inline constexpr int kTileConfigCount = static_cast<int>(sizeof(kTileConfigs) / sizeof(kTileConfigs[0]));
inline constexpr int kConfigPipelinedLarge = 0;
inline constexpr int kConfigPipelinedSmall = 1;
inline constexpr int kConfigAsyncCopy = 2;
inline constexpr int kConfigWide = 3;
inline constexpr int kConfigShortM = 4;
inline constexpr int kConfigLargeDeep = 5;
inline constexpr int kConfigPaired = 6;
inline constexpr int kConfigTiny = 7;

inline constexpr int kWarpSize = 32;
inline constexpr int kElementBytes = 2;  // f16 and bf16, the unit of tile_k and of the layout below
inline constexpr int kChunkElements = kSwizzleChunkBytes / kElementBytes;  // 8 per 16-byte chunk
// An MMA step is 32 bytes of K: m16n8k16 of f16/bf16, or m16n8k8 of tf32 (f32 A and B in TF32 mode).
// Both read the same bytes of a K-major tile through the same ldmatrix (warp_tile.cuh), so a tf32
// kernel is the 16-bit one with half the elements per slice; MN-major f32 would need ldmatrix.trans
// of 32-bit elements, which does not exist, so tf32 takes K-major A and B only.
inline constexpr int kMmaM = 16, kMmaN = 8, kMmaK = 16;

ASYNCGEMM_HOST_DEVICE constexpr int element_bytes(int32_t type_ab) { return type_ab == kF32 ? 4 : 2; }
// Elements of K per slice for A and B of type_ab.
ASYNCGEMM_HOST_DEVICE constexpr int slice_elements(const TileConfig &c, int32_t type_ab) {
    return c.tile_k * kElementBytes / element_bytes(type_ab);
}

ASYNCGEMM_HOST_DEVICE constexpr int threads(const TileConfig &c) { return c.warps_m * c.warps_n * kWarpSize; }
ASYNCGEMM_HOST_DEVICE constexpr int warp_tile_m(const TileConfig &c) { return c.tile_m / c.warps_m; }
ASYNCGEMM_HOST_DEVICE constexpr int warp_tile_n(const TileConfig &c) { return c.tile_n / c.warps_n; }
// mma tiles of a warp tile: m16 rows of A fragments, n8 columns of B fragments.
ASYNCGEMM_HOST_DEVICE constexpr int mma_tiles_m(const TileConfig &c) { return warp_tile_m(c) / kMmaM; }
ASYNCGEMM_HOST_DEVICE constexpr int mma_tiles_n(const TileConfig &c) { return warp_tile_n(c) / kMmaN; }

// float4s of each split range's partial the split-K reduction (kernels/common/split_k.cuh) loads at
// once, one round trip to L2 per range and batch: as many of the thread's accumulator vectors as the
// registers beside them hold, 48 kept for addresses, counters and loop state (what ptxas needed
// unspilled for every configuration and architecture).  Four for every configuration made a split
// 128 x 64 tile at 256 x 1024 x 8192 1.6x slower than the sum staged row by row before it (H200).
ASYNCGEMM_HOST_DEVICE constexpr int split_load_batch(const TileConfig &c) {
    const int per_thread = 65536 / (threads(c) * c.min_blocks_per_sm);
    const int registers = per_thread < 255 ? per_thread : 255;
    const int vectors = mma_tiles_m(c) * mma_tiles_n(c);
    int batch = vectors;
    while (batch > 1 && 4 * (vectors + batch) + 48 > registers) batch /= 2;
    return batch;
}

// ---- shared-memory layout --------------------------------------------------------------------
//
// Each operand tile (tile_x x tile_k, x = m for A, n for B) is stored as it lies in global memory, so
// a 16-byte cp.async moves 8 contiguous elements without transposing: K-major as tile_x rows of
// tile_k, MN-major as tile_k rows of tile_x.  ldmatrix reads a K-major tile directly and an MN-major
// one with .trans.  Chunks are swizzled (swizzle.h), which needs rows of whole 128-byte spans.
struct OperandLayout {
    int rows, row_chunks;
};
ASYNCGEMM_HOST_DEVICE constexpr OperandLayout operand_layout(int tile_x, int tile_k, bool k_major) {
    return k_major ? OperandLayout{tile_x, tile_k / kChunkElements} : OperandLayout{tile_k, tile_x / kChunkElements};
}
ASYNCGEMM_HOST_DEVICE constexpr int operand_bytes(const TileConfig &c, int tile_x) {
    return tile_x * c.tile_k * kElementBytes;
}
// One stage: A's tile, then B's.
ASYNCGEMM_HOST_DEVICE constexpr int stage_bytes(const TileConfig &c) {
    return operand_bytes(c, c.tile_m) + operand_bytes(c, c.tile_n);
}
constexpr uint32_t smem_bytes(const TileConfig &c) {
    return static_cast<uint32_t>(c.stages) * static_cast<uint32_t>(stage_bytes(c));
}

// ---- global -> shared copies ----------------------------------------------------------------
//
// Chunk i of an operand tile (row i / row_chunks, chunk i % row_chunks) is copied by thread
// i % threads, so consecutive threads read consecutive 16 bytes of a row: whole 128-byte lines.
ASYNCGEMM_HOST_DEVICE constexpr int copy_chunks(const TileConfig &c, int tile_x) {
    return tile_x * c.tile_k / kChunkElements;
}
ASYNCGEMM_HOST_DEVICE constexpr int copy_chunks_per_thread(const TileConfig &c, int tile_x) {
    return copy_chunks(c, tile_x) / threads(c);
}

// Everything the kernels assume; a new configuration that breaks one fails to compile.
constexpr bool is_valid(const TileConfig &c) {
    const bool warps = c.tile_m % (c.warps_m * kMmaM) == 0 && c.tile_n % (c.warps_n * 2 * kMmaN) == 0;
    const bool swizzle = c.tile_k % (kSwizzleRows * kChunkElements) == 0 && c.tile_m % (kSwizzleRows * kChunkElements) == 0 &&
                         c.tile_n % (kSwizzleRows * kChunkElements) == 0 && c.tile_k % kMmaK == 0;
    // operand_copy.cuh: each thread's chunks lie whole numbers of swizzle periods of rows apart.
    const auto rows_apart = [&](int tile_x, bool k_major) {
        return threads(c) % operand_layout(tile_x, c.tile_k, k_major).row_chunks == 0 &&
               threads(c) / operand_layout(tile_x, c.tile_k, k_major).row_chunks % kSwizzleRows == 0;
    };
    const bool copies = copy_chunks(c, c.tile_m) % threads(c) == 0 && copy_chunks(c, c.tile_n) % threads(c) == 0 &&
                        rows_apart(c.tile_m, true) && rows_apart(c.tile_m, false) && rows_apart(c.tile_n, true) &&
                        rows_apart(c.tile_n, false);
    return warps && swizzle && copies && c.stages >= 1 && c.stages <= 5;
}
constexpr bool all_valid() {
    for (const TileConfig &c : kTileConfigs) {
        if (!is_valid(c)) return false;
    }
    return true;
}
static_assert(all_valid(), "a TileConfig breaks an assumption of the sm80 kernels");

// Whether a kernel list's shape word names configuration `config`: tile_m x tile_n x tile_k, stages,
// and the warps where two configurations differ in warps alone (sm80_kernels.def).
constexpr bool shape_named(int config, const char *shape) {
    const TileConfig &c = kTileConfigs[config];
    return names_numbers(shape, {c.tile_m, c.tile_n, c.tile_k, c.stages}) ||
           names_numbers(shape, {c.tile_m, c.tile_n, c.tile_k, c.stages, c.warps_m * c.warps_n});
}

}  // namespace asyncgemm::sm80
