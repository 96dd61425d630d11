// Device memory that frees itself, and the host side of filling it and reading it back.  Every
// transfer is ordered on the benchmark's stream and has finished when the function returns.
#pragma once

#include <cstddef>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "asyncgemm.h"

namespace bench {

class DeviceBuffer {
public:
    explicit DeviceBuffer(std::size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;

    unsigned char *data() const { return data_; }
    std::size_t bytes() const { return bytes_; }

private:
    unsigned char *data_ = nullptr;
    std::size_t bytes_;
};

// Why needed bytes will not fit in the device memory free now, keeping room for cuBLAS's workspace
// and the library's own allocations ("needs 9.1 GiB of device memory, 7.5 GiB free"); none if they fit.
std::optional<std::string> memory_shortfall(std::size_t needed);

// count values drawn uniformly from [-1, 1): real work for the multipliers, never a page of zeros.
std::vector<float> random_uniform(std::size_t count, std::mt19937_64 &rng);

void copy_to_device(void *dst, const void *src, std::size_t bytes, cudaStream_t stream);
void copy_to_host(void *dst, const void *src, std::size_t bytes, cudaStream_t stream);

// Rounds values to dtype on the host (round to nearest even; cuda_fp8.h's conversions for the 8-bit
// types) and copies them to dst.
void upload(void *dst, const std::vector<float> &values, asyncgemm_dtype_t dtype, cudaStream_t stream);

// count elements of dtype at src, widened to double.
std::vector<double> download_as_double(const void *src, std::size_t count, asyncgemm_dtype_t dtype,
                                       cudaStream_t stream);

}  // namespace bench
