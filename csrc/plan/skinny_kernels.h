// The skinny family's kernel table: csrc/kernels/skinny/skinny_kernels.def read as C++, so it lists
// exactly the kernels the build compiled, under the names their entry points carry.
#pragma once

#include <stdint.h>

#include "kernels/common/kernel_list.h"
#include "kernels/common/params.h"

namespace asyncgemm::skinny {

struct KernelInfo {
    const char *unit;       // the translation unit (and fatbin) that holds it
    const char *name;       // extern "C" symbol in that unit
    DType type_ab;          // A and B element type (C and D: any type, chosen at run time)
    int smalls;             // rows of the small operand it computes (shape_for)
    bool l_k_major;         // the major of the large operand it reads
    uint32_t dynamic_smem;  // bytes of dynamic shared memory at launch: none
};

#define ASYNCGEMM_SKINNY_KERNEL(TYPE, SMALLS, L_MAJOR)                                                      \
    KernelInfo{"skinny_" #TYPE, "asyncgemm_skinny_gemm_" #TYPE "_" #SMALLS "_" #L_MAJOR, ASYNCGEMM_DTYPE_##TYPE, \
               SMALLS, ASYNCGEMM_K_MAJOR_##L_MAJOR, 0},
inline constexpr KernelInfo kKernels[] = {
#include "kernels/skinny/skinny_kernels.def"
};
#undef ASYNCGEMM_SKINNY_KERNEL
inline constexpr int kKernelCount = static_cast<int>(sizeof(kKernels) / sizeof(kKernels[0]));

// Index into kKernels of the kernel for these inputs, -1 if there is none.
constexpr int kernel_index(int32_t type_ab, int smalls, bool l_k_major) {
    for (int i = 0; i < kKernelCount; ++i)
        if (kKernels[i].type_ab == type_ab && kKernels[i].smalls == smalls && kKernels[i].l_k_major == l_k_major)
            return i;
    return -1;
}

}  // namespace asyncgemm::skinny
