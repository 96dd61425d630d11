// Tensor-core GEMM with asynchronous copies (ASYNCGEMM_ALGO_ASYNC_COPY and ASYNCGEMM_ALGO_PIPELINED):
// D = alpha * A·B + beta * C with f16 or bf16 A and B in any majors (one kernel per combination), or
// f32 A and B multiplied as tf32 (K-major), fp32 accumulation, f32/f16/bf16 C and D, any sizes and
// alignments, batched; alpha times the tensor scales of 8-bit inputs widened to f16 (plan/widened_inputs.h).
//
// A block computes one tile of D (sm80_traits.h).  Each K-slice of A and B is copied global ->
// shared by cp.async into swizzled tiles (operand_copy.cuh); each warp multiplies its warp tile with
// mma.sync m16n8k16 on ldmatrix fragments (warp_tile.cuh) in the K loop (mainloop.cuh: one stage for
// ASYNC_COPY, a software pipeline of `stages` for PIPELINED) and stores it through the epilogue
// (epilogue.cuh); when K is split, the blocks of a tile publish their partials and the last one adds
// them into its accumulators (kernels/common/split_k.cuh) and stores the sum through the same
// epilogue.
// Blocks visit tiles in grouped order (raster.h) and loop over the batch along blockIdx.z.
//
// This header is a translation unit's whole content but for its kernel lines: the build writes one
// unit per input type and configuration of sm80_kernels.def, each line of which
// ASYNCGEMM_SM80_KERNEL below turns into an extern "C" entry point.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "kernels/common/cp_async.cuh"
#include "kernels/common/element_type.cuh"
#include "kernels/common/grid_dependency.cuh"
#include "kernels/common/input_scale.cuh"
#include "kernels/common/kernel_list.h"
#include "kernels/common/params.h"
#include "kernels/common/raster.h"
#include "kernels/common/split_k.cuh"
#include "kernels/sm80/epilogue.cuh"
#include "kernels/sm80/mainloop.cuh"
#include "kernels/sm80/operand_copy.cuh"
#include "kernels/sm80/sm80_traits.h"
#include "kernels/sm80/warp_tile.cuh"

