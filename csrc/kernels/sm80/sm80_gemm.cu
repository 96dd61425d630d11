// Tensor-core GEMM with asynchronous copies (ASYNCGEMM_ALGO_ASYNC_COPY and ASYNCGEMM_ALGO_PIPELINED):
// D = alpha * A·B + beta * C with f16 or bf16 A and B in any majors (a run-time choice), or f32 A and
// B multiplied as tf32 (K-major), fp32 accumulation, f32/f16/bf16 C and D, any sizes and alignments,
// batched.
//
// A block computes one tile of D (sm80_config.h).  Each K-slice of A and B is copied global ->
// shared by cp.async into swizzled tiles (operand_copy.cuh); each warp multiplies its warp tile with
// mma.sync m16n8k16 on ldmatrix fragments (warp_tile.cuh) in the K loop (mainloop.cuh: one stage for
// ASYNC_COPY, a software pipeline of `stages` for PIPELINED) and stores it through the epilogue
// (epilogue.cuh); when K is split, the partial tiles meet in the split-K reduction first
// (split_k.cuh).
// Blocks visit tiles in grouped order (raster.h) and loop over the batch along blockIdx.z.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include <type_traits>

#include "kernels/common/cp_async.cuh"
#include "kernels/common/kernel_entry.cuh"
#include "kernels/common/params.h"
#include "kernels/common/raster.h"
#include "kernels/sm80/epilogue.cuh"
#include "kernels/sm80/mainloop.cuh"
#include "kernels/sm80/operand_copy.cuh"
#include "kernels/sm80/sm80_config.h"
#include "kernels/sm80/split_k.cuh"
#include "kernels/sm80/warp_tile.cuh"

namespace asyncgemm::sm80 {
namespace {

// T: __half or __nv_bfloat16, the element type of A and B, or float for tf32.
template <typename T, int Config>
__device__ __forceinline__ void sm80_gemm(const GemmParams &p) {
    constexpr TileConfig kC = kTileConfigs[Config];
    constexpr int kStages = kC.stages;
    extern __shared__ __align__(128) char smem[];
    const auto a_tile = [&](int stage) { return smem + stage * stage_bytes(kC); };
    const auto b_tile = [&](int stage) { return smem + stage * stage_bytes(kC) + operand_bytes(kC, kC.tile_m); };

    const TileCoord coord = grouped_tile(static_cast<int32_t>(blockIdx.x), p.tiles_m, p.tiles_n, p.raster_group);
    const int64_t m0 = static_cast<int64_t>(coord.m) * kC.tile_m;
    const int64_t n0 = static_cast<int64_t>(coord.n) * kC.tile_n;
    const int thread = static_cast<int>(threadIdx.x);
    const int warp = thread / kWarpSize;
    const int lane = thread % kWarpSize;

    // As in BLAS, alpha == 0 or k == 0 gives D = beta * C without reading A or B.  prepare_launch
    // keeps the slice count an int.  Split `split` (blockIdx.y) multiplies slices_per_split slices
    // from its first one (fewer in the last split).
    const bool has_product = p.k > 0 && p.alpha != 0.f;
    const int split = static_cast<int>(blockIdx.y);
    const int first_slice = split * p.slices_per_split;
    constexpr int kSlice = slice_elements(kC, kDTypeOf<T>);
    const int all_slices = has_product ? static_cast<int>((p.k + kSlice - 1) / kSlice) : 0;
    const int slices = min(all_slices - first_slice, p.slices_per_split);
    const int64_t k0 = static_cast<int64_t>(first_slice) * kSlice;
    const float alpha = has_product ? p.alpha : 0.f;

    for (int64_t batch = blockIdx.z; batch < p.batch_count; batch += gridDim.z) {
        OperandCopy<T, Config, kC.tile_m> copy_a(static_cast<const T *>(p.a) + batch * p.stride_a, p.lda,
                                                 p.a_k_major != 0, p.m, p.k, m0, k0, p.vec_a, thread);
        OperandCopy<T, Config, kC.tile_n> copy_b(static_cast<const T *>(p.b) + batch * p.stride_b, p.ldb,
                                                 p.b_k_major != 0, p.n, p.k, n0, k0, p.vec_b, thread);
        WarpTile<T, Config> tile(p.a_k_major != 0, p.b_k_major != 0, warp, lane);
        const auto copy_slice = [&](int stage) {
            copy_a.copy(a_tile(stage));
            copy_b.copy(b_tile(stage));
        };
        const auto a_address = [&](int stage) { return smem_addr(a_tile(stage)); };
        const auto b_address = [&](int stage) { return smem_addr(b_tile(stage)); };
        // The majors pick ldmatrix or ldmatrix.trans: one branch per launch, not per load, which
        // would cut the instruction stream into pieces ptxas cannot interleave.  tf32 is K-major
        // alone (the planner sends nothing else).
        if constexpr (std::is_same_v<T, float>) {
            mainloop<kStages, kC.refill_after_mma, true, true>(tile, slices, copy_slice, a_address, b_address);
        } else if (p.a_k_major != 0) {
            if (p.b_k_major != 0) {
                mainloop<kStages, kC.refill_after_mma, true, true>(tile, slices, copy_slice, a_address, b_address);
            } else {
                mainloop<kStages, kC.refill_after_mma, true, false>(tile, slices, copy_slice, a_address, b_address);
            }
        } else if (p.b_k_major != 0) {
            mainloop<kStages, kC.refill_after_mma, false, true>(tile, slices, copy_slice, a_address, b_address);
        } else {
            mainloop<kStages, kC.refill_after_mma, false, false>(tile, slices, copy_slice, a_address, b_address);
        }

        // Split-K (never with batches): the last block of the tile to finish stores the sum.
        if (p.splits > 1 && !reduce_splits(tile, p, static_cast<int>(blockIdx.x), split, thread)) return;

        switch (p.type_cd) {
        case kF32: store_tile<float>(tile, p, batch, m0, n0, alpha, lane); break;
        case kF16: store_tile<__half>(tile, p, batch, m0, n0, alpha, lane); break;
        case kBF16: store_tile<__nv_bfloat16>(tile, p, batch, m0, n0, alpha, lane); break;
        default: break;
        }

        // The next batch's prologue refills the stages: every thread must be done reading them.
        cp_async_wait<0>();
        __syncthreads();
    }
}

}  // namespace
}  // namespace asyncgemm::sm80

