// The skinny family's block shapes, shared by its kernels and the planner.  Plain C++ (host and
// device).
//
// A block of 8 warps owns a block of rows of L (row_warps warps of 16 rows side by side) for all the
// small rows of its kernel (Smalls: 8 or 16) and a range of K, which its k_warps warps of each row
// walk in turns of one chunk (chunk_k elements) each.  X, read once per block (from L2, then L1), is
// a quarter (8 small rows) or a half (16) of the bytes of L the block streams: blocks of 64 rows,
// which halve that, ran 3% slower for 16 small rows over the decode shapes on an H100 (fewer blocks,
// K cut in more ranges).
#pragma once

#include <stdint.h>

#include "kernels/common/host_device.h"

namespace asyncgemm::skinny {

inline constexpr int kWarps = 8;
inline constexpr int kThreads = kWarps * 32;
inline constexpr int kBlocksPerSm = 2;      // the launch bounds' occupancy, which the planner splits for
inline constexpr int kRowsPerWarp = 16;     // an mma.sync m16n8k16's rows
inline constexpr int kStepK = 32;           // elements of K per step: two m16n8k16 in one 16-byte load per row
inline constexpr int kMaxSmalls = 16;

struct Shape {
    int smalls;     // small rows the kernel computes (a multiple of 8: mma n8 tiles)
    int row_warps;  // warps side by side along the rows of L
    int k_warps;    // warps along K for each of them
    int steps;      // steps of a chunk, whose loads of L a warp issues at once (16 bytes of each of
                    // its rows per step in flight)
    bool strided;   // X may be read an element at a time (rows not 16-byte vectors): for 8 small
                    // rows, where those loads fit the registers beside four steps of L
};

// The shape of the kernel for `smalls` small rows (1..kMaxSmalls).
ASYNCGEMM_HOST_DEVICE constexpr Shape shape_for(int smalls) {
    return {smalls <= 8 ? 8 : 16, 2, 4, 4, smalls <= 8};
}
ASYNCGEMM_HOST_DEVICE constexpr int block_rows(const Shape &s) { return s.row_warps * kRowsPerWarp; }
// Elements of K a warp takes at a time.
ASYNCGEMM_HOST_DEVICE constexpr int chunk_k(const Shape &s) { return s.steps * kStepK; }

// The kernel's Smalls for `smalls` small rows (1..kMaxSmalls): 8 or 16.
constexpr int smalls_tile(int64_t smalls) { return shape_for(static_cast<int>(smalls)).smalls; }

}  // namespace asyncgemm::skinny
