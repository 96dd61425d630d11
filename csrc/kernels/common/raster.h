// Grouped rasterization: the order in which a grid's blocks visit the output tiles.
//
// Blocks run roughly in blockIdx order.  Walking the tiles row by row makes every concurrently
// running block read a different tile of B; walking `group` tile rows down one tile column at a time
// instead makes the blocks in flight share `group` tiles of A and a few tiles of B, which then stay
// in L2.  Plain C++ so host-side tests and planning can check the map.
#pragma once

#include <stdint.h>

#include "kernels/common/host_device.h"

namespace asyncgemm {

struct TileCoord {
    int32_t m, n;  // tile row and tile column
};

// The tile visited by linear block index `tile` (0 <= tile < tiles_m * tiles_n).  Tiles are walked in
// bands of `group` tile rows (the last band may be narrower); inside a band, down each column, then
// to the next column.  group is clamped to [1, tiles_m], so any value is safe; 1 is row by row.
ASYNCGEMM_HOST_DEVICE constexpr TileCoord grouped_tile(int32_t tile, int32_t tiles_m, int32_t tiles_n,
                                                       int32_t group) {
    const int32_t rows = group < 1 ? 1 : (group > tiles_m ? tiles_m : group);
    const int32_t band_tiles = rows * tiles_n;  // <= tiles_m * tiles_n, the grid size: no overflow
    const int32_t band = tile / band_tiles;
    const int32_t first_row = band * rows;
    const int32_t band_rows = tiles_m - first_row < rows ? tiles_m - first_row : rows;
    const int32_t in_band = tile - band * band_tiles;
    return {first_row + in_band % band_rows, in_band / band_rows};
}

// Persistent grids: a block walks work items blockIdx.x, + gridDim.x, ...; item i is tile i % tiles
// of batch i / tiles, with the tiles of a batch visited in grouped order, so the blocks running at
// once share rows of A and columns of B in L2.
struct WorkTile {
    int64_t batch;
    int32_t m, n;  // tile row and column
};

ASYNCGEMM_HOST_DEVICE constexpr WorkTile work_tile(int64_t item, int32_t tiles_m, int32_t tiles_n, int32_t group) {
    const int64_t tiles = static_cast<int64_t>(tiles_m) * tiles_n;
    const TileCoord t = grouped_tile(static_cast<int32_t>(item % tiles), tiles_m, tiles_n, group);
    return {item / tiles, t.m, t.n};
}

}  // namespace asyncgemm
