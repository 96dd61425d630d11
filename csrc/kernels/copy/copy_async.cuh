// COPY_ASYNC: the baseline with cp.async (sm_80+) in place of the register round trip.  The tile
// goes from global to shared memory without passing through registers; the block waits for it, then
// writes it out.  Single-stage, one tile per block: the other resident blocks hide the latency.
#pragma once

#include "kernels/common/cp_async.cuh"
#include "kernels/copy/stage_drain.cuh"
#include "kernels/copy/stage_fill.cuh"
#include "kernels/copy/stage_scale.cuh"
#include "kernels/copy/vector_width.cuh"

namespace asyncgemm::copy {

template <int ElemBytes, int VecBytes, bool Transpose>
__device__ __forceinline__ void copy2d_async_tile(const CopyParams &p, char *stage) {
    const SmemLayout layout = staged_layout(p.layout, VecBytes, ElemBytes);
    const TileJob job = tile_job<ElemBytes, Transpose>(p, blockIdx.x);
    fill_stage_async<ElemBytes, VecBytes>(p, job.src, stage, layout);
    cp_async_commit();
    cp_async_wait<0>();
    __syncthreads();  // every thread's copies have landed
    if (p.alpha != 1.0f) {
        scale_stage<ElemBytes, VecBytes>(p, stage, layout);
        __syncthreads();
    }
    drain_stage<ElemBytes, VecBytes, Transpose>(p, job.dst, stage, layout);
}

template <int ElemBytes, bool Transpose>
__device__ __forceinline__ void copy2d_async(const CopyParams &p) {
    extern __shared__ __align__(128) char copy_smem[];
    with_vector_width<ElemBytes, 4>(p, [&](auto width) {
        copy2d_async_tile<ElemBytes, decltype(width)::value, Transpose>(p, copy_smem);
    });
}

}  // namespace asyncgemm::copy
