// SIMT GEMM (ASYNCGEMM_ALGO_SIMT): D = alpha * A·B + beta * C with exact fp32 FMA, any majors, any
// sizes and alignments, batched; 8-bit inputs are widened to fp32 as they are loaded, times their
// block or MX scales where they have them, and alpha times their tensor scales (or those of the f16 copies
// widened from them: plan/widened_inputs.h).
//
// A block computes one 128 x 128 tile of D (kTileConfigs[0]).  K is walked in slices of 32 through
// two shared stages: while one slice is multiplied the next is in flight, copied global -> shared by
// cp.async (tile_loader.cuh) into padded [k][x] fp32 tiles.  Each thread multiplies 8 x 8
// accumulators from LDS.128 fragments read one step ahead (thread_tile.cuh), and stores them
// through the epilogue (epilogue.cuh).  Blocks visit tiles in grouped order (raster.h) and loop
// over the batch along blockIdx.z.  Where the tiles are too few to fill the SMs, K is split into
// ranges along blockIdx.y that meet in a deterministic reduction (kernels/common/split_k.cuh).
//
// This header is a translation unit's whole content but for its kernel lines: the build writes one
// unit per input type of simt_kernels.def, each line of which ASYNCGEMM_SIMT_KERNEL below turns into
// an extern "C" entry point.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include <type_traits>

#include "kernels/common/block_scale.h"
#include "kernels/common/cp_async.cuh"
#include "kernels/common/element_type.cuh"
#include "kernels/common/input_scale.cuh"
#include "kernels/common/kernel_list.h"
#include "kernels/common/params.h"
#include "kernels/common/raster.h"
#include "kernels/common/split_k.cuh"
#include "kernels/simt/block_scale_column.cuh"
#include "kernels/simt/epilogue.cuh"
#include "kernels/simt/simt_traits.h"
#include "kernels/simt/thread_tile.cuh"
#include "kernels/simt/tile_loader.cuh"

