// The second half of an epilogue through shared memory, for a family that stages its accumulators
// there (sm80): the block's tile of D from rows staged in shared memory, the
// block's threads along a row, then down, each a run of columns at a time, written as one store
// where the run lies whole in D and aligned, element by element at the edges.  Every warp's stores
// cover whole rows of D: coalesced for any output type.  Two forms:
//  - staged fp32 accumulators (store_staged): D = alpha * acc + beta * C, rounded once, in runs of 4
//    columns (16 bytes of fp32 read back, a 16-byte or 8-byte store);
//  - staged 16-bit D itself, alpha applied and rounded by the family as it staged (copy_staged, for
//    beta == 0): half the shared-memory traffic, and runs of 8 columns, one 16-byte store each.
//
// Why stage at all: mma.sync's accumulator layout gives each lane pairs of columns 8 apart, which
// stored directly take an unrolled path per output type, edge case and C case; ptxas spent most of
// the sm80 family's compile time on those, for every architecture.  Staged, the family has one
// unrolled store of its accumulators per staged type and these rolled loops.  (The SIMT family's
// threads hold runs of 4 columns, which it stores directly as vectors: staged, it measured 1-3% slower
// on an H200, at 4096^3 and 2048 x 2048 x 256 f32.)
//
// C is read only when beta != 0, so D = alpha * A·B exactly even where C (or D's old contents) is
// NaN; with C == D each element is read and then written by the same thread.
#pragma once

#include <stdint.h>

#include "kernels/common/convert.cuh"
#include "kernels/common/epilogue_math.h"
#include "kernels/common/params.h"

namespace asyncgemm {

inline constexpr int kStagedRun = 4;  // columns of D per thread and step

// Where a block's tile of D (and C) lies: its first element, bounds and vector alignment.
template <typename TOut>
struct TileOutput {
    using Run = Vector<TOut, kStagedRun>;
    TOut *d;
    const TOut *c;  // null when beta == 0
    int64_t ldd, ldc;
    int rows_left, cols_left;  // of D from the tile's first element, at most INT32_MAX
    bool runs_aligned;         // every run of 4 columns from the tile's first one is aligned as a Run

    __device__ __forceinline__ TileOutput(const GemmParams &p, int64_t batch, int64_t m0, int64_t n0)
        : d(static_cast<TOut *>(p.d) + batch * p.stride_d + m0 * p.ldd + n0),
          c(p.beta != 0.f ? static_cast<const TOut *>(p.c) + batch * p.stride_c + m0 * p.ldc + n0 : nullptr),
          ldd(p.ldd), ldc(p.ldc), rows_left(static_cast<int>(min(p.m - m0, int64_t{INT32_MAX}))),
          cols_left(static_cast<int>(min(p.n - n0, int64_t{INT32_MAX}))),
          runs_aligned(aligned(d, p.ldd) && (c == nullptr || aligned(c, p.ldc))) {}

    __device__ __forceinline__ static bool aligned(const TOut *ptr, int64_t ld) {
        return reinterpret_cast<uintptr_t>(ptr) % sizeof(Run) == 0 && ld % kStagedRun == 0;
    }
};

// Stores tile rows [first_row, first_row + rows), staged from `stage` on (row first_row at stage,
// Stride floats a row, TileN columns, 16-byte aligned rows), with the block's Threads threads.
template <typename TOut, int Threads, int TileN, int Stride>
__device__ __forceinline__ void store_staged(const TileOutput<TOut> &out, const float *stage, int first_row, int rows,
                                             float alpha, float beta, int thread) {
    static_assert(TileN % kStagedRun == 0 && Stride % kStagedRun == 0, "runs of 16-byte aligned fp32");
    constexpr int kRunsPerRow = TileN / kStagedRun;
    using Run = typename TileOutput<TOut>::Run;
#pragma unroll 2
    for (int r = thread; r < rows * kRunsPerRow; r += Threads) {
        const int row = first_row + r / kRunsPerRow, col = r % kRunsPerRow * kStagedRun;
        if (row >= out.rows_left || col >= out.cols_left) continue;
        const float4 acc = *reinterpret_cast<const float4 *>(stage + (row - first_row) * Stride + col);
        float v[kStagedRun] = {scaled_product(alpha, acc.x), scaled_product(alpha, acc.y),
                               scaled_product(alpha, acc.z), scaled_product(alpha, acc.w)};
        TOut *d = out.d + row * out.ldd + col;
        const TOut *c = out.c != nullptr ? out.c + row * out.ldc + col : nullptr;
        if (col + kStagedRun <= out.cols_left && out.runs_aligned) {
            if (c != nullptr) {
                const Run old = *reinterpret_cast<const Run *>(c);
#pragma unroll
                for (int e = 0; e < kStagedRun; ++e) v[e] = plus_scaled_c(v[e], beta, to_float(old.v[e]));
            }
            Run result;
#pragma unroll
            for (int e = 0; e < kStagedRun; ++e) result.v[e] = from_float<TOut>(v[e]);
            *reinterpret_cast<Run *>(d) = result;
            continue;
        }
#pragma unroll
        for (int e = 0; e < kStagedRun; ++e) {
            if (col + e >= out.cols_left) break;
            d[e] = from_float<TOut>(c != nullptr ? plus_scaled_c(v[e], beta, to_float(c[e])) : v[e]);
        }
    }
}

// The staged element type of a tile of TOut: D itself where it is 16-bit and beta == 0 (nothing is
// added after rounding), else the fp32 accumulators.
template <typename TOut>
inline constexpr bool kStagesRounded = sizeof(TOut) == 2;
inline constexpr int kCopyRunBytes = 16;

// Copies staged 16-bit D rows [first_row, first_row + rows) (Stride elements a row, 16-byte aligned
// rows) to D, runs of 8 columns.
template <typename TOut, int Threads, int TileN, int Stride>
__device__ __forceinline__ void copy_staged(const TileOutput<TOut> &out, const TOut *stage, int first_row, int rows,
                                            int thread) {
    constexpr int kRun = kCopyRunBytes / static_cast<int>(sizeof(TOut));
    static_assert(TileN % kRun == 0 && Stride % kRun == 0, "runs of 16-byte aligned elements");
    constexpr int kRunsPerRow = TileN / kRun;
    const bool aligned = reinterpret_cast<uintptr_t>(out.d) % kCopyRunBytes == 0 && out.ldd % kRun == 0;
#pragma unroll 2
    for (int r = thread; r < rows * kRunsPerRow; r += Threads) {
        const int row = first_row + r / kRunsPerRow, col = r % kRunsPerRow * kRun;
        if (row >= out.rows_left || col >= out.cols_left) continue;
        const TOut *in = stage + (row - first_row) * Stride + col;
        TOut *d = out.d + row * out.ldd + col;
        if (col + kRun <= out.cols_left && aligned) {
            *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(in);
            continue;
        }
#pragma unroll
        for (int e = 0; e < kRun; ++e) {
            if (col + e >= out.cols_left) break;
            d[e] = in[e];
        }
    }
}

}  // namespace asyncgemm
