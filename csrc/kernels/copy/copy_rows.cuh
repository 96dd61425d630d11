// The row copy: AUTO's choice for an OP_N copy whose rows are only 2-byte aligned (16-bit rows of odd
// leading dimensions or offsets), which cp.async and TMA cannot move.  SYNC's staged tiles spend
// some 50 instructions on each 2-byte element there, from one 4-warp block an SM when the matrix is
// a few MB (997 x 1013 f16: 128 tiles, 13.9 us on an H100 under ncu).  This kernel needs no tile and
// no shared memory: a warp moves a piece of kRowPieceElems consecutive elements of one row straight
// through registers, lane l the elements l, l + 32, ...  Each load and store of the warp is then one
// run of 32 consecutive elements (64 bytes of 16-bit rows, two or three sectors) whatever the rows'
// alignment, and a lane issues all its loads before its first store.
#pragma once

#include <stdint.h>

#include "kernels/copy/copy_tile.h"
#include "kernels/copy/vec.cuh"

namespace asyncgemm::copy {

// Elements [col, col + kRowPieceElems) of row `row`, those inside the matrix, lane by lane; scaled
// by alpha in fp32.
template <int ElemBytes>
__device__ __forceinline__ void copy_row_piece(const CopyParams &p, int64_t row, int64_t col, int lane) {
    using Lane = Vec<ElemBytes, kRowLaneElems * ElemBytes>;
    using Elem = typename Lane::Elem;
    const Elem *src = static_cast<const Elem *>(p.src) + row * p.ld_src + col + lane;
    Elem *dst = static_cast<Elem *>(p.dst) + row * p.ld_dst + col + lane;
    const int64_t inside = p.cols - col - lane;  // element e of the lane is in the row if 32 e < inside
    Lane v{};
#pragma unroll
    for (int e = 0; e < kRowLaneElems; ++e)
        if (32 * e < inside) v.e[e] = src[32 * e];
    if (p.alpha != 1.0f) scale(v, p.alpha, p.dtype);
#pragma unroll
    for (int e = 0; e < kRowLaneElems; ++e)
        if (32 * e < inside) dst[32 * e] = v.e[e];
}

// Every piece of dst, warp by warp along the rows, the grid striding over what one launch does not
// cover.
template <int ElemBytes, bool Transpose>
__device__ __forceinline__ void copy2d_rows(const CopyParams &p) {
    static_assert(!Transpose, "the row copy moves rows as they are (OP_N)");
    constexpr int kWarps = kThreads / 32;
    const int64_t pieces_per_row = row_pieces(p.cols);
    const int64_t pieces = p.rows * pieces_per_row;
    const int64_t step = static_cast<int64_t>(gridDim.x) * kWarps;
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * kWarps + threadIdx.x / 32; i < pieces; i += step)
        copy_row_piece<ElemBytes>(p, i / pieces_per_row, i % pieces_per_row * kRowPieceElems, threadIdx.x % 32);
}

}  // namespace asyncgemm::copy
