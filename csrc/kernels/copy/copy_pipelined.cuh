// COPY_PIPELINED, the guide's N-buffer pattern: each block owns a ring of kPipelineStages stages and
// walks its run of tiles with up to kPipelineStages - 1 of them in flight while one drains.  One
// cp.async group per tile, empty past the run's end, so that waiting for "all but the newest S - 2
// groups" always means "the tile about to drain".
#pragma once

#include "kernels/common/cp_async.cuh"
#include "kernels/copy/stage_drain.cuh"
#include "kernels/copy/stage_fill.cuh"
#include "kernels/copy/stage_scale.cuh"
#include "kernels/copy/vector_width.cuh"

namespace asyncgemm::copy {

template <int ElemBytes, int VecBytes, bool Transpose>
__device__ __forceinline__ void copy2d_pipelined_tiles(const CopyParams &p, char *ring, const TileRun &run) {
    constexpr int S = kPipelineStages;
    const SmemLayout layout = staged_layout(p.layout, VecBytes, ElemBytes);
    auto stage = [&](int64_t k) { return ring + k % S * kStageBytes; };
    auto fill = [&](int64_t k) {
        if (k < run.count) {
            const TileRect src = tile_job<ElemBytes, Transpose>(p, run[k]).src;
            fill_stage_async<ElemBytes, VecBytes>(p, src, stage(k), layout);
        }
        cp_async_commit();
    };

    for (int k = 0; k < S - 1; ++k) fill(k);
    for (int64_t k = 0; k < run.count; ++k) {
        cp_async_wait<S - 2>();  // this thread's copies of tile k have landed
        __syncthreads();         // everyone's have, and tile k - 1 has left its stage
        fill(k + S - 1);         // into the stage tile k - 1 used
        // 8-bit elements are the GEMM planner's copies, which never scale.
        if constexpr (ElemBytes > 1) {
            if (p.alpha != 1.0f) {
                scale_stage<ElemBytes, VecBytes>(p, stage(k), layout);
                __syncthreads();
            }
        }
        const TileRect dst = tile_job<ElemBytes, Transpose>(p, run[k]).dst;
        drain_stage<ElemBytes, VecBytes, Transpose>(p, dst, stage(k), layout);
    }
}

template <int ElemBytes, bool Transpose>
__device__ __forceinline__ void copy2d_pipelined(const CopyParams &p) {
    extern __shared__ __align__(128) char copy_smem[];
    with_vector_width<ElemBytes, 4>(p, [&](auto width) {
        copy2d_pipelined_tiles<ElemBytes, decltype(width)::value, Transpose>(p, copy_smem,
                                                                            block_run(p, kRingTilesPerBlock));
    });
}

}  // namespace asyncgemm::copy
