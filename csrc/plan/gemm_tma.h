// The matrices of a canonical GEMM as TMA sees them: 3-D tensor maps {contiguous dimension, other
// dimension, batch} with the 128-byte swizzle, shared by the Hopper and Blackwell planners, and what
// keeps TMA from describing a matrix.
#pragma once

#include <cuda.h>
#include <stdint.h>

#include <algorithm>
#include <string>

#include "kernels/common/params.h"

namespace asyncgemm::plan {

// TMA coordinates are signed 32-bit.
inline constexpr int64_t kMaxTmaCoordinate = INT32_MAX;

// A 3-D tensor map as cuTensorMapEncodeTiled takes it: {contiguous dimension, other dimension,
// batch}, the byte strides of the last two, and the box TMA moves.
struct TensorMap3d {
    cuuint64_t dims[3];
    cuuint64_t strides[2];  // bytes
    cuuint32_t box[3];
};

// True when batches of the problem step through the matrix (batch_count > 1, stride not 0).
bool batched(const GemmParams &params, int64_t batch_stride);

// The persistent kernels number a launch's work items (tiles, or K ranges of tiles) in 32 bits
// (raster.h's PersistentOrder): a batched problem with more is launched in ranges of batches.
inline constexpr int64_t kMaxWorkItems = INT32_MAX;

// Batches first .. first + count - 1 of the problem as a problem of their own: each batched matrix's
// base moved to batch `first`.
GemmParams batch_range(const GemmParams &params, int64_t first, int64_t count);

// Where the problem has more than kMaxWorkItems work items (tiles_per_batch a batch), calls
// launch(range) for ranges of batches with fewer each, and returns true; else returns false.
template <typename Launch>
bool launch_in_batch_ranges(const GemmParams &params, int64_t tiles_per_batch, const Launch &launch) {
    if (tiles_per_batch * params.batch_count <= kMaxWorkItems) return false;
    const int64_t per_launch = kMaxWorkItems / tiles_per_batch;
    for (int64_t first = 0; first < params.batch_count; first += per_launch)
        launch(batch_range(params, first, std::min(per_launch, params.batch_count - first)));
    return true;
}

// An operand tile of one stage: `rows` rows (M of A, N of B) by one 128-byte row of K.  K-major:
// {k, rows} as one box {K per stage, rows}; MN-major: {rows, k} in boxes of one 128-byte row of
// M (or N) by K per stage, loaded side by side (kernels/common/tma_load.cuh).
TensorMap3d operand_a_map(const GemmParams &params, uint32_t rows);
TensorMap3d operand_b_map(const GemmParams &params, uint32_t rows);

// C or D ({n, m}, row-major in the canonical problem) in boxes of box_columns x box_rows.
TensorMap3d output_map(const GemmParams &params, int64_t ld, int64_t batch_stride, uint32_t box_columns,
                       uint32_t box_rows);

// Encodes `map` of the matrix at `base` (DType `dtype`) with the 128-byte swizzle.
void encode_swizzled(CUtensorMap &out, const TensorMap3d &map, const void *base, int32_t dtype);

// Why TMA cannot describe A, B, and C (when `with_c`) or D (when `with_d`): a base address not
// 16-byte aligned, a leading dimension or batch stride that is not a multiple of 16 bytes, an extent
// beyond TMA's 32-bit coordinates.  Empty when it can.
std::string tma_obstacle(const GemmParams &params, bool with_c, bool with_d);

}  // namespace asyncgemm::plan
