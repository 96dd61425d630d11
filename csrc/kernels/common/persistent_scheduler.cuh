// The persistent tile scheduler of the warp-specialized families: which work items a block runs, in
// what order.  Every role of a block (producer, MMA issuer, epilogue) walks the same items with its
// own scheduler, so they meet on the same tiles without telling each other.
//
// A work item is one range of K blocks of one output tile.  The grid's blocks walk the items
// blockIdx.x, + gridDim.x, ...; item i is range i % splits of tile i / splits, so a tile's ranges
// run side by side and meet in the split-K reduction (split_k.cuh) at about the same time, and the
// tiles are visited in grouped order (raster.h) so the blocks running at once share rows of A and
// columns of B in L2.
#pragma once

#include <stdint.h>

#include "kernels/common/raster.h"

namespace asyncgemm {

struct WorkItem {
    int64_t tile;    // the output tile's index over all batches: its split-K counters and partials
    WorkTile place;  // its batch, tile row and tile column
    int split;
    int first_block, blocks;  // the range of K blocks
};

// Params: a family's parameter block, which holds the launch's numbers a scheduler reads: `order`
// (the grouped order's divisions, set up by the host: raster.h), tiles_m, tiles_n, batch_count,
// splits, k_blocks (K blocks of a tile) and blocks_per_split.  They are read where they lie, in
// parameter memory, rather than copied into registers the 128-accumulator kernels do not have.
template <typename Params>
struct PersistentScheduler {
    int64_t first, stride, count;  // the block's items: first, first + stride, ... below count

    __device__ __forceinline__ explicit PersistentScheduler(const Params &p)
        : first(blockIdx.x), stride(gridDim.x),
          count(static_cast<int64_t>(p.tiles_m) * p.tiles_n * p.batch_count * p.splits) {}

    // Work item i (first <= i < count).
    __device__ __forceinline__ WorkItem item(const Params &p, int64_t i) const {
        const WorkPlace at = p.order.place(static_cast<uint32_t>(i));  // i < count < 2^31 (the planners)
        WorkItem w;
        w.tile = at.group;
        w.place = at.tile;
        w.split = at.split;
        w.first_block = w.split * p.blocks_per_split;
        w.blocks = min(p.blocks_per_split, p.k_blocks - w.first_block);
        return w;
    }
};

}  // namespace asyncgemm
