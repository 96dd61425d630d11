// D = alpha * acc + beta * C for one lane's mma accumulators, in the output type.
//
// Lane (g, t) = (lane / 4, lane % 4) holds, of mma tile (i, j), columns 2t and 2t + 1 of rows g and
// g + 8 of the warp tile: pairs of adjacent elements.  A pair is stored as one vector (8 bytes of
// fp32, 4 of 16-bit) where D and C allow it, else element by element.  C is read only when
// beta != 0, so D = alpha * A·B exactly even where C (or D's old contents) is NaN; with C == D each
// element is read and then written by the same thread.
#pragma once

#include <stdint.h>

#include <type_traits>

#include "kernels/common/convert.cuh"
#include "kernels/common/cp_async.cuh"
#include "kernels/common/epilogue_math.h"
#include "kernels/common/params.h"
#include "kernels/common/shared_access.cuh"
#include "kernels/common/swizzle.h"
#include "kernels/sm80/sm80_traits.h"
#include "kernels/sm80/warp_tile.cuh"

namespace asyncgemm::sm80 {

// Where one lane's elements of D (and C) go: rows and columns are counted from the lane's first
// element, (row0, col0) of the matrix.
template <typename TOut>
class LaneOutput {
    static constexpr int kPair = 2;
    using Pair = Vector<TOut, kPair>;

public:
    __device__ __forceinline__ LaneOutput(const GemmParams &p, int64_t batch, int64_t row0, int64_t col0, float alpha)
        : d_(static_cast<TOut *>(p.d) + batch * p.stride_d + row0 * p.ldd + col0),
          c_(p.beta != 0.f ? static_cast<const TOut *>(p.c) + batch * p.stride_c + row0 * p.ldc + col0 : nullptr),
          ldd_(p.ldd), ldc_(p.ldc), rows_left_(clamp(p.m - row0)), cols_left_(clamp(p.n - col0)), alpha_(alpha),
          beta_(p.beta) {
        // Every pair starts an even number of elements from the lane's first one.
        const auto aligned = [](const void *ptr, int64_t ld) {
            return reinterpret_cast<uintptr_t>(ptr) % sizeof(Pair) == 0 && ld % kPair == 0;
        };
        pairs_aligned_ = aligned(d_, ldd_) && (c_ == nullptr || aligned(c_, ldc_));
    }

    // True when the element at (row, col) and everything before it in both dimensions lies in D,
    // and pairs are aligned: store_pair may then write up to there.
    __device__ __forceinline__ bool vectors_reach(int row, int col) const {
        return pairs_aligned_ && row < rows_left_ && col < cols_left_;
    }
    __device__ __forceinline__ bool row_inside(int row) const { return row < rows_left_; }
    __device__ __forceinline__ bool reads_c() const { return c_ != nullptr; }

    // Calls store(std::true_type) when C is read (beta != 0), else store(std::false_type): the
    // stores below take that as WithC, so that the choice is made once, not per element.
    template <typename Store>
    __device__ __forceinline__ void with_c(const Store &store) const {
        if (c_ != nullptr) {
            store(std::true_type{});
        } else {
            store(std::false_type{});
        }
    }

    // D's pair at (row, col) for the products (x, y), C read as one vector, unchecked.
    template <bool WithC>
    __device__ __forceinline__ Pair pair_at(int row, int col, float x, float y) const {
        Pair result;
        if constexpr (WithC) {
            const Pair old = *reinterpret_cast<const Pair *>(c_ + row * ldc_ + col);
            result.v[0] = from_float<TOut>(plus_scaled_c(scaled_product(alpha_, x), beta_, to_float(old.v[0])));
            result.v[1] = from_float<TOut>(plus_scaled_c(scaled_product(alpha_, y), beta_, to_float(old.v[1])));
        } else {
            result.v[0] = from_float<TOut>(scaled_product(alpha_, x));
            result.v[1] = from_float<TOut>(scaled_product(alpha_, y));
        }
        return result;
    }

    // The pair (x, y) at (row, col) as one vector, unchecked.
    template <bool WithC>
    __device__ __forceinline__ void store_pair(int row, int col, float x, float y) const {
        *reinterpret_cast<Pair *>(d_ + row * ldd_ + col) = pair_at<WithC>(row, col, x, y);
    }

