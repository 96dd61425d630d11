// The vector width is a run-time parameter of each kernel and a compile-time constant of its body:
// one uniform branch at the top selects the body compiled for it, so the copy loops pay nothing and
// the family needs no kernel per width.
#pragma once

#include <cuda/std/type_traits>

#include "kernels/common/params.h"

namespace asyncgemm::copy {

template <int VecBytes>
using VecWidth = cuda::std::integral_constant<int, VecBytes>;

// Calls body(VecWidth<p.vec * ElemBytes>{}) for the widths from kMinVecBytes to 16 bytes that hold
// whole elements; the planner never passes another.  8-bit elements (the GEMM planner's transposing
// copies) stop at 8 bytes: a transpose block is v x v elements, and 16 x 16 bytes would leave half
// of a tile's threads without one.
template <int ElemBytes, int kMinVecBytes, class Body>
__device__ __forceinline__ void with_vector_width(const CopyParams &p, Body &&body) {
    switch (p.vec * ElemBytes) {
    case 16:
        if constexpr (ElemBytes > 1)
            body(VecWidth<16>{});
        else
            __trap();  // plan::transpose_bytes caps 8-bit copies at 8 bytes
        break;
    case 8: body(VecWidth<8>{}); break;
    case 4: body(VecWidth<4>{}); break;
    case 2:
        if constexpr (kMinVecBytes <= 2 && ElemBytes == 2) body(VecWidth<2>{});
        break;
    }
}

}  // namespace asyncgemm::copy
