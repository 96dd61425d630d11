// Hopper GEMM (ASYNCGEMM_ALGO_SM90_TMA_WGMMA): D = act(alpha * sa * sb * A·B + beta * C + bias) with
// f16 or bf16 A and B in any majors, f32 A and B multiplied as tf32 (K-major), or 8-bit A and B
// (K-major; each e4m3 or e5m2, the formats read from the launch) with their tensor scales sa and sb or
// block scales (applied per K block: block_scaled_mainloop.cuh); fp32 accumulation, f32/f16/bf16 C and
// D, batched, the bias and activation where the call fuses them; sm_90a only.
//
// Persistent and warp-specialized: one block per SM walks output tiles in grouped order
// (kernels/common/persistent_scheduler.cuh).  Warpgroup 0 gives most of its registers away
// (setmaxnreg) and one of its threads feeds a ring of shared stages with TMA loads (producer.cuh);
// warpgroups 1 and 2 each multiply a part of the tile with wgmma.mma_async straight from the
// swizzled stages (mainloop.cuh) and store it through shared memory with TMA (epilogue.cuh); a
// 64 x 64 tile is warpgroup 1's alone.  Where the tiles are too few to fill the SMs, K is split into
// ranges that are work items of their own and meet in a deterministic reduction
// (kernels/common/split_k.cuh).  The producer runs ahead into the next tile while the consumers store
// the last one, so loads overlap the epilogue; where a 16-bit tile has more chunks than the epilogue
// has buffers, its last chunks are stored during the next tile's first K blocks, so the MMAs do not
// wait for them either.
//
// A launch may begin while the kernel before it in the stream finishes (programmatic dependent
// launch): the block sets up its barriers and prefetches its tensor maps, then waits for that kernel
// to complete before it touches global memory (kernels/common/grid_dependency.cuh).
//
// This header is a translation unit's whole content but for its kernel line: the build writes one
// unit per line of sm90_kernels.def, which ASYNCGEMM_SM90_KERNEL below turns into an extern "C" entry
// point for one input type and configuration; a 16-bit one serves every pair of operand majors, an
// 8-bit one every pair of formats.
#include <cuda/ptx>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include <type_traits>

#include "kernels/common/element_type.cuh"
#include "kernels/common/grid_dependency.cuh"
#include "kernels/common/input_scale.cuh"
#include "kernels/common/kernel_list.h"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/persistent_scheduler.cuh"
#include "kernels/common/split_k.cuh"
#include "kernels/common/tma_load.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/block_scaled_mainloop.cuh"
#include "kernels/sm90/epilogue.cuh"
#include "kernels/sm90/mainloop.cuh"
#include "kernels/sm90/producer.cuh"
#include "kernels/sm90/shared_storage.cuh"
#include "kernels/sm90/sm90_params.h"
#include "kernels/sm90/sm90_traits.h"

