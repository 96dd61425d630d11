// Where a block's shared memory goes: the ring of operand stages with its full/empty mbarriers, and
// each consumer's epilogue buffers with the mbarrier its C loads complete on.  The mbarriers, the
// split-K slots and the row bias are static shared memory, within the 1 KB beside the dynamic part
// that tests/unit/test_sm90_encoding.cpp allows.
#pragma once

#include <stdint.h>

#include "kernels/common/ring_position.cuh"
#include "kernels/common/smem_address.cuh"
#include "kernels/sm90/sm90_traits.h"

namespace asyncgemm::sm90 {

template <int Config>
struct SharedStorage {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kStages = kC.stages;

    char *base;           // kSmemAlign-aligned start of the dynamic shared memory
    uint64_t *full;       // [kStages]: the stage's TMA loads have landed (transaction count)
    uint64_t *empty;      // [kStages]: every consumer is done reading it
    uint64_t *c_loaded;   // [consumers(kC)]: the consumer's C chunk has landed
    int *split_last;      // [consumers(kC)]: split-K, the consumer's tile is complete with its range
    float *row_bias;      // [consumers(kC)][kEpilogueChunkRows]: a fused bias per row, the tile's rows

    __device__ char *a_tile(int stage) const { return base + stage * stage_bytes(kC); }
    __device__ char *b_tile(int stage) const { return a_tile(stage) + a_stage_bytes(kC); }
    __device__ float *tile_row_bias(int consumer) const { return row_bias + consumer * kEpilogueChunkRows; }
    __device__ char *epilogue_buffer(int consumer, int buffer) const {
        return base + kStages * stage_bytes(kC) + (consumer * kEpilogueBuffers + buffer) * kEpilogueChunkBytes;
    }
};

}  // namespace asyncgemm::sm90