    // True when every row of D is 16-byte aligned at column `col` (from the lane's first).
    __device__ __forceinline__ bool chunks_aligned(int col) const {
        return reinterpret_cast<uintptr_t>(d_ + col) % sizeof(uint4) == 0 && ldd_ * sizeof(TOut) % sizeof(uint4) == 0;
    }

    // 16 bytes of D's elements at (row, col), unchecked (16-byte aligned there).
    __device__ __forceinline__ void store_chunk(int row, int col, const uint4 &bits) const {
        *reinterpret_cast<uint4 *>(d_ + row * ldd_ + col) = bits;
    }

    // The element v at (row, col), if it lies in D: the edge tiles' path, where a test of C per
    // element costs little beside the bounds checks and saves compiling the path twice.
    __device__ __forceinline__ void store_checked(int row, int col, float v) const {
        if (row < rows_left_ && col < cols_left_) {
            const float product = scaled_product(alpha_, v);
            d_[row * ldd_ + col] =
                from_float<TOut>(c_ != nullptr ? plus_scaled_c(product, beta_, to_float(c_[row * ldc_ + col])) : product);
        }
    }

private:
    // The checks compare 32-bit numbers: a lane's rows and columns are far fewer than 2^31.
    __device__ __forceinline__ static int clamp(int64_t left) {
        return static_cast<int>(min(left, int64_t{INT32_MAX}));
    }

    TOut *d_;
    const TOut *c_;  // null when beta == 0
    int64_t ldd_, ldc_;
    int rows_left_, cols_left_;  // of D from the lane's first element, at most INT32_MAX
    float alpha_, beta_;
    bool pairs_aligned_;
};

// Whether a warp tile of Config in TOut goes out through shared memory (store_tile_staged): 16-bit
// outputs whose warp-tile rows are whole 128-byte spans, as the swizzle needs, where the block tile
// fits in the stages, in kernels that run one block per SM (with two, the other block's K loop
// runs through this one's epilogue).  That is the 128 x 256 configuration.  (fp32 outputs, twice
// the bytes, made ptxas spill 0.5 KB there, and the paired kernels spilled 32 B: both keep the
// direct stores.)
template <typename TOut, int Config>
inline constexpr bool kStagedEpilogue =
    sizeof(TOut) == 2 && kTileConfigs[Config].min_blocks_per_sm == 1 &&
    warp_tile_n(kTileConfigs[Config]) * sizeof(TOut) % (kSwizzleRows * kSwizzleChunkBytes) == 0 &&
    kTileConfigs[Config].tile_m * kTileConfigs[Config].tile_n * sizeof(TOut) <= smem_bytes(kTileConfigs[Config]);

// The warp tile, wholly inside D with 16-byte aligned rows and beta == 0, stored through the warp's
// window of shared memory at `staging` (a shared-window address; free: the K loop is over).  Each
// lane writes its pairs there, rows of 16-byte chunks swizzled as the operand tiles are (swizzle.h:
// the pairs of a quad's 8 rows land in 8 distinct bank groups), then reads whole chunks back, eight
// lanes to a row, and stores them as 16-byte vectors: every store instruction of the warp writes
// four whole 128-byte lines of D, where the pairs wrote 16 bytes of each of 8 rows.  At 4096^3 on
// H100 a first form (f16 only, the store loop wholly unrolled) took the 128 x 256 kernel from 529k
// to 503k cycles (bench/RESULTS.md).
template <typename TOut, typename T, int Config>
__device__ __forceinline__ void store_tile_staged(const WarpTile<T, Config> &warp, const LaneOutput<TOut> &out,
                                                  uint32_t staging, int lane) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kTilesM = mma_tiles_m(kC), kTilesN = mma_tiles_n(kC);
    constexpr int kRowChunks = warp_tile_n(kC) * static_cast<int>(sizeof(TOut)) / kSwizzleChunkBytes;
    constexpr int kRowBytes = kRowChunks * kSwizzleChunkBytes;
    constexpr int kChunkElements = kSwizzleChunkBytes / static_cast<int>(sizeof(TOut));
    static_assert(kMmaN * sizeof(TOut) == kSwizzleChunkBytes, "an n8 tile's row is one chunk");
    // The lane's pair of mma tile (i, j) lies in row 16 i + 8 half + g of the warp tile, at byte
    // 4 t of chunk j, which the swizzle moves to chunk j ^ g (rows 16 i + 8 half are 0 mod 8).
    const int g = lane / 4, t = lane % 4;
    const uint32_t lane_row = staging + static_cast<uint32_t>(g * kRowBytes + t * 2 * sizeof(TOut));
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int row = kMmaM * i + 8 * half;  // from the lane's first
#pragma unroll
            for (int j = 0; j < kTilesN; ++j) {
                const float *acc = &warp.acc[i][j][2 * half];
                const Vector<TOut, 2> pair = out.template pair_at<false>(row, kMmaN * j, acc[0], acc[1]);
                st_shared_b32(lane_row + static_cast<uint32_t>(row * kRowBytes + (j ^ g) * kSwizzleChunkBytes),
                              *reinterpret_cast<const uint32_t *>(&pair));
            }
        }
    }
    __syncwarp();
    constexpr int kRowsPerStore = kWarpSize / kRowChunks;
    // Unrolled by 4, not wholly: with every load of the loop hoisted, ptxas spilled 32-48 B in the
    // kernels of K-major A and B.
