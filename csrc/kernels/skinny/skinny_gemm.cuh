// Skinny GEMM: D = alpha * A·B + beta * C where one side of D is a few columns (up to 16: the tokens
// of a language model's decode step, a solver's right-hand sides), so that the product is bound by
// reading the large operand once from DRAM.  The planner hands it the view of skinny_params.h:
// out[s][r] = sum_k X[s][k] * L[r][k] over the rows r of the large operand L and the few rows s of X.
//
// Each warp streams 16 rows of L with 16-byte loads straight into registers, the steps of a chunk
// (32 elements of K each, skinny_traits.h) in flight at once, and multiplies them with mma.sync m16n8k16: L as the A
// operand, X as B in tiles of 8 of its rows.  No shared-memory staging and no shuffles, because K
// inside a step is permuted: lane (g, t) (lane = 4g + t) loads elements k + 8t .. k + 8t + 7 of rows g
// and g + 8, and elements 8t + {0,1,2,3} stand for the first MMA's columns {2t, 2t+1, 2t+8, 2t+9},
// 8t + {4..7} for the second's, which is exactly where the A fragment wants them.  The lane's 16-byte
// load of X's row g at the same k is then B's fragment under the same permutation, and a dot product
// does not depend on the order of its terms.  f32 inputs take the same rows and elements per lane,
// multiplied by FMA against every small row, and the four lanes of a row add by shuffles
// (walk_k_major_f32).
//
// The warps of a block split its range of K (k_warps per 16 rows, a chunk each in turn) and add their
// sums in shared memory in warp order; where the planner splits K across blocks too, each publishes
// its fp32 partial and the last of a row block to finish adds them in range order (split_k.cuh): the
// same bits on every run.  The epilogue applies alpha, beta, and the fused bias and activation once,
// from fp32.
//
// This header is a translation unit's whole content but for its kernel lines (skinny_kernels.def).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include <type_traits>

#include "kernels/common/convert.cuh"
#include "kernels/common/element_type.cuh"
#include "kernels/common/epilogue_math.h"
#include "kernels/common/fused_epilogue.cuh"
#include "kernels/common/global_load.cuh"
#include "kernels/common/grid_dependency.cuh"
#include "kernels/common/kernel_list.h"
#include "kernels/common/mma_sm80.cuh"
#include "kernels/common/split_k.cuh"
#include "kernels/skinny/skinny_params.h"
#include "kernels/skinny/skinny_traits.h"

