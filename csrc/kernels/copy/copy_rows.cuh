// The row copy: AUTO's choice for an OP_N copy whose rows are only 2-byte aligned (16-bit rows of odd
// leading dimensions or offsets), which cp.async and TMA cannot move.  SYNC's staged tiles spend
// some 50 instructions on each 2-byte element there, from one 4-warp block an SM when the matrix is
// a few MB (997 x 1013 f16: 128 tiles, 13.9 us on an H100 under ncu).  This kernel needs no tile and
// no shared memory: a thread moves one 16-byte span of a dst row straight through registers, every
// element's load issued before its store, so the grid has a thread per span.
#pragma once

#include <stdint.h>

#include "kernels/copy/copy_tile.h"
#include "kernels/copy/vec.cuh"

namespace asyncgemm::copy {

// Elements [col, col + n) of row `row` (n = kRowSpanBytes / ElemBytes, fewer at the right edge):
// loaded as one vector where src holds them 16-byte aligned, else one at a time, scaled, and stored
// likewise.
template <int ElemBytes>
__device__ __forceinline__ void copy_row_span(const CopyParams &p, int64_t row, int64_t col) {
    using Span = Vec<ElemBytes, kRowSpanBytes>;
    using Elem = typename Span::Elem;
    const int count = static_cast<int>(min(static_cast<int64_t>(Span::kElems), p.cols - col));
    const Elem *src = static_cast<const Elem *>(p.src) + row * p.ld_src + col;
    Elem *dst = static_cast<Elem *>(p.dst) + row * p.ld_dst + col;
    const bool whole = count == Span::kElems;
    Span v{};
    if (whole && reinterpret_cast<uintptr_t>(src) % kRowSpanBytes == 0) {
        v = *reinterpret_cast<const Span *>(src);
    } else {
#pragma unroll
        for (int e = 0; e < Span::kElems; ++e)
            if (e < count) v.e[e] = src[e];
    }
    if (p.alpha != 1.0f) scale(v, p.alpha, p.dtype);
    if (whole && reinterpret_cast<uintptr_t>(dst) % kRowSpanBytes == 0) {
        *reinterpret_cast<Span *>(dst) = v;
    } else {
#pragma unroll
        for (int e = 0; e < Span::kElems; ++e)
            if (e < count) dst[e] = v.e[e];
    }
}

// Every span of dst, thread by thread along the rows (a warp's lanes take consecutive spans, so its
// accesses coalesce), the grid striding over what one launch does not cover.
template <int ElemBytes, bool Transpose>
__device__ __forceinline__ void copy2d_rows(const CopyParams &p) {
    static_assert(!Transpose, "the row copy moves rows as they are (OP_N)");
    constexpr int64_t kSpanElems = kRowSpanBytes / ElemBytes;
    const int64_t spans_per_row = (p.cols + kSpanElems - 1) / kSpanElems;
    const int64_t spans = p.rows * spans_per_row;
    const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < spans; i += step)
        copy_row_span<ElemBytes>(p, i / spans_per_row, i % spans_per_row * kSpanElems);
}

}  // namespace asyncgemm::copy
