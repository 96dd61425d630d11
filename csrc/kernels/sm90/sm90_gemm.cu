// Hopper GEMM (ASYNCGEMM_ALGO_SM90_TMA_WGMMA): D = alpha * A·B + beta * C with f16 or bf16 A and B
// in any majors, or f32 A and B multiplied as tf32 (K-major), fp32 accumulation, f32/f16/bf16 C and
// D, batched; sm_90a only.
//
// Persistent and warp-specialized: one block per SM walks output tiles in grouped order
// (sm90_config.h).  Warpgroup 0 gives most of its registers away (setmaxnreg) and one of its
// threads feeds a ring of shared stages with TMA loads (producer.cuh); warpgroups 1 and 2 each
// multiply a part of the tile with wgmma.mma_async straight from the swizzled stages (mainloop.cuh)
// and store it through shared memory with TMA (epilogue.cuh); a 64 x 64 tile is warpgroup 1's
// alone.  Configurations with cluster_m == 2 run in clusters of two blocks that share their tile of
// B by TMA multicast.  Where the tiles are too few to fill the SMs, K is split into ranges that are
// work items of their own and meet in a deterministic reduction (split_k.cuh).  The producer runs
// ahead into the next tile while the consumers store the last one, so loads overlap the epilogue;
// where a 16-bit tile has more chunks than the epilogue has buffers, its last chunks are stored during
// the next tile's first K blocks, so the MMAs do not wait for them either.
#include <cuda/ptx>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include <type_traits>

#include "kernels/common/kernel_entry.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/epilogue.cuh"
#include "kernels/sm90/mainloop.cuh"
#include "kernels/sm90/producer.cuh"
#include "kernels/sm90/shared_storage.cuh"
#include "kernels/sm90/sm90_config.h"
#include "kernels/sm90/sm90_params.h"
#include "kernels/sm90/split_k.cuh"
#include "kernels/sm90/tile_scheduler.cuh"

