// D = alpha * acc + beta * C for one warp's mma accumulators, in the output type.
//
// Lane (g, t) = (lane / 4, lane % 4) holds, of mma tile (i, j), columns 2t and 2t + 1 of rows g and
// g + 8: each pair is stored as one vector (8 bytes of fp32, 4 of 16-bit) when D and C allow it, else
// element by element.  C is read only when beta != 0, so D = alpha * A·B exactly even where C (or
// D's old contents) is NaN; with C == D each element is read and then written by the same thread.
#pragma once

#include <stdint.h>

#include "kernels/common/convert.cuh"
#include "kernels/common/params.h"
#include "kernels/sm80/sm80_config.h"
#include "kernels/sm80/warp_tile.cuh"

namespace asyncgemm::sm80 {

// Stores rows of mma tiles i0 .. i0 + rows - 1 of the warp tile (all of them by default).
template <typename TOut, typename T, int Config>
__device__ __forceinline__ void store_tile(const WarpTile<T, Config> &warp, const GemmParams &p, int64_t batch,
                                           int64_t m0, int64_t n0, float alpha, int lane, int i0 = 0,
                                           int rows = mma_tiles_m(kTileConfigs[Config])) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kPair = 2;
    using Pair = Vector<TOut, kPair>;

    const int64_t row0 = m0 + warp.warp_m0 + lane / 4;
    const int64_t col0 = n0 + warp.warp_n0 + 2 * (lane % 4);
    const int64_t rows_left = p.m - row0;
    const int64_t cols_left = p.n - col0;
    const float beta = p.beta;
    TOut *d = static_cast<TOut *>(p.d) + batch * p.stride_d + row0 * p.ldd + col0;
    const TOut *c = beta != 0.f ? static_cast<const TOut *>(p.c) + batch * p.stride_c + row0 * p.ldc + col0 : nullptr;
    // Every pair starts an even number of elements from the lane's first one.
    const auto pairs_aligned = [](const void *ptr, int64_t ld) {
        return reinterpret_cast<uintptr_t>(ptr) % sizeof(Pair) == 0 && ld % kPair == 0;
    };
    const bool vector_ok = pairs_aligned(d, p.ldd) && (c == nullptr || pairs_aligned(c, p.ldc));

#pragma unroll
    for (int i = 0; i < mma_tiles_m(kC); ++i) {
        if (i < i0 || i >= i0 + rows) continue;
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int row = kMmaM * i + 8 * half;
            if (row >= rows_left) continue;
#pragma unroll
            for (int j = 0; j < mma_tiles_n(kC); ++j) {
                const int col = kMmaN * j;
                const float *acc = &warp.acc[i][j][2 * half];
                TOut *out = d + row * p.ldd + col;
                const TOut *in = c != nullptr ? c + row * p.ldc + col : nullptr;
                if (vector_ok && col + kPair <= cols_left) {
                    Pair old{};
                    if (in != nullptr) old = *reinterpret_cast<const Pair *>(in);
                    Pair result;
#pragma unroll
                    for (int e = 0; e < kPair; ++e) {
                        const float product = alpha * acc[e];
                        result.v[e] = from_float<TOut>(in != nullptr ? fmaf(beta, to_float(old.v[e]), product) : product);
                    }
                    *reinterpret_cast<Pair *>(out) = result;
                } else {
#pragma unroll
                    for (int e = 0; e < kPair; ++e) {
                        if (col + e >= cols_left) break;
                        const float product = alpha * acc[e];
                        out[e] = from_float<TOut>(in != nullptr ? fmaf(beta, to_float(in[e]), product) : product);
                    }
                }
            }
        }
    }
}

}  // namespace asyncgemm::sm80
