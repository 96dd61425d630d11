// The Hopper family's kernel table: csrc/kernels/sm90/sm90_kernels.def read as C++, so it lists
// exactly the kernels the build compiled, under the names their entry points carry.
#pragma once

#include <stdint.h>

#include "kernels/common/kernel_list.h"
#include "kernels/common/params.h"
#include "kernels/sm90/sm90_traits.h"

namespace asyncgemm::sm90 {

struct KernelInfo {
    const char *unit;           // the translation unit (and fatbin) that holds it
    const char *name;           // extern "C" symbol in that unit
    DType type_ab;              // f16, bf16, or f32 multiplied as tf32
    int config;                 // index into kTileConfigs
    bool a_k_major, b_k_major;  // the majors of A and B it reads
    uint32_t dynamic_smem;      // bytes
};

#define ASYNCGEMM_SM90_KERNEL(TYPE, SHAPE, CONFIG, A_MAJOR, B_MAJOR)                                        \
    KernelInfo{"sm90_" #TYPE "_" #SHAPE, "asyncgemm_sm90_gemm_" #TYPE "_" #SHAPE "_" #A_MAJOR #B_MAJOR,      \
               ASYNCGEMM_DTYPE_##TYPE, kConfig##CONFIG, ASYNCGEMM_K_MAJOR_##A_MAJOR, ASYNCGEMM_K_MAJOR_##B_MAJOR, \
               smem_bytes(kTileConfigs[kConfig##CONFIG])},
inline constexpr KernelInfo kKernels[] = {
#include "kernels/sm90/sm90_kernels.def"
};
#undef ASYNCGEMM_SM90_KERNEL
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

}  // namespace asyncgemm::sm90