namespace asyncgemm::sm90 {
namespace {

namespace ptx = cuda::ptx;

// How a consumer stores its tiles, one way for the whole launch: two epilogues inlined behind a
// per-tile branch, with 128 accumulators live across it, make ptxas spill hundreds of bytes.
enum class Store {
    Now,       // as each tile's mainloop ends: D of any type, without C
    NowAddC,   // as each tile's mainloop ends, adding beta * C
    Deferred,  // D of the inputs' 16-bit type without C, tiles of more chunks than buffers: the
               // last chunks stored during the next tile's first K blocks (HeldChunks, epilogue.cuh)
};

struct NothingHeld {};

template <typename T, int Config, bool AKMajor, bool BKMajor, Store kStore>
__device__ __forceinline__ void consume(const Sm90Params &p, const SharedStorage<Config> &smem, int consumer) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kN = warpgroup_n(kC);
    constexpr bool kDeferred = kStore == Store::Deferred;
    constexpr bool kAddC = kStore == Store::NowAddC;
    const int thread = static_cast<int>(threadIdx.x) % kWarpgroupThreads;
    const WarpgroupTile wg{consumer / kC.consumers_n, consumer % kC.consumers_n};
    const float alpha = p.k_blocks > 0 ? p.alpha : 0.f;
    const TileScheduler<Config> schedule(p);
    RingPosition<kC.stages> slot;
    EpilogueState state;
    std::conditional_t<kDeferred, HeldChunks<T, Config>, NothingHeld> held;
    for (int64_t i = schedule.first; i < schedule.count; i += schedule.stride) {
        const WorkItem work = schedule.item(p, i);
        const WorkTile &tile = work.place;
        // Without a product (k_blocks == 0) acc stays unwritten and the epilogue, seeing alpha == 0,
        // never reads it: zeroing it here would give ptxas two definitions to merge, and it would
        // keep both sets of 128 registers alive.
        float acc[kN / 2];
        multiply_tile<T, Config, AKMajor, BKMajor>(acc, smem, work.blocks, wg, thread == 0, slot, [&](int) {
            if constexpr (kDeferred) held.store_next(p, smem, consumer, thread, state);
        });
        // What a tile of fewer K blocks than the last one's held chunks left.
        if constexpr (kDeferred) held.store_rest(p, smem, consumer, thread, state);
        // Split-K (never with batches): the last range of the tile to finish stores the sum.
        if (p.splits > 1 && !reduce_splits<Config>(acc, p, smem, consumer, thread, work.tile, work.split)) continue;
        const int32_t row0 = tile.m * kC.tile_m + 64 * wg.wg_m;
        const int32_t col0 = tile.n * kC.tile_n + kN * wg.wg_n;
        const int64_t batch = tile.batch;
        if constexpr (kDeferred) {
            store_tile<T, Config, false, HeldChunks<T, Config>::kFirst>(acc, p, smem, consumer, thread, row0, col0,
                                                                          batch, alpha, state);
            held.hold(acc, alpha, row0, col0, batch);
        } else {
            switch (p.type_cd) {
            case kF32:
                store_tile<float, Config, kAddC>(acc, p, smem, consumer, thread, row0, col0, batch, alpha, state);
                break;
            case kF16:
                store_tile<__half, Config, kAddC>(acc, p, smem, consumer, thread, row0, col0, batch, alpha, state);
                break;
            default:
                store_tile<__nv_bfloat16, Config, kAddC>(acc, p, smem, consumer, thread, row0, col0, batch, alpha,
                                                         state);
                break;
            }
        }
    }
    if constexpr (kDeferred) held.store_rest(p, smem, consumer, thread, state);
    // The block's shared memory must outlive the last stores' reads of it; their writes to D need not
    // land before the block exits (the grid's end makes them visible), so only the reads are awaited.
    if (thread == 0) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
}

// The launch's way of storing (Store), chosen once: C or not, and D's type.
template <typename T, int Config, bool AKMajor, bool BKMajor>
__device__ __forceinline__ void consume_as_launched(const Sm90Params &p, const SharedStorage<Config> &smem,
                                                    int consumer) {
    if (p.beta != 0.f) {
        consume<T, Config, AKMajor, BKMajor, Store::NowAddC>(p, smem, consumer);
        return;
    }
    if constexpr (sizeof(T) == 2 && kTileChunks<T, Config> > kEpilogueBuffers) {
        if (p.type_cd == kDTypeOf<T>) {
            consume<T, Config, AKMajor, BKMajor, Store::Deferred>(p, smem, consumer);
            return;
        }
    }
    consume<T, Config, AKMajor, BKMajor, Store::Now>(p, smem, consumer);
}

template <typename T, int Config>
__device__ __forceinline__ void sm90_gemm(const Sm90Params &p) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr TileConfig kC = kTileConfigs[Config];
    extern __shared__ __align__(128) char dynamic_smem[];
    constexpr int kActive = consumers(kC);
    __shared__ uint64_t full[kC.stages], empty[kC.stages], c_loaded[kActive];
    __shared__ int split_last[kActive];
    char *base = dynamic_smem + (-smem_addr(dynamic_smem) & (kSmemAlign - 1));
    const SharedStorage<Config> smem{base, full, empty, c_loaded, split_last};

