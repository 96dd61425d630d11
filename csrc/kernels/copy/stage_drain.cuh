// Writing a stage that holds one tile out to dst (already scaled: see stage_scale.cuh).
#pragma once

#include "kernels/copy/tile.cuh"
#include "kernels/copy/vec.cuh"

namespace asyncgemm::copy {

// OP_N: the tile's rows as they are, in the same per-thread slices that filled the stage.
template <int ElemBytes, int VecBytes>
__device__ __forceinline__ void drain_rows(const CopyParams &p, const TileRect &dst, const char *stage,
                                           SmemLayout layout) {
    using V = Vec<ElemBytes, VecBytes>;
    const RowSlice<VecBytes> slice(threadIdx.x);
    const Matrix<ElemBytes, char> m = dst_matrix<ElemBytes>(p);
    char *column = m.origin(dst) + slice.col_bytes;
    const int count = elems_inside<V::kElems>(dst.cols, slice.col_bytes / ElemBytes);
    for_each_vector<slice.kCount, kVecsInFlight<VecBytes>>(dst.ragged, [&](int i, auto edge) {
        const int row = slice.row(i);
        if (row >= dst.rows || count == 0) return;
        const V v = *reinterpret_cast<const V *>(stage + layout.offset(row, slice.col_bytes));
        store_vec(column + row * m.ld_bytes, v, count, edge);
    });
}

// OP_T: each thread transposes square blocks of v x v elements (v per vector) in registers: v vectors
// from v consecutive stage rows (one group) in, v vectors along v dst rows out, so both memories only
// see whole vectors.  Block (group g, unit u) holds dst rows u*v.. and dst columns g*v...
//
// kLanesDown consecutive lanes take consecutive groups at one unit before the next lanes step to the
// next unit (transpose_block).  The staged kernels send all lanes down: dst rows get long coalesced
// runs; a PLAIN stage puts a whole phase in one bank, PADDED and SWIZZLED spread it.  The TMA kernel
// sends fewer (tma_lanes_down), to match the hardware swizzle.
template <int ElemBytes, int VecBytes, int kLanesDown>
__device__ __forceinline__ void drain_transposed(const CopyParams &p, const TileRect &dst, const char *stage,
                                                 SmemLayout layout) {
    using V = Vec<ElemBytes, VecBytes>;
    constexpr int v = V::kElems;
    constexpr int kUnits = kTileRowBytes / VecBytes;
    constexpr int kBlocks = staged_lanes_down(ElemBytes, VecBytes) * kUnits;
    static_assert(kBlocks % kThreads == 0, "every thread takes the same number of blocks");
    constexpr int kBlocksInFlight = kVecsInFlight<VecBytes> > v ? kVecsInFlight<VecBytes> / v : 1;
    const Matrix<ElemBytes, char> m = dst_matrix<ElemBytes>(p);
    char *origin = m.origin(dst);
    for_each_vector<kBlocks / kThreads, kBlocksInFlight>(dst.ragged, [&](int n, auto edge) {
        const auto [group, unit] = transpose_block(threadIdx.x + n * kThreads, kLanesDown, kUnits);
        const int count = elems_inside<v>(dst.cols, group * v);
        if (count == 0 || unit * v >= dst.rows) return;
        V in[v];
#pragma unroll
        for (int a = 0; a < v; ++a)
            in[a] = *reinterpret_cast<const V *>(stage + layout.offset(group * v + a, unit * VecBytes));
#pragma unroll
        for (int b = 0; b < v; ++b) {
            const int row = unit * v + b;
            if (row >= dst.rows) break;
            store_vec(origin + row * m.ld_bytes + group * VecBytes, block_column(in, b), count, edge);
        }
    });
}

template <int ElemBytes, int VecBytes, bool Transpose, int kLanesDown = staged_lanes_down(ElemBytes, VecBytes)>
__device__ __forceinline__ void drain_stage(const CopyParams &p, const TileRect &dst, const char *stage,
                                            SmemLayout layout) {
    if constexpr (Transpose)
        drain_transposed<ElemBytes, VecBytes, kLanesDown>(p, dst, stage, layout);
    else
        drain_rows<ElemBytes, VecBytes>(p, dst, stage, layout);
}

}  // namespace asyncgemm::copy
