// Device memory owned by a scope: cuMemAlloc in the context current on the calling thread, cuMemFree
// at the end.  For the library's own scratch (the autotuner's operands, the self-check's problems),
// never for anything a launch captured into a graph could still use.
#pragma once

#include <cuda.h>

#include <stdint.h>

#include "driver/driver.h"
#include "driver/errors.h"

namespace asyncgemm {

class DeviceBuffer {
public:
    DeviceBuffer(const DriverApi &api, int64_t bytes) : api_(api) {
        check(api.cuMemAlloc(&address_, static_cast<size_t>(bytes)), "cuMemAlloc");
    }
    ~DeviceBuffer() { api_.cuMemFree(address_); }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    CUdeviceptr address() const { return address_; }
    void *pointer() const { return reinterpret_cast<void *>(address_); }

private:
    const DriverApi &api_;
    CUdeviceptr address_ = 0;
};

}  // namespace asyncgemm
