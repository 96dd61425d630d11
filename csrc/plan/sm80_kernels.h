// The sm80 family's kernel table: csrc/kernels/sm80/sm80_kernels.def read as C++, so it lists exactly
// the kernels the build compiled, under the names their entry points carry.
#pragma once

#include <stdint.h>

#include "kernels/common/kernel_list.h"
#include "kernels/common/params.h"
#include "kernels/sm80/sm80_traits.h"

namespace asyncgemm::sm80 {

struct KernelInfo {
    const char *unit;           // the translation unit (and fatbin) that holds it
    const char *name;           // extern "C" symbol in that unit
    DType type_ab;              // A and B element type (C and D: any type, chosen at run time)
    int config;                 // index into kTileConfigs
    bool a_k_major, b_k_major;  // the majors of A and B it reads
    uint32_t dynamic_smem;      // bytes of dynamic shared memory at launch
};

#define ASYNCGEMM_SM80_KERNEL(TYPE, SHAPE, CONFIG, A_MAJOR, B_MAJOR)                                        \
    KernelInfo{"sm80_" #TYPE "_" #SHAPE, "asyncgemm_sm80_gemm_" #TYPE "_" #SHAPE "_" #A_MAJOR #B_MAJOR,      \
               ASYNCGEMM_DTYPE_##TYPE, kConfig##CONFIG, ASYNCGEMM_K_MAJOR_##A_MAJOR, ASYNCGEMM_K_MAJOR_##B_MAJOR, \
               smem_bytes(kTileConfigs[kConfig##CONFIG])},
inline constexpr KernelInfo kKernels[] = {
#include "kernels/sm80/sm80_kernels.def"
};
#undef ASYNCGEMM_SM80_KERNEL
inline constexpr int kKernelCount = static_cast<int>(sizeof(kKernels) / sizeof(kKernels[0]));

// Index into kKernels of the kernel for these inputs, configuration and majors, -1 if there is none.
constexpr int kernel_index(int32_t type_ab, int config, bool a_k_major, bool b_k_major) {
    for (int i = 0; i < kKernelCount; ++i) {
        const KernelInfo &k = kKernels[i];
        if (k.type_ab == type_ab && k.config == config && k.a_k_major == a_k_major && k.b_k_major == b_k_major)
            return i;
    }
    return -1;
}

}  // namespace asyncgemm::sm80