#pragma unroll 4
    for (int first = 0; first < warp_tile_m(kC); first += kRowsPerStore) {
        const int row = first + lane / kRowChunks, chunk = lane % kRowChunks;
        out.store_chunk(row - g, chunk * kChunkElements - 2 * t,
                        ld_shared_v4(staging + static_cast<uint32_t>(swizzled_offset(row, chunk, kRowChunks))));
    }
}

// Stores the lane's share of the warp tile.  A warp whose tile lies wholly in D with rows 16-byte
// aligned stores it through shared memory (store_tile_staged) where kStagedEpilogue allows; every
// lane of the warp decides alike.  Otherwise, where all of the lane's share lies in D and pairs are
// aligned, the code is straight-line vector stores: the row offsets computed once, the column
// offsets the stores' immediates.  Elsewhere (edge tiles, odd leading dimensions) each element is
// stored under its bounds check, rows outside D skipped whole.  (The form decides whether ptxas
// spills here: per-element C tests, per-row copies of the bounds, and one loop choosing the vector
// or the checked store per pair each spilled in some kernels, the last 1.4 KB in sm_80's 64 x 64
// warp tiles: bench/RESULTS.md.)  `smem`: the block's stages, no longer read by any warp.
template <typename TOut, typename T, int Config>
__device__ __forceinline__ void store_tile(const WarpTile<T, Config> &warp, const LaneOutput<TOut> &out, char *smem,
                                           int thread) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kTilesM = mma_tiles_m(kC), kTilesN = mma_tiles_n(kC);
    const int lane = thread % kWarpSize;
    // The lane's last element: row 8 of the last mma row, column 1 of the last column.
    const bool vectors = out.vectors_reach(kMmaM * (kTilesM - 1) + 8, kMmaN * (kTilesN - 1) + 1);
    if constexpr (kStagedEpilogue<TOut, Config>) {
        if (!out.reads_c() && __all_sync(~0u, vectors && out.chunks_aligned(-2 * (lane % 4)))) {
            store_tile_staged(warp, out,
                              smem_addr(smem) + static_cast<uint32_t>(thread / kWarpSize * warp_tile_m(kC) *
                                                                      warp_tile_n(kC) * sizeof(TOut)),
                              lane);
            return;
        }
    }
    if (vectors) {
        out.with_c([&](auto c) {
            constexpr bool kWithC = decltype(c)::value;
#pragma unroll
            for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
                for (int half = 0; half < 2; ++half) {
#pragma unroll
                    for (int j = 0; j < kTilesN; ++j) {
                        const float *acc = &warp.acc[i][j][2 * half];
                        out.template store_pair<kWithC>(kMmaM * i + 8 * half, kMmaN * j, acc[0], acc[1]);
                    }
                }
            }
        });
    } else {
#pragma unroll
        for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int row = kMmaM * i + 8 * half;
                if (!out.row_inside(row)) continue;
#pragma unroll
                for (int j = 0; j < kTilesN; ++j) {
                    const float *acc = &warp.acc[i][j][2 * half];
                    out.store_checked(row, kMmaN * j, acc[0]);
                    out.store_checked(row, kMmaN * j + 1, acc[1]);
                }
            }
        }
    }
}

}  // namespace asyncgemm::sm80
