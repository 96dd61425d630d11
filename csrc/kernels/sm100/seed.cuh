// The seed warp: between the C tile's TMA load and its tcgen05.cp into the accumulator, scales it in
// shared memory by beta / alpha where that is not 1 (tcgen05.cp copies, it cannot scale), then
// fences the generic-proxy stores for the async proxy that tcgen05.cp reads through and tells the
// MMA thread the tile is ready.  The element order does not matter to a scale, so the swizzle does
// not either.
#pragma once

#include <cuda/ptx>

#include "kernels/common/mbarrier.cuh"
#include "kernels/common/persistent_scheduler.cuh"
#include "kernels/sm100/shared_storage.cuh"

namespace asyncgemm::sm100 {

namespace ptx = cuda::ptx;

__device__ __forceinline__ void prepare_seeds(const Sm100Params &p, const SharedStorage &smem) {
    if (!p.seed_c) return;
    const int lane = static_cast<int>(threadIdx.x % 32);
    const PersistentScheduler<Sm100Params> schedule(p);
    uint32_t phase = 0;
    for (int64_t i = schedule.first; i < schedule.count; i += schedule.stride, phase ^= 1u) {
        wait_parity(smem.seed_full, phase);
        if (p.seed_scale != 1.f) {
            float4 *values = reinterpret_cast<float4 *>(smem.seed_box(0));
            for (int v = lane; v < static_cast<int>(kSeedBytes / sizeof(float4)); v += 32) {
                float4 x = values[v];
                x.x *= p.seed_scale;
                x.y *= p.seed_scale;
                x.z *= p.seed_scale;
                x.w *= p.seed_scale;
                values[v] = x;
            }
            ptx::fence_proxy_async(ptx::space_shared);
        }
        __syncwarp();
        if (lane == 0) ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, smem.seed_ready);
    }
}

}  // namespace asyncgemm::sm100
