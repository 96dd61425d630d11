// The tensor-core GEMM family with asynchronous copies (ASYNCGEMM_ALGO_ASYNC_COPY and
// ASYNCGEMM_ALGO_PIPELINED): tile shapes, shared-memory layout, which thread copies which chunk,
// and the table of kernels with the heuristic that picks one and its launch geometry.
//
// Plain C++17, no CUDA headers: the host planner includes it to pick and launch a kernel, the kernels
// include it for the same numbers, and tests/unit/test_sm80_config.cpp checks the arithmetic.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "kernels/common/fingerprint.h"
#include "kernels/common/gemm_launch.h"
#include "kernels/common/host_device.h"
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
//  2: 128 x 128, 8 warps of 64 x 32, 1 stage   - ASYNC_COPY, the unpipelined baseline
//  3: 128 x 256, 8 warps of 64 x 64, 3 stages  - PIPELINED, a wave of tiles or more (144 KB)
//  4: 64 x 128,  4 warps of 64 x 32, 2 stages  - short m (m <= 64): half the wasted rows of 128
//  5: 128 x 128, 8 warps of 64 x 32, 5 stages  - 0 with a deeper pipeline (160 KB)
//  6: 128 x 128, 4 warps of 64 x 64, 3 stages  - two blocks per SM (2 x 96 KB): one block's MMAs
//     run through the other's barriers
// 128 x 256 with 4 stages (192 KB) was dropped: the autotuner never preferred it to 3 on H100,
// and ptxas spilled in one of its kernels.  The autotune cache stores the indices; a change to the
// table changes its fingerprint (below), which retires every cached winner.
inline constexpr TileConfig kTileConfigs[] = {
    {128, 128, 64, 2, 4, 3, 1}, {128, 64, 64, 4, 2, 4, 2},  {128, 128, 64, 2, 4, 1, 1}, {128, 256, 64, 2, 4, 3, 1},
    {64, 128, 64, 1, 4, 2, 2},  {128, 128, 64, 2, 4, 5, 1}, {128, 128, 64, 2, 2, 3, 2},
};
inline constexpr int kTileConfigCount = static_cast<int>(sizeof(kTileConfigs) / sizeof(kTileConfigs[0]));
inline constexpr int kConfigPipelinedLarge = 0;
inline constexpr int kConfigPipelinedSmall = 1;
inline constexpr int kConfigAsyncCopy = 2;
inline constexpr int kConfigWide = 3;
inline constexpr int kConfigShortM = 4;
inline constexpr int kConfigLargeDeep = 5;
inline constexpr int kConfigPaired = 6;

// FNV-1a over every number of the table: the autotune cache names it in its header, so that winners
// tuned for another table are not trusted.
constexpr uint64_t table_fingerprint() {
    uint64_t hash = kFnvOffset;
    for (const TileConfig &c : kTileConfigs)
        hash = fnv1a(hash, {c.tile_m, c.tile_n, c.tile_k, c.warps_m, c.warps_n, c.stages, c.min_blocks_per_sm});
    return hash;
}

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

// ---- the kernels -----------------------------------------------------------------------------
//
// The operands' majors are compiled into a kernel (ldmatrix or ldmatrix.trans, the copies' shape and
// the fragment addresses all follow from them), so each input type and configuration has four
// kernels, one per major combination.  One kernel serving all four, branching over them, spilled
// where the four separate kernels do not (bench/RESULTS.md, 2026-11-25).
struct KernelInfo {
    const char *name;              // extern "C" symbol in the sm80 fatbin
    DType type_ab;                 // A and B element type (C and D: any type, chosen at run time)
    int config;                    // index into kTileConfigs
    bool a_k_major, b_k_major;     // the majors of A and B it reads
    uint32_t dynamic_smem;         // bytes of dynamic shared memory at launch
};

constexpr KernelInfo kernel_info(const char *name, DType type_ab, int config, bool a_k_major, bool b_k_major) {
    return {name, type_ab, config, a_k_major, b_k_major, smem_bytes(kTileConfigs[config])};
}

