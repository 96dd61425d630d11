// 32-bit shared-window addresses: where a kernel walks shared memory by computed offsets (cp.async
// destinations, mbarriers, matrix descriptors), the 32-bit address keeps each offset one register,
// where a generic pointer would take two.
#pragma once

#include <stdint.h>

namespace asyncgemm {

// cvta.to.shared: the 32-bit shared-window address of a generic pointer into shared memory.
__device__ __forceinline__ uint32_t smem_addr(const void *ptr) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

}  // namespace asyncgemm
