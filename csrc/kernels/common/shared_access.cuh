// Plain shared-memory accesses at 32-bit shared-window addresses (smem_addr): where a kernel walks a
// staging buffer by computed offsets, the 32-bit address keeps each offset one register, where a
// generic pointer would take two.
#pragma once

#include <stdint.h>

namespace asyncgemm {

// cvta.to.shared: the 32-bit shared-window address of a generic pointer into shared memory.
__device__ __forceinline__ uint32_t smem_addr(const void *ptr) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

// st.shared.b32 [address], bits
__device__ __forceinline__ void st_shared_b32(uint32_t address, uint32_t bits) {
    asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(address), "r"(bits) : "memory");
}

// ld.shared.v4.b32 {x, y, z, w}, [address] (16-byte aligned)
__device__ __forceinline__ uint4 ld_shared_v4(uint32_t address) {
    uint4 bits;
    asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(bits.x), "=r"(bits.y), "=r"(bits.z), "=r"(bits.w)
                 : "r"(address)
                 : "memory");
    return bits;
}

}  // namespace asyncgemm
