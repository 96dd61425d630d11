// The Hopper family's kernel table: csrc/kernels/sm90/sm90_kernels.def read as C++, so it lists
// every kernel of the list, under the names their entry points carry (a build without its
// architecture leaves the family out: its kernels are then NotBuilt, runtime/handle.cpp).
#pragma once

#include <stdint.h>

#include "kernels/common/params.h"
#include "kernels/sm90/sm90_traits.h"
#include "plan/gemm_kernel_info.h"

namespace asyncgemm::sm90 {

using KernelInfo = plan::GemmKernelInfo;

#define ASYNCGEMM_SM90_KERNEL(...) ASYNCGEMM_GEMM_KERNEL_INFO(sm90, __VA_ARGS__)
inline constexpr KernelInfo kKernels[] = {
#include "kernels/sm90/sm90_kernels.def"
};
#undef ASYNCGEMM_SM90_KERNEL
inline constexpr int kKernelCount = static_cast<int>(sizeof(kKernels) / sizeof(kKernels[0]));

// Index into kKernels of the kernel for these inputs (an 8-bit type_ab of either format: the 8-bit
// kernels' kE4M3 stands for both, each operand's read at run time), configuration and majors, -1 if
// there is none.
constexpr int kernel_index(int32_t type_ab, int config, bool a_k_major, bool b_k_major) {
    return plan::find_kernel(kKernels, listed_dtype(type_ab), config, a_k_major, b_k_major);
}

}  // namespace asyncgemm::sm90
