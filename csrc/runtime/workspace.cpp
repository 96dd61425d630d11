#include "runtime/workspace.h"

#include <cuda.h>

#include "driver/capture.h"
#include "driver/context_scope.h"
#include "driver/driver.h"
#include "driver/errors.h"

namespace asyncgemm {
namespace {

constexpr size_t kAlignment = 256;

constexpr size_t round_up(size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

// Bytes of the counter area for `count` counters.
constexpr size_t counter_bytes(size_t count) { return round_up(count * sizeof(int)); }

}  // namespace

Workspace::~Workspace() {
    // Nothing to report a failure to: the buffer goes with the context at worst.
    ContextScope scope(api_, context_);
    if (last_use_ != nullptr) {
        api_.cuEventSynchronize(last_use_);
        api_.cuEventDestroy(last_use_);
    }
    if (buffer_ != 0) api_.cuMemFree(buffer_);
}

bool Workspace::run(size_t counter_count, size_t partial_bytes, CUstream stream,
                    const std::function<void(Lease)> &enqueue) {
    ContextScope scope(api_, context_);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (lent_ != 0) {
        if (counter_count * sizeof(int) > kLentCounterBytes || partial_bytes > lent_bytes_ - kLentCounterBytes)
            return false;
        enqueue(Lease{reinterpret_cast<void *>(lent_), reinterpret_cast<void *>(lent_ + kLentCounterBytes)});
        return true;
    }
    if (!outside_capture(api_, stream)) return false;
    if (last_use_ == nullptr) check(api_.cuEventCreate(&last_use_, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    if ((counter_count > counter_capacity_ || partial_bytes > partial_capacity_) &&
        !grow(counter_count, partial_bytes, stream))
        return false;
    // Waiting on an event recorded on this same stream (or already complete) orders nothing new.
    check(api_.cuStreamWaitEvent(stream, last_use_, 0), "cuStreamWaitEvent");
    try {
        enqueue(Lease{reinterpret_cast<void *>(buffer_), reinterpret_cast<void *>(buffer_ + counter_bytes(counter_capacity_))});
    } catch (...) {
        // What enqueue queued before it failed still uses the buffer: the next user waits for it too.
        api_.cuEventRecord(last_use_, stream);
        throw;
    }
    check(api_.cuEventRecord(last_use_, stream), "cuEventRecord");
    return true;
}

void Workspace::lend(void *buffer, size_t bytes) {
    ContextScope scope(api_, context_);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (buffer != nullptr) {
        // Zeroed on a stream of its own, so that nothing else the caller has queued is waited for.
        CUstream stream = nullptr;
        check(api_.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
        const CUresult zeroed =
            api_.cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(buffer), 0, kLentCounterBytes / sizeof(int), stream);
        const CUresult done = zeroed == CUDA_SUCCESS ? api_.cuStreamSynchronize(stream) : zeroed;
        api_.cuStreamDestroy(stream);
        check(done, "cuMemsetD32Async");
    }
    lent_ = reinterpret_cast<CUdeviceptr>(buffer);
    lent_bytes_ = buffer != nullptr ? bytes : 0;
}

bool Workspace::grow(size_t counter_count, size_t partial_bytes, CUstream stream) {
    // At least double what is there, so a run of growing problems reallocates a few times only.
    const size_t counters = counter_count > 2 * counter_capacity_ ? counter_count : 2 * counter_capacity_;
    const size_t partials = round_up(partial_bytes > 2 * partial_capacity_ ? partial_bytes : 2 * partial_capacity_);
    // The old buffer may still be read by the last user's kernels.
    check(api_.cuEventSynchronize(last_use_), "cuEventSynchronize");
    if (buffer_ != 0) {
        check(api_.cuMemFree(buffer_), "cuMemFree");
        buffer_ = 0;
        counter_capacity_ = partial_capacity_ = 0;
    }
    CUdeviceptr buffer = 0;
    const CUresult allocated = api_.cuMemAlloc(&buffer, counter_bytes(counters) + partials);
    if (allocated == CUDA_ERROR_OUT_OF_MEMORY) return false;  // empty now: the next user grows it anew
    check(allocated, "cuMemAlloc");
    buffer_ = buffer;
    counter_capacity_ = counter_bytes(counters) / sizeof(int);
    partial_capacity_ = partials;
    check(api_.cuMemsetD32Async(buffer_, 0, counter_capacity_, stream), "cuMemsetD32Async");
    return true;
}

}  // namespace asyncgemm
