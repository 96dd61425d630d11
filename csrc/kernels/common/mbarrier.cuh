// mbarrier and cluster primitives on 32-bit shared addresses, which CCCL's cuda/ptx takes only as
// generic pointers.  A generic pointer costs 64-bit registers that the 128-accumulator kernels do not
// have, and a conversion back to a shared address at each use.
#pragma once

#include <stdint.h>

namespace asyncgemm {

// mapa.shared::cluster.u32: the shared::cluster address of shared::cta address `smem_address` in
// the block of rank `rank` of this cluster.
__device__ __forceinline__ uint32_t map_shared_rank(uint32_t smem_address, uint32_t rank) {
    uint32_t result;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(result) : "r"(smem_address), "r"(rank));
    return result;
}

// mbarrier.arrive.shared::cluster.b64: one arrival on the barrier at shared::cluster address
// `barrier`, possibly in another block of the cluster, with the default .release.cta semantics: it
// announces that reads have finished and publishes no writes, and a .release.cluster arrival would
// make every arriving thread wait for a cluster-wide fence.
__device__ __forceinline__ void mbarrier_arrive_cluster(uint32_t barrier) {
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(barrier) : "memory");
}

// mbarrier.try_wait.parity.shared::cta.b64: whether the phase of parity `parity` of the barrier at
// shared::cta address `barrier` has completed (the thread may be suspended a while first).
__device__ __forceinline__ bool mbarrier_try_wait_parity_shared(uint32_t barrier, uint32_t parity) {
    uint32_t done;
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(barrier), "r"(parity)
        : "memory");
    return done != 0;
}

// mbarrier.arrive.shared::cta.b64 (release.cta): one arrival on this block's barrier at `barrier`.
__device__ __forceinline__ void mbarrier_arrive_shared(uint32_t barrier) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(barrier) : "memory");
}

}  // namespace asyncgemm
