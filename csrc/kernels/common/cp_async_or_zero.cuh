// cp.async with the ignore-src predicate (sm_80+): copy a vector, or write zeros without reading the
// source at all.
//
// cp_async.cuh's cp_async_zfill takes a run-time source size, which ptxas must encode into the
// address on every copy; a K-tail that needs either the whole vector or zeros says so with one
// predicate instead, and the PTX ISA guarantees an ignored source is not read, so it may point
// past the end of the matrix.  Commit and wait are cp_async.cuh's.
#pragma once

#include <stdint.h>

#include "kernels/common/cp_async.cuh"

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

}  // namespace asyncgemm