namespace asyncgemm::sm90 {
namespace {

namespace ptx = cuda::ptx;

// How a consumer stores its tiles, one way for the whole launch: two epilogues inlined behind a
// per-tile branch, with 128 accumulators live across it, make ptxas spill hundreds of bytes.
enum class Store {
    Now,         // as each tile's mainloop ends: D of any type, without C
    NowAddC,     // as each tile's mainloop ends, adding beta * C
    Fused,       // as Now, the fused bias and activation applied to the accumulators first
                 // (fuse_into_accumulators): without C, GELU (erf) beside block scales excepted
    FusedStaged, // through the fused bias and activation, with C or not, D of any type, staged as
                 // fp32 and stored by the threads (store_tile_fused)
    Deferred,  // D of the inputs' 16-bit type without C, tiles of more chunks than buffers: the
               // last chunks stored during the next tile's first K blocks (HeldChunks, epilogue.cuh)
};

// What stands for state that a launch's way of storing does not keep (held chunks, a column bias).
struct NoState {};

// reduce_split_k's group: one consumer warpgroup, its named barrier, and its slot in shared memory
// through which the leader's verdict reaches the others.
struct WarpgroupGroup {
    int barrier_id;
    int *slot;
    __device__ __forceinline__ void sync() const { named_barrier_sync(barrier_id, kWarpgroupThreads); }
    __device__ __forceinline__ bool agree(bool leader_value) const {
        if (threadIdx.x % kWarpgroupThreads == 0) *slot = leader_value;
        sync();
        return *slot != 0;
    }
};

// kBlockScaled: 8-bit inputs with block scales, multiplied by block_scaled_mainloop.cuh.
template <typename T, int Config, Store kStore, bool kBlockScaled>
__device__ __forceinline__ void consume(const Sm90Params &p, const SharedStorage<Config> &smem, int consumer,
                                        OperandMajors majors) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kN = warpgroup_n(kC);
    constexpr bool kDeferred = kStore == Store::Deferred;
    constexpr bool kAddC = kStore == Store::NowAddC;
    const int thread = static_cast<int>(threadIdx.x) % kWarpgroupThreads;
    const WarpgroupTile wg{consumer / kC.consumers_n, consumer % kC.consumers_n};
    // The 8-bit inputs' tensor scales are read here, past the wait for the kernel before, which may
    // have written them.
    const float alpha = p.k_blocks > 0 ? scaled_alpha(p.alpha, p.scale_a, p.scale_b) : 0.f;
    const Fp8Formats formats{p.a_e5m2 != 0, p.b_e5m2 != 0};
    const PersistentScheduler<Sm90Params> schedule(p);
    RingPosition<kC.stages> slot;
    EpilogueState state;
    std::conditional_t<kDeferred, HeldChunks<T, Config>, NoState> held;
    std::conditional_t<kStore == Store::Fused, ColumnBias<kN>, NoState> column_bias;
    for (int64_t i = schedule.first; i < schedule.count; i += schedule.stride) {
        const WorkItem work = schedule.item(p, i);
        const WorkTile &tile = work.place;
        const int32_t row0 = tile.m * kC.tile_m + 64 * wg.wg_m;
        const int32_t col0 = tile.n * kC.tile_n + kN * wg.wg_n;
        const int64_t batch = tile.batch;
        if constexpr (kStore == Store::Fused) {
            if (p.bias != nullptr && p.bias_per_row == 0) column_bias.load(p, batch, col0, thread);
        }
        // Without a product (k_blocks == 0) acc stays unwritten and the epilogue, seeing alpha == 0,
        // never reads it: zeroing it here would give ptxas two definitions to merge, and it would
        // keep both sets of 128 registers alive.
        float acc[kN / 2];
        if constexpr (kBlockScaled) {
            // wgmma's m64 layout: the thread's rows are 16 per warp plus lane / 4, and those 8 below.
            const BlockScaleReader scales(p, batch, row0 + 16 * (thread / 32) + thread % 32 / 4, col0);
            multiply_tile_block_scaled<Config>(acc, smem, work.first_block, work.blocks, wg, formats, thread == 0, slot,
                                               p, scales);
        } else {
            multiply_tile<T, Config>(acc, smem, work.blocks, wg, majors, formats, thread == 0, slot, [&](int) {
                if constexpr (kDeferred) held.store_next(p, smem, consumer, thread, state);
            });
        }
        // What a tile of fewer K blocks than the last one's held chunks left.
        if constexpr (kDeferred) held.store_rest(p, smem, consumer, thread, state);
        // Split-K (never with batches): the last range of the tile to finish stores the sum.
        if (p.splits > 1) {
            constexpr int kActive = consumers(kC);
            constexpr int kVectors = kN / 8;
            // float4s of each range loaded at once: all of a range's where the registers allow; beside
            // 128 accumulators only 16 more registers fit unspilled, beside 96 32.
            constexpr int kLoadBatch = kN == 256 ? 4 : kN == 192 ? 8 : kVectors;
            const int64_t group = work.tile * kActive + consumer;
            float4 *const area = reinterpret_cast<float4 *>(p.partials) + group * p.splits * kVectors * kWarpgroupThreads;
            if (!reduce_split_k<kWarpgroupThreads, kVectors, kLoadBatch>(
                    acc, area, p.tile_counters + group, work.split, p.splits, thread,
                    WarpgroupGroup{1 + consumer, &smem.split_last[consumer]}))
                continue;
        }
        if constexpr (kStore == Store::FusedStaged) {
            store_tile_fused<Config>(acc, p, smem, consumer, thread, row0, col0, batch, alpha);
            continue;
        }
        // alpha as the store applies it: the fused pass applied it already.
        float store_alpha = alpha;
        if constexpr (kStore == Store::Fused) {
            fuse_into_accumulators<kN, Config, kBlockScaled>(acc, p, smem, consumer, thread, row0, batch, alpha,
                                                             column_bias);
            store_alpha = 1.f;
        }
        if constexpr (kDeferred) {
            store_tile<T, Config, false, HeldChunks<T, Config>::kFirst>(acc, p, smem, consumer, thread, row0, col0,
                                                                          batch, store_alpha, state);
            held.hold(acc, store_alpha, row0, col0, batch);
        } else {
            with_output_type(p.type_cd, [&](auto out) {
                store_tile<decltype(out), Config, kAddC>(acc, p, smem, consumer, thread, row0, col0, batch,
                                                         store_alpha, state);
            });
        }
    }
    if constexpr (kDeferred) held.store_rest(p, smem, consumer, thread, state);
    // The block's shared memory must outlive the last stores' reads of it; their writes to D need not
    // land before the block exits (the grid's end makes them visible), so only the reads are awaited.
    if (thread == 0) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
}

// The launch's way of storing (Store), chosen once: C or not, a fused epilogue or not, and D's type.
template <typename T, int Config, bool kBlockScaled>
__device__ __forceinline__ void consume_as_launched(const Sm90Params &p, const SharedStorage<Config> &smem,
                                                    int consumer, OperandMajors majors) {
    // A fused epilogue in registers where it can be (fuses_in_registers); C must be added before the
    // activation.
    if (p.bias != nullptr || p.activation != 0) {
        if (!fuses_in_registers<kBlockScaled>(p)) {
            consume<T, Config, Store::FusedStaged, kBlockScaled>(p, smem, consumer, majors);
            return;
        }
        consume<T, Config, Store::Fused, kBlockScaled>(p, smem, consumer, majors);
        return;
    }
    if (p.beta != 0.f) {
        consume<T, Config, Store::NowAddC, kBlockScaled>(p, smem, consumer, majors);
        return;
    }
    // Chunks are held over whole rounds of the buffers only (HeldChunks): 64 x 256 tiles of 16-bit D
    // are, 64 x 192 ones (three chunks) are stored at once.
    if constexpr (sizeof(T) == 2 && kTileChunks<T, Config> > kEpilogueBuffers &&
                  kTileChunks<T, Config> % kEpilogueBuffers == 0) {
        if (p.type_cd == kDTypeOf<T>) {
            consume<T, Config, Store::Deferred, kBlockScaled>(p, smem, consumer, majors);
            return;
        }
    }
    consume<T, Config, Store::Now, kBlockScaled>(p, smem, consumer, majors);
}

// The consumers' loop, with block scales where the launch has them (8-bit inputs, configurations
// that apply them: the planner gives no other such a launch).
template <typename T, int Config>
__device__ __forceinline__ void consume_with_scales(const Sm90Params &p, const SharedStorage<Config> &smem,
                                                    int consumer, OperandMajors majors) {
    if constexpr (kIsFp8<T> && applies_block_scales(kTileConfigs[Config])) {
        if (p.block_scale_a != nullptr || p.block_scale_b != nullptr) {
            consume_as_launched<T, Config, true>(p, smem, consumer, majors);
            return;
        }
    }
    consume_as_launched<T, Config, false>(p, smem, consumer, majors);
}

// kMajors: the majors the kernel reads, Majors::Any for those of the launch.
template <typename T, int Config, Majors kMajors>
__device__ __forceinline__ void sm90_gemm(const Sm90Params &p) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    static_assert(!kKMajorOnly<T> || kMajors == Majors::KK, "tf32 and 8-bit operands are K-major");
    constexpr TileConfig kC = kTileConfigs[Config];
    extern __shared__ __align__(128) char dynamic_smem[];
    constexpr int kActive = consumers(kC);
    __shared__ uint64_t full[kC.stages], empty[kC.stages], c_loaded[kActive];
    __shared__ int split_last[kActive];
    __shared__ float row_bias[kActive * kEpilogueChunkRows];
    char *base = dynamic_smem + (-smem_addr(dynamic_smem) & (kSmemAlign - 1));
    const SharedStorage<Config> smem{base, full, empty, c_loaded, split_last, row_bias};

