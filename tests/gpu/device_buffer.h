// Device memory for the tests, through the CUDA runtime: RAII allocation and whole-buffer transfers
// ordered on the caller's stream (and waited for, so the host copy is ready or free to reuse).
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

namespace agtest {

// Throws std::runtime_error("<what>: <cudaError name>") unless `result` is cudaSuccess.
void cuda_check(cudaError_t result, const char *what);

class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer &&other) noexcept;
    DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;

    unsigned char *get() const { return data_; }
    size_t bytes() const { return bytes_; }

    void upload(const void *host, cudaStream_t stream);
    void download(void *host, cudaStream_t stream) const;

private:
    unsigned char *data_ = nullptr;
    size_t bytes_ = 0;
};

// A non-blocking stream (so it never synchronises with the legacy stream), destroyed with its owner.
class Stream {
public:
    Stream();
    ~Stream();
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;
    cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

}  // namespace agtest