    constexpr int kCluster = kC.cluster_m;
    // A cluster's blocks must see each other's barriers initialized before the first multicast or
    // remote arrival, and stay until the last: both ends are cluster barriers.
    const auto cluster_sync = [] {
        ptx::barrier_cluster_arrive();
        ptx::barrier_cluster_wait();
    };
    const int warpgroup = static_cast<int>(threadIdx.x) / kWarpgroupThreads;
    if (threadIdx.x == 0) {
        for (int s = 0; s < kC.stages; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], kActive * kCluster);
        }
        for (int c = 0; c < kActive; ++c) ptx::mbarrier_init(&c_loaded[c], 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);  // visible to the async proxy
    }
    if constexpr (kCluster > 1) {
        cluster_sync();
    } else {
        __syncthreads();
    }

    // Each role ends in its own branch: code after a join would run under both register budgets.  A
    // consumer warpgroup the configuration does not use takes the producer's branch and budget.
    if (warpgroup == 0 || warpgroup > kActive) {
        setmaxnreg_dec<kProducerRegisters>();
        if (threadIdx.x == 0) produce<T, Config>(p, smem);
        if constexpr (kCluster > 1) cluster_sync();
    } else {
        setmaxnreg_inc<kConsumerRegisters>();
        const int consumer = warpgroup - 1;
        // The majors pick the wgmma transpose bits, immediates of the instruction, and beta != 0 whether
        // the epilogue reads C: one branch per launch.  tf32 is K-major alone (the planner sends nothing else).
        if constexpr (std::is_same_v<T, float>) {
            consume_as_launched<T, Config, true, true>(p, smem, consumer);
        } else if (p.a_k_major) {
            if (p.b_k_major) consume_as_launched<T, Config, true, true>(p, smem, consumer);
            else consume_as_launched<T, Config, true, false>(p, smem, consumer);
        } else {
            if (p.b_k_major) consume_as_launched<T, Config, false, true>(p, smem, consumer);
            else consume_as_launched<T, Config, false, false>(p, smem, consumer);
        }
        if constexpr (kCluster > 1) cluster_sync();
    }
#endif
}

}  // namespace
}  // namespace asyncgemm::sm90

// One extern "C" entry point per kernel of kKernels, checked against the table at compile time.
#define ASYNCGEMM_SM90_KERNEL(NAME, T, CONFIG)                                                                    \
    extern "C" __global__ void __launch_bounds__(asyncgemm::sm90::kThreads, 1)                                    \
        NAME(const __grid_constant__ asyncgemm::Sm90Params params) {                                              \
        asyncgemm::sm90::sm90_gemm<T, CONFIG>(params);                                                            \
    }                                                                                                             \
    static_assert(asyncgemm::sm90::kernel_index(asyncgemm::kDTypeOf<T>, CONFIG) >= 0 &&                           \
                      asyncgemm::same_name(                                                                       \
                          asyncgemm::sm90::kKernels[asyncgemm::sm90::kernel_index(asyncgemm::kDTypeOf<T>, CONFIG)] \
                              .name,                                                                              \
                          #NAME),                                                                                 \
                  #NAME " does not match its kKernels entry")

ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_f16_128x256_s4, __half, asyncgemm::sm90::kConfigWide);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_f16_128x128_s6, __half, asyncgemm::sm90::kConfigSquare);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_f16_64x256_s4, __half, asyncgemm::sm90::kConfigShortM);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_f16_128x64_s8, __half, asyncgemm::sm90::kConfigNarrow);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_f16_64x128_s8, __half, asyncgemm::sm90::kConfigShortNarrow);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_f16_128x256_s4_c2, __half, asyncgemm::sm90::kConfigWidePair);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_bf16_128x256_s4, __nv_bfloat16, asyncgemm::sm90::kConfigWide);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_bf16_128x128_s6, __nv_bfloat16, asyncgemm::sm90::kConfigSquare);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_bf16_64x256_s4, __nv_bfloat16, asyncgemm::sm90::kConfigShortM);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_bf16_128x64_s8, __nv_bfloat16, asyncgemm::sm90::kConfigNarrow);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_bf16_64x128_s8, __nv_bfloat16, asyncgemm::sm90::kConfigShortNarrow);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_bf16_128x256_s4_c2, __nv_bfloat16, asyncgemm::sm90::kConfigWidePair);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_tf32_128x256_s4, float, asyncgemm::sm90::kConfigWide);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_tf32_128x128_s6, float, asyncgemm::sm90::kConfigSquare);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_tf32_64x256_s4, float, asyncgemm::sm90::kConfigShortM);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_tf32_128x64_s8, float, asyncgemm::sm90::kConfigNarrow);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_tf32_64x128_s8, float, asyncgemm::sm90::kConfigShortNarrow);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_f16_64x64_s13, __half, asyncgemm::sm90::kConfigSingle);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_bf16_64x64_s13, __nv_bfloat16, asyncgemm::sm90::kConfigSingle);
ASYNCGEMM_SM90_KERNEL(asyncgemm_sm90_gemm_tf32_64x64_s13, float, asyncgemm::sm90::kConfigSingle);
