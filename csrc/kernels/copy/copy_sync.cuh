// COPY_SYNC, the memcpy_async guide's baseline: the block's threads load their tile from global
// memory into registers, store it to shared memory and, after a barrier, write it out.  Nothing
// overlaps within a block; the other resident blocks hide the load latency.  One tile per block.
#pragma once

#include "kernels/copy/stage_drain.cuh"
#include "kernels/copy/stage_fill.cuh"
#include "kernels/copy/stage_scale.cuh"
#include "kernels/copy/vector_width.cuh"

namespace asyncgemm::copy {

template <int ElemBytes, int VecBytes, bool Transpose>
__device__ __forceinline__ void copy2d_sync_tile(const CopyParams &p, char *stage) {
    const SmemLayout layout = staged_layout(p.layout, VecBytes, ElemBytes);
    const TileJob job = tile_job<ElemBytes, Transpose>(p, blockIdx.x);
    fill_stage_sync<ElemBytes, VecBytes>(p, job.src, stage, layout);
    __syncthreads();
    if (p.alpha != 1.0f) {
        scale_stage<ElemBytes, VecBytes>(p, stage, layout);
        __syncthreads();
    }
    drain_stage<ElemBytes, VecBytes, Transpose>(p, job.dst, stage, layout);
}

// Takes every vector width, down to single 16-bit elements: the one algorithm for 2-byte alignment.
template <int ElemBytes, bool Transpose>
__device__ __forceinline__ void copy2d_sync(const CopyParams &p) {
    extern __shared__ __align__(128) char copy_smem[];
    with_vector_width<ElemBytes, 2>(p, [&](auto width) {
        copy2d_sync_tile<ElemBytes, decltype(width)::value, Transpose>(p, copy_smem);
    });
}

}  // namespace asyncgemm::copy
