// The dequantizing tensor scales of 8-bit inputs (GemmParams::scale_a and scale_b, Sm90Params's):
// one fp32 each in global memory, folded into alpha by every family that multiplies such inputs or
// their widened copies.  A kernel reads them where it may read global memory (after a grid-dependency
// wait), since the kernel before it in the stream may have written them.
#pragma once

namespace asyncgemm {

// A scale, or 1 where the call gives none.
__device__ __forceinline__ float input_scale(const float *scale) { return scale != nullptr ? *scale : 1.f; }

// alpha times the scales of A and B.
__device__ __forceinline__ float scaled_alpha(float alpha, const float *scale_a, const float *scale_b) {
    return alpha * input_scale(scale_a) * input_scale(scale_b);
}

}  // namespace asyncgemm
