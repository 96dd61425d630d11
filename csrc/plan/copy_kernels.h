// The copy family's kernel table: csrc/kernels/copy/copy_kernels.def read as C++, so it lists exactly
// the kernels the build compiled, under the names their entry points carry.
#pragma once

#include <stdint.h>

#include "asyncgemm.h"
#include "kernels/copy/copy_tile.h"

namespace asyncgemm::copy {

struct KernelInfo {
    const char *unit;            // the translation unit (and fatbin) that holds it
    const char *name;            // extern "C" symbol in that unit
    asyncgemm_copy_algo_t algo;  // SYNC, ASYNC, PIPELINED, TMA, kCopyRows or kCopyWiden (copy_tile.h)
    bool transpose;              // OP_T
    int elem_bytes;              // 2 (f16, bf16) or 4 (f32); 1: the GEMM planner's 8-bit copies
    uint32_t dynamic_smem;       // bytes of dynamic shared memory at launch
};

#define ASYNCGEMM_COPY_KERNEL(ALGO, OP, BITS)                                                              \
    KernelInfo{"copy_" #ALGO, "asyncgemm_copy2d_" #ALGO "_" #OP "_" #BITS, ASYNCGEMM_COPY_ALGO_##ALGO,     \
               ASYNCGEMM_COPY_TRANSPOSE_##OP, ASYNCGEMM_COPY_BYTES_##BITS, smem_bytes(ASYNCGEMM_COPY_ALGO_##ALGO)},
inline constexpr KernelInfo kKernels[] = {
#include "kernels/copy/copy_kernels.def"
};
#undef ASYNCGEMM_COPY_KERNEL
inline constexpr int kKernelCount = static_cast<int>(sizeof(kKernels) / sizeof(kKernels[0]));

// Index into kKernels of the kernel of an algorithm (not AUTO), op and element size; -1 if none.
constexpr int kernel_index(asyncgemm_copy_algo_t algo, bool transpose, int elem_bytes) {
    for (int i = 0; i < kKernelCount; ++i)
        if (kKernels[i].algo == algo && kKernels[i].transpose == transpose && kKernels[i].elem_bytes == elem_bytes)
            return i;
    return -1;
}

}  // namespace asyncgemm::copy
