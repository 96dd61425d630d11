// The SIMT family's kernel table: csrc/kernels/simt/simt_kernels.def read as C++, so it lists exactly
// the kernels the build compiled, under the names their entry points carry.
#pragma once

#include <stdint.h>

#include <string_view>

#include "kernels/common/kernel_list.h"
#include "kernels/common/params.h"
#include "kernels/simt/simt_traits.h"

namespace asyncgemm::simt {

struct KernelInfo {
    const char *unit;       // the translation unit (and fatbin) that holds it
    const char *name;       // extern "C" symbol in that unit
    DType type_ab;          // A and B element type (C and D: any type, chosen at run time); the 8-bit
                            // kernels' kE4M3 stands for both formats, each operand's read at run time
    Majors majors;          // one pair
    bool mx;                // 8-bit inputs with MX scales (the other kernels of 8-bit inputs take the rest)
    int config;             // index into kTileConfigs
    uint32_t dynamic_smem;  // bytes of dynamic shared memory at launch
};

#define ASYNCGEMM_SIMT_KERNEL(TYPE, SCALES, MAJORS)                                                               \
    KernelInfo{"simt_" #TYPE "_" #SCALES, "asyncgemm_simt_gemm_" #TYPE "_" #SCALES "_" #MAJORS,                    \
               ASYNCGEMM_DTYPE_##TYPE, ASYNCGEMM_MAJORS_##MAJORS, std::string_view(#SCALES) == "mx", kConfig, \
               smem_bytes(kTileConfigs[kConfig])},
inline constexpr KernelInfo kKernels[] = {
#include "kernels/simt/simt_kernels.def"
};
#undef ASYNCGEMM_SIMT_KERNEL
inline constexpr int kKernelCount = static_cast<int>(sizeof(kKernels) / sizeof(kKernels[0]));

// Index into kKernels of the kernel for these inputs (mx: 8-bit ones with MX scales; an 8-bit type_ab
// of either format), -1 if there is none.
constexpr int kernel_index(int32_t type_ab, bool a_k_major, bool b_k_major, bool mx) {
    for (int i = 0; i < kKernelCount; ++i) {
        if (kKernels[i].type_ab == listed_dtype(type_ab) && kKernels[i].mx == mx &&
            serves_majors(kKernels[i].majors, a_k_major, b_k_major))
            return i;
    }
    return -1;
}

}  // namespace asyncgemm::simt
