// Deterministic split-K, shared by the families that split (SIMT, sm80, sm90): the work items of one
// output tile's K ranges each store their fp32 partial and count themselves in the tile's counter;
// the one that brings the count to `splits` sums every range's partial in range order, so the sum's
// rounding (and hence D) is the same bits on every run, whichever range finishes last.
//
// The accumulators are those of a group of threads (a block, or a warpgroup): Vectors float4 per
// thread.  Each group stores them as they lie in registers, vector v of thread t of range s at
// float4 (s * Vectors + v) * Threads + t of the tile's area, so every store and load of a warp is 512
// contiguous bytes.  The handshake is a release/acquire pair led by one thread of each group: the
// group's barrier orders every thread's partial stores before the leader's fetch-add, whose acq_rel
// semantics at device scope make them visible to the last group's leader (release is cumulative),
// and that leader's barrier orders its group's loads after its acquire.  This replaces a fence.sc
// (__threadfence) in every thread, which waits for all the thread's memory operations and showed as
// 8% of the stall samples of a short split kernel on H100.
#pragma once

#include <stdint.h>

namespace asyncgemm {

// atom.acq_rel.gpu.global.add.s32: counts one arrival on `counter`; true where it was the last of
// `splits`.  (cuda::atomic_ref does the same, but <cuda/atomic> costs every translation unit that
// includes it about a second of compile time.)
__device__ __forceinline__ bool arrive_last_split(int32_t *counter, int splits) {
    int32_t before;
    asm volatile("atom.acq_rel.gpu.global.add.s32 %0, [%1], 1;\n" : "=r"(before) : "l"(counter) : "memory");
    return before == splits - 1;
}

// Stores the group's partial of range `split` of the tile whose partials start at `area` (counted in
// `counter`, zero between launches) and counts its arrival: true in every thread of the group that
// arrives last, which sets the counter back to zero for the next launch (no other range of the tile
// touches it again in this one), false in every thread of the others, which have nothing more to do
// for the tile.  `group` gives sync() (a barrier of the group) and agree(bool) (a barrier that hands
// the leader's, thread 0's, value to every thread of the group).
template <int Threads, int Vectors, typename Group>
__device__ __forceinline__ bool publish_split_partial(const float (&acc)[4 * Vectors], float4 *area, int32_t *counter,
                                                      int split, int splits, int thread, const Group &group) {
    float4 *const mine = area + split * Vectors * Threads + thread;
#pragma unroll
    for (int v = 0; v < Vectors; ++v)
        mine[v * Threads] = make_float4(acc[4 * v], acc[4 * v + 1], acc[4 * v + 2], acc[4 * v + 3]);
    group.sync();
    const bool last = group.agree(thread == 0 && arrive_last_split(counter, splits));
    if (last && thread == 0) *counter = 0;
    return last;
}

// publish_split_partial, and in the group that arrives last the sum of every range's partial, added
// in range order, in `acc`.  With two ranges acc stands for its own partial and only the other one
// is read: a + b is b + a in floating point, so the bits are the same whichever came last, for one
// round trip fewer.  LoadBatch float4 of each range are loaded at once (one round trip to L2 each).
template <int Threads, int Vectors, int LoadBatch, typename Group>
__device__ __forceinline__ bool reduce_split_k(float (&acc)[4 * Vectors], float4 *area, int32_t *counter, int split,
                                               int splits, int thread, const Group &group) {
    static_assert(Vectors % LoadBatch == 0, "whole batches");
    if (!publish_split_partial<Threads, Vectors>(acc, area, counter, split, splits, thread, group)) return false;

    const float4 *const partials = area + thread;
    const int kept = splits == 2 ? split : -1;
#pragma unroll
    for (int g = 0; g < Vectors; g += LoadBatch) {
        for (int s = 0; s < splits; ++s) {
            if (s == kept) continue;
            const bool first = s == 0 && kept < 0;
            float4 part[LoadBatch];
#pragma unroll
            for (int v = 0; v < LoadBatch; ++v) part[v] = __ldcg(partials + (s * Vectors + g + v) * Threads);
#pragma unroll
            for (int v = 0; v < LoadBatch; ++v) {
                float *a = &acc[4 * (g + v)];
                a[0] = first ? part[v].x : a[0] + part[v].x;
                a[1] = first ? part[v].y : a[1] + part[v].y;
                a[2] = first ? part[v].z : a[2] + part[v].z;
                a[3] = first ? part[v].w : a[3] + part[v].w;
            }
        }
    }
    return true;
}

// reduce_split_k's group when it is the whole block.
struct BlockGroup {
    __device__ __forceinline__ void sync() const { __syncthreads(); }
    __device__ __forceinline__ bool agree(bool leader_value) const { return __syncthreads_or(leader_value) != 0; }
};

}  // namespace asyncgemm