namespace asyncgemm::sm80 {
namespace {

// The block's K loop over `slices` slices from k0 for operands of the given majors: the copies and
// fragment addresses are built for them, so every copy and ldmatrix is of one kind.
template <typename T, int Config, bool AKMajor, bool BKMajor>
__device__ __forceinline__ void multiply(WarpTile<T, Config> &tile, const GemmParams &p, int64_t batch, int64_t m0,
                                         int64_t n0, int64_t k0, int slices, char *smem) {
    constexpr TileConfig kC = kTileConfigs[Config];
    const int thread = static_cast<int>(threadIdx.x);
    const auto a_tile = [&](int stage) { return smem + stage * stage_bytes(kC); };
    const auto b_tile = [&](int stage) { return smem + stage * stage_bytes(kC) + operand_bytes(kC, kC.tile_m); };
    const auto source_a = [&] {
        return OperandSource<T>{static_cast<const T *>(p.a) + batch * p.stride_a, p.lda, p.m, p.k, m0, k0, p.vec_a};
    };
    const auto source_b = [&] {
        return OperandSource<T>{static_cast<const T *>(p.b) + batch * p.stride_b, p.ldb, p.n, p.k, n0, k0, p.vec_b};
    };
    OperandCopy<T, Config, kC.tile_m, AKMajor> copy_a(source_a(), thread);
    OperandCopy<T, Config, kC.tile_n, BKMajor> copy_b(source_b(), thread);
    // The leading slices whole inside the matrix for both operands (the same in every thread) are
    // copied unchecked; the others per operand, checked where that operand needs it.
    const int whole_a = decltype(copy_a)::whole_slices(source_a());
    const int whole_b = decltype(copy_b)::whole_slices(source_b());
    const auto copy_slice = [&](int stage, int slice, int part, int parts, auto all_whole) {
        copy_a.copy(a_tile(stage), slice, part, parts, decltype(all_whole)::value || slice < whole_a, source_a);
        copy_b.copy(b_tile(stage), slice, part, parts, decltype(all_whole)::value || slice < whole_b, source_b);
    };
    const WarpFragments<Config, AKMajor, BKMajor> warp(tile.warp_m0, tile.warp_n0, thread % kWarpSize);
    mainloop<kC.stages>(
        tile, warp, slices, min(whole_a, whole_b), copy_slice, [&](int stage) { return smem_addr(a_tile(stage)); },
        [&](int stage) { return smem_addr(b_tile(stage)); });
}

// T: __half or __nv_bfloat16, the element type of A and B, or float for tf32 (K-major only).
template <typename T, int Config, bool AKMajor, bool BKMajor>
__device__ __forceinline__ void sm80_gemm(const GemmParams &p) {
    constexpr TileConfig kC = kTileConfigs[Config];
    // 128-byte aligned, as the fragment addresses need (warp_tile.cuh); every tile lies a multiple of
    // 128 bytes from it.
    extern __shared__ __align__(128) char smem[];
    static_assert(operand_bytes(kC, kC.tile_m) % 128 == 0 && operand_bytes(kC, kC.tile_n) % 128 == 0,
                  "shared tiles must stay 128-byte aligned");

    const TileCoord coord = grouped_tile(static_cast<int32_t>(blockIdx.x), p.tiles_m, p.tiles_n, p.raster_group);
    const int64_t m0 = static_cast<int64_t>(coord.m) * kC.tile_m;
    const int64_t n0 = static_cast<int64_t>(coord.n) * kC.tile_n;
    const int thread = static_cast<int>(threadIdx.x);

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
    const float alpha = has_product ? scaled_alpha(p.alpha, p.scale_a, p.scale_b) : 0.f;

    for (int64_t batch = blockIdx.z; batch < p.batch_count; batch += gridDim.z) {
        WarpTile<T, Config> tile(thread / kWarpSize);
        multiply<T, Config, AKMajor, BKMajor>(tile, p, batch, m0, n0, k0, slices, smem);

        // The epilogue stages the tile in the stages (epilogue.cuh): every warp must be done reading
        // them, and no copy may still land there.
        cp_async_wait<0>();
        __syncthreads();
        if (p.splits > 1) {
            // Split-K, never with batches: every block publishes its partial, and the last of the
            // tile to finish adds all of them into its accumulators and stores the sum.
            constexpr int kVectors = mma_tiles_m(kC) * mma_tiles_n(kC);
            const int tile_index = static_cast<int>(blockIdx.x);
            float4 *const area = static_cast<float4 *>(p.partials) +
                                 static_cast<int64_t>(tile_index) * p.splits * kVectors * threads(kC);
            if (!reduce_split_k<threads(kC), kVectors, split_load_batch(kC)>(
                    tile.values(), area, static_cast<int32_t *>(p.tile_counters) + tile_index, split, p.splits,
                    thread, BlockGroup{}))
                return;
        }
        with_output_type(p.type_cd, [&](auto out) {
            store_tile<decltype(out)>(tile, p, batch, m0, n0, alpha, smem, thread);
        });

        // The next batch's prologue refills the stages: every thread must be done with them (no copy
        // is in flight: the wait above was the last).
        __syncthreads();
    }
}

}  // namespace
}  // namespace asyncgemm::sm80

// The entry point of one line of sm80_kernels.def: its name pasted from the line's words, its
// configuration checked against the shape word.
#define ASYNCGEMM_SM80_KERNEL(TYPE, SHAPE, CONFIG, MAJORS)                                                    \
    extern "C" __global__ void __launch_bounds__(                                                            \
        asyncgemm::sm80::threads(asyncgemm::sm80::kTileConfigs[asyncgemm::sm80::kConfig##CONFIG]),           \
        asyncgemm::sm80::kTileConfigs[asyncgemm::sm80::kConfig##CONFIG].min_blocks_per_sm)                   \
        asyncgemm_sm80_gemm_##TYPE##_##SHAPE##_##MAJORS(const asyncgemm::GemmParams params) {                 \
        asyncgemm::wait_for_prior_grids();                                                                    \
        asyncgemm::sm80::sm80_gemm<ASYNCGEMM_ELEMENT_##TYPE, asyncgemm::sm80::kConfig##CONFIG,               \
                                   asyncgemm::a_k_major(ASYNCGEMM_MAJORS_##MAJORS),                          \
                                   asyncgemm::b_k_major(ASYNCGEMM_MAJORS_##MAJORS)>(params);                 \
    }                                                                                                         \
    static_assert(asyncgemm::sm80::shape_named(asyncgemm::sm80::kConfig##CONFIG, #SHAPE),                     \
                  #SHAPE " is not the shape of configuration " #CONFIG);                                      \
    static_assert(ASYNCGEMM_MAJORS_##MAJORS != asyncgemm::Majors::Any, "an sm80 kernel reads one pair of majors");
