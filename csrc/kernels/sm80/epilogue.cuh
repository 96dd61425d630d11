// D = alpha * acc + beta * C for the block's tile, through shared memory.
//
// The warps first write their fp32 accumulators into a staging tile in the (now free) stages, row
// by row; then the block's threads walk the staged rows in runs of 4 columns, each thread a run: 16
// bytes of fp32 read back, C's run read where beta != 0, D's run written as one 16-byte (f32) or
// 8-byte (16-bit) store where it lies whole in D and aligned, element by element at the edges.
// Every warp's stores cover whole rows of D: coalesced whatever the output type.
//
// Why through shared memory: the accumulators' register layout gives each lane pairs of columns 8
// apart, which stored directly take an unrolled path per output type, edge case and C case; ptxas
// spent most of the family's compile time on those, for every architecture.  The staged path is one
// unrolled store of the accumulators and a rolled loop per output type.
//
// C is read only when beta != 0, so D = alpha * A·B exactly even where C (or D's old contents) is
// NaN; with C == D each element is read and then written by the same thread.  Where the staging
// tile is larger than the stages (the one-stage configuration), the rows go in passes.
#pragma once

#include <stdint.h>

#include "kernels/common/convert.cuh"
#include "kernels/common/epilogue_math.h"
#include "kernels/common/params.h"
#include "kernels/sm80/sm80_traits.h"
#include "kernels/sm80/warp_tile.cuh"

namespace asyncgemm::sm80 {

// Columns of a staged row, and the row's stride in floats: 8 floats of padding make the stride 8
// mod 32 banks, so a warp's float2 writes (rows g of 8, column pairs t of 4, lane = 4g + t) fall
// on 64 distinct banks in two wavefronts.
inline constexpr int kStagePad = 8;
ASYNCGEMM_HOST_DEVICE constexpr int stage_stride(const TileConfig &c) { return c.tile_n + kStagePad; }
// Rows of the tile staged at once: as many whole mma rows (16) as the stages hold.
constexpr int stage_rows(const TileConfig &c) {
    const int fit = static_cast<int>(smem_bytes(c) / (static_cast<uint32_t>(stage_stride(c)) * 4u)) / kMmaM * kMmaM;
    return fit < c.tile_m ? fit : c.tile_m;
}
constexpr bool stages_hold_a_row_group() {
    for (const TileConfig &c : kTileConfigs)
        if (stage_rows(c) < kMmaM) return false;
    return true;
}
static_assert(stages_hold_a_row_group(), "the epilogue stages at least one mma row of the tile at a time");
template <int Config>
inline constexpr int kStageRows = stage_rows(kTileConfigs[Config]);

inline constexpr int kRun = 4;  // columns of D per thread and step

// Writes the warp's accumulators of tile rows [first_row, first_row + rows) into `stage` (fp32,
// stage_stride floats a row, row 0 = first_row).  Unrolled: accumulator indices must be constants.
template <typename T, int Config>
__device__ __forceinline__ void stage_accumulators(const WarpTile<T, Config> &warp, float *stage, int first_row,
                                                   int rows, int lane) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kStride = stage_stride(kC);
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int i = 0; i < mma_tiles_m(kC); ++i) {
        const int row = warp.warp_m0 + kMmaM * i - first_row;
        if (row < 0 || row >= rows) continue;
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            float *out = stage + (row + g + 8 * half) * kStride + warp.warp_n0 + 2 * t;
#pragma unroll
            for (int j = 0; j < mma_tiles_n(kC); ++j)
                *reinterpret_cast<float2 *>(out + kMmaN * j) =
                    make_float2(warp.acc[i][j][2 * half], warp.acc[i][j][2 * half + 1]);
        }
    }
}

// Where the block's tile of D (and C) lies: the tile's first element, bounds and vector alignment.
template <typename TOut>
struct TileOutput {
    using Run = Vector<TOut, kRun>;
    TOut *d;
    const TOut *c;  // null when beta == 0
    int64_t ldd, ldc;
    int rows_left, cols_left;  // of D from the tile's first element, at most INT32_MAX
    bool d_runs, c_runs;       // every run of 4 columns from the tile's first one is aligned as a Run

