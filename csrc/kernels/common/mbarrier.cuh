// mbarriers: set-up and the parity wait, written once for every family that pipelines through them
// (TMA loads, tcgen05 commits, warp roles handing work to each other).
//
// The wait takes a 32-bit shared-window address: CCCL's cuda::ptx takes a generic pointer, whose
// 64-bit register pair the 128-accumulator kernels cannot spare, and converts it back at each use.
#pragma once

#include <cuda/ptx>
#include <stdint.h>

#include "kernels/common/smem_address.cuh"

namespace asyncgemm {

// mbarrier.init.shared::cta.b64 (cuda::ptx) of each barrier, expecting `arrivals` arrivals a phase.
template <int N>
__device__ __forceinline__ void init_barriers(uint64_t (&barriers)[N], uint32_t arrivals) {
#pragma unroll
    for (int i = 0; i < N; ++i) cuda::ptx::mbarrier_init(&barriers[i], arrivals);
}

// fence.mbarrier_init.release.cluster (cuda::ptx): makes the initialised barriers visible to the
// async proxy (TMA's complete_tx, tcgen05.commit).  The initialising thread calls it once, before
// the barrier (__syncthreads) that lets other threads use them.
__device__ __forceinline__ void publish_barrier_init() {
    cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
}

// mbarrier.try_wait.parity.shared::cta.b64, retried until the phase of parity `parity` of the
// barrier at shared-window address `barrier` has completed (each try may suspend the thread a
// while).  A fresh barrier counts as having completed the phase before its first, parity 1.
__device__ __forceinline__ void wait_parity(uint32_t barrier, uint32_t parity) {
    uint32_t done;
    do {
        asm volatile(
            "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
            : "=r"(done)
            : "r"(barrier), "r"(parity)
            : "memory");
    } while (done == 0);
}
__device__ __forceinline__ void wait_parity(const uint64_t *barrier, uint32_t parity) {
    wait_parity(smem_addr(barrier), parity);
}

// mbarrier.arrive.shared::cta.b64 (release.cta): one arrival on the barrier at `barrier`.
__device__ __forceinline__ void arrive(uint32_t barrier) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(barrier) : "memory");
}

}  // namespace asyncgemm
