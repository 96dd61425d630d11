// One thread's accumulators and the shared-memory fragment reads that feed them.
//
// Why A and B sit in shared memory as [k][x] (simt_config.h) and not [x][k]: a thread needs, at each
// k, thread_m values of A and thread_n of B.  From [k][x] those are thread_m / 4 + thread_n / 4
// LDS.128 per k (4 for 8 x 8: 64 FFMA per 4 loads), on consecutive 16-byte vectors across the warp.
// Keeping a K-major operand as [x][k] would allow 16-byte cp.async from global memory, but costs the
// same 16 FFMA per LDS.128 (8 rows x 4 k per 8 loads) while holding 4 k of fragments at once: 64
// fragment registers instead of 32, which with 64 accumulators breaks the 128-register budget of
// two blocks per SM.  So K-major operands are transposed on the way in, by 4-byte copies.
#pragma once

#include "kernels/simt/simt_config.h"

namespace asyncgemm::simt {

template <int Config>
struct ThreadTile {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kM = kC.thread_m;
    static constexpr int kN = kC.thread_n;

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

    __device__ int first_row() const { return first_row_; }
    __device__ int first_col() const { return first_col_; }

    // acc += A_slice * B_slice over one k-slice of shared tiles.  The fragments of step k + 1 are
    // read while step k's FFMAs run (two register sets), and every shared offset is a constant.
    __device__ __forceinline__ void multiply(const float *a_tile, const float *b_tile) {
        float a[2][kM], b[2][kN];
        load_fragment<kM, kC.tile_m>(a[0], a_tile + first_row_, 0);
        load_fragment<kN, kC.tile_n>(b[0], b_tile + first_col_, 0);
#pragma unroll
        for (int k = 0; k < kC.tile_k; ++k) {
            if (k + 1 < kC.tile_k) {
                load_fragment<kM, kC.tile_m>(a[(k + 1) % 2], a_tile + first_row_, k + 1);
                load_fragment<kN, kC.tile_n>(b[(k + 1) % 2], b_tile + first_col_, k + 1);
            }
#pragma unroll
            for (int i = 0; i < kM; ++i) {
#pragma unroll
                for (int j = 0; j < kN; ++j) acc[i][j] = fmaf(a[k % 2][i], b[k % 2][j], acc[i][j]);
            }
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

    int first_row_;  // tile row (column) of acc[0][0], thread_first_row / thread_first_col
    int first_col_;
};

}  // namespace asyncgemm::simt