namespace asyncgemm::skinny {
namespace {

// Elements of K a step of the K-major walk takes (multiply_chunk and multiply_chunk_checked).
constexpr int kStepK = shape_for(8, true).step_k;

// Elements row[k * stride], row[(k + 1) * stride], ... of the 8 from k, as the 16-byte vector a step
// multiplies: zero from k_end on, where nothing is read.
template <typename T>
__device__ __forceinline__ uint4 load_eight(const T *row, int64_t stride, int64_t k, int64_t k_end) {
    Vector<T, 8> v;
#pragma unroll
    for (int e = 0; e < 8; ++e) v.v[e] = k + e < k_end ? row[(k + e) * stride] : T(0.f);
    return *reinterpret_cast<const uint4 *>(&v);
}

// Elements k .. k + 7 of a row of L: one streamed load, unless the chunk is the last one of K
// (Whole false) and they reach past its end.
template <typename T, bool Whole>
__device__ __forceinline__ uint4 load_large(const T *row, int64_t k, int64_t k_end) {
    if (Whole || k + 8 <= k_end) return load_streamed_16b(row + k);
    return load_eight(row, 1, k, k_end);
}

// Elements k .. k + 7 of a row of X: one load through L1 (every warp of the block reads the same
// ones) where its rows are vectors (Vec), else one at a time along small_k.
template <typename T, bool Vec, bool Whole>
__device__ __forceinline__ uint4 load_small(const T *row, int64_t small_k, int64_t k, int64_t k_end) {
    if (Vec && (Whole || k + 8 <= k_end)) return __ldg(reinterpret_cast<const uint4 *>(row + k));
    return load_eight(row, Vec ? 1 : small_k, k, k_end);
}

// One step of K for the warp's 16 rows (l0: the lane's row g, l1: row g + 8) and every tile of 8
// rows of X (x[j]: the lane's row 8j + g), from element k (the step's first plus 8t).
template <typename T, int Tiles, bool Vec, bool Whole>
__device__ __forceinline__ void multiply_step(float (&acc)[Tiles][4], const uint4 &w0, const uint4 &w1,
                                              const T *const (&x)[Tiles], int64_t small_k, int64_t k, int64_t k_end) {
    const uint32_t first[4] = {w0.x, w1.x, w0.y, w1.y};
    const uint32_t second[4] = {w0.z, w1.z, w0.w, w1.w};
#pragma unroll
    for (int j = 0; j < Tiles; ++j) {
        const uint4 b = load_small<T, Vec, Whole>(x[j], small_k, k, k_end);
        mma_k32_bytes<T>(acc[j], first, b.x, b.y);
        mma_k32_bytes<T>(acc[j], second, b.z, b.w);
    }
}

// A chunk of K wholly inside it, X's rows vectors: every step's loads of L issued before the first
// MMA, so that a warp has its 16 rows' whole chunk in flight.
template <typename T, int Tiles, int Steps>
__device__ __forceinline__ void multiply_chunk(float (&acc)[Tiles][4], const T *l0, const T *l1,
                                               const T *const (&x)[Tiles], int64_t k) {
    uint4 w0[Steps], w1[Steps];
#pragma unroll
    for (int s = 0; s < Steps; ++s) {
        w0[s] = load_streamed_16b(l0 + k + kStepK * s);
        w1[s] = load_streamed_16b(l1 + k + kStepK * s);
    }
#pragma unroll
    for (int s = 0; s < Steps; ++s) multiply_step<T, Tiles, true, true>(acc, w0[s], w1[s], x, 1, k + kStepK * s, 0);
}

// Any other chunk (the last of K, or X's rows not vectors): a step at a time, each load checked.
template <typename T, int Tiles, int Steps, bool Vec>
__device__ __forceinline__ void multiply_chunk_checked(float (&acc)[Tiles][4], const T *l0, const T *l1,
                                                       const T *const (&x)[Tiles], int64_t small_k, int64_t k,
                                                       int64_t k_end) {
#pragma unroll 1
    for (int s = 0; s < Steps; ++s) {
        const int64_t ks = k + kStepK * s;
        multiply_step<T, Tiles, Vec, false>(acc, load_large<T, false>(l0, ks, k_end), load_large<T, false>(l1, ks, k_end),
                                            x, small_k, ks, k_end);
    }
}

// The K-major walk: the warp's 16 rows over its chunks of the block's K range, its sums written to
// `sums` (small row s, row r of the block at s * Stride + r).
template <typename T, int Smalls, int Stride>
__device__ __forceinline__ void walk_k_major(const SkinnyParams &p, int64_t batch, int64_t row0, int row_warp,
                                             int k_warp, int64_t first_chunk, int64_t end_chunk, float *sums) {
    constexpr Shape S = shape_for(Smalls, true);
    constexpr int kTiles = S.smalls / 8;
    constexpr int kChunk = chunk_k(S);
    const int lane = static_cast<int>(threadIdx.x) % 32, g = lane / 4, t = lane % 4;
    // Rows past the end (of a last row block) and small rows past the end (of a tile) read the last
    // one instead: finite values, computed and never stored.
    const int64_t lane_row = row0 + S.rows_per_warp * row_warp + g;
    const int64_t r0 = min(lane_row, p.rows - 1), r1 = min(lane_row + 8, p.rows - 1);
    const int64_t whole_chunks = p.k / kChunk;
    const T *large = static_cast<const T *>(p.large) + batch * p.stride_large;
    const T *const l0 = large + r0 * p.ld_large;
    const T *const l1 = large + r1 * p.ld_large;
    const T *small = static_cast<const T *>(p.small) + batch * p.stride_small;
    const T *x[kTiles];
#pragma unroll
    for (int j = 0; j < kTiles; ++j) x[j] = small + min(static_cast<int64_t>(8 * j + g), p.smalls - 1) * p.small_s;

    float acc[kTiles][4] = {};
    const auto walk = [&](auto vec) {
        constexpr bool kVec = decltype(vec)::value;
        for (int64_t c = first_chunk + k_warp; c < end_chunk; c += S.k_warps) {
            const int64_t k = c * kChunk + 8 * t;
            if (kVec && c < whole_chunks) {
                multiply_chunk<T, kTiles, S.steps>(acc, l0, l1, x, k);
            } else {
                multiply_chunk_checked<T, kTiles, S.steps, kVec>(acc, l0, l1, x, p.small_k, k, p.k);
            }
        }
    };
    if constexpr (S.strided) {
        if (p.small_vector) {
            walk(std::true_type{});
        } else {
            walk(std::false_type{});
        }
    } else {
        walk(std::true_type{});  // the planner gives this kernel vectors alone
    }
    // acc[j][e] is row g + 8 (e / 2) of the warp's 16, small row 8j + 2t + e % 2.
#pragma unroll
    for (int j = 0; j < kTiles; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e)
            sums[(8 * j + 2 * t + e % 2) * Stride + S.rows_per_warp * row_warp + g + 8 * (e / 2)] = acc[j][e];
}

// Elements row[k * stride] .. row[(k + 7) * stride] of an f32 row into v, zero from k_end on: two
// 16-byte loads where the eight lie whole in a row of 16-byte aligned vectors (`vec`, stride 1),
// through L1 (Cached: X, which every warp of the block reads) or streamed (L, read once), else one
// element at a time.  Checked at every load: with one check per step for all of X's rows, ptxas
// issued their eight loads at once and spilled.
template <bool Cached>
__device__ __forceinline__ void load_eight_f32(float (&v)[8], const float *row, int64_t stride, bool vec, int64_t k,
                                               int64_t k_end) {
    if (vec && k + 8 <= k_end) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const uint4 u = Cached ? __ldg(reinterpret_cast<const uint4 *>(row + k + 4 * h))
                                   : load_streamed_16b(row + k + 4 * h);
            v[4 * h] = __uint_as_float(u.x), v[4 * h + 1] = __uint_as_float(u.y);
            v[4 * h + 2] = __uint_as_float(u.z), v[4 * h + 3] = __uint_as_float(u.w);
        }
        return;
    }
#pragma unroll
    for (int e = 0; e < 8; ++e) v[e] = k + e < k_end ? row[(k + e) * stride] : 0.f;
}

