// Filling a stage with one tile of src: through registers (SYNC) or with cp.async (ASYNC,
// PIPELINED).  A vector that crosses the matrix's edge brings its inside elements and zeros, so a
// stage never holds stale data.
#pragma once

#include "kernels/common/cp_async.cuh"
#include "kernels/copy/tile.cuh"
#include "kernels/copy/vec.cuh"

namespace asyncgemm::copy {

// SYNC: this thread's vectors, each loaded from global memory into registers and stored to the
// stage, kVecsInFlight<VecBytes> at a time: every load of a batch is issued before the first store.
// Written as two loops on purpose: src and the stage are both generic pointers, so the compiler may
// not move a load above a store before it, and load-store pairs ran one latency each (64 of them a
// thread for 16-bit vectors: 31 us for a 997 x 1013 f16 copy on an H100).
template <int ElemBytes, int VecBytes>
__device__ __forceinline__ void fill_stage_sync(const CopyParams &p, const TileRect &src, char *stage,
                                                SmemLayout layout) {
    using V = Vec<ElemBytes, VecBytes>;
    const RowSlice<VecBytes> slice(threadIdx.x);
    constexpr int kBatch = kVecsInFlight<VecBytes>;
    static_assert(RowSlice<VecBytes>::kCount % kBatch == 0, "whole batches");
    const Matrix<ElemBytes, const char> m = src_matrix<ElemBytes>(p);
    const char *column = m.origin(src) + slice.col_bytes;
    const int count = elems_inside<V::kElems>(src.cols, slice.col_bytes / ElemBytes);
    const auto fill = [&](auto edge) {
#pragma unroll 1
        for (int first = 0; first < RowSlice<VecBytes>::kCount; first += kBatch) {
            V v[kBatch];
#pragma unroll
            for (int j = 0; j < kBatch; ++j) {
                const int row = slice.row(first + j);
                v[j] = row < src.rows ? load_vec<V>(column + row * m.ld_bytes, count, edge) : V{};
            }
#pragma unroll
            for (int j = 0; j < kBatch; ++j)
                *reinterpret_cast<V *>(stage + layout.offset(slice.row(first + j), slice.col_bytes)) = v[j];
        }
    };
    if (src.ragged)
        fill(Ragged{});
    else
        fill(Whole{});
}

// ASYNC and PIPELINED: this thread's vectors of the tile as cp.async copies, not yet committed; rows
// below src's edge are zeros.  A tile crossing src's right edge (one tile column of a matrix) goes
// through registers instead, element by element at the edge: a cp.async of fewer source bytes than
// it copies is reported by compute-sanitizer as reading past the end of src.
template <int ElemBytes, int VecBytes>
__device__ __forceinline__ void fill_stage_async(const CopyParams &p, const TileRect &src, char *stage,
                                                 SmemLayout layout) {
    static_assert(VecBytes >= 4, "cp.async copies 4, 8 or 16 bytes");
    using V = Vec<ElemBytes, VecBytes>;
    if (src.ragged) {
        fill_stage_sync<ElemBytes, VecBytes>(p, src, stage, layout);
        return;
    }
    const RowSlice<VecBytes> slice(threadIdx.x);
    const Matrix<ElemBytes, const char> m = src_matrix<ElemBytes>(p);
    const char *column = m.origin(src) + slice.col_bytes;
#pragma unroll (kVecsInFlight<VecBytes>)
    for (int i = 0; i < slice.kCount; ++i) {
        const int row = slice.row(i);
        char *slot = stage + layout.offset(row, slice.col_bytes);
        if (row < src.rows)
            cp_async_or_zero<VecBytes>(smem_addr(slot), column + row * m.ld_bytes, false);
        else
            *reinterpret_cast<V *>(slot) = V{};
    }
}

}  // namespace asyncgemm::copy
