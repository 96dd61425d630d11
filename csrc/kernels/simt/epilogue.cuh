// D = alpha * acc + beta * C for the block's tile, through shared memory: the threads write their
// accumulators into a staging tile in the (now free) stages, and the block stores it
// (kernels/common/staged_store.cuh says how, and why this way).
#pragma once

#include <type_traits>

#include "kernels/common/convert.cuh"
#include "kernels/common/epilogue_math.h"
#include "kernels/common/staged_store.cuh"
#include "kernels/simt/simt_traits.h"
#include "kernels/simt/thread_tile.cuh"

namespace asyncgemm::simt {

// A staged row's stride in elements of S (fp32 accumulators, or 16-bit D).  fp32: tile_n, a
// quarter-warp's 16-byte writes covering one row's 128 contiguous bytes, conflict-free.  16-bit:
// tile_n + 32, so a half-warp's 8-byte writes to two rows land 64 bytes apart in the banks.
template <typename S>
ASYNCGEMM_HOST_DEVICE constexpr int stage_stride(const TileConfig &c) {
    return sizeof(S) == 4 ? c.tile_n : c.tile_n + 32;
}
// Rows staged at once: whole halves of the tile (a pass takes one run of each thread's rows), as
// many as the stages hold.
template <typename S>
constexpr int stage_rows(const TileConfig &c) {
    const int run_rows = c.tile_m / (c.thread_m / kFragmentRun);
    const uint32_t row_bytes = static_cast<uint32_t>(stage_stride<S>(c)) * sizeof(S);
    const int fit = static_cast<int>(smem_bytes(c) / row_bytes) / run_rows * run_rows;
    return fit < c.tile_m ? fit : c.tile_m;
}
template <typename S, int Config>
inline constexpr int kStageRows = stage_rows<S>(kTileConfigs[Config]);
static_assert(kStageRows<float, kConfig> >=
                  kTileConfigs[kConfig].tile_m / (kTileConfigs[kConfig].thread_m / kFragmentRun),
              "the epilogue stages at least one run of every thread's rows at a time");

// Writes the thread's accumulators of tile rows [first_row, first_row + rows) into `stage` (row 0 =
// first_row): as they are for fp32 S, alpha applied and rounded to S otherwise.  Unrolled:
// accumulator indices must be constants.
template <typename S, int Config>
__device__ __forceinline__ void stage_accumulators(const ThreadTile<Config> &tile, S *stage, int first_row, int rows,
                                                   float alpha) {
    constexpr TileConfig kC = kTileConfigs[Config];
#pragma unroll
    for (int i = 0; i < kC.thread_m; ++i) {
        const int row = tile.first_row() + thread_row_offset(kC, i) - first_row;
        if (row < 0 || row >= rows) continue;
#pragma unroll
        for (int j = 0; j < kC.thread_n; j += kFragmentRun) {
            Vector<S, kFragmentRun> run;
#pragma unroll
            for (int e = 0; e < kFragmentRun; ++e) {
                if constexpr (sizeof(S) == 4) {
                    run.v[e] = tile.acc[i][j + e];
                } else {
                    run.v[e] = from_float<S>(scaled_product(alpha, tile.acc[i][j + e]));
                }
            }
            *reinterpret_cast<Vector<S, kFragmentRun> *>(stage + row * stage_stride<S>(kC) + tile.first_col() +
                                                         thread_col_offset(kC, j)) = run;
        }
    }
}

// The block's tile of D at (m0, n0) of batch `batch`, through `smem` (the stages, which no thread
// reads and no copy fills any more): 16-bit D without C staged rounded and copied out, anything else
// staged as fp32 (kernels/common/staged_store.cuh).  The stages hold half the fp32 tile: its rows go
// in two passes, each thread's first four rows in the first, the others in the second
// (thread_row_offset: a thread's rows are two runs of four, tile_m / 2 apart).  Every thread of the
// block calls it.
template <typename TOut, int Config>
__device__ __forceinline__ void store_tile(const ThreadTile<Config> &tile, const GemmParams &p, int64_t batch,
                                           int64_t m0, int64_t n0, float alpha, float *smem, int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    const TileOutput<TOut> out(p, batch, m0, n0);
    const auto passes = [&](auto *stage, auto store) {
        using S = std::remove_pointer_t<decltype(stage)>;
        constexpr int kRows = kStageRows<S, Config>;
#pragma unroll 1
        for (int first_row = 0; first_row < kC.tile_m; first_row += kRows) {
            if (first_row > 0) __syncthreads();  // the last pass's rows are read
            const int rows = min(kRows, kC.tile_m - first_row);
            stage_accumulators(tile, stage, first_row, rows, alpha);
            __syncthreads();
            store(stage, first_row, rows);
        }
    };
    if constexpr (kStagesRounded<TOut>) {
        if (p.beta == 0.f) {
            passes(reinterpret_cast<TOut *>(smem), [&](const TOut *stage, int first_row, int rows) {
                copy_staged<TOut, kC.threads, kC.tile_n, stage_stride<TOut>(kC)>(out, stage, first_row, rows, thread);
            });
            return;
        }
    }
    passes(smem, [&](const float *stage, int first_row, int rows) {
        store_staged<TOut, kC.threads, kC.tile_n, stage_stride<float>(kC)>(out, stage, first_row, rows, alpha, p.beta,
                                                                             thread);
    });
}

}  // namespace asyncgemm::simt
