// The widening copy: 8-bit float matrices (e4m3, e5m2) into f16 ones, for the GEMM families that
// have no 8-bit kernels (plan/widened_inputs.h).  f16 holds every e4m3 and e5m2 value, NaN as NaN,
// so the copy is exact and the 16-bit product of the copies is the product of the 8-bit values.
// As the row copy (copy_rows.cuh): a warp moves a piece of kRowPieceElems consecutive elements of
// one row, lane l the elements l, l + 32, ..., all its loads before its first store, no shared memory.
#pragma once

#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <stdint.h>

#include "kernels/common/params.h"
#include "kernels/copy/copy_tile.h"

namespace asyncgemm::copy {

// Elements [col, col + kRowPieceElems) of row `row` of matrix `batch`, those inside the matrix.
__device__ __forceinline__ void widen_row_piece(const WidenParams &p, int64_t batch, int64_t row, int64_t col,
                                                int lane) {
    const auto *src = static_cast<const __nv_fp8_storage_t *>(p.src) + batch * p.stride_src + row * p.ld_src + col + lane;
    auto *dst = static_cast<__half_raw *>(p.dst) + batch * p.stride_dst + row * p.ld_dst + col + lane;
    const int64_t inside = p.cols - col - lane;  // element e of the lane is in the row if 32 e < inside
    const __nv_fp8_interpretation_t kind = p.dtype == kE4M3 ? __NV_E4M3 : __NV_E5M2;
    __nv_fp8_storage_t v[kRowLaneElems];
#pragma unroll
    for (int e = 0; e < kRowLaneElems; ++e)
        if (32 * e < inside) v[e] = src[32 * e];
#pragma unroll
    for (int e = 0; e < kRowLaneElems; ++e)
        if (32 * e < inside) dst[32 * e] = __nv_cvt_fp8_to_halfraw(v[e], kind);
}

// Every piece of every matrix, warp by warp along the rows, the grid striding over what one launch
// does not cover.
template <int ElemBytes, bool Transpose>
__device__ __forceinline__ void copy2d_widen(const WidenParams &p) {
    static_assert(ElemBytes == 1 && !Transpose, "the widening copy reads 8-bit rows as they are");
    constexpr int kWarps = kThreads / 32;
    const int64_t pieces_per_row = row_pieces(p.cols);
    const int64_t pieces_per_matrix = p.rows * pieces_per_row;
    const int64_t pieces = p.batch_count * pieces_per_matrix;
    const int64_t step = static_cast<int64_t>(gridDim.x) * kWarps;
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * kWarps + threadIdx.x / 32; i < pieces; i += step) {
        const int64_t in_matrix = i % pieces_per_matrix;
        widen_row_piece(p, i / pieces_per_matrix, in_matrix / pieces_per_row, in_matrix % pieces_per_row * kRowPieceElems,
                        threadIdx.x % 32);
    }
}

}  // namespace asyncgemm::copy
