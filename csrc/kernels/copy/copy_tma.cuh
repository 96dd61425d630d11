// COPY_TMA (sm_90+): the tensor-memory accelerator moves whole tiles.  One thread, the leader, keeps
// a ring of kTmaStages stages filled with cp.async.bulk.tensor loads of this block's tiles
// (blockIdx.x, + gridDim.x, ...), each completing on its stage's mbarrier; TMA zero-fills what lies
// outside src.
//
// When alpha != 1 the block first scales each landed stage in place (stage_scale.cuh).
// OP_N: the leader writes each landed stage back with a bulk tensor store, which TMA clips at dst's
// edges, and refills a stage once the store reading it is done (it waits for all but its newest).
// OP_T: the block drains each landed stage through registers, transposing square blocks as the staged
// kernels do (with lanes arranged for the 128-byte swizzle), then the leader refills the stage.
//
// Compiled for an architecture without TMA (the compute_80 PTX that serves GPUs this build has no
// SASS for), the kernel runs the PIPELINED body instead, so it is never silently wrong.
#pragma once

#include <cuda/ptx>

#include "kernels/common/cp_async.cuh"
#include "kernels/copy/copy_pipelined.cuh"
#include "kernels/copy/copy_tma_params.h"
#include "kernels/copy/stage_drain.cuh"
#include "kernels/copy/stage_scale.cuh"

namespace asyncgemm::copy {

namespace ptx = cuda::ptx;

template <int ElemBytes, bool Transpose, int kLanesDown = tma_lanes_down(ElemBytes)>
__device__ __forceinline__ void copy2d_tma_tiles(const CopyTmaParams &tp, char *copy_smem, const TileRun &run) {
#if __CUDA_ARCH__ >= 900
    constexpr int S = kTmaStages;
    __shared__ uint64_t landed[S];
    char *ring = copy_smem + (-smem_addr(copy_smem) & (kTmaStageAlign - 1));
    const CopyParams &p = tp.copy;
    const SmemLayout layout = tma_layout(p.layout);
    const int64_t count = run.count;
    const bool leader = threadIdx.x == 0;
    auto job = [&](int64_t k) { return tile_job<ElemBytes, Transpose>(p, run[k]); };
    auto stage = [&](int64_t k) { return ring + k % S * kTileBytes; };
    auto barrier = [&](int64_t k) { return &landed[k % S]; };
    auto load = [&](int64_t k) {
        const TileRect src = job(k).src;
        const int32_t coords[2] = {static_cast<int32_t>(src.col0), static_cast<int32_t>(src.row0)};
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, barrier(k), kTileBytes);
        ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, stage(k), &tp.src_map, coords, barrier(k));
    };
    auto wait_landed = [&](int64_t k) {
        while (!ptx::mbarrier_try_wait_parity(barrier(k), static_cast<uint32_t>(k / S % 2))) {
        }
    };

    if (leader) {
        for (int s = 0; s < S; ++s) ptx::mbarrier_init(&landed[s], 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);  // visible to the async proxy
    }
    __syncthreads();
    if (leader)
        for (int64_t k = 0; k < min(static_cast<int64_t>(S), count); ++k) load(k);

    const bool scaling = p.alpha != 1.0f;
    if constexpr (Transpose) {
        for (int64_t k = 0; k < count; ++k) {
            wait_landed(k);
            if (scaling) {
                scale_stage<ElemBytes, kTmaVecBytes>(p, stage(k), layout);
                __syncthreads();
            }
            drain_stage<ElemBytes, kTmaVecBytes, true, kLanesDown>(p, job(k).dst, stage(k), layout);
            __syncthreads();  // every thread has read the stage
            if (leader && k + S < count) load(k + S);
        }
    } else {
        if (!scaling && !leader) return;
        for (int64_t k = 0; k < count; ++k) {
            wait_landed(k);
            if (scaling) {
                scale_stage<ElemBytes, kTmaVecBytes>(p, stage(k), layout);
                ptx::fence_proxy_async(ptx::space_shared);  // the scaled values, visible to the store
                __syncthreads();
            }
            if (!leader) continue;
            const TileRect dst = job(k).dst;
            const int32_t coords[2] = {static_cast<int32_t>(dst.col0), static_cast<int32_t>(dst.row0)};
            ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &tp.dst_map, coords, stage(k));
            ptx::cp_async_bulk_commit_group();
            if (k >= 1 && k - 1 + S < count) {
                ptx::cp_async_bulk_wait_group_read(ptx::n32_t<1>{});  // tile k - 1's store has read its stage
                load(k - 1 + S);
            }
        }
        if (leader) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});  // the stages outlive their stores
    }
#else
    copy2d_pipelined_tiles<ElemBytes, kTmaVecBytes, Transpose>(tp.copy, copy_smem, run);
#endif
}

template <int ElemBytes, bool Transpose>
__device__ __forceinline__ void copy2d_tma(const CopyTmaParams &tp) {
    extern __shared__ __align__(128) char copy_smem[];
    copy2d_tma_tiles<ElemBytes, Transpose>(tp, copy_smem, block_run(tp.copy, kRingTilesPerBlock));
}

}  // namespace asyncgemm::copy
