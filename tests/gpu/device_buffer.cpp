#include "device_buffer.h"

#include <stdexcept>
#include <utility>

namespace agtest {

void cuda_check(cudaError_t result, const char *what) {
    if (result != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(result));
}

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
    void *data = nullptr;
    cuda_check(cudaMalloc(&data, bytes), "cudaMalloc");
    data_ = static_cast<unsigned char *>(data);
}

DeviceBuffer::~DeviceBuffer() {
    if (data_) cudaFree(data_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
    return *this;
}

void DeviceBuffer::upload(const void *host, cudaStream_t stream) {
    cuda_check(cudaMemcpyAsync(data_, host, bytes_, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync to device");
    cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize after upload");
}

void DeviceBuffer::download(void *host, cudaStream_t stream) const {
    cuda_check(cudaMemcpyAsync(host, data_, bytes_, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync to host");
    cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize after download");
}

Stream::Stream() { cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate"); }

Stream::~Stream() { cudaStreamDestroy(stream_); }

}  // namespace agtest