namespace asyncgemm::simt {
namespace {

constexpr TileConfig kTile = kTileConfigs[kConfig];
// float4s of each split range's partial loaded at once by the reduction: beside 64 accumulators, four
// keep the kernel within its 128 registers.
constexpr int kSplitLoadBatch = 4;

// mov.u32 %tid.x, read afresh at each call.  Offsets derived from threadIdx.x are invariant over
// the batch loop, so the compiler would compute them once and hold a dozen registers through every
// main loop; from a volatile read they are recomputed (a few integer instructions) per batch
// instead, which keeps the kernel within 128 registers without spills.
__device__ __forceinline__ int thread_index() {
    int thread;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(thread));
    return thread;
}

// T: the element type of A and B (float, __half, __nv_bfloat16 or Fp8Bits, 8-bit floats of the formats
// type_ab and type_b say); kScales: how the
// 8-bit inputs are scaled as they are loaded (simt_kernels.def: a kernel per kind).
template <typename T, bool AKMajor, bool BKMajor, Scales kScales>
__device__ __forceinline__ void simt_gemm(const GemmParams &p) {
    // tile_loader.cuh: fp32 tiles travel by cp.async, 16-bit ones are loaded and stored at once.
    constexpr bool kAsyncCopies = std::is_same_v<T, float>;
    extern __shared__ __align__(16) float smem[];
    const auto a_tile = [&](int stage) { return smem + stage * smem_stage_floats(kTile); };
    const auto b_tile = [&](int stage) { return smem + stage * smem_stage_floats(kTile) + smem_a_floats(kTile); };

    const TileCoord coord = grouped_tile(static_cast<int32_t>(blockIdx.x), p.tiles_m, p.tiles_n, p.raster_group);
    const int64_t m0 = static_cast<int64_t>(coord.m) * kTile.tile_m;
    const int64_t n0 = static_cast<int64_t>(coord.n) * kTile.tile_n;

    // As in BLAS, alpha == 0 or k == 0 gives D = beta * C without reading A or B (so NaN there, or
    // an infinite alpha times an empty sum, cannot reach D).  prepare_launch keeps the slice count
    // an int.  Split `split` (blockIdx.y) multiplies slices_per_split slices from its first one
    // (fewer in the last split).
    const bool has_product = p.k > 0 && p.alpha != 0.f;
    const int split = static_cast<int>(blockIdx.y);
    const int all_slices = has_product ? static_cast<int>((p.k + kTile.tile_k - 1) / kTile.tile_k) : 0;
    const int first_slice = split * p.slices_per_split;
    const int slices = has_product ? min(all_slices - first_slice, p.slices_per_split) : 0;
    const int last_slice_k = has_product ? static_cast<int>(p.k - static_cast<int64_t>(all_slices - 1) * kTile.tile_k) : 0;
    const int64_t k0 = static_cast<int64_t>(first_slice) * kTile.tile_k;
    const float alpha = has_product ? scaled_alpha(p.alpha, p.scale_a, p.scale_b) : 0.f;
    // k of the range's slice s inside the matrix: all of it but in the last slice of K.
    const auto k_left = [&](int s) { return first_slice + s + 1 < all_slices ? kTile.tile_k : last_slice_k; };
    static_assert(kScaleBlockK % kTile.tile_k == 0, "a slice lies in one K block of the block scales");
    static_assert(kMxBlockK == kTile.tile_k, "a slice is one K block of the MX scales");
    static_assert(kTile.tile_m == kMxTileRows && kTile.tile_n == kMxTileRows, "a tile is one row tile of MX scales");

    for (int64_t batch = blockIdx.z; batch < p.batch_count; batch += gridDim.z) {
        const int thread = thread_index();
        TileLoader<T, AKMajor, kConfig, kTile.tile_m> load_a(
            static_cast<const T *>(p.a) + batch * p.stride_a + (AKMajor ? k0 : k0 * p.lda), p.lda, p.m, m0, p.vec_a,
            thread);
        TileLoader<T, BKMajor, kConfig, kTile.tile_n> load_b(
            static_cast<const T *>(p.b) + batch * p.stride_b + (BKMajor ? k0 : k0 * p.ldb), p.ldb, p.n, n0, p.vec_b,
            thread);
        ThreadTile<kConfig> tile(thread);
        // 8-bit A's and B's formats.
        const bool a_e5m2 = p.type_ab == kE5M2;
        const bool b_e5m2 = b_dtype(p) == kE5M2;
        // The range's slice s into a stage: 8-bit inputs times their block or MX scales, where they
        // have them.
        const auto load_slice = [&](int stage, int s) {
            const int64_t slice_k = k0 + static_cast<int64_t>(s) * kTile.tile_k;
            if constexpr (kScales == Scales::mx) {
                const int64_t kb = slice_k / kMxBlockK;
                load_a.load(a_tile(stage), k_left(s),
                            MxScaleColumn(p.mx_scale_a, p.m, p.k, m0, batch, p.stride_a != 0, kb), a_e5m2);
                load_b.load(b_tile(stage), k_left(s),
                            MxScaleColumn(p.mx_scale_b, p.n, p.k, n0, batch, p.stride_b != 0, kb), b_e5m2);
            } else if constexpr (kScales == Scales::scaled) {
                const int64_t kb = slice_k / kScaleBlockK;
                load_a.load(a_tile(stage), k_left(s),
                            BlockScaleColumn(p.block_scale_a, p.block_rows_a, p.m, p.k, m0, batch, p.stride_a != 0, kb),
                            a_e5m2);
                load_b.load(b_tile(stage), k_left(s),
                            BlockScaleColumn(p.block_scale_b, p.block_cols_b, p.n, p.k, n0, batch, p.stride_b != 0, kb),
                            b_e5m2);
            } else {
                load_a.load(a_tile(stage), k_left(s), Unscaled{}, a_e5m2);
                load_b.load(b_tile(stage), k_left(s), Unscaled{}, b_e5m2);
            }
        };

        // Prologue: slices 0 .. stages - 1 fill every stage, one cp.async group each (empty past the
        // end, so every wait below counts the same number of groups); then slice 0's first step.
#pragma unroll
        for (int s = 0; s < kTile.stages; ++s) {
            if (s < slices) load_slice(s, s);
            cp_async_commit();
        }
        cp_async_wait<kTile.stages - 1>();
        __syncthreads();
        tile.load(0, a_tile(0), b_tile(0), 0);

        int stage = 0;  // holds slice s; once slice s is read, it receives slice s + stages
        static_assert(kTile.tile_k % 2 == 0, "the steps of a slice go in pairs, one per fragment set");
        for (int s = 0; s < slices; ++s) {
            // Steps in pairs, each naming its fragment sets: the sets stay registers even where the
            // compiler would not unroll the loop (a dynamic set index puts the accumulators in local
            // memory).
#pragma unroll
            for (int k = 0; k + 2 < kTile.tile_k; k += 2) {
                tile.load(1, a_tile(stage), b_tile(stage), k + 1);
                tile.multiply(0);
                tile.load(0, a_tile(stage), b_tile(stage), k + 2);
                tile.multiply(1);
            }
            tile.load(1, a_tile(stage), b_tile(stage), kTile.tile_k - 1);
            tile.multiply(0);
            // The last step of slice s is in registers.  Wait until slice s + 1 has landed and let
            // every thread see it; the barrier also frees slice s's stage for slice s + stages.  Then
            // step 0 of slice s + 1 (past the last slice, a read of a stage nobody uses: cheaper than a
            // branch).
            const int refill = stage;
            stage = stage + 1 == kTile.stages ? 0 : stage + 1;
            cp_async_wait<kTile.stages - 2>();
            __syncthreads();
            const auto refill_stage = [&] {
                if (s + kTile.stages < slices) load_slice(refill, s + kTile.stages);
                cp_async_commit();
            };
            if constexpr (kAsyncCopies) {
                refill_stage();  // in flight during the FFMAs of the next slices
                tile.load(0, a_tile(stage), b_tile(stage), 0);
                tile.multiply(1);
            } else {
                // Synchronous loads stall this warp anyway; retiring this step first frees its
                // fragment registers for them.
                tile.multiply(1);
                refill_stage();
                tile.load(0, a_tile(stage), b_tile(stage), 0);
            }
        }

        if (p.splits > 1) {
            // Split-K, never with batches: every block publishes its partial, and the last of the
            // tile to finish adds all of them, in range order, into its accumulators and stores D.
            constexpr int kVectors = kTile.thread_m * kTile.thread_n / 4;
            const int tile_index = static_cast<int>(blockIdx.x);
            float4 *const area = static_cast<float4 *>(p.partials) +
                                 static_cast<int64_t>(tile_index) * p.splits * kVectors * kTile.threads;
            if (!reduce_split_k<kTile.threads, kVectors, kSplitLoadBatch>(
                    tile.values(), area, static_cast<int32_t *>(p.tile_counters) + tile_index, split, p.splits,
                    thread, BlockGroup{}))
                return;
        }
        if (p.bias != nullptr || p.activation != 0) {
            cp_async_wait<0>();  // no copy may land in the stages the fused epilogue reuses
            with_output_type(p.type_cd, [&](auto out) {
                store_tile_fused<decltype(out)>(tile, p, batch, m0, n0, alpha, smem, thread);
            });
        } else {
            with_output_type(p.type_cd, [&](auto out) { store_tile<decltype(out)>(tile, p, batch, m0, n0, alpha); });
        }

        // The next batch's prologue refills the stages: every thread must be done reading them.
        cp_async_wait<0>();
        __syncthreads();
    }
}

}  // namespace
}  // namespace asyncgemm::simt