// Names: asyncgemm_sm80_gemm_<type_ab>_<tile_m>x<tile_n>x<tile_k>_s<stages>[_w<warps> where two
// configurations differ in warps only]_<majors>, majors as in the SIMT family: k for a K-major
// operand, m (A) or n (B) for an MN-major one.  tile_k counts 16-bit elements for tf32 too (the same
// bytes).  tf32 has K-major kernels only (ldmatrix.trans has no 32-bit form), and none with 64 x 64
// warp tiles (configurations 3 and 6): ptxas spilled 8 bytes in each (sm_90, sm_120).  sm80_gemm.cu
// checks at compile time that each of its kernels matches its entry here.
#define ASYNCGEMM_SM80_KERNEL_INFOS(NAME, TYPE, CONFIG)                                             \
    kernel_info(NAME "_kk", TYPE, CONFIG, true, true), kernel_info(NAME "_kn", TYPE, CONFIG, true, false), \
        kernel_info(NAME "_mk", TYPE, CONFIG, false, true), kernel_info(NAME "_mn", TYPE, CONFIG, false, false)
inline constexpr KernelInfo kKernels[] = {
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_f16_128x128x64_s3", kF16, kConfigPipelinedLarge),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_f16_128x64x64_s4", kF16, kConfigPipelinedSmall),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_f16_128x128x64_s1", kF16, kConfigAsyncCopy),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_f16_128x256x64_s3", kF16, kConfigWide),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_f16_64x128x64_s2", kF16, kConfigShortM),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_f16_128x128x64_s5", kF16, kConfigLargeDeep),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_f16_128x128x64_s3_w4", kF16, kConfigPaired),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_bf16_128x128x64_s3", kBF16, kConfigPipelinedLarge),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_bf16_128x64x64_s4", kBF16, kConfigPipelinedSmall),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_bf16_128x128x64_s1", kBF16, kConfigAsyncCopy),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_bf16_128x256x64_s3", kBF16, kConfigWide),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_bf16_64x128x64_s2", kBF16, kConfigShortM),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_bf16_128x128x64_s5", kBF16, kConfigLargeDeep),
    ASYNCGEMM_SM80_KERNEL_INFOS("asyncgemm_sm80_gemm_bf16_128x128x64_s3_w4", kBF16, kConfigPaired),
    kernel_info("asyncgemm_sm80_gemm_tf32_128x128x64_s3_kk", kF32, kConfigPipelinedLarge, true, true),
    kernel_info("asyncgemm_sm80_gemm_tf32_128x64x64_s4_kk", kF32, kConfigPipelinedSmall, true, true),
    kernel_info("asyncgemm_sm80_gemm_tf32_128x128x64_s1_kk", kF32, kConfigAsyncCopy, true, true),
    kernel_info("asyncgemm_sm80_gemm_tf32_64x128x64_s2_kk", kF32, kConfigShortM, true, true),
    kernel_info("asyncgemm_sm80_gemm_tf32_128x128x64_s5_kk", kF32, kConfigLargeDeep, true, true),
};
#undef ASYNCGEMM_SM80_KERNEL_INFOS
inline constexpr int kKernelCount = static_cast<int>(sizeof(kKernels) / sizeof(kKernels[0]));

// Index into kKernels of the kernel for these inputs and majors, -1 if there is none.
constexpr int kernel_index(int32_t type_ab, int config, bool a_k_major, bool b_k_major) {
    for (int i = 0; i < kKernelCount; ++i) {
        const KernelInfo &k = kKernels[i];
        if (k.type_ab == type_ab && k.config == config && k.a_k_major == a_k_major && k.b_k_major == b_k_major)
            return i;
    }
    return -1;
}

// ---- choosing and launching ------------------------------------------------------------------

constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

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

// Split-K bounds: each range keeps at least kMinSlicesPerSplit K-slices (so the pipeline fills and
// the partial tile's round trip stays small beside the product), at most kMaxSplits ranges.
inline constexpr int kMinSlicesPerSplit = 8;
inline constexpr int kMaxSplits = 16;

