// alpha != 1: the landed stage times alpha, in place, before it drains.  Drains never scale, so the
// common alpha == 1 copy (an exact bit copy) carries none of the conversion code or its registers;
// scaling costs one more pass over shared memory and a barrier, which the caller places.
#pragma once

#include "kernels/copy/tile.cuh"
#include "kernels/copy/vec.cuh"

namespace asyncgemm::copy {

// This thread's row slice of the stage.  Elements outside the matrix are zeros (or never stored).
template <int ElemBytes, int VecBytes>
__device__ __forceinline__ void scale_stage(const CopyParams &p, char *stage, SmemLayout layout) {
    using V = Vec<ElemBytes, VecBytes>;
    const RowSlice<VecBytes> slice(threadIdx.x);
#pragma unroll (kVecsInFlight<VecBytes>)
    for (int i = 0; i < slice.kCount; ++i) {
        V *slot = reinterpret_cast<V *>(stage + layout.offset(slice.row(i), slice.col_bytes));
        V v = *slot;
        scale(v, p.alpha, p.dtype);
        *slot = v;
    }
}

}  // namespace asyncgemm::copy
