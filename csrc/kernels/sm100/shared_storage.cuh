// Where a block's shared memory goes: the ring of operand stages with its full/empty mbarriers, the
// fp32 C tile that enters the accumulator with its three barriers, the accumulators' full/empty
// barriers, and the tensor-memory address tcgen05.alloc writes.
#pragma once

#include <cuda/ptx>
#include <stdint.h>

#include "kernels/common/raster.h"
#include "kernels/sm100/sm100_config.h"
#include "kernels/sm100/sm100_params.h"

namespace asyncgemm::sm100 {

struct SharedStorage {
    char *base;            // kSmemAlign-aligned start of the dynamic shared memory
    uint64_t *full;        // [kStages]: the stage's TMA loads have landed (transaction count)
    uint64_t *empty;       // [kStages]: the MMAs reading the stage have completed (tcgen05.commit)
    uint64_t *seed_full;   // the C tile's TMA loads have landed
    uint64_t *seed_ready;  // the seed warp has scaled it (and fenced its stores for the async proxy)
    uint64_t *seed_empty;  // its tcgen05.cp copies have completed (tcgen05.commit)
    uint64_t *acc_full;    // [kAccumulators]: the tile's MMAs have completed (tcgen05.commit)
    uint64_t *acc_empty;   // [kAccumulators]: every epilogue thread has read the accumulator

    __device__ char *a_tile(int stage) const { return base + stage * kStageBytes; }
    __device__ char *b_tile(int stage) const { return a_tile(stage) + kAStageBytes; }
    __device__ char *seed_box(int box) const { return base + kStages * kStageBytes + box * kSeedBoxBytes; }
};

// Spins until the barrier has completed the phase of parity `parity` (mbarrier.try_wait.parity).
__device__ __forceinline__ void wait_parity(uint64_t *barrier, uint32_t parity) {
    while (!cuda::ptx::mbarrier_try_wait_parity(barrier, parity)) {
    }
}

// A block's tiles: tile blockIdx.x, + gridDim.x, ... in grouped order (raster.h).
struct TileScheduler {
    int64_t first, stride, count;
    __device__ __forceinline__ explicit TileScheduler(const Sm100Params &p)
        : first(blockIdx.x), stride(gridDim.x), count(static_cast<int64_t>(p.tiles_m) * p.tiles_n * p.batch_count) {}
    __device__ __forceinline__ WorkTile tile(const Sm100Params &p, int64_t item) const {
        return p.order.place(static_cast<uint32_t>(item)).tile;  // item < count < 2^31 (the planner)
    }
};

}  // namespace asyncgemm::sm100
