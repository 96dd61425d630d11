// The K loop of the sm80 family: K-slices copied global -> shared by cp.async into `stages` shared
// buffers and multiplied k16 step by step from ldmatrix fragments (warp_tile.cuh), each step's
// fragments loaded while the previous step's MMAs run.
//
// One stage (ALGO_ASYNC_COPY, the tutorial's V3): copy a slice, wait for all of it, barrier,
// multiply, barrier.  Nothing overlaps; it is the baseline that shows what pipelining buys.
//
// `stages` >= 2 (ALGO_PIPELINED, V4): the prologue puts slices 0 .. stages - 2 in flight, one
// cp.async group each.  Iteration s waits for slice s (wait_group stages - 2: groups are committed
// one per iteration, empty past the end, so the count is fixed), meets the other warps at the
// barrier, which also tells it every warp is done with slice s - 1's stage, refills that stage
// with slice s + stages - 1 (before multiplying slice s, or after where the configuration says:
// RefillAfterMma, sm80_config.h), and multiplies slice s.
//
// Fragments do not cross slices: loading slice s + 1's first step during slice s's last would keep
// a step's fragments (32 registers at 64 x 64) live across the copies, and the 128 x 256 kernels,
// at 244 of 255 registers, would spill.
#pragma once

#include <stdint.h>

#include "kernels/common/cp_async.cuh"
#include "kernels/sm80/sm80_config.h"
#include "kernels/sm80/warp_tile.cuh"

namespace asyncgemm::sm80 {

// copy_slice(stage): issue the next slice's cp.async into stage `stage` (no commit).
// a_tile(stage), b_tile(stage): shared-window addresses of the stage's operand tiles.
template <int Stages, bool RefillAfterMma, bool AKMajor, bool BKMajor, typename Tile, typename CopySlice, typename ATile,
          typename BTile>
__device__ __forceinline__ void mainloop(Tile &tile, int slices, const CopySlice &copy_slice, const ATile &a_tile,
                                         const BTile &b_tile) {
    constexpr int kSteps = Tile::kSteps;
    typename Tile::Fragments frag[2];

    if constexpr (Stages == 1) {
        for (int s = 0; s < slices; ++s) {
            copy_slice(0);
            cp_async_commit();
            cp_async_wait<0>();
            __syncthreads();
            tile.template load<AKMajor, BKMajor>(frag[0], a_tile(0), b_tile(0), 0);
#pragma unroll
            for (int t = 0; t < kSteps; ++t) {
                if (t + 1 < kSteps) tile.template load<AKMajor, BKMajor>(frag[(t + 1) % 2], a_tile(0), b_tile(0), t + 1);
                tile.mma(frag[t % 2]);
            }
            __syncthreads();
        }
    } else {
#pragma unroll
        for (int s = 0; s < Stages - 1; ++s) {
            if (s < slices) copy_slice(s);
            cp_async_commit();
        }
        int read_stage = 0;            // holds slice s
        int write_stage = Stages - 1;  // receives slice s + stages - 1
        for (int s = 0; s < slices; ++s) {
            const auto refill = [&] {
                if (s + Stages - 1 < slices) copy_slice(write_stage);
                cp_async_commit();
            };
            cp_async_wait<Stages - 2>();
            __syncthreads();
            if constexpr (!RefillAfterMma) refill();
            tile.template load<AKMajor, BKMajor>(frag[0], a_tile(read_stage), b_tile(read_stage), 0);
#pragma unroll
            for (int t = 0; t < kSteps; ++t) {
                if (t + 1 < kSteps)
                    tile.template load<AKMajor, BKMajor>(frag[(t + 1) % 2], a_tile(read_stage), b_tile(read_stage), t + 1);
                tile.mma(frag[t % 2]);
            }
            if constexpr (RefillAfterMma) refill();
            read_stage = read_stage + 1 == Stages ? 0 : read_stage + 1;
            write_stage = write_stage + 1 == Stages ? 0 : write_stage + 1;
        }
    }
}

}  // namespace asyncgemm::sm80