// The entry point of one line of simt_kernels.def, its name pasted from the line's words.
#define ASYNCGEMM_SIMT_KERNEL(TYPE, SCALES, MAJORS)                                                            \
    extern "C" __global__ void __launch_bounds__(asyncgemm::simt::kTile.threads,                              \
                                                 asyncgemm::simt::kTile.min_blocks_per_sm)                    \
        asyncgemm_simt_gemm_##TYPE##_##SCALES##_##MAJORS(const asyncgemm::GemmParams params) {                \
        asyncgemm::simt::simt_gemm<ASYNCGEMM_ELEMENT_##TYPE, asyncgemm::a_k_major(ASYNCGEMM_MAJORS_##MAJORS), \
                                   asyncgemm::b_k_major(ASYNCGEMM_MAJORS_##MAJORS),                           \
                                   asyncgemm::simt::Scales::SCALES>(params);                                  \
    }                                                                                                         \
    static_assert(ASYNCGEMM_MAJORS_##MAJORS != asyncgemm::Majors::Any, "a SIMT kernel reads one pair of majors"); \
    static_assert(asyncgemm::simt::scales_fit<ASYNCGEMM_ELEMENT_##TYPE>(asyncgemm::simt::Scales::SCALES),    \
                  "plain kernels take 16- and 32-bit inputs, scaled and mx ones 8-bit inputs");
