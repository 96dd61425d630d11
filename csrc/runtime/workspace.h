// Device scratch memory a handle lends to split-K launches: per-tile arrival counters, which must be
// zero whenever no launch is using them, and fp32 partial tiles (or any scratch: the operand copies
// of plan/sm90_copies.h use the partials area).
//
// One buffer per handle, grown on demand and never shrunk: [counters | partials], the counter area a
// fixed size between growths so that a launch's partials never land on counters another launch
// counts on.  The reducing block of each tile sets its counter back to zero, so after every launch
// the counters are zero again; a fresh buffer is zeroed on the stream before first use.
//
// Launches on different streams (or threads) take turns: each waits, on the GPU, for the previous
// user's event before its kernel, under a mutex that also orders the host side.  Nothing here runs
// while a stream is being captured: a graph would keep using memory the handle hands to later
// launches, so split-K is not used inside captures (the planner falls back to an unsplit launch).
//
// A caller may lend its own scratch instead (asyncgemm_set_workspace): then every launch uses it,
// inside captures too, with no events (the caller keeps calls that may run at once on separate
// handles, each with its own), the first kLentCounterBytes holding the counters, the rest the
// partials; a launch that needs more than it holds is refused (run returns false) and runs unsplit.
#pragma once

#include <stddef.h>

#include "asyncgemm.h"

#include <functional>
#include <mutex>

struct CUctx_st;
struct CUevent_st;
struct CUstream_st;

namespace asyncgemm {

struct DriverApi;

class Workspace {
public:
    Workspace(const DriverApi &api, CUctx_st *context) : api_(api), context_(context) {}
    // Waits for the last user's work, then frees the buffer (the context must still exist).
    ~Workspace();
    Workspace(const Workspace &) = delete;
    Workspace &operator=(const Workspace &) = delete;

    struct Lease {
        void *counters;  // `counter_count` zero int32s
        void *partials;  // `partial_bytes` bytes, 256-byte aligned
    };

    // Calls enqueue(lease) to put work on `stream` that uses the lease, after every earlier user's
    // work, and makes the next user wait for it.  Returns false without calling `enqueue` where no
    // buffer can hold the lease: a lent workspace too small, the stream being captured without one,
    // or device memory exhausted (callers then run without scratch: unsplit, or another family).
    // Throws CUDA_ERROR for any other driver failure, and what `enqueue` throws.
    bool run(size_t counter_count, size_t partial_bytes, CUstream_st *stream, const std::function<void(Lease)> &enqueue);

    // The counter area at the start of a lent workspace, and the least a lent workspace may be.
    static constexpr size_t kLentCounterBytes = 16384;
    static constexpr size_t kLentMinimumBytes = ASYNCGEMM_WORKSPACE_MIN_BYTES;
    static constexpr size_t kLentAlignment = 256;

    // Lends `bytes` of device memory at `buffer` (of this context, 256-byte aligned, at least
    // kLentMinimumBytes; the caller has checked) to every later launch, after zeroing its counter
    // area and waiting for that; null returns to the handle's own buffer.
    void lend(void *buffer, size_t bytes);

private:
    // False where the device has not the memory (the buffer is then empty).
    bool grow(size_t counter_count, size_t partial_bytes, CUstream_st *stream);

    const DriverApi &api_;
    CUctx_st *context_;
    std::mutex mutex_;
    unsigned long long buffer_ = 0;  // CUdeviceptr; 0 until first use
    size_t counter_capacity_ = 0;    // counters at the start of the buffer
    size_t partial_capacity_ = 0;    // bytes of partials after them
    CUevent_st *last_use_ = nullptr; // recorded after the last enqueue; null until then
    unsigned long long lent_ = 0;    // the caller's workspace (CUdeviceptr), 0 when none is lent
    size_t lent_bytes_ = 0;
};

}  // namespace asyncgemm
