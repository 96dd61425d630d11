// Global -> shared copies of one operand's k-slices, into the layout of simt_traits.h: fp32
// [tile_k][tile_x + pad], x = m for A and n for B.
//
// load(tile, k_left, scale, e5m2) moves the next k-slice into `tile` (slices go in order from k = 0;
// k_left = K minus the slice's first k, at most tile_k), each 8-bit element (of the format e5m2 says:
// element_type.cuh, Fp8Bits) times scale(x) for its x within the tile (its block scale:
// block_scale_column.cuh; Unscaled for the other types).  fp32 travels by cp.async: the copy completes at
// the caller's cp.async wait and barrier, while the FFMAs of earlier slices run.  cp.async can
// neither convert nor move 1- or 2-byte scalars, so 16-bit and 8-bit inputs are loaded, converted
// and stored by the thread itself, at once: holding them in registers across a slice of FFMAs would push the
// kernel past 128 registers, and the 16 warps of an SM cover one warp's wait for its loads.
//
// Tails.  Elements with k >= K or past the x extent are written as zeros and never read from
// global memory (cp.async's ignore-src, so their addresses may lie past the matrix).  Zeros are
// needed at k >= K, in both operands: A(i,k) * B(k,j) must vanish there, and a stale value times
// zero can be NaN.  Past the x extent any value would do (it only reaches accumulators that are
// never stored); zeros keep the copies unconditional, so the loop stays free of branches.
//
// Per slice a thread spends a few instructions per copy here against 64 FFMA per k: the source
// pointer advances by a constant, shared addresses are one base plus constants, and everything
// else that decides a copy is fixed per tile.
#pragma once

#include <stdint.h>

#include <type_traits>

#include "kernels/common/convert.cuh"
#include "kernels/common/cp_async.cuh"
#include "kernels/simt/simt_traits.h"

namespace asyncgemm::simt {

// An element's fp32 value; an 8-bit one in the format `e5m2` says (ignored for the other types).
template <typename T>
__device__ __forceinline__ float element_value(T x, bool e5m2) {
    if constexpr (std::is_same_v<T, Fp8Bits>) {
        return to_float(x, e5m2);
    } else {
        return to_float(x);
    }
}

template <typename T, bool KMajor, int Config, int TileX>
class TileLoader;

// MN-major operand: element (k, x) at matrix[k * ld + x].  Each thread moves runs of 4 consecutive x
// at one k (mn_run_* in simt_traits.h), a warp 128 consecutive x: coalesced for any vector width.
template <typename T, int Config, int TileX>
class TileLoader<T, false, Config, TileX> {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kRuns = mn_runs_per_thread(kC, TileX);
    static constexpr int kRunLength = kSmemVectorFloats;
    static constexpr int kRunStepK = mn_run_k(kC, TileX, 0, 1);  // k between a thread's runs
    static constexpr int kTileK = kC.tile_k;
    static constexpr int kStride = smem_row_stride(kC, TileX);
    static constexpr bool kAsync = std::is_same_v<T, float>;

public:
    // `vec`: the host's alignment guarantee in elements (simt::vector_width); 4 and 2 are used as
    // given, anything else moves single elements.
    __device__ TileLoader(const T *matrix, int64_t ld, int64_t extent_x, int64_t x0, int vec, int thread) {
        constexpr TileConfig c = kC;
        first_k_ = mn_run_k(c, TileX, thread, 0);
        run_x_ = mn_run_x(TileX, thread);
        src_ = matrix + first_k_ * ld + x0 + run_x_;
        ld_ = ld;
        shared_offset_ = first_k_ * kStride + run_x_;
        const int64_t left = extent_x - (x0 + run_x_);
        valid_x_ = left <= 0 ? 0 : (left >= kRunLength ? kRunLength : static_cast<int>(left));
        // A run that straddles the x extent goes element by element.
        piece_ = valid_x_ == kRunLength && (vec == 4 || vec == 2) ? vec : 1;
    }