// K ranges per tile for `config`: as many as fill the SMs once the tiles alone do not (64 tiles of
// 1024 x 1024 on 132 SMs, one block per SM: 2), counting every block an SM holds at once, within
// the bounds above; 1 for batches (their tiles fill the SMs, or are too few to matter) and for a K
// too short to cut.
constexpr int split_count(int config, const Shape &s, int sm_count) {
    if (s.batch_count != 1) return 1;
    const int64_t tiles = tile_count(config, s);
    const int64_t slices = ceil_div(s.k * s.element_bytes, kTileConfigs[config].tile_k * kElementBytes);
    int64_t splits = int64_t{sm_count} * kTileConfigs[config].min_blocks_per_sm / tiles;
    if (splits > slices / kMinSlicesPerSplit) splits = slices / kMinSlicesPerSplit;
    if (splits > kMaxSplits) splits = kMaxSplits;
    return splits < 2 ? 1 : static_cast<int>(splits);
}

// The split for `config`: split_count once its tiles leave SMs idle, else 1.
constexpr int splits_for(int config, const Shape &s, int sm_count) {
    return tile_count(config, s) < sm_count ? split_count(config, s, sm_count) : 1;
}

struct Choice {
    int config;
    int splits;
};

// The 4-warp 128 x 128 kernel pays off only two to an SM: where one block may take twice its
// shared memory (H100's 227 KB; not A100's 163 KB nor the 99 KB of sm_86/89/120).
constexpr bool runs_paired(const DeviceLimits &device) {
    return 2 * smem_bytes(kTileConfigs[kConfigPaired]) <= static_cast<uint32_t>(device.smem_per_block);
}

// The configuration and split for a problem.  ASYNC_COPY has one configuration and never splits.
// PIPELINED, from what was measured on H100 (bench/RESULTS.md): the 64 x 128 tile for m <= 64 and
// the 128 x 64 tile for one row of 128 x 128 tiles (m <= 128), split K where they leave SMs idle;
// otherwise 128 x 256 tiles (3 stages) once they fill every SM, where 144 KB fit (on H100 they run
// 4096^3 5% faster than the paired kernel in the same cycles at a fixed clock: presumably a higher
// clock, as they read a quarter less per product); else the paired 4-warp 128 x 128 kernel where it pairs, split likewise; else 128 x 128
// tiles, split K where those leave SMs idle and K is long enough, else 128 x 64 tiles.
constexpr Choice choose_config(bool pipelined, const Shape &s, const DeviceLimits &device) {
    if (!pipelined) return {kConfigAsyncCopy, 1};
    if (s.m <= kTileConfigs[kConfigShortM].tile_m) return {kConfigShortM, splits_for(kConfigShortM, s, device.sm_count)};
    const bool one_row = s.m <= kTileConfigs[kConfigPipelinedLarge].tile_m;
    const bool warp_tiles_64x64 = s.element_bytes == kElementBytes;  // tf32 has no such kernels
    if (warp_tiles_64x64 && kernel_fits(kConfigWide, device) && tile_count(kConfigWide, s) >= device.sm_count)
        return {kConfigWide, 1};
    if (warp_tiles_64x64 && !one_row && runs_paired(device))
        return {kConfigPaired, splits_for(kConfigPaired, s, device.sm_count)};
    if (tile_count(kConfigPipelinedLarge, s) >= device.sm_count) return {kConfigPipelinedLarge, 1};
    const int splits = split_count(kConfigPipelinedLarge, s, device.sm_count);
    if (splits > 1 && !one_row) return {kConfigPipelinedLarge, splits};
    return {kConfigPipelinedSmall, splits_for(kConfigPipelinedSmall, s, device.sm_count)};
}

// Bytes of workspace a split launch needs: the tile counters (int32, one per tile) and the fp32
// partial tiles (one per tile and split).
struct WorkspaceNeed {
    int64_t counters;
    int64_t partial_bytes;
};
constexpr WorkspaceNeed workspace_need(int config, int64_t tiles, int splits) {
    const TileConfig &c = kTileConfigs[config];
    return {tiles, tiles * splits * c.tile_m * c.tile_n * static_cast<int64_t>(sizeof(float))};
}

// Widest global -> shared copy, in 16-bit elements: one 16-byte chunk along the contiguous dimension.
inline constexpr int32_t kMaxVector = kChunkElements;