    __device__ __forceinline__ TileOutput(const GemmParams &p, int64_t batch, int64_t m0, int64_t n0)
        : d(static_cast<TOut *>(p.d) + batch * p.stride_d + m0 * p.ldd + n0),
          c(p.beta != 0.f ? static_cast<const TOut *>(p.c) + batch * p.stride_c + m0 * p.ldc + n0 : nullptr),
          ldd(p.ldd), ldc(p.ldc), rows_left(static_cast<int>(min(p.m - m0, int64_t{INT32_MAX}))),
          cols_left(static_cast<int>(min(p.n - n0, int64_t{INT32_MAX}))),
          d_runs(aligned(d, p.ldd)), c_runs(c == nullptr || aligned(c, p.ldc)) {}

    __device__ __forceinline__ static bool aligned(const TOut *ptr, int64_t ld) {
        return reinterpret_cast<uintptr_t>(ptr) % sizeof(Run) == 0 && ld % kRun == 0;
    }
};

// Stores staged rows [first_row, first_row + rows) of the tile: each thread runs of 4 columns, the
// block's threads along a row, then down.
template <typename TOut, int Config>
__device__ __forceinline__ void store_staged(const TileOutput<TOut> &out, const float *stage, int first_row, int rows,
                                             float alpha, float beta, int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kRunsPerRow = kC.tile_n / kRun;
    using Run = typename TileOutput<TOut>::Run;
#pragma unroll 2
    for (int r = thread; r < rows * kRunsPerRow; r += threads(kC)) {
        const int row = first_row + r / kRunsPerRow, col = r % kRunsPerRow * kRun;
        if (row >= out.rows_left || col >= out.cols_left) continue;
        const float4 acc = *reinterpret_cast<const float4 *>(stage + (row - first_row) * stage_stride(kC) + col);
        float v[kRun] = {scaled_product(alpha, acc.x), scaled_product(alpha, acc.y), scaled_product(alpha, acc.z),
                         scaled_product(alpha, acc.w)};
        TOut *d = out.d + row * out.ldd + col;
        const TOut *c = out.c != nullptr ? out.c + row * out.ldc + col : nullptr;
        if (col + kRun <= out.cols_left && out.d_runs && out.c_runs) {
            if (c != nullptr) {
                const Run old = *reinterpret_cast<const Run *>(c);
#pragma unroll
                for (int e = 0; e < kRun; ++e) v[e] = plus_scaled_c(v[e], beta, to_float(old.v[e]));
            }
            Run result;
#pragma unroll
            for (int e = 0; e < kRun; ++e) result.v[e] = from_float<TOut>(v[e]);
            *reinterpret_cast<Run *>(d) = result;
            continue;
        }
#pragma unroll
        for (int e = 0; e < kRun; ++e) {
            if (col + e >= out.cols_left) break;
            d[e] = from_float<TOut>(c != nullptr ? plus_scaled_c(v[e], beta, to_float(c[e])) : v[e]);
        }
    }
}

// The block's tile of D at (m0, n0) of batch `batch` from the warps' accumulators, through `smem`
// (the stages, which no warp reads and no copy fills any more).  Every thread of the block calls it.
template <typename TOut, typename T, int Config>
__device__ __forceinline__ void store_tile(const WarpTile<T, Config> &warp, const GemmParams &p, int64_t batch,
                                           int64_t m0, int64_t n0, float alpha, char *smem, int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kRows = kStageRows<Config>;
    float *const stage = reinterpret_cast<float *>(smem);
    const TileOutput<TOut> out(p, batch, m0, n0);
#pragma unroll 1
    for (int first_row = 0; first_row < kC.tile_m; first_row += kRows) {
        if (first_row > 0) __syncthreads();  // the last pass's rows are read
        const int rows = min(kRows, kC.tile_m - first_row);
        stage_accumulators(warp, stage, first_row, rows, thread % kWarpSize);
        __syncthreads();
        store_staged<TOut, Config>(out, stage, first_row, rows, alpha, p.beta, thread);
    }
}

}  // namespace asyncgemm::sm80
