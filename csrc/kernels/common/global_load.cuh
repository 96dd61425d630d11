// Loads of global memory that CUDA's intrinsics do not spell.
#pragma once

#include <stdint.h>

namespace asyncgemm {

// ld.global.nc.L1::no_allocate.L2::256B.v4.u32: 16 bytes of read-only data that is read once (a
// streamed operand), kept out of L1 where reused data lives, with L2 fetching the 256 bytes around it
// from DRAM at once.  The address must be 16-byte aligned.  Not volatile: the data does not change
// while the kernel runs, so the compiler may schedule the load freely.
__device__ __forceinline__ uint4 load_streamed_16b(const void *address) {
    uint4 v;
    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];\n"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(address));
    return v;
}

// prefetch.global.L2: brings the line holding `address` into L2 without waiting for it or holding a
// register, so that a load of it some time later finds it there.  The address must lie in a global
// allocation.
__device__ __forceinline__ void prefetch_l2(const void *address) {
    asm volatile("prefetch.global.L2 [%0];\n" : : "l"(address));
}

}  // namespace asyncgemm
