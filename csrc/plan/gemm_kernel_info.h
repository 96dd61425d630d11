// What the planner knows of a kernel of a tensor-core family with tile configurations (sm80, sm90),
// one per input type, configuration and the operand majors it reads (one pair, or any): its entry in
// the table that the family's kernel list becomes (csrc/plan/<family>_kernels.h), and how one is
// found.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "kernels/common/kernel_list.h"
#include "kernels/common/params.h"

namespace asyncgemm::plan {

struct GemmKernelInfo {
    const char *unit;           // the translation unit (and fatbin) that holds it
    const char *name;           // extern "C" symbol in that unit
    DType type_ab;              // A and B element type (f32: multiplied as tf32); C and D: any, at run time
    int config;                 // index into the family's kTileConfigs
    Majors majors;              // the operand majors it reads
    uint32_t dynamic_smem;      // bytes of dynamic shared memory at launch
};

// The table entry of one line of a family's kernel list, (input type, shape, configuration, majors)
// as sm80_kernels.def and sm90_kernels.def write them, in the scope of the family's traits
// (kConfig<name>, kTileConfigs, smem_bytes): unit "<family>_<type>_<shape>", kernel
// "asyncgemm_<family>_gemm_<type>_<shape>_<majors>", as the family's kernel header pastes them.
#define ASYNCGEMM_GEMM_KERNEL_INFO(FAMILY, TYPE, SHAPE, CONFIG, MAJORS)                                         \
    ::asyncgemm::plan::GemmKernelInfo{#FAMILY "_" #TYPE "_" #SHAPE,                                             \
                                      "asyncgemm_" #FAMILY "_gemm_" #TYPE "_" #SHAPE "_" #MAJORS,                \
                                      ASYNCGEMM_DTYPE_##TYPE, kConfig##CONFIG, ASYNCGEMM_MAJORS_##MAJORS,       \
                                      smem_bytes(kTileConfigs[kConfig##CONFIG])},

// Index into `kernels` of the kernel that serves these inputs, configuration and majors, -1 if there
// is none.
template <size_t N>
constexpr int find_kernel(const GemmKernelInfo (&kernels)[N], int32_t type_ab, int config, bool a_k_major,
                          bool b_k_major) {
    for (size_t i = 0; i < N; ++i) {
        const GemmKernelInfo &k = kernels[i];
        if (k.type_ab == type_ab && k.config == config && serves_majors(k.majors, a_k_major, b_k_major))
            return static_cast<int>(i);
    }
    return -1;
}

}  // namespace asyncgemm::plan
