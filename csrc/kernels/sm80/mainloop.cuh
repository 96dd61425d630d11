// The K loop of the sm80 family: K-slices copied global -> shared by cp.async into `stages` shared
// buffers and multiplied k16 step by step from ldmatrix fragments (warp_tile.cuh), each step's
// fragments loaded while the previous step's MMAs run.
//
// One stage (ALGO_ASYNC_COPY, the tutorial's V3): copy a slice, wait for all of it, barrier,
// multiply, barrier.  Nothing overlaps; it is the baseline that shows what pipelining buys.
//
// `stages` >= 3 (ALGO_PIPELINED, V4): the prologue puts slices 0 .. stages - 2 in flight, one
// cp.async group each, and waits for slice 0.  Slice s is multiplied step by step; after each of
// its first kSteps - 1 steps' MMAs the block issues a part of slice s + stages - 1's copies into the
// stage slice s - 1 left, so that the copies run between the tensor-core instructions rather than
// in a burst of their own.  After step kSteps - 2 it commits them as one group, waits for slice
// s + 1 (wait_group stages - 2: groups are committed one per slice, empty past the end, so the
// count is fixed) and meets the other warps at the barrier: past it, slice s + 1 lies in shared
// memory, and no warp reads slice s - 1's stage any more (its last fragments were loaded before).
// The last step's MMAs then run while slice s + 1's first fragments load.  Two stages follow the
// tutorial's V4 order instead: wait and barrier at the head of the slice (below).
//
// The loop is split in two.  While every slice it refills lies whole inside the matrix (all but
// the last few, in all but the edge tiles) the body has no branch: ptxas can then interleave the
// copies with the MMAs, which a branch around them forbids.  The rest take the checked path, all
// of a slice's copies at once.
#pragma once

#include <stdint.h>

#include <type_traits>

#include "kernels/common/cp_async.cuh"
#include "kernels/sm80/sm80_traits.h"
#include "kernels/sm80/warp_tile.cuh"

namespace asyncgemm::sm80 {

// copy_slice(stage, slice, part, parts, all_whole): issue part `part` of `parts` of K-slice
// `slice`'s cp.async into stage `stage` (no commit); all_whole (std::true_type) when the slice is
// known to be one of the first `whole_slices`, which lie whole inside the matrix for both
// operands, else std::false_type.  a_tile(stage), b_tile(stage): shared-window addresses of the
// stage's operand tiles.
template <int Stages, typename T, int Config, bool AKMajor, bool BKMajor, typename CopySlice, typename ATile,
          typename BTile>
__device__ __forceinline__ void mainloop(WarpTile<T, Config> &tile, const WarpFragments<Config, AKMajor, BKMajor> &warp,
                                         int slices, int whole_slices, const CopySlice &copy_slice, const ATile &a_tile,
                                         const BTile &b_tile) {
    constexpr int kSteps = WarpFragments<Config, AKMajor, BKMajor>::kSteps;
    Fragments<Config> frag[2];
    // The copies of `slice` into `stage` due after step t's MMAs: a whole slice's spread over the
    // first kSteps - 1 steps, a checked one's all after the first (its branches would cut every
    // step's instruction stream anyway).
    const auto refill_part = [&](int stage, int slice, int t, auto whole) {
        if constexpr (decltype(whole)::value) {
            copy_slice(stage, slice, t, kSteps - 1, whole);
        } else if (t == 0) {
            copy_slice(stage, slice, 0, 1, whole);
        }
    };

    if constexpr (Stages == 1) {
        for (int s = 0; s < slices; ++s) {
            copy_slice(0, s, 0, 1, std::false_type{});
            cp_async_commit();
            cp_async_wait<0>();
            __syncthreads();
            warp.load(frag[0], a_tile(0), b_tile(0), 0);
#pragma unroll
            for (int t = 0; t < kSteps; ++t) {
                if (t + 1 < kSteps) warp.load(frag[(t + 1) % 2], a_tile(0), b_tile(0), t + 1);
                tile.mma(frag[t % 2]);
            }
            __syncthreads();
        }
    } else if constexpr (Stages == 2) {
        // With two stages no copy can be in flight across the barrier that frees a stage, so the
        // barrier stands at the head of each slice (after waiting for it), slice s + 1 is copied
        // during slice s into the stage slice s - 1 left, and fragments do not cross slices.
        if (slices > 0) copy_slice(0, 0, 0, 1, std::false_type{});
        cp_async_commit();
        const auto multiply_slice = [&](int s, auto whole) {
            constexpr bool kWhole = decltype(whole)::value;
            const bool refill = kWhole || s + 1 < slices;
            const int stage = s % 2;
            cp_async_wait<0>();
            __syncthreads();
            warp.load(frag[0], a_tile(stage), b_tile(stage), 0);
#pragma unroll
            for (int t = 0; t < kSteps; ++t) {
                if (t + 1 < kSteps) warp.load(frag[(t + 1) % 2], a_tile(stage), b_tile(stage), t + 1);
                tile.mma(frag[t % 2]);
                if (t + 1 < kSteps && refill) refill_part(1 - stage, s + 1, t, whole);
            }
            cp_async_commit();
        };
        const int whole = min(whole_slices, slices);
        int s = 0;
        for (; s + 1 < whole; ++s) multiply_slice(s, std::true_type{});
        for (; s < slices; ++s) multiply_slice(s, std::false_type{});
    } else {
#pragma unroll
        for (int s = 0; s < Stages - 1; ++s) {
            if (s < slices) copy_slice(s, s, 0, 1, std::false_type{});
            cp_async_commit();
        }
        cp_async_wait<Stages - 2>();
        __syncthreads();
        if (slices > 0) warp.load(frag[0], a_tile(0), b_tile(0), 0);
        int read_stage = 0;            // holds slice s
        int write_stage = Stages - 1;  // receives slice s + stages - 1
        // Slice s; `whole` (std::true_type) where slice s + stages - 1 is known to be whole.
        const auto multiply_slice = [&](int s, auto whole) {
            constexpr bool kWhole = decltype(whole)::value;
            const bool refill = kWhole || s + Stages - 1 < slices;
            const int next_stage = read_stage + 1 == Stages ? 0 : read_stage + 1;
#pragma unroll
            for (int t = 0; t < kSteps; ++t) {
                if (t + 1 < kSteps) {
                    warp.load(frag[(t + 1) % 2], a_tile(read_stage), b_tile(read_stage), t + 1);
                } else if (kWhole || s + 1 < slices) {
                    warp.load(frag[(t + 1) % 2], a_tile(next_stage), b_tile(next_stage), 0);
                }
                tile.mma(frag[t % 2]);
                if (t + 1 < kSteps && refill) refill_part(write_stage, s + Stages - 1, t, whole);
                if (t + 2 == kSteps) {
                    cp_async_commit();
                    cp_async_wait<Stages - 2>();
                    __syncthreads();
                }
            }
            read_stage = next_stage;
            write_stage = write_stage + 1 == Stages ? 0 : write_stage + 1;
        };
        const int whole = min(whole_slices, slices);
        int s = 0;
        for (; s + Stages - 1 < whole; ++s) multiply_slice(s, std::true_type{});
        for (; s < slices; ++s) multiply_slice(s, std::false_type{});
    }
}

}  // namespace asyncgemm::sm80
