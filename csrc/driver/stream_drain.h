// Waits for everything queued on a stream when a scope ends, however it ends: declared after the
// scope's scratch buffers (driver/device_buffer.h), it keeps them alive until the last kernel or copy
// that uses them has finished, even when an exception leaves the scope early.
#pragma once

#include <cuda.h>

#include "driver/driver.h"

namespace asyncgemm {

class StreamDrain {
public:
    StreamDrain(const DriverApi &api, CUstream stream) : api_(api), stream_(stream) {}
    // A failure here (a faulted kernel) has no one to report to; the scope's own synchronisation, or
    // the caller's next call, reports it.
    ~StreamDrain() { api_.cuStreamSynchronize(stream_); }
    StreamDrain(const StreamDrain &) = delete;
    StreamDrain &operator=(const StreamDrain &) = delete;

private:
    const DriverApi &api_;
    CUstream stream_;
};

}  // namespace asyncgemm
