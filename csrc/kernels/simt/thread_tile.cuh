// One thread's accumulators and the shared-memory fragment reads that feed them.
//
// Why A and B sit in shared memory as [k][x] (simt_traits.h) and not [x][k]: a thread needs, at each
// k, thread_m values of A and thread_n of B.  From [k][x] those are thread_m / 4 + thread_n / 4
// LDS.128 per k (4 for 8 x 8: 64 FFMA per 4 loads), on consecutive 16-byte vectors across the warp.
// Keeping a K-major A as [m][k] would allow 16-byte cp.async from global memory, and one LDS.128
// then gives 4 k of one row: 8 loads for 8 rows x 4 k, the same 16 FFMA per load.  But a fragment
// set then holds 4 k of A (32 registers instead of 8), so the two sets that hide the LDS latency
// take 80 registers instead of 32: with 64 accumulators, past the 128 of two blocks per SM.  So
// K-major operands are transposed on the way in, element by element (tile_loader.cuh).
#pragma once

#include "kernels/simt/simt_traits.h"

namespace asyncgemm::simt {

// The fragments live in two register sets: the kernel reads step k + 1 into one set while step
// k's FFMAs consume the other, across slice boundaries too, so no LDS latency is exposed.  Every
// set index and shared offset is a compile-time constant once the kernel's k loop is unrolled.
template <int Config>
class ThreadTile {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kM = kC.thread_m;
    static constexpr int kN = kC.thread_n;
    static_assert(kFragmentRun == 4, "fragments are read as float4");

public:
    float acc[kM][kN];

    __device__ explicit ThreadTile(int thread) {
        constexpr TileConfig c = kC;
        first_row_ = thread_first_row(c, thread);
        first_col_ = thread_first_col(c, thread);
#pragma unroll
        for (int i = 0; i < kM; ++i) {
#pragma unroll
            for (int j = 0; j < kN; ++j) acc[i][j] = 0.f;
        }
    }

    // The accumulators as one array, row by row (split-K's partials: kernels/common/split_k.cuh).
    __device__ __forceinline__ float (&values())[kM * kN] { return reinterpret_cast<float (&)[kM * kN]>(acc); }

    __device__ int first_row() const { return first_row_; }
    __device__ int first_col() const { return first_col_; }

    // Reads step k of the shared tiles of A and B into register set `set`: thread_m / 4 LDS.128 of
    // A's row k and thread_n / 4 of B's.
    __device__ __forceinline__ void load(int set, const float *a_tile, const float *b_tile, int k) {
        load_fragment<kM, kC.tile_m>(a_[set], a_tile + first_row_, k);
        load_fragment<kN, kC.tile_n>(b_[set], b_tile + first_col_, k);
    }

    // acc += the outer product of register set `set`'s A and B fragments.
    __device__ __forceinline__ void multiply(int set) {
#pragma unroll
        for (int i = 0; i < kM; ++i) {
#pragma unroll
            for (int j = 0; j < kN; ++j) acc[i][j] = fmaf(a_[set][i], b_[set][j], acc[i][j]);
        }
    }

private:
    // Count values of row k of a tile, in runs of 4 (one LDS.128 each) spaced TileX / (Count / 4)
    // apart, as thread_row_offset / thread_col_offset place them.
    template <int Count, int TileX>
    __device__ __forceinline__ static void load_fragment(float (&frag)[Count], const float *first, int k) {
        constexpr int kRuns = Count / kFragmentRun;
#pragma unroll
        for (int run = 0; run < kRuns; ++run) {
            const float4 v = *reinterpret_cast<const float4 *>(first + k * smem_row_stride(kC, TileX) +
                                                               run * (TileX / kRuns));
            frag[run * kFragmentRun + 0] = v.x;
            frag[run * kFragmentRun + 1] = v.y;
            frag[run * kFragmentRun + 2] = v.z;
            frag[run * kFragmentRun + 3] = v.w;
        }
    }

    float a_[2][kM], b_[2][kN];  // fragments, two register sets
    int first_row_;  // tile row (column) of acc[0][0], thread_first_row / thread_first_col
    int first_col_;
};

}  // namespace asyncgemm::simt
