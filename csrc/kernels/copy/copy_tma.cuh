// COPY_TMA (sm_90+): the tensor-memory accelerator loads whole tiles.  One thread, the leader, keeps
// the block's ring of kTmaStages stages filled with cp.async.bulk.tensor loads of its run of tiles,
// each completing on its stage's mbarrier; TMA zero-fills what lies outside src.  The block drains
// each landed stage through registers as the staged kernels do (transposing square blocks for OP_T,
// with lanes arranged for the 128-byte swizzle), then the leader refills the stage.
//
// Compiled for an architecture without TMA (the compute_80 PTX that serves GPUs this build has no
// SASS for), the kernel runs the PIPELINED body instead, so it is never silently wrong.
#pragma once

#include <cuda/ptx>

#include "kernels/common/cp_async.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/copy/copy_pipelined.cuh"
#include "kernels/copy/copy_tma_params.h"
#include "kernels/copy/stage_drain.cuh"
#include "kernels/copy/stage_scale.cuh"

namespace asyncgemm::copy {

namespace ptx = cuda::ptx;

template <int ElemBytes, bool Transpose>
__device__ __forceinline__ void copy2d_tma_tiles(const CopyTmaParams &tp, char *smem, const TileRun &run) {
#if __CUDA_ARCH__ >= 900
    constexpr int S = kTmaStages;
    __shared__ uint64_t landed[S];
    char *ring = smem + (-smem_addr(smem) & (kTmaStageAlign - 1));
    const CopyParams &p = tp.copy;
    const SmemLayout layout = tma_layout(p.layout);
    const bool leader = threadIdx.x == 0;
    auto stage = [&](int64_t k) { return ring + k % S * kTileBytes; };
    auto barrier = [&](int64_t k) { return &landed[k % S]; };
    auto load = [&](int64_t k) {
        const TileRect src = tile_job<ElemBytes, Transpose>(p, run[k]).src;
        const int32_t coords[2] = {static_cast<int32_t>(src.col0), static_cast<int32_t>(src.row0)};
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, barrier(k), kTileBytes);
        ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, stage(k), &tp.src_map, coords, barrier(k));
    };

    if (leader) {
        init_barriers(landed, 1);
        publish_barrier_init();
        for (int64_t k = 0; k < min(static_cast<int64_t>(S), run.count); ++k) load(k);
    }
    __syncthreads();
    for (int64_t k = 0; k < run.count; ++k) {
        wait_parity(barrier(k), static_cast<uint32_t>(k / S % 2));
        if (p.alpha != 1.0f) {
            scale_stage<ElemBytes, kTmaVecBytes>(p, stage(k), layout);
            __syncthreads();
        }
        drain_stage<ElemBytes, kTmaVecBytes, Transpose, tma_lanes_down(ElemBytes)>(
            p, tile_job<ElemBytes, Transpose>(p, run[k]).dst, stage(k), layout);
        __syncthreads();  // every thread has read the stage
        if (leader && k + S < run.count) load(k + S);
    }
#else
    copy2d_pipelined_tiles<ElemBytes, kTmaVecBytes, Transpose>(tp.copy, smem, run);
#endif
}

template <int ElemBytes, bool Transpose>
__device__ __forceinline__ void copy2d_tma(const CopyTmaParams &tp) {
    extern __shared__ __align__(128) char copy_smem[];
    copy2d_tma_tiles<ElemBytes, Transpose>(tp, copy_smem, block_run(tp.copy, kRingTilesPerBlock));
}

}  // namespace asyncgemm::copy