// One extern "C" entry point per kernel of kKernels, checked against the table at compile time.
#define ASYNCGEMM_SM80_KERNEL(NAME, T, CONFIG)                                                                    \
    extern "C" __global__ void __launch_bounds__(                                                                 \
        asyncgemm::sm80::threads(asyncgemm::sm80::kTileConfigs[CONFIG]),                                          \
        asyncgemm::sm80::kTileConfigs[CONFIG].min_blocks_per_sm) NAME(const asyncgemm::GemmParams params) {       \
        asyncgemm::sm80::sm80_gemm<T, CONFIG>(params);                                                            \
    }                                                                                                             \
    static_assert(asyncgemm::sm80::kernel_index(asyncgemm::kDTypeOf<T>, CONFIG) >= 0 &&                       \
                      asyncgemm::same_name(                                                                 \
                          asyncgemm::sm80::kKernels[asyncgemm::sm80::kernel_index(asyncgemm::kDTypeOf<T>,     \
                                                                                  CONFIG)]                        \
                              .name,                                                                              \
                          #NAME),                                                                                 \
                  #NAME " does not match its kKernels entry")

ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_f16_128x128x64_s3, __half, asyncgemm::sm80::kConfigPipelinedLarge);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_f16_128x64x64_s4, __half, asyncgemm::sm80::kConfigPipelinedSmall);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_f16_128x128x64_s1, __half, asyncgemm::sm80::kConfigAsyncCopy);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_f16_128x256x64_s3, __half, asyncgemm::sm80::kConfigWide);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_f16_128x256x64_s4, __half, asyncgemm::sm80::kConfigWideDeep);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_f16_64x128x64_s2, __half, asyncgemm::sm80::kConfigShortM);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_f16_128x128x64_s5, __half, asyncgemm::sm80::kConfigLargeDeep);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_f16_128x128x64_s3_w4, __half, asyncgemm::sm80::kConfigPaired);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_bf16_128x128x64_s3, __nv_bfloat16, asyncgemm::sm80::kConfigPipelinedLarge);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_bf16_128x64x64_s4, __nv_bfloat16, asyncgemm::sm80::kConfigPipelinedSmall);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_bf16_128x128x64_s1, __nv_bfloat16, asyncgemm::sm80::kConfigAsyncCopy);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_bf16_128x256x64_s3, __nv_bfloat16, asyncgemm::sm80::kConfigWide);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_bf16_128x256x64_s4, __nv_bfloat16, asyncgemm::sm80::kConfigWideDeep);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_bf16_64x128x64_s2, __nv_bfloat16, asyncgemm::sm80::kConfigShortM);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_bf16_128x128x64_s5, __nv_bfloat16, asyncgemm::sm80::kConfigLargeDeep);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_bf16_128x128x64_s3_w4, __nv_bfloat16, asyncgemm::sm80::kConfigPaired);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_tf32_128x128x64_s3, float, asyncgemm::sm80::kConfigPipelinedLarge);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_tf32_128x64x64_s4, float, asyncgemm::sm80::kConfigPipelinedSmall);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_tf32_128x128x64_s1, float, asyncgemm::sm80::kConfigAsyncCopy);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_tf32_64x128x64_s2, float, asyncgemm::sm80::kConfigShortM);
ASYNCGEMM_SM80_KERNEL(asyncgemm_sm80_gemm_tf32_128x128x64_s5, float, asyncgemm::sm80::kConfigLargeDeep);
