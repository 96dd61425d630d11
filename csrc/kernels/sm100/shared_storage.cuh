// Where a block's shared memory goes: the ring of operand stages with its full/empty mbarriers, the
// fp32 C tile that enters the accumulator with its three barriers, each stage's MX scale tiles, the
// accumulators' full/empty barriers, and the tensor-memory address tcgen05.alloc writes.
#pragma once

#include <stdint.h>

#include "kernels/sm100/sm100_traits.h"
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
    __device__ char *a_scales(int stage) const { return base + kStages * kStageBytes + kSeedBytes + stage * kMxStageBytes; }
    __device__ char *b_scales(int stage) const { return a_scales(stage) + kMxTileBytes; }
};

}  // namespace asyncgemm::sm100
