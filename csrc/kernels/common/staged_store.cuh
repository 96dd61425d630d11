// The second half of an epilogue through shared memory, for a family that stages its accumulators
// there (sm80): the block's tile of D from rows staged in shared memory, the
// block's threads along a row, then down, each a run of 16 bytes of D at a time (4 fp32 or 8 16-bit
// columns), written as one store where the run lies whole in D and aligned, element by element at the
// edges.  Every warp's stores cover whole rows of D: coalesced for any output type.  Two forms:
//  - staged fp32 accumulators (store_staged): D = act(alpha * acc + beta * C + bias), the bias and
//    activation where the call fuses them (fused_epilogue.cuh), rounded once (one or two 16-byte
//    reads of fp32 per run; 16-bit runs of 4 instead of 8 made a split PIPELINED launch at
//    1024 x 1024 x 14336 f16 3.5% slower on H100);
//  - staged 16-bit D itself, alpha applied and rounded by the family as it staged (copy_staged, for
//    beta == 0 without a fused epilogue): half the shared-memory traffic.
//
// Why stage at all: mma.sync's accumulator layout gives each lane pairs of columns 8 apart, which
// stored directly take an unrolled path per output type, edge case and C case; ptxas spent most of
// the sm80 family's compile time on those, for every architecture.  Staged, the family has one
// unrolled store of its accumulators per staged type and these rolled loops.  (The SIMT family's
// threads hold runs of 4 columns, which it stores directly as vectors: staged, it measured 1-3% slower
// on an H200, at 4096^3 and 2048 x 2048 x 256 f32.)
//
// C is read only when beta != 0, so D = alpha * A·B exactly even where C (or D's old contents) is
// NaN; with C == D each element is read and then written by the same thread (store_staged), or read
// by one thread and written by another after a barrier (store_staged_fused).
#pragma once

#include <stdint.h>

#include "kernels/common/convert.cuh"
#include "kernels/common/epilogue_math.h"
#include "kernels/common/fused_epilogue.cuh"
#include "kernels/common/params.h"

namespace asyncgemm {

// Columns of D per thread and step: 16 bytes of them.
template <typename TOut>
inline constexpr int kStagedRun = 16 / static_cast<int>(sizeof(TOut));

// Where a block's tile of D (and C) lies: its first element, bounds and vector alignment.
template <typename TOut>
struct TileOutput {
    using Run = Vector<TOut, kStagedRun<TOut>>;
    TOut *d;
    const TOut *c;  // null when beta == 0
    int64_t ldd, ldc;
    int rows_left, cols_left;  // of D from the tile's first element, at most INT32_MAX
    bool runs_aligned;         // every run of kStagedRun columns from the tile's first one is aligned as a Run
    int64_t m0, n0;            // the tile's first element in D
    FusedEpilogue<TOut> fused;

    __device__ __forceinline__ TileOutput(const GemmParams &p, int64_t batch, int64_t m0, int64_t n0)
        : d(static_cast<TOut *>(p.d) + batch * p.stride_d + m0 * p.ldd + n0),
          c(p.beta != 0.f ? static_cast<const TOut *>(p.c) + batch * p.stride_c + m0 * p.ldc + n0 : nullptr),
          ldd(p.ldd), ldc(p.ldc), rows_left(static_cast<int>(min(p.m - m0, int64_t{INT32_MAX}))),
          cols_left(static_cast<int>(min(p.n - n0, int64_t{INT32_MAX}))),
          runs_aligned(aligned(d, p.ldd) && (c == nullptr || aligned(c, p.ldc))), m0(m0), n0(n0), fused(p, batch) {}

