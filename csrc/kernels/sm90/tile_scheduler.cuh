// The persistent tile scheduler: which work items a block runs, in what order.
//
// A work item is one range of K blocks of one output tile.  The grid's clusters (single blocks when
// cluster_m == 1) walk the items cluster_index, + clusters, ...; item i is range i % splits of tile
// group i / splits, so a tile's ranges run side by side and meet in the split-K reduction at about
// the same time.  A tile group is cluster_m vertically adjacent tiles (one per block of the cluster,
// which share their tile of B), and groups are visited in grouped order (raster.h) so the clusters
// running at once share rows of A and columns of B in L2.
#pragma once

#include <cuda/ptx>
#include <stdint.h>

#include "kernels/sm90/sm90_config.h"
#include "kernels/sm90/sm90_params.h"

namespace asyncgemm::sm90 {

struct WorkItem {
    int64_t tile;    // unique index of the output tile: the split-K counters and partials
    WorkTile place;  // its batch, tile row and tile column
    int split;
    int first_block, blocks;  // the range of K blocks
};

template <int Config>
struct TileScheduler {
    static constexpr int kCluster = kTileConfigs[Config].cluster_m;

    int rank;  // the block's rank in its cluster
    int64_t first, stride, count;

    __device__ __forceinline__ explicit TileScheduler(const Sm90Params &p) {
        rank = kCluster > 1 ? static_cast<int>(cuda::ptx::get_sreg_cluster_ctarank()) : 0;
        first = blockIdx.x / kCluster;
        stride = gridDim.x / kCluster;
        count = static_cast<int64_t>(p.tiles_m / kCluster) * p.tiles_n * p.batch_count * p.splits;
    }

    __device__ __forceinline__ WorkItem item(const Sm90Params &p, int64_t i) const {
        WorkItem w;
        const WorkPlace at = p.order.place(static_cast<uint32_t>(i));  // i < count < 2^31 (the planner)
        w.split = at.split;
        w.place = at.tile;
        w.place.m = w.place.m * kCluster + rank;
        w.tile = at.group * kCluster + rank;
        w.first_block = w.split * p.blocks_per_split;
        w.blocks = min(p.blocks_per_split, p.k_blocks - w.first_block);
        return w;
    }
};

}  // namespace asyncgemm::sm90
