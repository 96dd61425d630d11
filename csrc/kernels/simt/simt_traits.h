// The SIMT fp32-FMA GEMM family (ASYNCGEMM_ALGO_SIMT): tile shape, shared-memory layout, and which
// thread moves and computes which elements.
//
// Plain C++17, no CUDA headers: the kernels and the planner (csrc/plan/simt_*) share these numbers,
// and tests/unit/test_simt_layout.cpp checks the arithmetic.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "kernels/common/host_device.h"
#include "kernels/common/params.h"

namespace asyncgemm::simt {

// ---- tile configuration ----------------------------------------------------------------------

// A block computes a tile_m x tile_n tile of D, walking K in slices of tile_k with `stages` slices of
// A and B in shared memory at once (up to stages - 1 in flight while one is multiplied).  Each
// thread owns thread_m x thread_n accumulators.  min_blocks_per_sm goes to __launch_bounds__: 2
// blocks of 256 threads cap a thread at 128 registers.
struct TileConfig {
    int tile_m, tile_n, tile_k;
    int threads;
    int stages;
    int thread_m, thread_n;
    int min_blocks_per_sm;
};

// 128 x 128 x 32, 256 threads of 8 x 8, 2 stages: 64 FFMA per 4 LDS.128 at every k (16 FFMA per
// shared load) and one barrier per 2048 FFMA of each thread.  Longer slices cut the per-slice costs
// (barrier, copy issue, stage bookkeeping): on an H100, slices of 8 -> 16 took 4096^3 from 0.73x to
// 0.87x cuBLAS.  Two stages of 32 hold as much of K as three of 16 would not: a slice's copies are
// in flight for a whole slice of FFMAs.  66 KB of shared memory: two blocks per SM on sm_80/90/100,
// one on the 100 KB SMs of sm_86/89/120.
inline constexpr TileConfig kTileConfigs[] = {
    {128, 128, 32, 256, 2, 8, 8, 2},
};
inline constexpr int kTileConfigCount = static_cast<int>(sizeof(kTileConfigs) / sizeof(kTileConfigs[0]));
inline constexpr int kConfig = 0;  // the one every kernel uses

// ---- shared-memory layout --------------------------------------------------------------------
//
// Shared tiles hold fp32 whatever the input type (16-bit inputs are converted on the way in, once
// per element, instead of once per use), laid out [tile_k][tile_x + pad] for both operands (x is
// m for A, n for B): at each k the x values are contiguous, so a thread's 4 consecutive x values
// at one k are one 16-byte LDS.128.
//
// The padding rule.  Padding a row by one element (the MoYe layout, stride tile_x + 1) spreads
// scalar writes over the banks but leaves rows at odd addresses, which misaligns any vector: 8-byte
// copies need +2, 16-byte ones +4.  So pad is a multiple of the widest vector that touches a row
// (kSmemVectorFloats: LDS.128 fragment reads, 16-byte cp.async and STS.128 runs), and among those
// it is the one that keeps transposing writes conflict-free: a K-major operand is written one
// element at a time, each warp instruction covering 32 / kCopyLanesK consecutive x for each of
// kCopyLanesK consecutive k, so the banks (k * pad + x) mod 32 are all distinct exactly when
// pad = 32 / kCopyLanesK (mod 2 * 32 / kCopyLanesK).  kCopyLanesK = 8 (one 32-byte sector of fp32
// per row) gives pad = 4: 16-byte aligned rows and conflict-free transposes at once.
inline constexpr int kSmemBanks = 32;        // 4-byte banks
inline constexpr int kSmemVectorFloats = 4;  // 16 bytes, the widest shared access
inline constexpr int kCopyLanesK = 8;        // lanes along k of a K-major copy: 32 bytes of fp32

ASYNCGEMM_HOST_DEVICE constexpr int smem_row_pad(const TileConfig &) { return kSmemBanks / kCopyLanesK; }
// Row stride in floats of an operand tile whose rows hold tile_x values.
ASYNCGEMM_HOST_DEVICE constexpr int smem_row_stride(const TileConfig &c, int tile_x) {
    return tile_x + smem_row_pad(c);
}
ASYNCGEMM_HOST_DEVICE constexpr int smem_a_floats(const TileConfig &c) {
    return c.tile_k * smem_row_stride(c, c.tile_m);
}
ASYNCGEMM_HOST_DEVICE constexpr int smem_b_floats(const TileConfig &c) {
    return c.tile_k * smem_row_stride(c, c.tile_n);
}
// One stage: A's tile, then B's.  Both sizes are multiples of 4 floats, so every tile starts 16-byte
// aligned.
ASYNCGEMM_HOST_DEVICE constexpr int smem_stage_floats(const TileConfig &c) {
    return smem_a_floats(c) + smem_b_floats(c);
}
// Dynamic shared memory of one block.
constexpr uint32_t smem_bytes(const TileConfig &c) {
    return static_cast<uint32_t>(c.stages) * static_cast<uint32_t>(smem_stage_floats(c)) * 4u;
}

// ---- global -> shared copies: which thread moves which elements --------------------------------
//
// An operand tile is tile_x x tile_k.  Threads are laid out so that consecutive threads read
// consecutive addresses of global memory.
//
// MN-major operand (x contiguous in global memory): thread t moves runs of kSmemVectorFloats
// consecutive x at one k, one 16-byte shared vector each (fp32 by cp.async in pieces of vec_a/vec_b
// elements, 16-bit by loads of up to 4 elements and one STS.128).
ASYNCGEMM_HOST_DEVICE constexpr int mn_runs_per_row(int tile_x) { return tile_x / kSmemVectorFloats; }
ASYNCGEMM_HOST_DEVICE constexpr int mn_runs_per_thread(const TileConfig &c, int tile_x) {
    return mn_runs_per_row(tile_x) * c.tile_k / c.threads;
}
ASYNCGEMM_HOST_DEVICE constexpr int mn_run_x(int tile_x, int thread) {
    return kSmemVectorFloats * (thread % mn_runs_per_row(tile_x));
}
ASYNCGEMM_HOST_DEVICE constexpr int mn_run_k(const TileConfig &c, int tile_x, int thread, int run) {
    return thread / mn_runs_per_row(tile_x) + run * (c.threads / mn_runs_per_row(tile_x));
}

// K-major operand (k contiguous): transposed on the way in, one element at a time, since a vector
// along k cannot be spread over tile rows.  A warp instruction reads kCopyLanesK consecutive k of
// 32 / kCopyLanesK rows (whole 32-byte sectors) and writes them to 32 distinct banks (see the
// padding rule).  Thread t moves, for each of its rows t / kCopyLanesK + r * (threads / kCopyLanesK),
// the k values t % kCopyLanesK + g * kCopyLanesK of each group g of the slice.
ASYNCGEMM_HOST_DEVICE constexpr int k_groups(const TileConfig &c) { return c.tile_k / kCopyLanesK; }
ASYNCGEMM_HOST_DEVICE constexpr int k_rows_per_thread(const TileConfig &c, int tile_x) {
    return tile_x * kCopyLanesK / c.threads;
}
ASYNCGEMM_HOST_DEVICE constexpr int k_elem_k(int thread, int group) {
    return thread % kCopyLanesK + group * kCopyLanesK;
}
ASYNCGEMM_HOST_DEVICE constexpr int k_elem_x(const TileConfig &c, int thread, int row) {
    return thread / kCopyLanesK + row * (c.threads / kCopyLanesK);
}

// ---- the thread tile: which accumulators a thread owns ------------------------------------------
//
// Threads form a (tile_m / thread_m) x (tile_n / thread_n) grid; a warp is kWarpLanesM x
// kWarpLanesN of it.  A thread's thread_m rows are thread_m / 4 runs of 4 consecutive rows, the runs
// tile_m / (thread_m / 4) apart (likewise for columns), so at each k a warp's fragment reads are
// LDS.128 on kWarpLanesM (A) and kWarpLanesN (B) consecutive 16-byte vectors: conflict-free, the
// other lanes served by broadcast.
inline constexpr int kWarpSize = 32;
inline constexpr int kWarpLanesM = 4;
inline constexpr int kWarpLanesN = 8;
inline constexpr int kFragmentRun = kSmemVectorFloats;  // consecutive rows (columns) of one LDS.128

ASYNCGEMM_HOST_DEVICE constexpr int thread_grid_n(const TileConfig &c) { return c.tile_n / c.thread_n; }
ASYNCGEMM_HOST_DEVICE constexpr int warp_grid_n(const TileConfig &c) { return thread_grid_n(c) / kWarpLanesN; }
// The thread's position in the thread grid.
ASYNCGEMM_HOST_DEVICE constexpr int thread_grid_row(const TileConfig &c, int thread) {
    return (thread / kWarpSize) / warp_grid_n(c) * kWarpLanesM + (thread % kWarpSize) / kWarpLanesN;
}
ASYNCGEMM_HOST_DEVICE constexpr int thread_grid_col(const TileConfig &c, int thread) {
    return (thread / kWarpSize) % warp_grid_n(c) * kWarpLanesN + (thread % kWarpSize) % kWarpLanesN;
}
// Tile row of the thread's first accumulator row, and how far below it row i (0 <= i < thread_m)
// lies; likewise for columns.  The offsets are the same for every thread.
ASYNCGEMM_HOST_DEVICE constexpr int thread_first_row(const TileConfig &c, int thread) {
    return thread_grid_row(c, thread) * kFragmentRun;
}
ASYNCGEMM_HOST_DEVICE constexpr int thread_first_col(const TileConfig &c, int thread) {
    return thread_grid_col(c, thread) * kFragmentRun;
}
ASYNCGEMM_HOST_DEVICE constexpr int thread_row_offset(const TileConfig &c, int i) {
    return i / kFragmentRun * (c.tile_m / (c.thread_m / kFragmentRun)) + i % kFragmentRun;
}
ASYNCGEMM_HOST_DEVICE constexpr int thread_col_offset(const TileConfig &c, int j) {
    return j / kFragmentRun * (c.tile_n / (c.thread_n / kFragmentRun)) + j % kFragmentRun;
}

// Everything above assumes these; a new configuration that breaks one fails to compile.
constexpr bool is_valid(const TileConfig &c) {
    const bool tiles = c.tile_m % c.thread_m == 0 && c.tile_n % c.thread_n == 0 &&
                       c.thread_m % kFragmentRun == 0 && c.thread_n % kFragmentRun == 0 &&
                       (c.tile_m / c.thread_m) * (c.tile_n / c.thread_n) == c.threads &&
                       (c.tile_m / c.thread_m) % kWarpLanesM == 0 && (c.tile_n / c.thread_n) % kWarpLanesN == 0;
    const bool padding = smem_row_pad(c) % kSmemVectorFloats == 0;
    const bool copies = c.tile_k % kCopyLanesK == 0 && (c.tile_m * kCopyLanesK) % c.threads == 0 &&
                        (c.tile_n * kCopyLanesK) % c.threads == 0 && c.threads % mn_runs_per_row(c.tile_m) == 0 &&
                        c.threads % mn_runs_per_row(c.tile_n) == 0 && mn_runs_per_thread(c, c.tile_m) >= 1 &&
                        mn_runs_per_thread(c, c.tile_n) >= 1;
    return tiles && padding && copies && c.stages >= 2 && c.threads % kWarpSize == 0;
}
constexpr bool all_valid() {
    for (const TileConfig &c : kTileConfigs) {
        if (!is_valid(c)) return false;
    }
    return true;
}
static_assert(all_valid(), "a TileConfig breaks an assumption of the SIMT kernels");


}  // namespace asyncgemm::simt
