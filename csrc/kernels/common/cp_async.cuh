// cp.async (sm_80+): global -> shared copies that bypass registers, grouped and waited on per thread.
//
// cuda_pipeline.h offers these without a predicate; predicated tails need the ignore-src form (all
// zeros, the source not read at all, so it may point past the end of the matrix), so the copy is
// wrapped here.  There is deliberately no partial (run-time source size) copy: it costs address
// arithmetic on every copy, and compute-sanitizer reports it as reading the whole vector, so a
// vector that a row ends inside goes through registers instead.  Group commit and wait come from
// cuda_pipeline.h.
#pragma once

#include <cuda_pipeline.h>
#include <stdint.h>

#include "kernels/common/smem_address.cuh"

namespace asyncgemm {

// cp.async.{ca,cg}.shared.global [dst], [src], Bytes, ignore_src: Bytes from src, or Bytes of zeros
// when `zero`.  dst is a shared-window address (smem_addr), so a caller copying many elements
// converts its base once and offsets it by constants.  16-byte copies use .cg (L2 only); 4- and
// 8-byte copies must use .ca.
template <int Bytes>
__device__ __forceinline__ void cp_async_or_zero(uint32_t dst_shared, const void *src_global, bool zero) {
    static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
    if constexpr (Bytes == 16) {
        asm volatile(
            "{\n .reg .pred ignore;\n setp.ne.b32 ignore, %2, 0;\n"
            " cp.async.cg.shared.global [%0], [%1], 16, ignore;\n}\n" ::"r"(dst_shared),
            "l"(src_global), "r"(static_cast<uint32_t>(zero))
            : "memory");
    } else {
        asm volatile(
            "{\n .reg .pred ignore;\n setp.ne.b32 ignore, %3, 0;\n"
            " cp.async.ca.shared.global [%0], [%1], %2, ignore;\n}\n" ::"r"(dst_shared),
            "l"(src_global), "n"(Bytes), "r"(static_cast<uint32_t>(zero))
            : "memory");
    }
}

// cp.async.cg.shared.global [dst], [src], 16: the unpredicated 16-byte copy of whole tiles.
__device__ __forceinline__ void cp_async_16(uint32_t dst_shared, const void *src_global) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst_shared), "l"(src_global) : "memory");
}

// cp.async.commit_group: closes the group of copies this thread issued since the last commit.
__device__ __forceinline__ void cp_async_commit() { __pipeline_commit(); }

// cp.async.wait_group N: waits until at most N of this thread's committed groups are in flight.
// Only this thread's copies: a __syncthreads() must follow before other threads read the tile.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    static_assert(N >= 0 && N <= 7, "cp.async.wait_group takes 0..7 here");
    __pipeline_wait_prior(N);
}

}  // namespace asyncgemm