// The K-major walk of f32 inputs (8 small rows), by FMA: no tensor-core instruction multiplies exact
// fp32, and the product is bound by reading L anyway.  Lane (g, t) takes rows g and g + 8 of the
// warp's 16 and elements 8t .. 8t + 7 of every 32-element step, as the 16-bit walk does, each against
// the same elements of every small row; the four lanes of a row then add their sums (shuffles, the
// same order on every run) and share the stores.  A step at a time, the step loop rolled: 64 bytes of
// L in flight per lane, half a 16-bit chunk's; two steps at once, or the four unrolled, spilled
// (sm_120's ptxas alone for the latter).
template <int Smalls, int Stride>
__device__ __forceinline__ void walk_k_major_f32(const SkinnyParams &p, int64_t batch, int64_t row0, int row_warp,
                                                 int k_warp, int64_t first_chunk, int64_t end_chunk, float *sums) {
    constexpr Shape S = shape_for(Smalls, true);
    static_assert(S.smalls == 8, "an f32 kernel takes 8 small rows: 16 spilled");
    constexpr int kChunk = chunk_k(S);
    const int lane = static_cast<int>(threadIdx.x) % 32, g = lane / 4, t = lane % 4;
    // Rows past the end (of a last row block) and small rows past the end (of a tile) read the last
    // one instead: finite values, computed and never stored.
    const int64_t lane_row = row0 + S.rows_per_warp * row_warp + g;
    const int64_t rows[2] = {min(lane_row, p.rows - 1), min(lane_row + 8, p.rows - 1)};
    const float *const large = static_cast<const float *>(p.large) + batch * p.stride_large;
    const float *const small = static_cast<const float *>(p.small) + batch * p.stride_small;
    const bool x_vec = p.small_vector != 0;

    float acc[2][S.smalls] = {};
    for (int64_t c = first_chunk + k_warp; c < end_chunk; c += S.k_warps) {
#pragma unroll 1
        for (int s = 0; s < S.steps; ++s) {
            const int64_t k = c * kChunk + S.step_k * s + 8 * t;
            float w[2][8];
#pragma unroll
            for (int r = 0; r < 2; ++r) load_eight_f32<false>(w[r], large + rows[r] * p.ld_large, 1, true, k, p.k);
#pragma unroll
            for (int j = 0; j < S.smalls; ++j) {
                float x[8];
                load_eight_f32<true>(x, small + min(static_cast<int64_t>(j), p.smalls - 1) * p.small_s, p.small_k,
                                     x_vec, k, p.k);
#pragma unroll
                for (int r = 0; r < 2; ++r)
#pragma unroll
                    for (int e = 0; e < 8; ++e) acc[r][j] = fmaf(w[r][e], x[e], acc[r][j]);
            }
        }
    }
    // The four lanes of a row (t = 0..3) hold sums over their own elements of K: add them, then lane t
    // stores the small rows j with j % 4 == t.
#pragma unroll
    for (int r = 0; r < 2; ++r)
#pragma unroll
        for (int j = 0; j < S.smalls; ++j) {
            acc[r][j] += __shfl_xor_sync(0xffffffffu, acc[r][j], 1);
            acc[r][j] += __shfl_xor_sync(0xffffffffu, acc[r][j], 2);
        }
#pragma unroll
    for (int j = 0; j < S.smalls; ++j)
        if (j % 4 == t)
#pragma unroll
            for (int r = 0; r < 2; ++r) sums[j * Stride + S.rows_per_warp * row_warp + g + 8 * r] = acc[r][j];
}

