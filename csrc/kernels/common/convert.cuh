// Conversions between the stored element types and the fp32 that kernels compute in, and an aligned
// vector of elements for wide global accesses.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "kernels/common/element_type.cuh"

namespace asyncgemm {

__device__ __forceinline__ float to_float(float x) { return x; }
// cvt.f32.f16 (exact)
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
// bf16 is the top half of an fp32: a shift (exact)
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
// cvt.rn.f16x2.{e4m3x2,e5m2x2} then cvt.f32.f16 (exact: f16 holds every 8-bit value)
__device__ __forceinline__ float to_float(__nv_fp8_e4m3 x) { return static_cast<float>(x); }
__device__ __forceinline__ float to_float(__nv_fp8_e5m2 x) { return static_cast<float>(x); }
// The same, the format given at run time (cuda_fp8.h's conversion: cvt.rn.f16x2 on sm_89 and later,
// bit arithmetic in code compiled for an older architecture, as SIMT's compute_80 units are).
__device__ __forceinline__ float to_float(Fp8Bits x, bool e5m2) {
    return __half2float(__half(__nv_cvt_fp8_to_halfraw(x.bits, e5m2 ? __NV_E5M2 : __NV_E4M3)));
}

template <typename T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ float from_float<float>(float x) { return x; }
// cvt.rn.f16.f32
template <>
__device__ __forceinline__ __half from_float<__half>(float x) { return __float2half_rn(x); }
// cvt.rn.bf16.f32
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

// N elements accessed as one N * sizeof(T)-byte load or store (LDG/STG.64 or .128); the address must
// be aligned to that size.
template <typename T, int N>
struct alignas(sizeof(T) * N) Vector {
    T v[N];
};

}  // namespace asyncgemm
