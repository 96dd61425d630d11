// Element types of the public API on the host: sizes, round-to-nearest-even conversions (through
// cuda_fp16.h, cuda_bf16.h and cuda_fp8.h, the same rounding the device uses) and the NaN bit patterns that
// poison memory a call must not write or must not read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "asyncgemm.h"

namespace agtest {

inline constexpr asyncgemm_dtype_t kDtypes[] = {ASYNCGEMM_R_32F, ASYNCGEMM_R_16F, ASYNCGEMM_R_16BF};

size_t element_size(asyncgemm_dtype_t dtype);
const char *dtype_name(asyncgemm_dtype_t dtype);

// A quiet NaN with a payload no arithmetic produces, so a surviving pattern proves "never written".
uint32_t poison_bits(asyncgemm_dtype_t dtype);

// `count` elements of one dtype laid out exactly as on the device; starts fully poisoned.
class HostArray {
public:
    HostArray(asyncgemm_dtype_t dtype, size_t count);

    asyncgemm_dtype_t dtype() const { return dtype_; }
    size_t count() const { return count_; }
    size_t bytes() const { return bytes_.size(); }
    void *data() { return bytes_.data(); }
    const void *data() const { return bytes_.data(); }

    uint32_t bits(size_t i) const;              // the raw pattern, zero-extended
    void set_bits(size_t i, uint32_t bits);
    double value(size_t i) const;               // exact: every element type widens to double
    void set(size_t i, float value);            // rounded to the element type, nearest even

private:
    asyncgemm_dtype_t dtype_;
    size_t count_;
    size_t element_size_;
    std::vector<unsigned char> bytes_;
};

}  // namespace agtest