// 8 rows of an MN-major L from `rows` (16 contiguous bytes at one k), or zeros: rows_left of them
// lie in L (from none to all), each read only then.
template <typename T>
__device__ __forceinline__ uint4 load_mn_rows(const T *rows, int64_t rows_left) {
    if (rows_left >= 8) return load_streamed_16b(rows);
    Vector<T, 8> v;
#pragma unroll
    for (int e = 0; e < 8; ++e) v.v[e] = e < rows_left ? rows[e] : T(0.f);
    return *reinterpret_cast<const uint4 *>(&v);
}

// Elements k, k + 1 of a row of X (16-byte aligned, contiguous along K) as one register, zero from
// k_end on.
template <typename T>
__device__ __forceinline__ uint32_t load_x_pair(const T *row, int64_t k, int64_t k_end) {
    if (k + 2 <= k_end) return __ldg(reinterpret_cast<const uint32_t *>(row + k));
    Vector<T, 2> v;
    v.v[0] = k < k_end ? row[k] : T(0.f);
    v.v[1] = T(0.f);
    return *reinterpret_cast<const uint32_t *>(&v);
}

// prmt.b32: the 16-bit halves `lo_half` (0: low, 1: high) of a and of b, a's first.
__device__ __forceinline__ uint32_t pair_halves(uint32_t a, uint32_t b, int lo_half) {
    return __byte_perm(a, b, lo_half ? 0x7632 : 0x5410);
}

