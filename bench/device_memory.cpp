#include "device_memory.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "check.h"

namespace bench {

namespace {

template <typename Element, typename Narrow>
void upload_as(void *dst, const std::vector<float> &values, Narrow narrow, cudaStream_t stream) {
    std::vector<Element> converted(values.size());
    std::transform(values.begin(), values.end(), converted.begin(), narrow);
    copy_to_device(dst, converted.data(), converted.size() * sizeof(Element), stream);
}

template <typename Element, typename Widen>
std::vector<double> download_as(const void *src, std::size_t count, Widen widen, cudaStream_t stream) {
    std::vector<Element> raw(count);
    copy_to_host(raw.data(), src, count * sizeof(Element), stream);
    std::vector<double> widened(count);
    std::transform(raw.begin(), raw.end(), widened.begin(), widen);
    return widened;
}

}  // namespace

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    check_cuda(cudaMalloc(reinterpret_cast<void **>(&data_), bytes),
               ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
}

DeviceBuffer::~DeviceBuffer() {
    cudaFree(data_);  // an error here has already been reported by the call that caused it
}

std::optional<std::string> memory_shortfall(std::size_t needed) {
    constexpr std::size_t kReserve = std::size_t(256) << 20;
    std::size_t free = 0, total = 0;
    check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    if (needed + kReserve <= free) return std::nullopt;
    char text[96];
    std::snprintf(text, sizeof text, "needs %.1f GiB of device memory, %.1f GiB free",
                  double(needed + kReserve) / double(1 << 30), double(free) / double(1 << 30));
    return std::string(text);
}

std::vector<float> random_uniform(std::size_t count, std::mt19937_64 &rng) {
    // Two values from each 64-bit draw, 24 bits apiece (all that a float holds): k * 2^-23 - 1 for k
    // uniform in [0, 2^24) is uniform on [-1, 1) and exact in float.  Several times faster than
    // std::uniform_real_distribution, which matters for the copy section's 2^28 values.
    auto value = [](uint64_t bits24) { return float(bits24) * 0x1p-23f - 1.0f; };
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; i += 2) {
        const uint64_t bits = rng();
        values[i] = value(bits >> 40);
        if (i + 1 < count) values[i + 1] = value((bits >> 16) & 0xFFFFFF);
    }
    return values;
}

void copy_to_device(void *dst, const void *src, std::size_t bytes, cudaStream_t stream) {
    check_cuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync to device");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize after an upload");
}

void copy_to_host(void *dst, const void *src, std::size_t bytes, cudaStream_t stream) {
    check_cuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync to host");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize after a download");
}

void upload(void *dst, const std::vector<float> &values, asyncgemm_dtype_t dtype, cudaStream_t stream) {
    switch (dtype) {
    case ASYNCGEMM_R_32F:
        copy_to_device(dst, values.data(), values.size() * sizeof(float), stream);
        return;
    case ASYNCGEMM_R_16F:
        upload_as<__half>(dst, values, [](float x) { return __float2half_rn(x); }, stream);
        return;
    case ASYNCGEMM_R_16BF:
        upload_as<__nv_bfloat16>(dst, values, [](float x) { return __float2bfloat16_rn(x); }, stream);
        return;
    case ASYNCGEMM_R_8F_E4M3:  // saturating to the finite range (no value of [-1, 1] comes near it)
        upload_as<__nv_fp8_e4m3>(dst, values, [](float x) { return __nv_fp8_e4m3(x); }, stream);
        return;
    case ASYNCGEMM_R_8F_E5M2:
        upload_as<__nv_fp8_e5m2>(dst, values, [](float x) { return __nv_fp8_e5m2(x); }, stream);
        return;
    }
    throw std::invalid_argument("upload: not an element type of the library");
}

std::vector<double> download_as_double(const void *src, std::size_t count, asyncgemm_dtype_t dtype,
                                       cudaStream_t stream) {
    switch (dtype) {
    case ASYNCGEMM_R_32F:
        return download_as<float>(src, count, [](float x) { return double(x); }, stream);
    case ASYNCGEMM_R_16F:
        return download_as<__half>(src, count, [](__half x) { return double(__half2float(x)); }, stream);
    case ASYNCGEMM_R_16BF:
        return download_as<__nv_bfloat16>(src, count,
                                          [](__nv_bfloat16 x) { return double(__bfloat162float(x)); }, stream);
    case ASYNCGEMM_R_8F_E4M3:
        return download_as<__nv_fp8_e4m3>(src, count, [](__nv_fp8_e4m3 x) { return double(float(x)); }, stream);
    case ASYNCGEMM_R_8F_E5M2:
        return download_as<__nv_fp8_e5m2>(src, count, [](__nv_fp8_e5m2 x) { return double(float(x)); }, stream);
    }
    throw std::invalid_argument("download_as_double: not an element type of the library");
}

}  // namespace bench