    __device__ __forceinline__ static bool aligned(const TOut *ptr, int64_t ld) {
        return reinterpret_cast<uintptr_t>(ptr) % sizeof(Run) == 0 && ld % kStagedRun<TOut> == 0;
    }
};

// Stores tile rows [first_row, first_row + rows), staged from `stage` on (row first_row at stage,
// Stride floats a row, TileN columns, 16-byte aligned rows), with the block's Threads threads.
template <typename TOut, int Threads, int TileN, int Stride>
__device__ __forceinline__ void store_staged(const TileOutput<TOut> &out, const float *stage, int first_row, int rows,
                                             float alpha, float beta, int thread) {
    constexpr int kRun = kStagedRun<TOut>;
    static_assert(TileN % kRun == 0 && Stride % 4 == 0, "whole runs, of 16-byte aligned fp32");
    constexpr int kRunsPerRow = TileN / kRun;
    using Run = typename TileOutput<TOut>::Run;
#pragma unroll 2
    for (int r = thread; r < rows * kRunsPerRow; r += Threads) {
        const int row = first_row + r / kRunsPerRow, col = r % kRunsPerRow * kRun;
        if (row >= out.rows_left || col >= out.cols_left) continue;
        float v[kRun];
#pragma unroll
        for (int q = 0; q < kRun; q += 4) {
            const float4 acc = *reinterpret_cast<const float4 *>(stage + (row - first_row) * Stride + col + q);
            v[q] = scaled_product(alpha, acc.x), v[q + 1] = scaled_product(alpha, acc.y);
            v[q + 2] = scaled_product(alpha, acc.z), v[q + 3] = scaled_product(alpha, acc.w);
        }
        TOut *d = out.d + row * out.ldd + col;
        const TOut *c = out.c != nullptr ? out.c + row * out.ldc + col : nullptr;
        if (col + kRun <= out.cols_left && out.runs_aligned) {
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

// The fused epilogue on staged fp32 rows [first_row, first_row + rows) in place: each element of D
// becomes act(alpha * acc + beta * C + bias), which store_staged then stores with alpha 1 and no C.
// Four columns per thread and step, one 16-byte read and write of the stage, their activations
// independent chains that overlap; the loop rolled, so the activation's code is inlined four times
// and not at every element of an unrolled run.  Columns past D's edge are read and written back as
// they were: no bias, C or activation reaches them.
template <typename TOut, int Threads, int TileN, int Stride>
__device__ __forceinline__ void fuse_staged(const TileOutput<TOut> &out, float *stage, int first_row, int rows,
                                            float alpha, float beta, int thread) {
    constexpr int kRun = 4;
    static_assert(TileN % kRun == 0 && Stride % kRun == 0, "whole runs of 16-byte aligned fp32");
    constexpr int kRunsPerRow = TileN / kRun;
#pragma unroll 1
    for (int r = thread; r < rows * kRunsPerRow; r += Threads) {
        const int row = first_row + r / kRunsPerRow, col = r % kRunsPerRow * kRun;
        if (row >= out.rows_left || col >= out.cols_left) continue;
        float4 *staged = reinterpret_cast<float4 *>(stage + (row - first_row) * Stride + col);
        const float4 run = *staged;
        float v[kRun] = {run.x, run.y, run.z, run.w};
        const int inside = min(kRun, out.cols_left - col);
#pragma unroll
        for (int e = 0; e < kRun; ++e) {
            if (e >= inside) continue;
            v[e] = scaled_product(alpha, v[e]);
            if (out.c != nullptr) v[e] = plus_scaled_c(v[e], beta, to_float(out.c[row * out.ldc + col + e]));
            v[e] = out.fused.apply_inline(v[e], out.m0 + row, out.n0 + col + e);
        }
        *staged = make_float4(v[0], v[1], v[2], v[3]);
    }
}

// store_staged through the fused epilogue: fuse_staged in place, then the rows stored with alpha 1
// and no C (both already applied).  Every thread of the block calls it; it ends before the stores.
template <typename TOut, int Threads, int TileN, int Stride>
__device__ __forceinline__ void store_staged_fused(const TileOutput<TOut> &out, float *stage, int first_row, int rows,
                                                   float alpha, float beta, int thread) {
    fuse_staged<TOut, Threads, TileN, Stride>(out, stage, first_row, rows, alpha, beta, thread);
    __syncthreads();
    TileOutput<TOut> fused = out;
    fused.c = nullptr;
    store_staged<TOut, Threads, TileN, Stride>(fused, stage, first_row, rows, 1.f, 0.f, thread);
}

// The staged element type of a tile of TOut: D itself where it is 16-bit and beta == 0 (nothing is
// added after rounding), else the fp32 accumulators.
template <typename TOut>
inline constexpr bool kStagesRounded = sizeof(TOut) == 2;

// Copies staged 16-bit D rows [first_row, first_row + rows) (Stride elements a row, 16-byte aligned
// rows) to D, for beta == 0 (out.c is null).
template <typename TOut, int Threads, int TileN, int Stride>
__device__ __forceinline__ void copy_staged(const TileOutput<TOut> &out, const TOut *stage, int first_row, int rows,
                                            int thread) {
    constexpr int kRun = kStagedRun<TOut>;
    static_assert(TileN % kRun == 0 && Stride % kRun == 0, "runs of 16-byte aligned elements");
    constexpr int kRunsPerRow = TileN / kRun;
#pragma unroll 2
    for (int r = thread; r < rows * kRunsPerRow; r += Threads) {
        const int row = first_row + r / kRunsPerRow, col = r % kRunsPerRow * kRun;
        if (row >= out.rows_left || col >= out.cols_left) continue;
        const TOut *in = stage + (row - first_row) * Stride + col;
        TOut *d = out.d + row * out.ldd + col;
        if (col + kRun <= out.cols_left && out.runs_aligned) {
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
