// Element types: the C++ type of a kernel list's input type word (kernel_list.h), and the DType of
// an element type.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <type_traits>

#include "kernels/common/kernel_list.h"
#include "kernels/common/params.h"

// The element type A and B are stored in; tf32 multiplies f32 elements.
#define ASYNCGEMM_ELEMENT_f16 __half
#define ASYNCGEMM_ELEMENT_bf16 __nv_bfloat16
#define ASYNCGEMM_ELEMENT_tf32 float
#define ASYNCGEMM_ELEMENT_f32 float
#define ASYNCGEMM_ELEMENT_e4m3 __nv_fp8_e4m3
#define ASYNCGEMM_ELEMENT_e5m2 __nv_fp8_e5m2
#define ASYNCGEMM_ELEMENT_f8 ::asyncgemm::Fp8Bits

namespace asyncgemm {

// An 8-bit float of either OCP format, learnt at run time (GemmParams::type_ab, type_b), so one set of
// a family's kernels serves e4m3, e5m2 and one of each: SIMT converts every input element once, as it
// loads it (kernels/common/convert.cuh); SM90_TMA_WGMMA chooses wgmma's types per tile
// (kernels/sm90/mainloop.cuh).
struct Fp8Bits {
    uint8_t bits;
};

template <typename T>
constexpr DType kDTypeOf = kF32;
template <>
constexpr DType kDTypeOf<__half> = kF16;
template <>
constexpr DType kDTypeOf<__nv_bfloat16> = kBF16;
template <>
constexpr DType kDTypeOf<__nv_fp8_e4m3> = kE4M3;
template <>
constexpr DType kDTypeOf<__nv_fp8_e5m2> = kE5M2;
// Either 8-bit format: what the type's users read of it is its size (one byte), as kE4M3's.
template <>
constexpr DType kDTypeOf<Fp8Bits> = kE4M3;

// 8-bit float inputs: the tensor cores take them K-major only (wgmma's 8-bit kinds have no transpose).
template <typename T>
constexpr bool kIsFp8 =
    std::is_same_v<T, __nv_fp8_e4m3> || std::is_same_v<T, __nv_fp8_e5m2> || std::is_same_v<T, Fp8Bits>;
// Input types whose operands the Hopper family reads K-major only: tf32 and the 8-bit floats.
template <typename T>
constexpr bool kKMajorOnly = std::is_same_v<T, float> || kIsFp8<T>;

// Calls store(TOut{}) with D's element type for `type_cd` (a DType): one epilogue instantiation per
// output type, chosen at run time.
template <typename Store>
__device__ __forceinline__ void with_output_type(int32_t type_cd, const Store &store) {
    switch (type_cd) {
    case kF32: store(float{}); break;
    case kF16: store(__half{}); break;
    default: store(__nv_bfloat16{}); break;
    }
}

}  // namespace asyncgemm
