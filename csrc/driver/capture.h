// Whether work enqueued on a stream would be captured into a graph rather than run.
#pragma once

#include <cuda.h>

#include "driver/driver.h"

namespace asyncgemm {

// True when `stream` is not being captured.  A failed query (the legacy stream while another stream
// captures in global mode, say) counts as capturing: the caller then takes its capture-safe path.
inline bool outside_capture(const DriverApi &api, CUstream stream) {
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
    return api.cuStreamIsCapturing(stream, &status) == CUDA_SUCCESS && status == CU_STREAM_CAPTURE_STATUS_NONE;
}

}  // namespace asyncgemm
