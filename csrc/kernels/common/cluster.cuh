// Thread-block-cluster primitives of sm_90 that CCCL's cuda/ptx does not wrap in a 32-bit form.
//
// mapa and a remote mbarrier arrival on 32-bit shared::cluster addresses: the generic-pointer route
// (__cluster_map_shared_rank) costs 64-bit registers that the 128-accumulator kernels do not have.
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

}  // namespace asyncgemm
