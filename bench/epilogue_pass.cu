#include "epilogue_pass.h"

#include <algorithm>
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace bench {

namespace {

// The pass reads and writes D once, so it is bound by memory: 16-byte accesses, and enough blocks to
// keep every SM's loads in flight (a block per row, rows grid-strided past this many blocks).
constexpr int kVectorBytes = 16;
constexpr int kMaxThreads = 256;
constexpr int64_t kMaxBlocks = 65535;

__device__ float widen(float x) { return x; }
__device__ float widen(__half x) { return __half2float(x); }
__device__ float widen(__nv_bfloat16 x) { return __bfloat162float(x); }

template <typename T>
__device__ T narrow(float x);
template <>
__device__ float narrow<float>(float x) { return x; }
template <>
__device__ __half narrow<__half>(float x) { return __float2half_rn(x); }
template <>
__device__ __nv_bfloat16 narrow<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

// The activations as asyncgemm.h defines them.
__device__ float activate(float x, asyncgemm_activation_t activation) {
    switch (activation) {
    case ASYNCGEMM_ACT_RELU: return fmaxf(x, 0.0f);
    case ASYNCGEMM_ACT_GELU_TANH: return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
    case ASYNCGEMM_ACT_GELU_ERF: return 0.5f * x * (1.0f + erff(x * 0.7071067812f));
    case ASYNCGEMM_ACT_SILU: return x / (1.0f + expf(-x));
    case ASYNCGEMM_ACT_NONE: break;
    }
    return x;
}

template <typename T, int Width>
struct alignas(sizeof(T) * Width) Pack {
    T v[Width];
};

// A block per row at a time, each thread Width consecutive elements of it per step.
template <typename T, typename Bias, int Width>
__global__ void epilogue_pass_kernel(T *d, int64_t m, int64_t n, int64_t ldd, int64_t stride_d, int64_t rows,
                                     const Bias *bias, asyncgemm_bias_t bias_mode,
                                     asyncgemm_activation_t activation) {
    for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
        const int64_t batch = row / m, i = row - batch * m;
        T *line = d + batch * stride_d + i * ldd;
        const float row_bias = bias_mode == ASYNCGEMM_BIAS_PER_ROW ? widen(bias[i]) : 0.0f;
        for (int64_t j = int64_t(threadIdx.x) * Width; j < n; j += int64_t(blockDim.x) * Width) {
            Pack<T, Width> pack = *reinterpret_cast<const Pack<T, Width> *>(line + j);
#pragma unroll
            for (int e = 0; e < Width; ++e) {
                const float b = bias_mode == ASYNCGEMM_BIAS_PER_COL ? widen(bias[j + e]) : row_bias;
                pack.v[e] = narrow<T>(activate(widen(pack.v[e]) + b, activation));
            }
            *reinterpret_cast<Pack<T, Width> *>(line + j) = pack;
        }
    }
}

template <typename T, typename Bias>
cudaError_t launch_typed(const EpiloguePass &p, cudaStream_t stream) {
    constexpr int kWidth = kVectorBytes / int(sizeof(T));
    // 16-byte accesses where every row starts on 16 bytes and holds whole vectors; else one element.
    const bool vectors = p.n % kWidth == 0 && p.ldd % kWidth == 0 && (p.batch == 1 || p.stride_d % kWidth == 0) &&
                         reinterpret_cast<uintptr_t>(p.d) % kVectorBytes == 0;
    const int64_t width = vectors ? kWidth : 1;
    const int64_t steps = (p.n + width - 1) / width;
    const int threads = int(std::min<int64_t>(kMaxThreads, (steps + 31) / 32 * 32));
    const int64_t rows = p.m * p.batch;
    const unsigned blocks = unsigned(std::min(rows, kMaxBlocks));
    T *d = static_cast<T *>(p.d);
    const Bias *bias = static_cast<const Bias *>(p.bias);
    if (vectors)
        epilogue_pass_kernel<T, Bias, kWidth><<<blocks, threads, 0, stream>>>(d, p.m, p.n, p.ldd, p.stride_d, rows,
                                                                               bias, p.bias_mode, p.activation);
    else
        epilogue_pass_kernel<T, Bias, 1><<<blocks, threads, 0, stream>>>(d, p.m, p.n, p.ldd, p.stride_d, rows, bias,
                                                                          p.bias_mode, p.activation);
    return cudaGetLastError();
}

// The bias of D's type, or f32 (also the type of no bias at all).
template <typename T>
cudaError_t launch_for(const EpiloguePass &p, cudaStream_t stream) {
    return p.bias_mode != ASYNCGEMM_BIAS_NONE && p.type_bias == ASYNCGEMM_R_32F ? launch_typed<T, float>(p, stream)
                                                                                : launch_typed<T, T>(p, stream);
}

}  // namespace

EpiloguePass epilogue_pass(const GemmWorkload &w, void *d, const void *bias) {
    return {d, w.out, w.m, w.n, w.ldd(), w.d_stride(), w.batch, w.bias, bias, w.bias_type(), w.activation};
}

cudaError_t launch_epilogue_pass(const EpiloguePass &p, cudaStream_t stream) {
    if (p.m * p.n * p.batch == 0) return cudaSuccess;
    switch (p.type_d) {
    case ASYNCGEMM_R_32F: return launch_for<float>(p, stream);
    case ASYNCGEMM_R_16F: return launch_for<__half>(p, stream);
    case ASYNCGEMM_R_16BF: return launch_for<__nv_bfloat16>(p, stream);
    case ASYNCGEMM_R_8F_E4M3:
    case ASYNCGEMM_R_8F_E5M2: break;  // D is never 8-bit
    }
    return cudaErrorInvalidValue;
}

}  // namespace bench
