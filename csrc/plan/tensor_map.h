// Tensor maps for TMA, as every TMA kernel's planner encodes them: tiled, no interleave, L2 promotion
// of 256 bytes, and zeros for elements outside the tensor.
#pragma once

#include <cuda.h>
#include <stdint.h>

namespace asyncgemm::plan {

// Encodes into `out` the rank-`rank` tensor at `base` of DType `dtype`: extents `dims` (innermost
// first), byte strides of dimensions 1.. in `strides`, boxes of `box` elements with `swizzle`.
// Throws (CUDA_ERROR) when the driver refuses the description.
void encode_tensor_map(CUtensorMap &out, int32_t dtype, unsigned rank, const void *base, const cuuint64_t *dims,
                       const cuuint64_t *strides, const cuuint32_t *box, CUtensorMapSwizzle swizzle);

}  // namespace asyncgemm::plan
