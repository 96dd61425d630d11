// Blackwell GEMM (ASYNCGEMM_ALGO_SM100_TCGEN05): D = alpha * A·B + beta * C with f16 or bf16 A and B,
// or f32 ones multiplied as tf32, in any majors, or K-major e4m3/e5m2 ones (tensor or MX scales),
// fp32 accumulation in tensor memory, f32/f16/bf16 C and D, batched; sm_100a only.
//
// Persistent and warp-specialized, after the Gluon tcgen05 tutorial: one block per SM walks 128 x 128
// output tiles in grouped order.  Warp 0 feeds a ring of shared stages with TMA (producer.cuh); one
// thread of warp 1 issues tcgen05.mma from the swizzled stages into one of two tensor-memory
// accumulators (mma_issuer.cuh); warps 3-6 drain the other accumulator to global memory meanwhile
// (epilogue.cuh).  For D = A·B + C with fp32 C, C is loaded by TMA and copied into the accumulator
// with tcgen05.cp before the first MMA (scaled by beta / alpha in shared memory by warp 2 first,
// seed.cuh), so the MMAs accumulate onto it and the epilogue never reads C.
//
// Not run on Blackwell hardware in this project: compiled for sm_100a, its encodings unit-tested,
// and checked at run time against the pipelined family before first use (plan/self_check.h).
//
// This header is a translation unit's whole content but for its kernel line: the build writes one
// unit per line of sm100_kernels.def, which ASYNCGEMM_SM100_KERNEL below turns into an extern "C"
// entry point.
#include <cuda/ptx>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "kernels/common/element_type.cuh"
#include "kernels/common/kernel_list.h"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/smem_address.cuh"
#include "kernels/sm100/epilogue.cuh"
#include "kernels/sm100/mma_issuer.cuh"
#include "kernels/sm100/producer.cuh"
#include "kernels/sm100/seed.cuh"
#include "kernels/sm100/shared_storage.cuh"
#include "kernels/sm100/sm100_params.h"
#include "kernels/sm100/sm100_traits.h"

namespace asyncgemm::sm100 {
namespace {

namespace ptx = cuda::ptx;

template <typename T>
__device__ __forceinline__ void sm100_gemm(const Sm100Params &p) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
    const uint32_t columns = tmem_columns(kIsFp8<T> && has_mx_scales(p));
    extern __shared__ __align__(128) char dynamic_smem[];
    __shared__ uint64_t full[kStages], empty[kStages], seed_full, seed_ready, seed_empty;
    __shared__ uint64_t acc_full[kAccumulators], acc_empty[kAccumulators];
    __shared__ uint32_t tmem_base_slot;
    char *base = dynamic_smem + (-smem_addr(dynamic_smem) & (kSmemAlign - 1));
    const SharedStorage smem{base, full, empty, &seed_full, &seed_ready, &seed_empty, acc_full, acc_empty};

    const int warp = static_cast<int>(threadIdx.x / 32);
    const bool lane0 = threadIdx.x % 32 == 0;
    if (threadIdx.x == 0) {
        init_barriers(full, 1);
        init_barriers(empty, 1);
        ptx::mbarrier_init(&seed_full, 1);
        ptx::mbarrier_init(&seed_ready, 1);
        ptx::mbarrier_init(&seed_empty, 1);
        init_barriers(acc_full, 1);
        init_barriers(acc_empty, kEpilogueThreads);
        publish_barrier_init();
    }
    // Tensor memory: one warp allocates both accumulators (and, with MX scales, the scales' columns)
    // and gives up its right to allocate more, so another block on this SM could; the address reaches
    // every thread through shared memory.
    if (warp == kMmaWarp) {
        ptx::tcgen05_alloc(ptx::cta_group_1, &tmem_base_slot, columns);
        ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
    }
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    ptx::tcgen05_fence_after_thread_sync();
    const uint32_t tmem_base = tmem_base_slot;

    if (warp == kProducerWarp) {
        if (lane0) produce<T>(p, smem);
    } else if (warp == kMmaWarp) {
        if (lane0) issue_mmas<T>(p, smem, tmem_base);
    } else if (warp == kSeedWarp) {
        prepare_seeds(p, smem);
    } else {
        switch (p.type_cd) {
        case kF32: drain_accumulators<float>(p, smem, tmem_base); break;
        case kF16: drain_accumulators<__half>(p, smem, tmem_base); break;
        default: drain_accumulators<__nv_bfloat16>(p, smem, tmem_base); break;
        }
    }

    // Every accumulator has been read (the epilogue waited for the last MMAs) before it is freed.
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    if (warp == kMmaWarp) {
        __syncwarp();  // tcgen05.dealloc is warp-collective, and lane 0 took its own path above
        ptx::tcgen05_fence_after_thread_sync();
        ptx::tcgen05_dealloc(ptx::cta_group_1, tmem_base, columns);
    }
#endif
}

}  // namespace
}  // namespace asyncgemm::sm100

// The entry point of one line of sm100_kernels.def, its name pasted from the line's words.
#define ASYNCGEMM_SM100_KERNEL(TYPE, SHAPE)                                                                    \
    extern "C" __global__ void __launch_bounds__(asyncgemm::sm100::kThreads, 1)                               \
        asyncgemm_sm100_gemm_##TYPE##_##SHAPE(const __grid_constant__ asyncgemm::Sm100Params params) {        \
        asyncgemm::sm100::sm100_gemm<ASYNCGEMM_ELEMENT_##TYPE>(params);                                       \
    }                                                                                                         \
    static_assert(asyncgemm::sm100::shape_named(#SHAPE), #SHAPE " is not the family's tile");
