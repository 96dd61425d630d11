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
inline constexpr int kMaxSmalls = 16;

// The most small rows the family takes with L of either major: 16 over a K-major L, 8 over an
// MN-major one (its 16-row kernel was slower than the SM90 family at 16 tokens on an H100: 0.94 against
// 0.96x cuBLAS over four decode shapes).
ASYNCGEMM_HOST_DEVICE constexpr int max_smalls(bool l_k_major) { return l_k_major ? kMaxSmalls : 8; }

// How a warp reads L, by L's major:
//  - K-major: 16 rows (an m16n8k16's), a step of 32 elements of K, one 16-byte load per row and step
//    holding two MMAs' A fragments;
//  - MN-major (L[k][r] contiguous along r): 64 rows, a step of 16 elements of K, four 16-byte loads
//    per lane and step (8 rows at 4 values of K) whose halves, paired by prmt, are four MMAs' A
//    fragments.
struct Shape {
    int smalls;         // small rows the kernel computes (a multiple of 8: mma n8 tiles)
    bool l_k_major;     // L's major
    int rows_per_warp;  // rows of L a warp multiplies
    int step_k;         // elements of K a step takes
    int row_warps;      // warps side by side along the rows of L
    int k_warps;        // warps along K for each of them
    int steps;          // steps of a chunk, whose loads of L a warp issues at once
    bool strided;       // X may be read an element at a time (rows not 16-byte vectors): for 8 small
                        // rows of a K-major L, where those loads fit the registers beside four steps
};

// The shape of the kernel for `smalls` small rows (1..max_smalls(l_k_major)) and L's major.
ASYNCGEMM_HOST_DEVICE constexpr Shape shape_for(int smalls, bool l_k_major) {
    const int tile = smalls <= 8 ? 8 : 16;
    return l_k_major ? Shape{tile, true, 16, 32, 2, 4, 4, smalls <= 8} : Shape{8, false, 64, 16, 1, 8, 2, false};
}
ASYNCGEMM_HOST_DEVICE constexpr int block_rows(const Shape &s) { return s.row_warps * s.rows_per_warp; }
// Elements of K a warp takes at a time.
ASYNCGEMM_HOST_DEVICE constexpr int chunk_k(const Shape &s) { return s.steps * s.step_k; }

// The kernel's Smalls for `smalls` small rows (1..kMaxSmalls): 8 or 16.
constexpr int smalls_tile(int64_t smalls) { return smalls <= 8 ? 8 : 16; }

}  // namespace asyncgemm::skinny