    const int warpgroup = static_cast<int>(threadIdx.x) / kWarpgroupThreads;
    const OperandMajors majors = kMajors == Majors::Any
                                     ? OperandMajors{p.a_k_major != 0, p.b_k_major != 0}
                                     : OperandMajors{a_k_major(kMajors), b_k_major(kMajors)};
    if (threadIdx.x == 0) {
        init_barriers(full, 1);
        init_barriers(empty, kActive);
        init_barriers(c_loaded, 1);
        publish_barrier_init();
        if (p.k_blocks > 0) {
            prefetch_tensor_map(&p.a_map);
            prefetch_tensor_map(&p.b_map);
        }
        if (p.beta != 0.f) prefetch_tensor_map(&p.c_map);
        prefetch_tensor_map(&p.d_map);
    }
    __syncthreads();
    // The set-up above reads no global memory and writes none; what follows does, once the kernel
    // before this one in the stream has completed (it may still be running: grid_dependency.cuh).
    wait_for_prior_grids();

    // Each role ends in its own branch: code after a join would run under both register budgets.  A
    // consumer warpgroup the configuration does not use takes the producer's branch and budget.
    if (warpgroup == 0 || warpgroup > kActive) {
        setmaxnreg_dec<kProducerRegisters>();
        if (threadIdx.x == 0) produce<T, Config>(p, smem, majors);
    } else {
        setmaxnreg_inc<kConsumerRegisters>();
        consume_with_scales<T, Config>(p, smem, warpgroup - 1, majors);
    }
#endif
}

}  // namespace
}  // namespace asyncgemm::sm90

// The entry point of one line of sm90_kernels.def: its name pasted from the line's words, its
// configuration checked against the shape word.
#define ASYNCGEMM_SM90_KERNEL(TYPE, SHAPE, CONFIG, MAJORS)                                                    \
    extern "C" __global__ void __launch_bounds__(asyncgemm::sm90::kThreads, 1)                                \
        asyncgemm_sm90_gemm_##TYPE##_##SHAPE##_##MAJORS(const __grid_constant__ asyncgemm::Sm90Params params) { \
        asyncgemm::sm90::sm90_gemm<ASYNCGEMM_ELEMENT_##TYPE, asyncgemm::sm90::kConfig##CONFIG,               \
                                   ASYNCGEMM_MAJORS_##MAJORS>(params);                                        \
    }                                                                                                         \
    static_assert(asyncgemm::sm90::shape_named(asyncgemm::sm90::kConfig##CONFIG, #SHAPE),                     \
                  #SHAPE " is not the shape of configuration " #CONFIG);
