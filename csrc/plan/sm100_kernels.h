// The Blackwell family's kernel table: csrc/kernels/sm100/sm100_kernels.def read as C++, so it lists
// every kernel of the list, under the names their entry points carry (a build without its
// architecture leaves the family out: its kernels are then NotBuilt, runtime/handle.cpp).
#pragma once

#include <stdint.h>

#include "kernels/common/kernel_list.h"
#include "kernels/common/params.h"
#include "kernels/sm100/sm100_traits.h"

namespace asyncgemm::sm100 {

struct KernelInfo {
    const char *unit;       // the translation unit (and fatbin) that holds it
    const char *name;       // extern "C" symbol in that unit
    DType type_ab;          // f16, bf16, or f32 multiplied as tf32
    uint32_t dynamic_smem;  // bytes
};

#define ASYNCGEMM_SM100_KERNEL(TYPE, SHAPE) \
    KernelInfo{"sm100_" #TYPE, "asyncgemm_sm100_gemm_" #TYPE "_" #SHAPE, ASYNCGEMM_DTYPE_##TYPE, kSmemBytes},
inline constexpr KernelInfo kKernels[] = {
#include "kernels/sm100/sm100_kernels.def"
};
#undef ASYNCGEMM_SM100_KERNEL
inline constexpr int kKernelCount = static_cast<int>(sizeof(kKernels) / sizeof(kKernels[0]));

constexpr int kernel_index(int32_t type_ab) {
    for (int i = 0; i < kKernelCount; ++i)
        if (kKernels[i].type_ab == type_ab) return i;
    return -1;
}

}  // namespace asyncgemm::sm100
