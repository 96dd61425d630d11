// The split-K meeting point shared by the tensor-core families: the work items of one output tile's
// K ranges each store their fp32 partial, then count themselves in the tile's counter; the one that
// brings the count to `splits` is last and sums every partial.
//
// The pattern is a release/acquire handshake led by one thread of the storing group (a block or a
// warpgroup): the group's barrier orders every thread's partial stores before the leader's
// fetch-add, whose acq_rel semantics at device scope make them visible to the last item's leader
// (release is cumulative), and that leader's barrier orders its group's loads of the partials after
// its acquire.  This replaces a fence.sc (__threadfence) in every thread, which waits for all of the
// thread's outstanding memory operations and showed as 8% of the stall samples of a short split
// kernel on H100.
#pragma once

#include <cuda/atomic>
#include <stdint.h>

namespace asyncgemm {

// atom.acq_rel.gpu.add: counts one arrival; true where it was the last of `splits`.  Call in the
// group's leader, between a barrier of the group after its stores and one before its loads.
__device__ __forceinline__ bool arrive_last_split(int32_t *counter, int splits) {
    cuda::atomic_ref<int32_t, cuda::thread_scope_device> count(*counter);
    return count.fetch_add(1, cuda::memory_order_acq_rel) == splits - 1;
}

}  // namespace asyncgemm
