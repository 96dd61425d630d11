// The block scales of 8-bit inputs (ASYNCGEMM_SCALE_BLOCK_1x128 and BLOCK_128x128; the header
// documents them for the caller): one fp32 per `rows` rows of an operand (1 or 128; of B, columns)
// and kScaleBlockK elements of K, stored K block by K block, each K block's scales in row (column)
// order: the scale of element x of K block kb lies at kb * ceil(extent / rows) + x / rows.  A batch's
// scales follow the batch before it, where the operand itself is batched (its stride non-zero).
//
// Plain C++17: the planner, the kernels that apply them and the host tests share these numbers.
#pragma once

#include <stdint.h>

#include "kernels/common/host_device.h"

namespace asyncgemm {

// Elements of K one block scale covers: an 8-bit K block of the tensor-core kernels (128 bytes).
inline constexpr int kScaleBlockK = 128;

// Scales per K block of an operand of `extent` rows (columns of B), one per `rows` of them.
ASYNCGEMM_HOST_DEVICE constexpr int64_t scale_blocks(int64_t extent, int32_t rows) { return (extent + rows - 1) / rows; }

// The scales of one problem of the batch.
ASYNCGEMM_HOST_DEVICE constexpr int64_t block_scale_count(int64_t extent, int64_t k, int32_t rows) {
    return (k + kScaleBlockK - 1) / kScaleBlockK * scale_blocks(extent, rows);
}

// The offset of the scale of row x (column of B) in K block kb, within one problem's scales.
ASYNCGEMM_HOST_DEVICE constexpr int64_t block_scale_offset(int64_t x, int64_t kb, int64_t extent, int32_t rows) {
    return kb * scale_blocks(extent, rows) + x / rows;
}

}  // namespace asyncgemm
