// Tensor maps for TMA, as every TMA kernel's planner encodes them: tiled, no interleave, the L2
// promotion of l2_promotion, and zeros for elements outside the tensor.
#pragma once

#include <cuda.h>
#include <stdint.h>

namespace asyncgemm::plan {

// L2 promotion of 256 bytes where every row of the tensor starts on a 128-byte line (base and byte
// strides multiples of 128), else of 128 bytes.  Off the lines each 128-byte row of a box straddles
// two lines, and 256-byte promotion of both made the Hopper GEMM up to 1.4x slower (an H200:
// 1000 x 1000 x 1000 bf16, rows of 2000 bytes, 11.4 us against 10.1 with 128-byte promotion and 7.3
// with rows of 2048 bytes; 4096^3 with rows of 8208 bytes 283 us against 242), while on the lines
// 256 bytes streams large operands faster (m = 128 prefill rows up to 5% faster than with 128).
// asyncgemm_copy2d's TMA maps follow the same rule, not timed apart.
CUtensorMapL2promotion l2_promotion(const void *base, unsigned rank, const cuuint64_t *strides);

// Encodes into `out` the rank-`rank` tensor at `base` of DType `dtype`: extents `dims` (innermost
// first), byte strides of dimensions 1.. in `strides`, boxes of `box` elements with `swizzle`.
// Throws (CUDA_ERROR) when the driver refuses the description.
void encode_tensor_map(CUtensorMap &out, int32_t dtype, unsigned rank, const void *base, const cuuint64_t *dims,
                       const cuuint64_t *strides, const cuuint32_t *box, CUtensorMapSwizzle swizzle);

}  // namespace asyncgemm::plan
