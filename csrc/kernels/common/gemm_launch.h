// What every GEMM family's config header hands the planner, and the limits every launch obeys.
// Plain C++ (host and device).
#pragma once

#include <stdint.h>

namespace asyncgemm {

struct GemmLaunch {
    int kernel;             // index into the family's kKernels; -1: no kernel serves the problem
    uint32_t grid_x;        // grid = (grid_x, grid_y, grid_z)
    uint32_t grid_z;
    uint32_t block_x;       // block = (block_x, 1, 1)
    uint32_t dynamic_smem;  // bytes
    uint32_t grid_y = 1;    // split-K ranges (SIMT and the sm80 family)
};

inline constexpr int64_t kMaxGridX = 2147483647;         // 2^31 - 1 tiles
inline constexpr int64_t kMaxGridZ = 65535;              // larger batch counts loop inside the kernel
inline constexpr int64_t kMaxSlices = int64_t{1} << 30;  // kernels count K-slices in an int

// Tiles (or slices) of size b that cover a, for a >= 0 and b > 0.
constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Elements per global -> shared copy of an operand at byte address `address` with leading dimension
// `ld` and batch stride `batch_stride` (elements): the widest power of two up to max_vector whose
// vectors stay aligned in every row of every batch.
constexpr int32_t aligned_vector_width(uint64_t elem_bytes, int32_t max_vector, uint64_t address, int64_t ld,
                                       int64_t batch_stride) {
    int32_t vec = max_vector;
    while (vec > 1 && (address % (elem_bytes * static_cast<uint64_t>(vec)) != 0 || ld % vec != 0 ||
                       batch_stride % vec != 0)) {
        vec /= 2;
    }
    return vec;
}

}  // namespace asyncgemm