    template <typename Scale>
    __device__ __forceinline__ void load(float *tile, int k_left, const Scale &scale, bool e5m2) {
        const uint32_t first_dst = smem_addr(tile + shared_offset_);
        float scales[kRunLength];
#pragma unroll
        for (int e = 0; e < kRunLength; ++e) scales[e] = scale(run_x_ + e);
#pragma unroll
        for (int r = 0; r < kRuns; ++r) {
            const bool zero = first_k_ + r * kRunStepK >= k_left;
            const T *src = src_ + r * kRunStepK * ld_;
            if constexpr (kAsync) {
                const uint32_t dst = first_dst + r * kRunStepK * kStride * sizeof(float);
                if (piece_ == 4) {
                    cp_async_or_zero<16>(dst, src, zero);
                } else if (piece_ == 2) {
                    cp_async_or_zero<8>(dst, src, zero);
                    cp_async_or_zero<8>(dst + 2 * sizeof(float), src + 2, zero);
                } else {
#pragma unroll
                    for (int e = 0; e < kRunLength; ++e) {
                        cp_async_or_zero<4>(dst + e * sizeof(float), src + e, zero || e >= valid_x_);
                    }
                }
            } else {
                // Zeros past K stay zeros whatever the scale (an infinite one would make them NaN).
                float4 values = make_float4(0.f, 0.f, 0.f, 0.f);
                if (!zero) {
                    const Vector<T, kRunLength> run = load_run(src);
                    values = make_float4(element_value(run.v[0], e5m2) * scales[0],
                                         element_value(run.v[1], e5m2) * scales[1],
                                         element_value(run.v[2], e5m2) * scales[2],
                                         element_value(run.v[3], e5m2) * scales[3]);
                }
                *reinterpret_cast<float4 *>(tile + shared_offset_ + r * kRunStepK * kStride) = values;
            }
        }
        src_ += kTileK * ld_;
    }

private:
    // 16-bit (8-bit) run: one 8-byte (4-byte) load or two of half the size as piece_ allows, else
    // one load per valid element (the rest stay zero).
    __device__ __forceinline__ Vector<T, kRunLength> load_run(const T *src) const {
        Vector<T, kRunLength> run{};
        if (piece_ == 4) {
            run = *reinterpret_cast<const Vector<T, 4> *>(src);
        } else if (piece_ == 2) {
            const Vector<T, 2> lo = *reinterpret_cast<const Vector<T, 2> *>(src);
            const Vector<T, 2> hi = *reinterpret_cast<const Vector<T, 2> *>(src + 2);
            run = {{lo.v[0], lo.v[1], hi.v[0], hi.v[1]}};
        } else {
#pragma unroll
            for (int e = 0; e < kRunLength; ++e) {
                if (e < valid_x_) run.v[e] = src[e];
            }
        }
        return run;
    }

    const T *src_;       // the first run of the next slice
    int64_t ld_;
    int first_k_;        // k of the first run within a slice
    int run_x_;          // x of the runs within the tile
    int shared_offset_;  // floats from a tile's start to the first run
    int valid_x_;        // elements of each run inside the matrix, 0..4
    int piece_;          // elements per copy: 4, 2 or 1
};

// K-major operand: element (x, k) at matrix[x * ld + k].  Each thread moves kGroups k values
// (k_elem_k) of kRows rows (k_elem_x), transposing as it goes; a warp instruction reads whole
// 32-byte sectors of 4 rows.
template <typename T, int Config, int TileX>
class TileLoader<T, true, Config, TileX> {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kRows = k_rows_per_thread(kC, TileX);
    static constexpr int kGroups = k_groups(kC);
    static constexpr int kRowStep = k_elem_x(kC, 0, 1);  // x between a thread's rows
    static constexpr int kTileK = kC.tile_k;
    static constexpr int kStride = smem_row_stride(kC, TileX);
    static constexpr bool kAsync = std::is_same_v<T, float>;

public:
    // `vec` is not used: a K-major operand is always moved one element at a time.
    __device__ TileLoader(const T *matrix, int64_t ld, int64_t extent_x, int64_t x0, int /*vec*/, int thread) {
        constexpr TileConfig c = kC;
        k_ = k_elem_k(thread, 0);
        first_x_ = k_elem_x(c, thread, 0);
        src_ = matrix + (x0 + first_x_) * ld + k_;
        row_step_ = kRowStep * ld;
        shared_offset_ = k_ * kStride + first_x_;
        const int64_t left = extent_x - (x0 + first_x_);
        x_left_ = left <= 0 ? 0 : (left >= TileX ? TileX : static_cast<int>(left));
    }

    template <typename Scale>
    __device__ __forceinline__ void load(float *tile, int k_left, const Scale &scale, bool e5m2) {
        const uint32_t first_dst = smem_addr(tile + shared_offset_);
        const T *src = src_;
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
            const bool row_outside = r * kRowStep >= x_left_;
            const float row_scale = scale(first_x_ + r * kRowStep);
#pragma unroll
            for (int g = 0; g < kGroups; ++g) {
                const bool ignore = row_outside || k_ + g * kCopyLanesK >= k_left;
                if constexpr (kAsync) {
                    const uint32_t dst = first_dst + (g * kCopyLanesK * kStride + r * kRowStep) * sizeof(float);
                    cp_async_or_zero<sizeof(float)>(dst, src + g * kCopyLanesK, ignore);
                } else {
                    tile[shared_offset_ + g * kCopyLanesK * kStride + r * kRowStep] =
                        ignore ? 0.f : element_value(src[g * kCopyLanesK], e5m2) * row_scale;
                }
            }
            src += row_step_;
        }
        src_ += kTileK;
    }

private:
    const T *src_;         // the first row's element in the next slice
    int64_t row_step_;     // elements between a thread's rows
    int k_;                // this thread's first k within a slice
    int first_x_;          // x of the first row within the tile
    int shared_offset_;    // floats from a tile's start to the first row's element
    int x_left_;           // rows of the tile inside the matrix, from this thread's first row
};

}  // namespace asyncgemm::simt
