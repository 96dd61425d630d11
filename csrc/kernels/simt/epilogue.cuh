// D = alpha * acc + beta * C for one thread's accumulators, in the output type (store_tile), or
// act(alpha * acc + beta * C + bias) for the block's tile where the call fuses a bias and an
// activation (store_tile_fused).
//
// A thread's accumulators are runs of 4 consecutive columns (thread_col_offset), stored as one
// 16-byte (fp32) or 8-byte (16-bit) vector when D and C allow it, else element by element.  C is
// read only when beta != 0, so D = alpha * A·B exactly even where C (or D's old contents) is NaN;
// with C == D each element is read and then written by the same thread.
//
// Addresses are offsets from the thread's first element by compile-time rows and columns, so the
// only per-thread state is two pointers and two bounds (the compiler would otherwise keep 16 row
// pointers alive through the main loop, which is invariant over it).
#pragma once

#include <stdint.h>

#include "kernels/common/convert.cuh"
#include "kernels/common/epilogue_math.h"
#include "kernels/common/params.h"
#include "kernels/common/staged_store.cuh"
#include "kernels/simt/simt_traits.h"
#include "kernels/simt/thread_tile.cuh"

namespace asyncgemm::simt {

template <typename TOut, int Config>
__device__ __forceinline__ void store_tile(const ThreadTile<Config> &tile, const GemmParams &p, int64_t batch,
                                           int64_t m0, int64_t n0, float alpha) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kRun = kFragmentRun;
    using Run = Vector<TOut, kRun>;

    const int64_t row0 = m0 + tile.first_row();
    const int64_t col0 = n0 + tile.first_col();
    const int64_t rows_left = p.m - row0;
    const int64_t cols_left = p.n - col0;
    const float beta = p.beta;
    TOut *d = static_cast<TOut *>(p.d) + batch * p.stride_d + row0 * p.ldd + col0;
    const TOut *c = beta != 0.f ? static_cast<const TOut *>(p.c) + batch * p.stride_c + row0 * p.ldc + col0 : nullptr;
    // Every run starts a multiple of 4 elements from the thread's first one.
    const auto runs_aligned = [](const void *ptr, int64_t ld) {
        return reinterpret_cast<uintptr_t>(ptr) % sizeof(Run) == 0 && ld % kRun == 0;
    };
    const bool vector_ok = runs_aligned(d, p.ldd) && (c == nullptr || runs_aligned(c, p.ldc));

#pragma unroll
    for (int i = 0; i < kC.thread_m; ++i) {
        const int row = thread_row_offset(kC, i);
        if (row >= rows_left) continue;
#pragma unroll
        for (int j0 = 0; j0 < kC.thread_n; j0 += kRun) {
            const int col = thread_col_offset(kC, j0);
            TOut *out = d + row * p.ldd + col;
            const TOut *in = c != nullptr ? c + row * p.ldc + col : nullptr;
            if (vector_ok && col + kRun <= cols_left) {
                Run old{};
                if (in != nullptr) old = *reinterpret_cast<const Run *>(in);
                Run result;
#pragma unroll
                for (int e = 0; e < kRun; ++e) {
                    const float product = scaled_product(alpha, tile.acc[i][j0 + e]);
                    result.v[e] =
                        from_float<TOut>(in != nullptr ? plus_scaled_c(product, beta, to_float(old.v[e])) : product);
                }
                *reinterpret_cast<Run *>(out) = result;
            } else {
#pragma unroll
                for (int e = 0; e < kRun; ++e) {
                    if (col + e >= cols_left) break;
                    const float product = scaled_product(alpha, tile.acc[i][j0 + e]);
                    out[e] = from_float<TOut>(in != nullptr ? plus_scaled_c(product, beta, to_float(in[e])) : product);
                }
            }
        }
    }
}

// Rows of the block's tile a fused epilogue stages at a time, and the stage's row stride in floats
// (padded off the banks' period, a multiple of 4 for store_staged's 16-byte reads).
inline constexpr int kFusedRows = 64;
template <int Config>
inline constexpr int kFusedStride = kTileConfigs[Config].tile_n + 4;

// The block's tile of D through the fused bias and activation: the accumulators staged as fp32 in
// `stage` (the mainloop's shared memory, free once every thread is past it), kFusedRows rows at a
// time, then finished and stored as the sm80 family does (kernels/common/staged_store.cuh: a rolled
// pass adds beta * C and the bias and applies the activation in place, then rows of D are stored in
// 16-byte runs).  Per element in the unrolled store above, the activations inlined (or called) at
// each of a thread's 64 accumulators multiplied the kernels' code and their compile time.
template <typename TOut, int Config>
__device__ __forceinline__ void store_tile_fused(const ThreadTile<Config> &tile, const GemmParams &p, int64_t batch,
                                                 int64_t m0, int64_t n0, float alpha, float *stage, int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kStride = kFusedStride<Config>;
    static_assert(kC.tile_m % kFusedRows == 0, "whole passes");
    static_assert(kFusedRows * kStride <= kC.stages * smem_stage_floats(kC), "the stage fits the mainloop's memory");
    const TileOutput<TOut> out(p, batch, m0, n0);
#pragma unroll 1
    for (int first = 0; first < kC.tile_m; first += kFusedRows) {
        __syncthreads();  // the stage is free: the mainloop's, or the last pass's, reads are done
#pragma unroll
        for (int i = 0; i < kC.thread_m; ++i) {
            const int row = tile.first_row() + thread_row_offset(kC, i) - first;
            if (row < 0 || row >= kFusedRows) continue;
#pragma unroll
            for (int j = 0; j < kC.thread_n; ++j)
                stage[row * kStride + tile.first_col() + thread_col_offset(kC, j)] = tile.acc[i][j];
        }
        __syncthreads();
        store_staged_fused<TOut, kC.threads, kC.tile_n, kStride>(out, stage, first, kFusedRows, alpha, p.beta,
                                                                 thread);
    }
}

}  // namespace asyncgemm::simt