// The MN-major walk: lane (g, t) of the warp loads rows 8g .. 8g + 7 of the warp's 64 at K offsets
// 2t, 2t + 1, 2t + 8 and 2t + 9 of a 16-element step.  Word j of the first two loads holds rows
// 8g + 2j and 8g + 2j + 1 at k and k + 1; paired by halves they are the A fragment's registers 0 and 1
// of an m16n8k16 whose logical rows g and g + 8 are those two rows (the last two loads give registers
// 2 and 3), so the four words make four MMAs over 16 rows each, rows 8g + 2j + {0, 1} of lane group g.
// X is read as the B fragment wants it, pairs of K.
template <typename T, int Smalls, int Stride>
__device__ __forceinline__ void walk_mn_major(const SkinnyParams &p, int64_t batch, int64_t row0, int row_warp,
                                              int k_warp, int64_t first_chunk, int64_t end_chunk, float *sums) {
    static_assert(Smalls <= max_smalls(false), "an MN-major L takes at most 8 small rows");
    constexpr Shape S = shape_for(Smalls, false);
    constexpr int kTiles = S.smalls / 8;
    constexpr int kChunk = chunk_k(S);
    const int lane = static_cast<int>(threadIdx.x) % 32, g = lane / 4, t = lane % 4;
    const int64_t lane_row = row0 + S.rows_per_warp * row_warp + 8 * g;
    const int64_t rows_left = p.rows - lane_row;
    const T *large = static_cast<const T *>(p.large) + batch * p.stride_large + (rows_left > 0 ? lane_row : 0);
    const T *small = static_cast<const T *>(p.small) + batch * p.stride_small;
    const T *x[kTiles];
#pragma unroll
    for (int j = 0; j < kTiles; ++j) x[j] = small + min(static_cast<int64_t>(8 * j + g), p.smalls - 1) * p.small_s;

    float acc[4][kTiles][4] = {};
    for (int64_t c = first_chunk + k_warp; c < end_chunk; c += S.k_warps) {
        uint4 w[S.steps][4];
#pragma unroll
        for (int s = 0; s < S.steps; ++s)
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                const int64_t k = c * kChunk + S.step_k * s + 2 * t + q % 2 + 8 * (q / 2);
                w[s][q] = k < p.k ? load_mn_rows(large + k * p.ld_large, rows_left) : make_uint4(0, 0, 0, 0);
            }
#pragma unroll
        for (int s = 0; s < S.steps; ++s) {
            const int64_t k = c * kChunk + S.step_k * s + 2 * t;
            uint32_t b[kTiles][2];
#pragma unroll
            for (int n = 0; n < kTiles; ++n) b[n][0] = load_x_pair(x[n], k, p.k), b[n][1] = load_x_pair(x[n], k + 8, p.k);
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const uint32_t *lo = reinterpret_cast<const uint32_t *>(&w[s][0]);
                const uint32_t *hi = reinterpret_cast<const uint32_t *>(&w[s][1]);
                const uint32_t *lo8 = reinterpret_cast<const uint32_t *>(&w[s][2]);
                const uint32_t *hi8 = reinterpret_cast<const uint32_t *>(&w[s][3]);
                const uint32_t a[4] = {pair_halves(lo[j], hi[j], 0), pair_halves(lo[j], hi[j], 1),
                                       pair_halves(lo8[j], hi8[j], 0), pair_halves(lo8[j], hi8[j], 1)};
#pragma unroll
                for (int n = 0; n < kTiles; ++n) mma_k32_bytes<T>(acc[j][n], a, b[n][0], b[n][1]);
            }
        }
    }
    // acc[j][n][e] is row 8g + 2j + e / 2 of the warp's 64, small row 8n + 2t + e % 2.
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
        for (int n = 0; n < kTiles; ++n)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                sums[(8 * n + 2 * t + e % 2) * Stride + S.rows_per_warp * row_warp + 8 * g + 2 * j + e / 2] =
                    acc[j][n][e];
}

