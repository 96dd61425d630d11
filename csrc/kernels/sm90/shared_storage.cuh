// Where a block's shared memory goes: the ring of operand stages with its full/empty mbarriers, and
// each consumer's epilogue buffers with the mbarrier its C loads complete on.  Work items: see
// work_item below.
#pragma once

#include <stdint.h>

#include "kernels/common/cp_async.cuh"
#include "kernels/sm90/sm90_config.h"
#include "kernels/sm90/sm90_params.h"

namespace asyncgemm::sm90 {

template <int Config>
struct SharedStorage {
    static constexpr TileConfig kC = kTileConfigs[Config];
    static constexpr int kStages = kC.stages;

    char *base;           // kSmemAlign-aligned start of the dynamic shared memory
    uint64_t *full;       // [kStages]: the stage's TMA loads have landed (transaction count)
    uint64_t *empty;      // [kStages]: every consumer is done reading the stage
    uint64_t *c_loaded;   // [kConsumers]: the consumer's C chunk has landed
    int *split_last;      // [kConsumers]: split-K, the consumer's tile is complete with its range

    __device__ char *a_tile(int stage) const { return base + stage * stage_bytes(kC); }
    __device__ char *b_tile(int stage) const { return a_tile(stage) + a_stage_bytes(kC); }
    __device__ char *epilogue_buffer(int consumer, int buffer) const {
        return base + kStages * stage_bytes(kC) + (consumer * kEpilogueBuffers + buffer) * kEpilogueChunkBytes;
    }
};

// Where the block's next K block goes in the ring (counted over all its tiles): the stage, and the
// parity of that stage's current phase, which flips each time the ring wraps.
template <int Stages>
struct RingPosition {
    int stage = 0;
    uint32_t phase = 0;
    __device__ __forceinline__ void advance() {
        if (++stage == Stages) {
            stage = 0;
            phase ^= 1u;
        }
    }
};

// A work item of the persistent walk: the tile (index among the problem's tiles, and its place) and
// the range of K blocks it multiplies.  Item i is range i % splits of tile i / splits, so a tile's
// ranges run side by side and meet in the split-K reduction at about the same time.
struct WorkItem {
    int64_t tile;
    WorkTile place;
    int split;
    int first_block, blocks;
};
__device__ __forceinline__ WorkItem work_item(const Sm90Params &p, int64_t item) {
    WorkItem w;
    w.tile = item / p.splits;
    w.split = static_cast<int>(item % p.splits);
    w.place = work_tile(w.tile, p.tiles_m, p.tiles_n, p.raster_group);
    w.first_block = w.split * p.blocks_per_split;
    w.blocks = min(p.blocks_per_split, p.k_blocks - w.first_block);
    return w;
}
__device__ __forceinline__ int64_t work_item_count(const Sm90Params &p) {
    return static_cast<int64_t>(p.tiles_m) * p.tiles_n * p.batch_count * p.splits;
}

}  // namespace asyncgemm::sm90