// vec_a / vec_b (elements per copy) for an operand of type_ab: see aligned_vector_width.  A 16-byte
// vector is one cp.async per chunk, 8- and 4-byte ones split it into 8- and 4-byte cp.async, and
// 16-bit elements aligned to 2 bytes only go element by element (cp.async cannot copy 2 bytes).
constexpr int32_t vector_width(int32_t type_ab, uint64_t address, int64_t ld, int64_t batch_stride) {
    const int bytes = element_bytes(type_ab);
    return aligned_vector_width(static_cast<uint64_t>(bytes), kSwizzleChunkBytes / bytes, address, ld, batch_stride);
}

// Tile rows walked together by the grouped raster (kernels/common/raster.h).
inline constexpr int32_t kRasterGroup = 8;

using Launch = GemmLaunch;

// True when the family serves these inputs: f16 or bf16 A and B in any majors, or f32 ones as tf32
// (where the caller allows it) with both K-major; any C/D type.
constexpr bool supports_types(int32_t type_ab, int32_t type_cd, bool tf32, bool a_k_major, bool b_k_major) {
    const bool cd = type_cd == kF32 || type_cd == kF16 || type_cd == kBF16;
    if (type_ab == kF16 || type_ab == kBF16) return cd;
    return type_ab == kF32 && tf32 && a_k_major && b_k_major && cd;
}

// Completes a canonical problem `p` (m, n, k, pointers, leading dimensions, strides, alpha, beta,
// types and majors set; m, n, batch_count >= 1, k >= 0) with the fields only this family reads:
// vec_a, vec_b, tiles_m, tiles_n, raster_group, splits and slices_per_split, for the kernel of
// configuration `config_index` (into kTileConfigs: choose_config's, or an autotuned one) cutting K
// into at most `splits` ranges (fewer where K is short; always 1 for batches, k = 0 or alpha = 0).
// The caller sets partials and tile_counters when p.splits > 1.  Returns the kernel and its launch
// geometry; kernel is -1 (and p untouched) when the types or the configuration have no kernel, the
// tiles do not fit one grid, or K has 2^30 slices or more.
inline Launch prepare_launch_config(GemmParams &p, int config_index, int splits) {
    const Launch none{-1, 0, 0, 0, 0};
    if (!supports_types(p.type_ab, p.type_cd, true, p.a_k_major != 0, p.b_k_major != 0) || p.m < 1 || p.n < 1 ||
        p.k < 0 || p.batch_count < 1)
        return none;
    const int index = kernel_index(p.type_ab, config_index, p.a_k_major != 0, p.b_k_major != 0);
    if (index < 0) return none;
    const KernelInfo &kernel = kKernels[index];
    const TileConfig &config = kTileConfigs[kernel.config];
    const int64_t tiles_m = ceil_div(p.m, config.tile_m);
    const int64_t tiles_n = ceil_div(p.n, config.tile_n);
    const int64_t slices = ceil_div(p.k, slice_elements(config, p.type_ab));
    if (tiles_m > kMaxGridX / tiles_n || slices >= kMaxSlices) return none;
    const bool can_split = p.batch_count == 1 && p.alpha != 0.f && slices > 1;
    const int64_t per_split = can_split && splits > 1 ? ceil_div(slices, splits) : slices;
    p.vec_a = vector_width(p.type_ab, reinterpret_cast<uintptr_t>(p.a), p.lda, p.stride_a);
    p.vec_b = vector_width(p.type_ab, reinterpret_cast<uintptr_t>(p.b), p.ldb, p.stride_b);
    p.tiles_m = static_cast<int32_t>(tiles_m);
    p.tiles_n = static_cast<int32_t>(tiles_n);
    p.raster_group = kRasterGroup;
    p.splits = per_split > 0 ? static_cast<int32_t>(ceil_div(slices, per_split)) : 1;
    p.slices_per_split = static_cast<int32_t>(per_split);
    p.partials = nullptr;
    p.tile_counters = nullptr;
    Launch launch{index, static_cast<uint32_t>(tiles_m * tiles_n),
                  static_cast<uint32_t>(p.batch_count < kMaxGridZ ? p.batch_count : kMaxGridZ),
                  static_cast<uint32_t>(threads(config)), kernel.dynamic_smem};
    launch.grid_y = static_cast<uint32_t>(p.splits);
    return launch;
}

}  // namespace asyncgemm::sm80
