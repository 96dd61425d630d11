// Vectors of elements as the copy kernels move them: whole when aligned and inside the matrix,
// element by element at a ragged edge; scaled by alpha in fp32; transposed in registers.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "kernels/common/params.h"

namespace asyncgemm::copy {

// Elements travel as bits, so alpha == 1 copies every value exactly, NaN payloads included.
template <int ElemBytes>
struct ElemBits;
template <>
struct ElemBits<1> {
    using type = uint8_t;
};
template <>
struct ElemBits<2> {
    using type = uint16_t;
};
template <>
struct ElemBits<4> {
    using type = uint32_t;
};

template <int ElemBytes, int VecBytes>
struct alignas(VecBytes) Vec {
    using Elem = typename ElemBits<ElemBytes>::type;
    static constexpr int kElems = VecBytes / ElemBytes;
    Elem e[kElems];
};

// Edge is Whole or Ragged (tile.cuh): a Ragged access moves its first `count` elements (zeros after
// them on a load), in one vector access when count covers it.
template <class V, class Edge>
__device__ __forceinline__ V load_vec(const void *p, int count, Edge) {
    if constexpr (!Edge::value) {
        if (count < V::kElems) {
            V v{};
#pragma unroll
            for (int i = 0; i < V::kElems; ++i)
                if (i < count) v.e[i] = static_cast<const typename V::Elem *>(p)[i];
            return v;
        }
    }
    return *static_cast<const V *>(p);
}

template <class V, class Edge>
__device__ __forceinline__ void store_vec(void *p, const V &v, int count, Edge) {
    if constexpr (!Edge::value) {
        if (count < V::kElems) {
#pragma unroll
            for (int i = 0; i < V::kElems; ++i)
                if (i < count) static_cast<typename V::Elem *>(p)[i] = v.e[i];
            return;
        }
    }
    *static_cast<V *>(p) = v;
}

// v *= alpha: each element widened to fp32, multiplied, and rounded to nearest even in its own
// format.  The format is read once per vector, not per element.
template <class V, class ToFloat, class FromFloat>
__device__ __forceinline__ void scale_each(V &v, float alpha, ToFloat to_float, FromFloat from_float) {
#pragma unroll
    for (int i = 0; i < V::kElems; ++i) v.e[i] = from_float(alpha * to_float(v.e[i]));
}

template <class V>
__device__ __forceinline__ void scale(V &v, float alpha, int32_t dtype) {
    if constexpr (sizeof(typename V::Elem) == 4) {
        scale_each(v, alpha, [](uint32_t x) { return __uint_as_float(x); }, [](float f) { return __float_as_uint(f); });
    } else if (dtype == kF16) {
        scale_each(v, alpha, [](uint16_t x) { return __half2float(__ushort_as_half(x)); },
                   [](float f) { return __half_as_ushort(__float2half_rn(f)); });
    } else {
        scale_each(v, alpha, [](uint16_t x) { return __bfloat162float(__ushort_as_bfloat16(x)); },
                   [](float f) { return __bfloat16_as_ushort(__float2bfloat16_rn(f)); });
    }
}

// Column b of a square block of v x v elements held as v row vectors (v the elements of a vector):
// the block's transpose, one vector at a time.  16-bit elements pair up in 32-bit words, so a word of
// the column is one byte permute (prmt) of two rows' words; 32-bit and 8-bit ones move one by one.
template <class V>
__device__ __forceinline__ V block_column(const V (&rows)[V::kElems], int b) {
    V column;
    if constexpr (sizeof(typename V::Elem) != 2 || V::kElems == 1) {
#pragma unroll
        for (int a = 0; a < V::kElems; ++a) column.e[a] = rows[a].e[b];
    } else {
        auto word = [b](const V &v) { return reinterpret_cast<const uint32_t *>(v.e)[b / 2]; };
        const uint32_t halves = b % 2 ? 0x7632 : 0x5410;  // both high halves, or both low halves
#pragma unroll
        for (int w = 0; w < V::kElems / 2; ++w)
            reinterpret_cast<uint32_t *>(column.e)[w] = __byte_perm(word(rows[2 * w]), word(rows[2 * w + 1]), halves);
    }
    return column;
}

}  // namespace asyncgemm::copy