template <typename T, int Smalls, bool LKMajor>
__device__ __forceinline__ void skinny_gemm(const SkinnyParams &p) {
    constexpr Shape kShape = shape_for(Smalls, LKMajor);
    constexpr int kRows = block_rows(kShape);
    constexpr int kTile = Smalls * kRows;  // elements of the block's output
    static_assert(kRows % 32 == 0, "rows of whole banks");
    // Rows of the sums past whole banks: K-major lane (g, t) stores rows g, g + 8 of small rows 2t,
    // 2t + 1, banks g + 8t with 4 floats of padding: one wavefront per store.  MN-major lanes store
    // rows 8g + 2j: one float of padding makes that two wavefronts (banks 8g + 2t).
    constexpr int kStride = kRows + (LKMajor ? 4 : 1);
    __shared__ __align__(16) float sums[kShape.k_warps][Smalls * kStride];

    const int thread = static_cast<int>(threadIdx.x);
    const int warp = thread / 32;
    const int row_warp = warp % kShape.row_warps, k_warp = warp / kShape.row_warps;
    const int64_t row0 = static_cast<int64_t>(blockIdx.x) * kRows;

    constexpr int kChunk = chunk_k(kShape);
    const int64_t chunks = (p.k + kChunk - 1) / kChunk;
    const int split = static_cast<int>(blockIdx.y);
    const int64_t first_chunk = static_cast<int64_t>(split) * p.chunks_per_split;
    const int64_t end_chunk = min(chunks, first_chunk + p.chunks_per_split);

    for (int64_t batch = blockIdx.z; batch < p.batch_count; batch += gridDim.z) {
        if constexpr (LKMajor && std::is_same_v<T, float>) {
            walk_k_major_f32<Smalls, kStride>(p, batch, row0, row_warp, k_warp, first_chunk, end_chunk, sums[k_warp]);
        } else if constexpr (LKMajor) {
            walk_k_major<T, Smalls, kStride>(p, batch, row0, row_warp, k_warp, first_chunk, end_chunk, sums[k_warp]);
        } else {
            static_assert(!std::is_same_v<T, float>, "f32 kernels read L K-major");
            walk_mn_major<T, Smalls, kStride>(p, batch, row0, row_warp, k_warp, first_chunk, end_chunk, sums[k_warp]);
        }
        __syncthreads();
        // The block's tile, element i (small row i / kRows, row i % kRows of the block) at sums[0][at(i)],
        // each the sum of the k warps' in warp order.  Rolled loops from here on: the accumulators are
        // dead, and nothing after the K loop is worth registers.
        const auto at = [](int i) { return i / kRows * kStride + i % kRows; };
        if constexpr (kShape.k_warps > 1) {
            for (int i = thread; i < kTile; i += kThreads) {
                float v = sums[0][at(i)];
#pragma unroll
                for (int w = 1; w < kShape.k_warps; ++w) v += sums[w][at(i)];
                sums[0][at(i)] = v;
            }
        }
        if (p.splits > 1) {
            // Split K (never with batches): publish, and the last block of the row block to finish
            // adds every range's partial in range order.
            float *const area = static_cast<float *>(p.partials) + static_cast<int64_t>(blockIdx.x) * p.splits * kTile;
            for (int i = thread; i < kTile; i += kThreads) __stcg(area + split * kTile + i, sums[0][at(i)]);
            const BlockGroup block;
            block.sync();
            if (!block.agree(thread == 0 && arrive_last_split(p.counters + blockIdx.x, p.splits))) return;
            if (thread == 0) p.counters[blockIdx.x] = 0;
            for (int i = thread; i < kTile; i += kThreads) {
                float v = __ldcg(area + i);
                for (int r = 1; r < p.splits; ++r) v += __ldcg(area + r * kTile + i);
                sums[0][at(i)] = v;
            }
        }
        __syncthreads();

        const auto store = [&](auto out) {
            using TOut = decltype(out);
            TOut *const d = static_cast<TOut *>(p.d) + batch * p.stride_d;
            const TOut *const c = p.beta != 0.f ? static_cast<const TOut *>(p.c) + batch * p.stride_c : nullptr;
            const FusedEpilogue<TOut> fused(p.bias, p.stride_bias, p.type_bias, p.bias_on_small != 0, p.activation,
                                            batch);
            for (int i = thread; i < kTile; i += kThreads) {
                const int64_t s = i / kRows, r = row0 + i % kRows;
                if (s >= p.smalls || r >= p.rows) continue;
                const float product = scaled_product(p.alpha, sums[0][at(i)]);
                const float v =
                    c != nullptr ? plus_scaled_c(product, p.beta, to_float(c[s * p.c_s + r * p.c_r])) : product;
                d[s * p.d_s + r * p.d_r] = from_float<TOut>(fused(v, s, r));
            }
        };
        with_output_type(p.type_cd, store);
        // The next batch's warps write the sums again.
        __syncthreads();
    }
}

}  // namespace
}  // namespace asyncgemm::skinny

// The entry point of one line of skinny_kernels.def.
#define ASYNCGEMM_SKINNY_KERNEL(TYPE, SMALLS, L_MAJOR)                                                        \
    extern "C" __global__ void __launch_bounds__(asyncgemm::skinny::kThreads, asyncgemm::skinny::kBlocksPerSm) \
        asyncgemm_skinny_gemm_##TYPE##_##SMALLS##_##L_MAJOR(const asyncgemm::SkinnyParams params) {          \
        asyncgemm::wait_for_prior_grids();                                                                    \
        asyncgemm::skinny::skinny_gemm<ASYNCGEMM_ELEMENT_##TYPE, SMALLS, ASYNCGEMM_K_MAJOR_##L_MAJOR>(params); \
    }
