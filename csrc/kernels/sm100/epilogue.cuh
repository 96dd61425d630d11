// The epilogue warpgroup: for each of the block's tiles, waits for its accumulator, and each thread takes one
// row of it (its warp's quarter of the tensor-memory lanes) 32 columns at a time with tcgen05.ld, computes
// alpha * acc (alpha times the tensor scales of 8-bit inputs), + beta * C where C did not enter the
// accumulator, and the fused bias and activation where the call has them (fused_epilogue.cuh, as every
// family), converts and stores the 32 elements straight to global memory: 16-byte vectors where the row
// allows, element by element at the right edge.  Once every thread has read the accumulator it is released to
// the MMA thread for the tile after next, so this overlaps the next tile's MMAs (the seed tutorial's design:
// no shared memory for D, and no TMA store traffic competing with the loads).
#pragma once

#include <cuda/ptx>
#include <stdint.h>

#include "kernels/common/convert.cuh"
#include "kernels/common/epilogue_math.h"
#include "kernels/common/fused_epilogue.cuh"
#include "kernels/common/input_scale.cuh"
#include "kernels/common/ring_position.cuh"
#include "kernels/common/tcgen05.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/persistent_scheduler.cuh"
#include "kernels/sm100/shared_storage.cuh"

namespace asyncgemm::sm100 {

namespace ptx = cuda::ptx;

inline constexpr int kChunkColumns = 32;  // columns per tcgen05.ld of 32x32b.x32

// Columns col0.. of `row` (< m) of C, times beta, added to v; nothing past column n.
template <typename TOut>
__device__ __forceinline__ void add_c(const Sm100Params &p, int64_t row, int32_t col0, int64_t batch,
                                      float (&v)[kChunkColumns]) {
    constexpr int kPerVector = 16 / static_cast<int>(sizeof(TOut));
    const TOut *c = static_cast<const TOut *>(p.c) + batch * p.stride_c + row * p.ldc + col0;
    if (p.c_vectors && col0 + kChunkColumns <= p.n) {
#pragma unroll
        for (int u = 0; u < kChunkColumns / kPerVector; ++u) {
            const Vector<TOut, kPerVector> x = reinterpret_cast<const Vector<TOut, kPerVector> *>(c)[u];
#pragma unroll
            for (int e = 0; e < kPerVector; ++e) v[u * kPerVector + e] = plus_scaled_c(v[u * kPerVector + e], p.beta, to_float(x.v[e]));
        }
        return;
    }
#pragma unroll
    for (int e = 0; e < kChunkColumns; ++e)
        if (col0 + e < p.n) v[e] = plus_scaled_c(v[e], p.beta, to_float(c[e]));
}

template <typename TOut>
__device__ __forceinline__ void store_d(const Sm100Params &p, int64_t row, int32_t col0, int64_t batch,
                                        const float (&v)[kChunkColumns]) {
    constexpr int kPerVector = 16 / static_cast<int>(sizeof(TOut));
    TOut *d = static_cast<TOut *>(p.d) + batch * p.stride_d + row * p.ldd + col0;
    if (p.d_vectors && col0 + kChunkColumns <= p.n) {
#pragma unroll
        for (int u = 0; u < kChunkColumns / kPerVector; ++u) {
            Vector<TOut, kPerVector> x;
#pragma unroll
            for (int e = 0; e < kPerVector; ++e) x.v[e] = from_float<TOut>(v[u * kPerVector + e]);
            reinterpret_cast<Vector<TOut, kPerVector> *>(d)[u] = x;
        }
        return;
    }
#pragma unroll
    for (int e = 0; e < kChunkColumns; ++e)
        if (col0 + e < p.n) d[e] = from_float<TOut>(v[e]);
}

// v = act(v + bias) at columns col0.. of `row` (< m), nothing past column n (the bias ends there).
template <typename TOut>
__device__ __forceinline__ void apply_fused(const FusedEpilogue<TOut> &fused, int64_t row, int32_t col0, int32_t n,
                                            float (&v)[kChunkColumns]) {
#pragma unroll
    for (int e = 0; e < kChunkColumns; ++e)
        if (col0 + e < n) v[e] = fused(v[e], row, col0 + e);
}

template <typename TOut>
__device__ __forceinline__ void drain_accumulators(const Sm100Params &p, const SharedStorage &smem, uint32_t tmem_base) {
    const uint32_t quarter = (threadIdx.x / 32) % 4;  // the lanes this warp may read
    const uint32_t lane = threadIdx.x % 32;
    const bool product = p.k_blocks > 0;
    const bool c_here = !p.seed_c && p.beta != 0.f;
    const float alpha = product ? scaled_alpha(p.alpha, p.scale_a, p.scale_b) : 0.f;
    const PersistentScheduler<Sm100Params> schedule(p);
    RingPosition<kAccumulators> accumulator;
    for (int64_t i = schedule.first; i < schedule.count; i += schedule.stride) {
        const WorkTile tile = schedule.item(p, i).place;
        const int64_t row = static_cast<int64_t>(tile.m) * kTileM + quarter * 32 + lane;
        const FusedEpilogue<TOut> fused(p.bias, p.stride_bias, p.type_bias, p.bias_per_row != 0, p.activation,
                                        tile.batch);
        if (product) {
            wait_parity(&smem.acc_full[accumulator.index], accumulator.phase);
            ptx::tcgen05_fence_after_thread_sync();
        }
#pragma unroll 1
        for (int chunk = 0; chunk < kTileN / kChunkColumns; ++chunk) {
            const int32_t col0 = tile.n * kTileN + chunk * kChunkColumns;
            float v[kChunkColumns];
            if (product) {
                __syncwarp();  // tcgen05.ld is warp-collective
                tmem_load_32x32b_x32(
                    tmem_address(tmem_base, quarter * 32,
                                 static_cast<uint32_t>(accumulator.index * kTileN + chunk * kChunkColumns)),
                    v);
#pragma unroll
                for (int e = 0; e < kChunkColumns; ++e) v[e] = scaled_product(alpha, v[e]);
            } else {
#pragma unroll
                for (int e = 0; e < kChunkColumns; ++e) v[e] = 0.f;
            }
            if (row < p.m && col0 < p.n) {
                if (c_here) add_c<TOut>(p, row, col0, tile.batch, v);
                if (!fused.none()) apply_fused(fused, row, col0, p.n, v);
                store_d<TOut>(p, row, col0, tile.batch, v);
            }
        }
        if (product) {
            // Orders this thread's tensor-memory reads before the arrival that lets the MMAs overwrite.
            ptx::tcgen05_fence_before_thread_sync();
            ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &smem.acc_empty[accumulator.index]);
            accumulator.advance();
        }
    }
}

}  // namespace asyncgemm::sm100
