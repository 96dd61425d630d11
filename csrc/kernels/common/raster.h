// Grouped rasterization: the order in which a grid's blocks visit the output tiles.
//
// Blocks run roughly in blockIdx order.  Walking the tiles row by row makes every concurrently
// running block read a different tile of B; walking `group` tile rows down one tile column at a time
// instead makes the blocks in flight share `group` tiles of A and a few tiles of B, which then stay
// in L2.  Plain C++ so host-side tests and planning can check the map.
#pragma once

#include <stdint.h>

#include "kernels/common/fast_divmod.h"
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

// Persistent grids: a block walks work items blockIdx.x, + gridDim.x, ...  Item i is K range
// i % splits of tile group i / splits (splits == 1 where K is not split), and tile group g is tile
// g % tiles of batch g / tiles, the tiles of a batch visited in grouped order, so the blocks running
// at once share rows of A and columns of B in L2.
struct WorkTile {
    int64_t batch;
    int32_t m, n;  // tile row and column
};

struct WorkPlace {
    int64_t group;  // i / splits: the tile's index over all batches
    int32_t split;  // i % splits: the K range
    WorkTile tile;
};

// That map with its divisions by launch constants turned into multiplies (fast_divmod.h): a
// persistent kernel evaluates it between two tiles, while its tensor cores wait.  The host builds it
// (persistent_order below); place() gives what grouped_tile and plain division would.
struct PersistentOrder {
    FastDivmod splits;          // K ranges per tile
    FastDivmod tiles;           // tiles per batch: tiles_m * tiles_n
    FastDivmod band_tiles;      // tiles per band of `rows` tile rows
    FastDivmod rows;            // tile rows of every band but the last
    FastDivmod last_rows;       // tile rows of the last band (fewer where rows does not divide tiles_m)
    int32_t last_band;

    // item < 2^31: the planners launch no more work items (plan/gemm_tma.h, kMaxWorkItems), so no
    // 64-bit division, whose subroutine's call frame alone costs a 128-accumulator kernel local memory.
    ASYNCGEMM_HOST_DEVICE constexpr WorkPlace place(uint32_t item) const {
        const uint32_t group = splits.quotient(item);
        const auto split = static_cast<int32_t>(item - group * splits.divisor);
        const uint32_t batch = tiles.quotient(group);
        const uint32_t tile = group - batch * tiles.divisor;
        const uint32_t band = band_tiles.quotient(tile);
        const uint32_t in_band = tile - band * band_tiles.divisor;
        const FastDivmod band_rows = static_cast<int32_t>(band) < last_band ? rows : last_rows;
        const uint32_t n = band_rows.quotient(in_band);
        const uint32_t m = band * rows.divisor + (in_band - n * band_rows.divisor);
        return {group, split, {batch, static_cast<int32_t>(m), static_cast<int32_t>(n)}};
    }
};

// tiles_m * tiles_n < 2^31 (the planners refuse more), splits >= 1; group is clamped as in
// grouped_tile.
constexpr PersistentOrder persistent_order(int32_t tiles_m, int32_t tiles_n, int32_t group, int32_t splits) {
    const int32_t rows = group < 1 ? 1 : (group > tiles_m ? tiles_m : group);
    const int32_t bands = (tiles_m + rows - 1) / rows;
    return {fast_divmod(static_cast<uint32_t>(splits)),
            fast_divmod(static_cast<uint32_t>(tiles_m) * static_cast<uint32_t>(tiles_n)),
            fast_divmod(static_cast<uint32_t>(rows) * static_cast<uint32_t>(tiles_n)),
            fast_divmod(static_cast<uint32_t>(rows)),
            fast_divmod(static_cast<uint32_t>(tiles_m - (bands - 1) * rows)),
            bands - 1};
}

}  // namespace asyncgemm
