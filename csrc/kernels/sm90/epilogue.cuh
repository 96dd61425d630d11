// A consumer warpgroup's epilogue: D = alpha * acc + beta * C for its 64-row tile, through shared
// memory in chunks of 64 rows x 128 bytes with the 128-byte swizzle, each chunk stored by TMA
// (cp.async.bulk.tensor, clipped at the problem's edges: rows exactly, columns to 16-byte units, so
// a ragged right edge is stored by the threads instead) while the next one is written.  C, when
// beta != 0, is loaded by TMA into the same chunk buffer first, and each thread reads its elements
// from where it will write them.  16-bit D goes to shared memory by stmatrix, fp32 by 8-byte stores
// (two wavefronts per warp either way: the swizzle spreads the eight rows over all banks).
#pragma once

#include <cuda/ptx>
#include <stdint.h>

#include "kernels/common/convert.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/shared_storage.cuh"
#include "kernels/sm90/sm90_params.h"

namespace asyncgemm::sm90 {

namespace ptx = cuda::ptx;

// Byte offset of byte `column_byte` of row `row` in a chunk buffer: 16-byte unit u of row r sits at
// unit u ^ (r % 8), as TMA's 128-byte swizzle places it.
__device__ __forceinline__ uint32_t swizzled_offset(int row, int column_byte) {
    return static_cast<uint32_t>(row) * kRowBytes +
           ((static_cast<uint32_t>(column_byte / 16) ^ static_cast<uint32_t>(row % 8)) * 16) + column_byte % 16;
}

__device__ __forceinline__ uint32_t pack(__half lo, __half hi) {
    return static_cast<uint32_t>(__half_as_ushort(lo)) | (static_cast<uint32_t>(__half_as_ushort(hi)) << 16);
}
__device__ __forceinline__ uint32_t pack(__nv_bfloat16 lo, __nv_bfloat16 hi) {
    return static_cast<uint32_t>(__bfloat16_as_ushort(lo)) | (static_cast<uint32_t>(__bfloat16_as_ushort(hi)) << 16);
}

// A chunk at the right edge of a D whose rows do not end on a 16-byte boundary: a TMA store writes
// whole 16-byte units, so it would overwrite the elements past the row's end (the padding of the
// leading dimension, or the next row).  The warpgroup copies such a chunk out itself, 16 bytes a
// thread where the unit lies inside the row, element by element at the edge.  (ld and the base are
// 16-byte aligned, or TMA would not have been chosen: sm90_tma_obstacle.)
template <typename TOut>
__device__ __forceinline__ void store_edge_chunk(const Sm90Params &p, const char *buffer, int thread, int32_t row0,
                                                 int32_t col0, int64_t batch) {
    constexpr int kPerUnit = 16 / static_cast<int>(sizeof(TOut));
    constexpr int kUnitsPerRow = static_cast<int>(kRowBytes / 16);
    TOut *const d = static_cast<TOut *>(p.d) + batch * p.stride_d;
    for (int u = thread; u < static_cast<int>(kEpilogueChunkRows) * kUnitsPerRow; u += kWarpgroupThreads) {
        const int row = u / kUnitsPerRow;
        const int unit = u % kUnitsPerRow;
        const int64_t r = static_cast<int64_t>(row0) + row;
        const int32_t c = col0 + unit * kPerUnit;
        if (r >= p.m || c >= p.n) continue;
        const char *src = buffer + swizzled_offset(row, unit * 16);
        TOut *dst = d + r * p.ldd + c;
        if (c + kPerUnit <= p.n) {
            *reinterpret_cast<uint4 *>(dst) = *reinterpret_cast<const uint4 *>(src);
        } else {
            for (int e = 0; e < p.n - c; ++e) dst[e] = reinterpret_cast<const TOut *>(src)[e];
        }
    }
}

// Per-consumer epilogue state that lives across tiles: C loads' barrier phase, and which buffer the
// next chunk goes to where a tile has an odd number of chunks (they alternate over all of them).
struct EpilogueState {
    uint32_t c_phase = 0;
    uint32_t buffer = 0;
};

// thread: the thread's index in its warpgroup; consumer: the warpgroup's index among the consumers.
// alpha == 0 means there is no product (acc is not read): D = beta * C.  AddC is beta != 0, a
// template parameter: as a run-time test ptxas if-converts it, and every element then pays a shared
// load, a conversion, an FMA and a select it throws away (twice the instructions of the store).
template <typename TOut, int Config, bool AddC>
__device__ __forceinline__ void store_tile(const float (&acc)[warpgroup_n(kTileConfigs[Config]) / 2],
                                           const Sm90Params &p, const SharedStorage<Config> &smem, int consumer,
                                           int thread, int32_t row0, int32_t col0, int64_t batch, float alpha,
                                           EpilogueState &state) {
    constexpr int kN = warpgroup_n(kTileConfigs[Config]);
    constexpr int kColumns = 128 / static_cast<int>(sizeof(TOut));  // per chunk
    constexpr int kChunks = kN / kColumns;
    constexpr int kGroups = kColumns / 8;  // 8-column accumulator groups per chunk
    static_assert(kChunks >= 1 && kN % kColumns == 0, "whole chunks");
    const bool leader = thread == 0;
    const int warp = thread / 32;
    const int lane = thread % 32;
    const float beta = p.beta;
    const int32_t c_batch = p.c_batched ? static_cast<int32_t>(batch) : 0;
    const int barrier_id = 1 + consumer;

    // Unrolled: the accumulator index must be a constant, or acc goes to local memory.
#pragma unroll
    for (int chunk = 0; chunk < kChunks; ++chunk) {
        // With an even number of chunks per tile the alternation is the same every tile and known at
        // compile time (a run-time index costs the 128-accumulator kernels a spill).
        int buffer_index = chunk % kEpilogueBuffers;
        if constexpr (kChunks % kEpilogueBuffers != 0) {
            buffer_index = static_cast<int>(state.buffer);
            state.buffer = (state.buffer + 1) % kEpilogueBuffers;
        }
        char *buffer = smem.epilogue_buffer(consumer, buffer_index);
        const int32_t chunk_col = col0 + chunk * kColumns;
        // The store issued from this buffer kEpilogueBuffers chunks ago has read it.
        if (leader) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<kEpilogueBuffers - 1>{});
        named_barrier_sync(barrier_id, kWarpgroupThreads);
        if constexpr (AddC) {
            uint64_t *loaded = &smem.c_loaded[consumer];
            if (leader) {
                ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, loaded,
                                               uint32_t{kEpilogueChunkBytes});
                const int32_t coords[3] = {chunk_col, row0, c_batch};
                ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, buffer, &p.c_map, coords, loaded);
            }
            while (!ptx::mbarrier_try_wait_parity(loaded, state.c_phase)) {
            }
            state.c_phase ^= 1u;
        }
        // D's value for accumulator group g (chunk-relative), half h, element e.
        const auto value = [&](int g, int h, int e) {
            const float product = alpha != 0.f ? alpha * acc[4 * (chunk * kGroups + g) + 2 * h + e] : 0.f;
            if constexpr (AddC) {
                const int row = 16 * warp + lane / 4 + 8 * h;
                const int byte = (8 * g + 2 * (lane % 4) + e) * static_cast<int>(sizeof(TOut));
                const TOut old = *reinterpret_cast<const TOut *>(buffer + swizzled_offset(row, byte));
                return fmaf(beta, to_float(old), product);
            } else {
                return product;
            }
        };
        if constexpr (sizeof(TOut) == 2) {
            // stmatrix.x4 of groups g, g + 1: matrices (rows 0-7, g), (rows 8-15, g), (0-7, g+1), (8-15, g+1).
            const int matrix = lane / 8;
            const int row = 16 * warp + (matrix % 2) * 8 + lane % 8;
            const uint32_t base = smem_addr(buffer);
#pragma unroll
            for (int g = 0; g < kGroups; g += 2) {
                uint32_t r[4];
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    const int group = g + q / 2;
                    const int h = q % 2;
                    r[q] = pack(from_float<TOut>(value(group, h, 0)), from_float<TOut>(value(group, h, 1)));
                }
                stmatrix_x4(base + swizzled_offset(row, (g + matrix / 2) * 16), r);
            }
        } else {
#pragma unroll
            for (int g = 0; g < kGroups; ++g) {
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int row = 16 * warp + lane / 4 + 8 * h;
                    const int byte = (8 * g + 2 * (lane % 4)) * 4;
                    const float2 out = make_float2(value(g, h, 0), value(g, h, 1));
                    *reinterpret_cast<float2 *>(buffer + swizzled_offset(row, byte)) = out;
                }
            }
        }
        // The generic-proxy writes must be visible to TMA (the async proxy) before the store reads them.
        ptx::fence_proxy_async(ptx::space_shared);
        named_barrier_sync(barrier_id, kWarpgroupThreads);
        if (p.d_rows_whole || chunk_col + kColumns <= p.n) {
            if (leader) {
                const int32_t coords[3] = {chunk_col, row0, static_cast<int32_t>(batch)};
                ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &p.d_map, coords, buffer);
                ptx::cp_async_bulk_commit_group();
            }
        } else {
            store_edge_chunk<TOut>(p, buffer, thread, row0, chunk_col, batch);
        }
    }
}

}  // namespace asyncgemm::sm90
