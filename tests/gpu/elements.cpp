#include "elements.h"

#include <cstring>
#include <stdexcept>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

namespace agtest {

size_t element_size(asyncgemm_dtype_t dtype) {
    switch (dtype) {
    case ASYNCGEMM_R_32F: return 4;
    case ASYNCGEMM_R_16F:
    case ASYNCGEMM_R_16BF: return 2;
    case ASYNCGEMM_R_8F_E4M3:
    case ASYNCGEMM_R_8F_E5M2: return 1;
    }
    throw std::invalid_argument("element_size: not an element type");
}

const char *dtype_name(asyncgemm_dtype_t dtype) {
    switch (dtype) {
    case ASYNCGEMM_R_32F: return "f32";
    case ASYNCGEMM_R_16F: return "f16";
    case ASYNCGEMM_R_16BF: return "bf16";
    case ASYNCGEMM_R_8F_E4M3: return "e4m3";
    case ASYNCGEMM_R_8F_E5M2: return "e5m2";
    }
    return "dtype?";
}

uint32_t poison_bits(asyncgemm_dtype_t dtype) {
    switch (dtype) {
    case ASYNCGEMM_R_32F: return 0x7FC0DEADu;
    case ASYNCGEMM_R_16F: return 0x7EADu;
    case ASYNCGEMM_R_16BF: return 0x7FDAu;
    case ASYNCGEMM_R_8F_E4M3:
    case ASYNCGEMM_R_8F_E5M2: return 0x7Fu;  // NaN in both (e4m3's only NaN; e5m2's with payload 11)
    }
    throw std::invalid_argument("poison_bits: not an element type");
}

static float widen(asyncgemm_dtype_t dtype, uint32_t bits) {
    switch (dtype) {
    case ASYNCGEMM_R_32F: {
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
    }
    case ASYNCGEMM_R_16F: {
        __half_raw raw;
        raw.x = static_cast<unsigned short>(bits);
        return __half2float(__half(raw));
    }
    case ASYNCGEMM_R_16BF: {
        __nv_bfloat16_raw raw;
        raw.x = static_cast<unsigned short>(bits);
        return __bfloat162float(__nv_bfloat16(raw));
    }
    case ASYNCGEMM_R_8F_E4M3:
    case ASYNCGEMM_R_8F_E5M2: {
        const __nv_fp8_interpretation_t kind = dtype == ASYNCGEMM_R_8F_E4M3 ? __NV_E4M3 : __NV_E5M2;
        return __half2float(__half(__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(bits), kind)));
    }
    }
    throw std::invalid_argument("widen: not an element type");
}

static uint32_t narrow(asyncgemm_dtype_t dtype, float value) {
    switch (dtype) {
    case ASYNCGEMM_R_32F: {
        uint32_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        return bits;
    }
    case ASYNCGEMM_R_16F: return __half_raw(__float2half_rn(value)).x;
    case ASYNCGEMM_R_16BF: return __nv_bfloat16_raw(__float2bfloat16_rn(value)).x;
    // Nearest even, saturating to the largest finite value (as cuBLASLt's and PyTorch's casts do).
    case ASYNCGEMM_R_8F_E4M3: return __nv_cvt_float_to_fp8(value, __NV_SATFINITE, __NV_E4M3);
    case ASYNCGEMM_R_8F_E5M2: return __nv_cvt_float_to_fp8(value, __NV_SATFINITE, __NV_E5M2);
    }
    throw std::invalid_argument("narrow: not an element type");
}

HostArray::HostArray(asyncgemm_dtype_t dtype, size_t count)
    : dtype_(dtype), count_(count), element_size_(element_size(dtype)), bytes_(count * element_size_) {
    const uint32_t poison = poison_bits(dtype);
    for (size_t i = 0; i < count; ++i) set_bits(i, poison);
}

uint32_t HostArray::bits(size_t i) const {
    uint32_t bits = 0;
    std::memcpy(&bits, &bytes_[i * element_size_], element_size_);  // little-endian host
    return bits;
}

void HostArray::set_bits(size_t i, uint32_t bits) {
    std::memcpy(&bytes_[i * element_size_], &bits, element_size_);
}

double HostArray::value(size_t i) const { return widen(dtype_, bits(i)); }

void HostArray::set(size_t i, float value) { set_bits(i, narrow(dtype_, value)); }

}  // namespace agtest
